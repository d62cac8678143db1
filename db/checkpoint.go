package db

import (
	"context"
	"database/sql"
	"os"
	"sync"
)

// The write-ahead log grows with every commit until a checkpoint copies
// its pages into the database file and the log starts over. SQLite's own
// checkpoints run inside the commit that crosses 1000 pages, on the
// writer's connection, so that commit waits for them; and they can never
// start the log over while a reader is reading from it, which under a
// steady stream of readers is always, so the log grows without end.
//
// So the writer does no checkpoints of its own (wal_autocheckpoint 0), and
// the checkpointer, on a connection of its own, runs them after commits:
// a PASSIVE one, which blocks no one, once the log passes walPassiveAt;
// and past walLimit a TRUNCATE one, which holds off writes while the last
// pages are copied and the readers still on the log finish (new readers
// then read the database file), and empties the log. Its busy timeout is
// short, so writes never wait long for it: a TRUNCATE that cannot finish
// in time gives up and is tried again after the next commit.
const (
	walPassiveAt = 1 << 20 // bytes
	walLimit     = 16 << 20
	// checkpointWait is the checkpointer's busy timeout, in milliseconds.
	checkpointWait = 50
)

// checkpointer runs the checkpoints of one journal.
type checkpointer struct {
	pool     *sql.DB // one connection, its own
	wal      string  // the log's path
	kick     chan struct{}
	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

func newCheckpointer(pool *sql.DB, wal string) *checkpointer {
	c := &checkpointer{pool: pool, wal: wal, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// committed tells the checkpointer that the log grew; it never waits.
func (c *checkpointer) committed() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.kick:
		case <-c.stop:
			return
		}
		fi, err := os.Stat(c.wal)
		if err != nil || fi.Size() < walPassiveAt {
			continue
		}
		mode := "PASSIVE"
		if fi.Size() >= walLimit {
			mode = "TRUNCATE"
		}
		// A failure (busy: readers or a writer held on) is left for the
		// next commit to try again; nothing is lost by waiting.
		var busy, logged, copied int
		c.pool.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &logged, &copied)
	}
}

// close stops the checkpointer and closes its connection; closing again
// does nothing more.
func (c *checkpointer) close() error {
	c.stopOnce.Do(func() { close(c.stop) })
	<-c.done
	return c.pool.Close()
}
