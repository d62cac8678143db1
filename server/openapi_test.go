package server_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path"
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
// document allows: an undocumented status, or a body its schema refuses.
// The 404 and 405 for a path or method the API does not have (or a path
// not in its clean form, such as /api/v1//accounts) are the only answers no
// operation describes.
func checkResponse(t testing.TB, req *http.Request, w *httptest.ResponseRecorder) {
	t.Helper()
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
