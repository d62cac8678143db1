package db

import (
	"context"
	"database/sql"
	"encoding/binary"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// The write-ahead log grows with every commit until a checkpoint copies
// its pages into the database file, after which the next writer starts the
// log over from its beginning, if no reader still reads from it. SQLite's
// own checkpoints run inside the commit that crosses 1000 pages, on the
// writer's connection, so that commit waits for them; and under a steady
// stream of readers the log never starts over and grows without end.
//
// So the writer does no checkpoints of its own (wal_autocheckpoint 0), and
// the checkpointer, on a connection of its own, runs them after commits. It
// reads how far the log is from the wal-index header in the -shm file (see
// walState) and runs:
//   - a PASSIVE checkpoint, which blocks no one, once walPassiveAt of the
//     log waits to be copied: about the 1000 pages at which SQLite's own
//     would run. Each one fsyncs the database file, so one after every
//     commit would cost a stream of writes a sixth of its rate. A second
//     one, between two groups of writes, copies what was committed while
//     the first ran, so that the next write finds nothing waiting and
//     starts the log over;
//   - a PASSIVE one after every commit once the log has walPinnedAt in it
//     and has not started over: readers are keeping it, and each reader that
//     starts while nothing waits to be copied reads the database file alone
//     and leaves the log free to start over;
//   - a TRUNCATE one past walLimit, which copies the last pages, waits for
//     the readers still on the log to finish (new readers then read the
//     database file), and empties the log. It runs between two groups of
//     writes (writer.between), holding the next off: SQLite's own wait for
//     the writer's lock would seldom find the writer between two groups
//     under a stream of writes. Its busy timeout is short, so writes never
//     wait long for it: one that cannot finish in time gives up and is
//     tried again after the next commit;
//   - a PASSIVE one when no commit has come for walIdle, so a journal at
//     rest has its log copied into the database file.
const (
	walPassiveAt = 4 << 20 // bytes
	walPinnedAt  = 8 << 20
	walLimit     = 16 << 20
	walIdle      = time.Second
	// checkpointWait is the checkpointer's busy timeout, in milliseconds.
	checkpointWait = 50
)

// checkpointer runs the checkpoints of one journal.
type checkpointer struct {
	pool     *sql.DB // one connection, its own
	writer   *writer
	shm      *os.File // the wal-index (DB.shm); nil: every commit checkpoints
	kick     chan struct{}
	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
	// through, when set, runs the checkpoints (HandOverCheckpoints).
	through atomic.Pointer[func(context.Context, string) error]
}

// newCheckpointer starts the checkpointer of the journal whose wal-index
// is shm, on pool.
func newCheckpointer(ctx context.Context, pool *sql.DB, shm *os.File, w *writer) (*checkpointer, error) {
	if err := pool.PingContext(ctx); err != nil {
		return nil, err
	}
	c := &checkpointer{pool: pool, writer: w, shm: shm, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
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
	idle := time.NewTimer(walIdle)
	idle.Stop()
	for {
		select {
		case <-c.kick:
		case <-idle.C:
			c.checkpoint("PASSIVE")
			continue
		case <-c.stop:
			return
		}
		logged, waiting, ok := walState(c.shm)
		switch {
		case !ok:
			c.checkpoint("PASSIVE")
		case logged >= walLimit:
			// What waits is copied first, while writes go on.
			c.checkpoint("PASSIVE")
			c.writer.between(func() { c.checkpoint("TRUNCATE") })
		case waiting >= walPassiveAt:
			c.checkpoint("PASSIVE")
			// Then what was committed while it ran, between two groups.
			c.writer.between(func() { c.checkpoint("PASSIVE") })
		case waiting > 0 && logged >= walPinnedAt:
			c.checkpoint("PASSIVE")
		case waiting > 0:
			idle.Reset(walIdle)
		}
	}
}

// checkpoint runs one checkpoint of the given mode, itself or through the
// function it was handed (HandOverCheckpoints). A failure (busy: readers
// or a writer held on) is left for the next commit to try again; nothing
// is lost by waiting.
func (c *checkpointer) checkpoint(mode string) {
	if through := c.through.Load(); through != nil {
		(*through)(context.Background(), mode)
		return
	}
	var busy, logged, copied int
	c.pool.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &logged, &copied)
}

// walState reads, from the wal-index header at the start of the -shm file
// (https://sqlite.org/walformat.html), how many bytes of frames the log
// holds since it last started over, and how many of those wait to be
// copied into the database file. The header is read without a lock, so it
// may be torn by a commit or checkpoint under way; that only moves the
// next checkpoint by a commit.
func walState(shm *os.File) (logged, waiting int64, ok bool) {
	h, ok := readWALIndexHead(shm)
	if !ok {
		return 0, 0, false
	}
	e := binary.NativeEndian
	isInit := h[12]
	pageSize := int64(e.Uint16(h[14:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	mxFrame := int64(e.Uint32(h[16:]))
	nBackfill := int64(e.Uint32(h[96:]))
	if isInit == 0 || pageSize < 512 {
		return 0, 0, false
	}
	frame := 24 + pageSize
	return mxFrame * frame, max(0, mxFrame-nBackfill) * frame, true
}

// walHeaderSize is the size of one copy of the wal-index header; the
// head read below holds its two copies and then the checkpoint
// information's first field, nBackfill (https://sqlite.org/walformat.html).
const walHeaderSize = 48

// readWALIndexHead reads the start of the wal-index shm (nil: none), as it
// is now, without a lock.
func readWALIndexHead(shm *os.File) (h [2*walHeaderSize + 4]byte, ok bool) {
	if shm == nil {
		return h, false
	}
	_, err := shm.ReadAt(h[:], 0)
	return h, err == nil
}

// close stops the checkpointer and closes its connection; closing again
// does nothing more.
func (c *checkpointer) close() error {
	c.stopOnce.Do(func() { close(c.stop) })
	<-c.done
	return c.pool.Close()
}

// HandOverCheckpoints has the checkpointer run its checkpoints through run
// from now on, still choosing when (passive ones after commits, the
// truncating one between two groups of writes, where a stream of writes
// leaves it room). Litestream, replicating the journal, must run them: it
// copies each frame of the log before a checkpoint may start the log over.
func (db *DB) HandOverCheckpoints(run func(ctx context.Context, mode string) error) {
	db.checkpointer.through.Store(&run)
}
