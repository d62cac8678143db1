package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"runtime/debug"

	"tradejournal/db"
	"tradejournal/server/auth"
	"tradejournal/server/problem"
)

// FileImport is what POST /api/v1/imports answered to a file ImportFile
// sent it.
type FileImport struct {
	Status int
	// Body is the answer's body as the API writes it: {data: Import}, or
	// the error body.
	Body []byte
	// RetryAfter is the answer's Retry-After header (a busy server's 503).
	RetryAfter string
	// RequestID names the request in the server's log lines.
	RequestID string
	// Import is the import made, when Status is 201.
	Import db.Import
}

// fileImportAddr is the client address ImportFile's requests come from: the
// uploads' slots per client address then bound the watched folder as they
// bound any one client.
const fileImportAddr = "watched-folder"

// ImportFile imports a file of this machine (the watched folder, DESIGN
// §14) as the user would post it to POST /api/v1/imports with
// format=auto, and create_accounts when createAccounts is set. It goes
// through that route's own handler, so that its checks, its limits and its
// answers are the API's, the error body byte for byte. size is the file's
// size: the request's Content-Length, as a client sends it.
func (s *Server) ImportFile(ctx context.Context, userID, name string, file io.Reader, size int64, createAccounts bool) FileImport {
	var head, tail bytes.Buffer
	mw := multipart.NewWriter(&head)
	mw.WriteField("format", "auto")
	if createAccounts {
		mw.WriteField("create_accounts", "true")
	}
	mw.CreateFormFile("file", name) // a bytes.Buffer does not fail
	end := multipart.NewWriter(&tail)
	end.SetBoundary(mw.Boundary())
	end.Close()
	body := io.MultiReader(&head, io.LimitReader(file, size), &tail)
	id := newRequestID()
	r, err := http.NewRequestWithContext(problem.WithRequestID(ctx, id), http.MethodPost, "/api/v1/imports", body)
	if err != nil {
		panic(err) // a constant method and path
	}
	r.ContentLength = int64(head.Len()) + size + int64(tail.Len())
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.RemoteAddr = fileImportAddr

	w := &fileAnswer{header: http.Header{}}
	s.serveFile(w, r, userID)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	fi := FileImport{Status: w.status, Body: w.body.Bytes(), RetryAfter: w.header.Get("Retry-After"), RequestID: id}
	if fi.Status == http.StatusCreated {
		var data dataBody[db.Import]
		if err := json.Unmarshal(fi.Body, &data); err != nil {
			s.log.Error("the import's answer does not decode", "request_id", id, "err", err)
		}
		fi.Import = data.Data
	}
	return fi
}

// serveFile answers r as POST /api/v1/imports would for a key of the user
// with the trades:write scope: the user's subscription is checked as for
// any key, and a panic is a 500, as ServeHTTP makes it.
func (s *Server) serveFile(w *fileAnswer, r *http.Request, userID string) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic", "request_id", problem.RequestID(r.Context()), "method", r.Method, "path", r.URL.Path,
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if w.status == 0 {
				s.writeError(w, r, problem.Internal)
			}
		}
	}()
	u, err := s.db.User(r.Context(), userID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	p := &db.Principal{UserID: u.ID, Timezone: u.Timezone, Subscription: u.Subscription, Scopes: []string{"trades:write"}}
	if err := auth.Admit(p, "trades:write"); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.handleImportCreate(w, r, p)
}

// fileAnswer is the response writer of ImportFile's request: it keeps the
// answer in memory.
type fileAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *fileAnswer) Header() http.Header { return w.header }

func (w *fileAnswer) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *fileAnswer) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}
