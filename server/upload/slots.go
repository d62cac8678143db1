package upload

import (
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"sync"
	"time"

	"tradejournal/server/auth"
	"tradejournal/server/input"
	"tradejournal/server/problem"
)

// An upload (a document or a broker file) holds a slot while its body
// arrives and is stored. The slots are bounded in all and per client
// address, so that one client, however many connections it opens, cannot
// hold them all; and a body must arrive at a minimum rate, so that a client
// trickling bytes cannot hold its slots for long either.

// uploadSlots counts the uploads in flight, in all and by client address.
type uploadSlots struct {
	all       chan struct{} // a value per upload in flight
	perClient int
	mu        sync.Mutex
	clients   map[string]*clientSlots
}

// clientSlots are one address's slots; users counts the uploads holding
// or waiting for one, so that the entry goes with the last.
type clientSlots struct {
	held  chan struct{}
	users int
}

// Limits bound the uploads: how many may be in flight at once, and per
// client address; how long one waits for a slot; the slowest rate its body
// may arrive at, averaged over each window.
type Limits struct {
	MaxUploads, MaxPerClient int
	Wait                     time.Duration
	MinRate                  int64 // bytes a second
	RateWindow               time.Duration
	// MaxImports is how many broker files may be read and written at
	// once, whatever way they come in (default DefaultMaxImports).
	MaxImports int
	// ImportsAtWork, when set, is told how many imports are at work each
	// time one starts or ends (serve raises the collector's soft limit by
	// what each holds: see server.ImportsAtWork).
	ImportsAtWork func(n int)
}

// DefaultMaxImports bounds the imports at work at once: reading a 25 MiB
// file into trades takes a core and tens of MiB, so a third waits its turn
// (503) rather than slow the other two and double the server's memory.
const DefaultMaxImports = 2

// Uploads admits the uploads of the API and the pages alike, within one
// set of Limits and one pool of slots.
type Uploads struct {
	limits  Limits
	slots   *uploadSlots
	imports chan struct{} // a value per import at work
	atWork  sync.Mutex    // held while ImportsAtWork is told
}

// New is the uploads within l.
func New(l Limits) *Uploads {
	if l.MaxImports <= 0 {
		l.MaxImports = DefaultMaxImports
	}
	return &Uploads{limits: l, slots: &uploadSlots{all: make(chan struct{}, l.MaxUploads), perClient: l.MaxPerClient,
		clients: map[string]*clientSlots{}}, imports: make(chan struct{}, l.MaxImports)}
}

// StartImport takes one of the import slots, for reading a broker file and
// writing its trades; release gives it back. ok is false, at once, when
// Limits.MaxImports imports are at work already: the caller answers
// ImportsBusy (the API and the pages) or tries later. Every way a file comes
// in takes its slot here, so that the bound holds across all of them.
func (up *Uploads) StartImport() (release func(), ok bool) {
	select {
	case up.imports <- struct{}{}:
		up.tellAtWork()
		return func() { <-up.imports; up.tellAtWork() }, true
	default:
		return nil, false
	}
}

// tellAtWork tells Limits.ImportsAtWork how many imports are at work.
func (up *Uploads) tellAtWork() {
	if up.limits.ImportsAtWork == nil {
		return
	}
	up.atWork.Lock()
	defer up.atWork.Unlock()
	up.limits.ImportsAtWork(len(up.imports))
}

// ImportsBusy is the 503 of an import refused for want of a slot, with
// Retry-After.
func (up *Uploads) ImportsBusy(w http.ResponseWriter) error {
	w.Header().Set("Retry-After", "10")
	return &problem.Problem{Status: http.StatusServiceUnavailable, Code: "UNAVAILABLE",
		Message: fmt.Sprintf("The server is already reading %d imports, as many as it takes at once; retry after 10 seconds", up.limits.MaxImports)}
}

// slot waits up to Limits.Wait for a slot of the request's client and
// one of all; ok is false when none came (or the client went away).
// Waiting uploads get freed slots in the order they came.
func (up *Uploads) slot(r *http.Request) (release func(), ok bool) {
	u, addr := up.slots, auth.ClientAddr(r)
	u.mu.Lock()
	c := u.clients[addr]
	if c == nil {
		c = &clientSlots{held: make(chan struct{}, u.perClient)}
		u.clients[addr] = c
	}
	c.users++
	u.mu.Unlock()
	leave := func() {
		u.mu.Lock()
		if c.users--; c.users == 0 {
			delete(u.clients, addr)
		}
		u.mu.Unlock()
	}

	t := time.NewTimer(up.limits.Wait)
	defer t.Stop()
	select {
	case c.held <- struct{}{}:
	case <-t.C:
		leave()
		return nil, false
	case <-r.Context().Done():
		leave()
		return nil, false
	}
	select {
	case u.all <- struct{}{}:
		return func() {
			<-u.all
			<-c.held
			leave()
		}, true
	case <-t.C:
	case <-r.Context().Done():
	}
	<-c.held
	leave()
	return nil, false
}

// Open starts reading an upload (a document or a broker file) as
// every upload is read: it takes an upload slot (release gives it back),
// bounds the body's size and rate (body), and opens it as a
// multipart form.
func (up *Uploads) Open(w http.ResponseWriter, r *http.Request) (mr *multipart.Reader, release func(), err error) {
	if r.ContentLength > maxUploadBody {
		// Refused unread: the body says it is too large.
		return nil, nil, errUploadTooLarge
	}
	release, ok := up.slot(r)
	if !ok {
		return nil, nil, Unavailable(w)
	}
	r.Body = http.MaxBytesReader(w, up.body(w, r), maxUploadBody)
	if mr, err = r.MultipartReader(); err != nil {
		release()
		return nil, nil, input.Invalid("body", "body must be multipart/form-data")
	}
	return mr, release, nil
}

// body wraps an upload's body: it moves the connection's deadlines
// forward while bytes flow (see deadlines) and cuts the body with
// problem.TooSlow when it arrives slower than the rate floor.
func (up *Uploads) body(w http.ResponseWriter, r *http.Request) io.ReadCloser {
	d := newDeadlines(w, true, true)
	return &extendingReader{ReadCloser: r.Body, d: d,
		floor: &rateFloor{min: up.limits.MinRate, window: up.limits.RateWindow, start: time.Now()}}
}

// rateFloor is the minimum rate of a body: at least min bytes a second,
// averaged over each window from the start.
type rateFloor struct {
	min    int64
	window time.Duration
	start  time.Time // of the current window
	n      int64     // bytes read in it
}

// due is the bytes a window must bring.
func (f *rateFloor) due() int64 { return int64(float64(f.min) * f.window.Seconds()) }

// check closes the windows that have ended by now: one that brought less
// than due is problem.TooSlow.
func (f *rateFloor) check(now time.Time) error {
	for now.Sub(f.start) >= f.window {
		if f.n < f.due() {
			return problem.TooSlow
		}
		f.start, f.n = f.start.Add(f.window), 0
	}
	return nil
}

// deadline is when the current window ends if it has not brought its due
// yet (a read still waiting then is cut), else zero.
func (f *rateFloor) deadline() time.Time {
	if f.n >= f.due() {
		return time.Time{}
	}
	return f.start.Add(f.window)
}

// isTimeout reports whether err is a read deadline passing.
func isTimeout(err error) bool {
	return errors.Is(err, os.ErrDeadlineExceeded)
}
