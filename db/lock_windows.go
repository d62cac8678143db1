//go:build windows

package db

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes an exclusive lock on path, waiting for it, and returns the
// function that releases it.
func lockFile(path string) (func(), error) { return lock(path, 0) }

// ErrLocked is returned by TryLock when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// TryLock takes an exclusive lock on path without waiting; it fails with
// ErrLocked while another process holds it.
func TryLock(path string) (func(), error) {
	unlock, err := lock(path, windows.LOCKFILE_FAIL_IMMEDIATELY)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return nil, ErrLocked
	}
	return unlock, err
}

func lock(path string, flags uint32) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	ol := new(windows.Overlapped)
	if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|flags, 0, 1, 0, ol); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
