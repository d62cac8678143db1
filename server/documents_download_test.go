package server_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	badLinkBody     = `{"error":"The download link is not valid","code":"FORBIDDEN"}` + "\n"
	expiredLinkBody = `{"error":"The download link has expired; read the document again for a new one","code":"FORBIDDEN"}` + "\n"
)

// relink rewrites a document_url: the id in its path, or a query value.
func relink(t *testing.T, link, id, key, value string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	if id != "" {
		parts := strings.Split(u.Path, "/")
		parts[len(parts)-2] = id
		u.Path = strings.Join(parts, "/")
	}
	if key != "" {
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
	}
	return u.String()
}

func TestSignedLink(t *testing.T) {
	ts := newTestServer(t)
	ts.pinClock(t0)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	pdf := testdata(t, "payout.pdf")
	d := ts.mustUpload(t, key, form("A-1", filePart("payout.pdf", pdf)), http.StatusCreated)
	other := ts.mustUpload(t, key, form("A-1", filePart("pixel.webp", testdata(t, "pixel.webp"))), http.StatusCreated)
	u, _ := url.Parse(d.DocumentURL)
	expires, _ := strconv.ParseInt(u.Query().Get("expires"), 10, 64)
	sig := u.Query().Get("sig")
	if want := t0.AddDate(1, 0, 0).Unix(); expires != want {
		t.Errorf("expires: got %d, want %d (a year after the read)", expires, want)
	}
	flipped := "A" + sig[1:]
	if sig[0] == 'A' {
		flipped = "B" + sig[1:]
	}
	etag := ts.download(t, d.DocumentURL, nil).Header().Get("Etag")

	tests := []struct {
		name       string
		link       string
		now        time.Time
		header     map[string]string
		wantStatus int
		wantBody   string
	}{
		{"valid", d.DocumentURL, t0, nil, 200, string(pdf)},
		{"valid with any name in the path", strings.Replace(d.DocumentURL, "/payout.pdf?", "/x.bin?", 1), t0, nil, 200, string(pdf)},
		{"valid at its last second", d.DocumentURL, time.Unix(expires, 0), nil, 200, string(pdf)},
		{"expired", d.DocumentURL, time.Unix(expires+1, 0), nil, 403, expiredLinkBody},
		{"tampered signature", relink(t, d.DocumentURL, "", "sig", flipped), t0, nil, 403, badLinkBody},
		{"tampered expiry", relink(t, d.DocumentURL, "", "expires", strconv.FormatInt(expires+3600, 10)), t0, nil, 403, badLinkBody},
		{"tampered id", relink(t, d.DocumentURL, other.ID, "", ""), t0, nil, 403, badLinkBody},
		{"no signature", relink(t, d.DocumentURL, "", "sig", ""), t0, nil, 403, badLinkBody},
		{"malformed expiry", relink(t, d.DocumentURL, "", "expires", "soon"), t0, nil, 403, badLinkBody},
		{"range", d.DocumentURL, t0, map[string]string{"Range": "bytes=5-14"}, 206, string(pdf[5:15])},
		{"suffix range", d.DocumentURL, t0, map[string]string{"Range": "bytes=-6"}, 206, string(pdf[len(pdf)-6:])},
		{"if-none-match", d.DocumentURL, t0, map[string]string{"If-None-Match": etag}, 304, ""},
		{"if-none-match, another etag", d.DocumentURL, t0, map[string]string{"If-None-Match": `"abc"`}, 200, string(pdf)},
		{"an API key changes nothing", relink(t, d.DocumentURL, "", "sig", flipped), t0,
			map[string]string{"Authorization": "Bearer " + key}, 403, badLinkBody},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts.pinClock(tt.now)
			w := ts.download(t, tt.link, tt.header)
			if w.Code != tt.wantStatus || w.Body.String() != tt.wantBody {
				t.Errorf("got %d %.80q, want %d %.80q", w.Code, w.Body, tt.wantStatus, tt.wantBody)
			}
		})
	}

	t.Run("range header", func(t *testing.T) {
		ts.pinClock(t0)
		w := ts.download(t, d.DocumentURL, map[string]string{"Range": "bytes=5-14"})
		if got, want := w.Header().Get("Content-Range"), "bytes 5-14/"+strconv.Itoa(len(pdf)); got != want {
			t.Errorf("Content-Range: got %q, want %q", got, want)
		}
	})
	t.Run("head", func(t *testing.T) {
		ts.pinClock(t0)
		w := ts.send(t, httptest.NewRequest("HEAD", strings.TrimPrefix(d.DocumentURL, "http://journal.test"), nil))
		if w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Length") != strconv.Itoa(len(pdf)) {
			t.Errorf("HEAD: got %d, %d body bytes, Content-Length %s, want 200, none, %d",
				w.Code, w.Body.Len(), w.Header().Get("Content-Length"), len(pdf))
		}
	})
	t.Run("deleted", func(t *testing.T) {
		ts.pinClock(t0)
		if status, body := ts.do(t, "DELETE", "/api/v1/documents/"+d.ID, key, ""); status != 200 {
			t.Fatalf("delete: got %d %s, want 200", status, body)
		}
		want := `{"error":"Document not found","code":"NOT_FOUND"}` + "\n"
		if w := ts.download(t, d.DocumentURL, nil); w.Code != 404 || w.Body.String() != want {
			t.Errorf("got %d %s, want 404 %s", w.Code, w.Body, want)
		}
	})
}

// TestSignedLinkReadsNoDatabaseFirst closes the database under the server:
// a bad link is still a 403, so it was refused before any query; a good
// one needs the database and gets the generic 500.
func TestSignedLinkReadsNoDatabaseFirst(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	d := ts.mustUpload(t, key, form("A-1", filePart("p.pdf", testdata(t, "payout.pdf"))), http.StatusCreated)
	ts.closeDB()

	if w := ts.download(t, relink(t, d.DocumentURL, "", "expires", "1"), nil); w.Code != 403 || w.Body.String() != badLinkBody {
		t.Errorf("bad link on a closed database: got %d %s, want 403 %s", w.Code, w.Body, badLinkBody)
	}
	if w := ts.download(t, d.DocumentURL, nil); w.Code != 500 || w.Body.String() != internalErrorBody {
		t.Errorf("good link on a closed database: got %d %s, want 500 %s", w.Code, w.Body, internalErrorBody)
	}
}

// TestDocumentURLFreshOnEveryRead: each read signs a new link, a year from
// the read.
func TestDocumentURLFreshOnEveryRead(t *testing.T) {
	ts := newTestServer(t)
	ts.pinClock(t0)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	d := ts.mustUpload(t, key, form("A-1", filePart("p.pdf", testdata(t, "payout.pdf"))), http.StatusCreated)

	later := t0.Add(48 * time.Hour)
	ts.pinClock(later)
	got := decode[struct{ Data docJSON }](t, must200(t, ts, "/api/v1/documents/"+d.ID, key)).Data
	u, _ := url.Parse(got.DocumentURL)
	if want := strconv.FormatInt(later.AddDate(1, 0, 0).Unix(), 10); u.Query().Get("expires") != want {
		t.Errorf("expires after a later read: got %s, want %s", u.Query().Get("expires"), want)
	}
	if got.DocumentURL == d.DocumentURL {
		t.Errorf("document_url: got the upload's link again, want a new one")
	}
	// The old link keeps working until its own expiry.
	if w := ts.download(t, d.DocumentURL, nil); w.Code != 200 {
		t.Errorf("the upload's link: got %d, want 200", w.Code)
	}
}
