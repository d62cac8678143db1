//go:build !windows

package db

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on path, waiting for it, and
// returns the function that releases it.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// ErrLocked is returned by TryLock when another process holds the lock.
var ErrLocked = syscall.EWOULDBLOCK

// TryLock takes an exclusive advisory lock on path without waiting; it
// fails with ErrLocked while another process holds it. The lock lasts until
// the returned function is called or the process exits.
func TryLock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
