package db

import (
	"context"
	"slices"
	"testing"
	"time"
)

// waitFor polls cond until it holds, failing the test after a few seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); time.Sleep(time.Millisecond) {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func userNames(t *testing.T, d *DB) []string {
	t.Helper()
	users, err := d.Users(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range users {
		names = append(names, u.Name)
	}
	slices.Sort(names)
	return names
}

// TestWriterGroupsWrites: writes that queue while another runs share its
// commit, each still all or nothing: one that fails leaves the others, and
// the first write's commit returns only once the whole group is durable.
func TestWriterGroupsWrites(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	if _, err := d.CreateUser(ctx, "taken", ""); err != nil {
		t.Fatal(err)
	}
	before := d.writer.commits.Load()

	first, err := d.begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.insertUser(ctx, first, "alice", ""); err != nil {
		t.Fatal(err)
	}
	results := make(chan error, 3)
	for _, name := range []string{"bob", "taken", "carol"} {
		go func() {
			_, err := d.CreateUser(ctx, name, "")
			results <- err
		}()
	}
	waitFor(t, "three writes queued", func() bool { return d.writer.waiting.Load() == 3 })
	if err := first.Commit(); err != nil {
		t.Fatalf("first write: %v", err)
	}
	// The group has committed: every write in it is visible to readers.
	if got, want := userNames(t, d), []string{"alice", "bob", "carol", "taken"}; !slices.Equal(got, want) {
		t.Errorf("users after the first commit returned: %v, want %v", got, want)
	}
	var failed int
	for range 3 {
		if err := <-results; err != nil {
			failed++
		}
	}
	if failed != 1 {
		t.Errorf("%d writes failed, want 1 (the taken name)", failed)
	}
	if got := d.writer.commits.Load() - before; got != 1 {
		t.Errorf("%d commits for the four writes, want 1", got)
	}
	if second, err := first.Commit(), first.Rollback(); second == nil || err == nil {
		t.Errorf("commit and rollback after commit: %v, %v; want both refused", second, err)
	}
}

// TestWriterGroupLost: when SQLite rolls back a group's whole transaction
// (as it does on a full disk), every write of the group hears it, none is
// acknowledged, and the next write starts afresh.
func TestWriterGroupLost(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	first, err := d.begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.insertUser(ctx, first, "alice", ""); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		tx, err := d.begin(ctx)
		if err != nil {
			done <- err
			return
		}
		defer tx.Rollback()
		if _, err := d.insertUser(ctx, tx, "bob", ""); err != nil {
			done <- err
			return
		}
		// What SQLite does by itself on SQLITE_FULL or an I/O error.
		if _, err := tx.Tx.ExecContext(ctx, `ROLLBACK`); err != nil {
			done <- err
			return
		}
		done <- context.Canceled // the write's own error, whatever it is
	}()
	waitFor(t, "the second write queued", func() bool { return d.writer.waiting.Load() == 1 })
	if err := first.Commit(); err == nil {
		t.Error("first write acknowledged although its group was rolled back")
	}
	if err := <-done; err != context.Canceled {
		t.Errorf("second write: %v", err)
	}
	if got := userNames(t, d); len(got) != 0 {
		t.Errorf("users after the lost group: %v, want none", got)
	}
	if _, err := d.CreateUser(ctx, "carol", ""); err != nil {
		t.Fatalf("write after the lost group: %v", err)
	}
	if got := userNames(t, d); !slices.Equal(got, []string{"carol"}) {
		t.Errorf("users: %v, want [carol]", got)
	}
}

// TestWriterRunsToItsEnd: a write that has its turn is not interrupted by
// its caller's context (an interrupted write would roll back its whole
// group); a write still waiting for its turn gives up with the context.
func TestWriterRunsToItsEnd(t *testing.T) {
	d := newTestDB(t)
	ctx, cancel := context.WithCancel(t.Context())
	tx, err := d.begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := d.insertUser(ctx, tx, "alice", ""); err != nil {
		t.Fatalf("write after its context ended: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.CreateUser(ctx, "bob", ""); err != context.Canceled {
		t.Errorf("write begun with an ended context: %v, want context.Canceled", err)
	}
	if got := userNames(t, d); !slices.Equal(got, []string{"alice"}) {
		t.Errorf("users: %v, want [alice]", got)
	}
}

// TestWriterLongWriteAlone: a write that may run long (an import) does not
// join the group of a short write before it: the short write is
// acknowledged without waiting for the long one to end.
func TestWriterLongWriteAlone(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	short, err := d.begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.insertUser(ctx, short, "alice", ""); err != nil {
		t.Fatal(err)
	}
	running, finish, longDone := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		tx, err := d.beginAlone(ctx)
		if err != nil {
			longDone <- err
			return
		}
		defer tx.Rollback()
		if _, err := d.insertUser(ctx, tx, "bob", ""); err != nil {
			longDone <- err
			return
		}
		close(running)
		<-finish
		longDone <- tx.Commit()
	}()
	waitFor(t, "the long write queued", func() bool { return d.writer.waiting.Load() == 1 })
	acked := make(chan error, 1)
	go func() { acked <- short.Commit() }()
	select {
	case err := <-acked:
		if err != nil {
			t.Fatalf("short write: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the short write waited for the long one")
	}
	<-running
	if got := userNames(t, d); !slices.Equal(got, []string{"alice"}) {
		t.Errorf("users while the long write runs: %v, want [alice]", got)
	}
	close(finish)
	if err := <-longDone; err != nil {
		t.Fatalf("long write: %v", err)
	}
	if got := userNames(t, d); !slices.Equal(got, []string{"alice", "bob"}) {
		t.Errorf("users: %v, want [alice bob]", got)
	}
}

// TestWriteBindsCachedStatementOnce: a write that runs one of the cache's
// statements many times (an import's inserts, hundreds of thousands of
// times) binds it to its transaction once: database/sql keeps every
// binding until the transaction ends.
func TestWriteBindsCachedStatementOnce(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	const q = `SELECT count(*) FROM users WHERE name = ?`
	if _, err := d.writer.stmts.prepared(ctx, q); err != nil {
		t.Fatal(err)
	}
	tx, err := d.beginAlone(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	first := tx.prepared(ctx, q)
	for range 3 {
		var n int
		if err := tx.QueryRowContext(ctx, q, "alice").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if s := tx.prepared(ctx, q); first == nil || s != first {
			t.Fatalf("the cached statement bound again: %p, then %p", first, s)
		}
	}
	if s, err := tx.stmt(ctx, q); err != nil || s.Stmt != first {
		t.Errorf("stmt: %p, %v; want the binding %p", s.Stmt, err, first)
	}
}
