package upload

import (
	"io"
	"net/http"
	"time"
)

// The server's read and write timeouts bound a whole request, and an
// upload or download of a large file over a slow link takes longer. Such a
// handler moves its connection's deadlines forward while bytes flow: a
// transfer that stalls for stallTimeout is still cut off, and none lasts
// longer than maxTransfer.
const (
	stallTimeout = 60 * time.Second
	maxTransfer  = 30 * time.Minute
)

// deadlines moves the read and/or write deadline of one request's
// connection. It uses the wall clock: deadlines are network time.
type deadlines struct {
	rc          *http.ResponseController
	read, write bool
	moved       time.Time // when last moved
	end         time.Time // the start plus maxTransfer
}

func newDeadlines(w http.ResponseWriter, read, write bool) *deadlines {
	d := &deadlines{rc: http.NewResponseController(w), read: read, write: write, end: time.Now().Add(maxTransfer)}
	d.extend()
	return d
}

// extend moves the deadlines to stallTimeout from now (no later than end),
// at most once a second. A writer that cannot (a test's recorder) is left
// as it is.
func (d *deadlines) extend() {
	now := time.Now()
	if now.Sub(d.moved) < time.Second {
		return
	}
	d.moved = now
	t := now.Add(stallTimeout)
	if t.After(d.end) {
		t = d.end
	}
	if d.read {
		d.rc.SetReadDeadline(t)
	}
	if d.write {
		d.rc.SetWriteDeadline(t)
	}
}

// extendingReader is a request body that extends the deadlines as it is
// read, and with a floor, cuts a body that arrives too slowly (problem.TooSlow).
type extendingReader struct {
	io.ReadCloser
	d     *deadlines
	floor *rateFloor // nil: none
}

func (r *extendingReader) Read(p []byte) (int, error) {
	r.d.extend()
	f := r.floor
	if f == nil {
		return r.ReadCloser.Read(p)
	}
	if err := f.check(time.Now()); err != nil {
		return 0, err
	}
	if at := f.deadline(); !at.IsZero() {
		// A read still waiting when the window ends is cut there, not at
		// the stall timeout.
		r.d.rc.SetReadDeadline(at)
		r.d.moved = time.Time{} // the next extend moves it again
	}
	n, err := r.ReadCloser.Read(p)
	f.n += int64(n)
	if ferr := f.check(time.Now()); ferr != nil && (err == nil || isTimeout(err)) {
		return n, ferr
	}
	return n, err
}

// extendingWriter is a response writer that extends the deadlines as it
// writes.
type extendingWriter struct {
	http.ResponseWriter
	d *deadlines
}

func (w *extendingWriter) Write(p []byte) (int, error) {
	w.d.extend()
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *extendingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Downloading wraps a download's writer: it moves the connection's write
// deadline forward while bytes flow (see deadlines), so that a large file
// reaches a slow client unless it stalls.
func Downloading(w http.ResponseWriter) http.ResponseWriter {
	return &extendingWriter{w, newDeadlines(w, false, true)}
}
