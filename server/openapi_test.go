package server_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
)

// openAPIValidator is the validator of openapi.json, built once: every
// response of the handler tests is checked against the document.
var openAPIValidator = sync.OnceValues(func() (validator.Validator, error) {
	spec, err := os.ReadFile("openapi.json")
	if err != nil {
		return nil, err
	}
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		return nil, err
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return v, nil
})

// checkResponse fails the test when the response to req is not one the
// document allows (an undocumented status, or a body its schema refuses),
// or lacks the headers every answer carries.
// The 404 and 405 for a path or method the API does not have (or a path
// not in its clean form, such as /api/v1//accounts) are the only answers no
// operation describes.
func checkResponse(t testing.TB, req *http.Request, w *httptest.ResponseRecorder) {
	t.Helper()
	checkHeaders(t, req, w)
	if !strings.HasPrefix(req.URL.Path, "/api/") {
		return // a page of the web interface, which the document does not describe
	}
	v, err := openAPIValidator()
	if err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	if (w.Code == http.StatusNotFound || w.Code == http.StatusMethodNotAllowed) && path.Clean(req.URL.Path) != req.URL.Path {
		return
	}
	resp := w.Result()
	if ok, errs := v.ValidateHttpResponse(req, resp); !ok {
		var msgs []string
		for _, e := range errs {
			if (e.IsPathMissingError() || e.IsOperationMissingError()) &&
				(w.Code == http.StatusNotFound || w.Code == http.StatusMethodNotAllowed) {
				continue
			}
			msg := e.Message + ": " + e.Reason
			for _, se := range e.SchemaValidationErrors {
				msg += "\n\t" + se.FieldPath + ": " + se.Reason
			}
			msgs = append(msgs, msg)
		}
		if len(msgs) > 0 {
			body := w.Body.String()
			if len(body) > 2000 {
				body = body[:2000] + "…"
			}
			t.Errorf("%s %s → %d does not match openapi.json:\n%s\nbody: %s", req.Method, req.URL, w.Code, strings.Join(msgs, "\n"), body)
		}
	}
}

// TestOpenAPIDocument: the document is served to a client without a key,
// as written, and is a valid OpenAPI 3.1 document.
func TestOpenAPIDocument(t *testing.T) {
	ts := newTestServer(t)
	w := ts.request(t, "GET", "/api/v1/openapi.json", "", "")
	spec, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" || w.Body.String() != string(spec) {
		t.Fatalf("GET /api/v1/openapi.json: %d %s, %d bytes; want 200 application/json, openapi.json's %d bytes",
			w.Code, w.Header().Get("Content-Type"), w.Body.Len(), len(spec))
	}
	v, err := openAPIValidator()
	if err != nil {
		t.Fatal(err)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		for _, e := range errs {
			t.Errorf("openapi.json: %s: %s", e.Message, e.Reason)
			for _, se := range e.SchemaValidationErrors {
				t.Errorf("\t%s: %s", se.FieldPath, se.Reason)
			}
		}
	}
}

// checkHeaders fails the test unless the response carries the headers every
// answer must (issue 19): no caching and no sniffing of API answers, the
// signed download's own caching and no Referer leaking its signature, and
// the Bearer challenge on a 401.
func checkHeaders(t testing.TB, req *http.Request, w *httptest.ResponseRecorder) {
	t.Helper()
	h := w.Header()
	download := strings.HasPrefix(req.URL.Path, "/api/v1/files/")
	wantCache := "no-store"
	if download && w.Code < 400 {
		wantCache = "private, no-cache"
	}
	if got := h.Get("Cache-Control"); got != wantCache {
		t.Errorf("%s %s → %d: Cache-Control %q, want %q", req.Method, req.URL, w.Code, got, wantCache)
	}
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s %s → %d: X-Content-Type-Options %q, want nosniff", req.Method, req.URL, w.Code, got)
	}
	if got := h.Get("Referrer-Policy"); download && got != "no-referrer" {
		t.Errorf("%s %s → %d: Referrer-Policy %q, want no-referrer", req.Method, req.URL, w.Code, got)
	}
	if got := h.Get("WWW-Authenticate"); (w.Code == http.StatusUnauthorized) != (got == "Bearer") {
		t.Errorf("%s %s → %d: WWW-Authenticate %q, want Bearer on a 401 only", req.Method, req.URL, w.Code, got)
	}
	if got, want := h.Get("Content-Length"), strconv.Itoa(w.Body.Len()); h.Get("Content-Type") == "application/json" && got != want {
		t.Errorf("%s %s → %d: Content-Length %q, want %s", req.Method, req.URL, w.Code, got, want)
	}
}
