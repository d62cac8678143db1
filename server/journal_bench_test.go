package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// BenchmarkJournalPages measures the day page and a trade page with 4
// screenshots, served through the real handler on a real port over a
// journal of 100,000 trades, each beside the API calls that read what it
// shows, in the same run: GET /api/v1/days/{date}, and the accounts of its
// filter, for the day page; GET /api/v1/trades/{id} (its 4 documents with
// their thumbnail links), and the playbooks and tags of its review form,
// for the trade page; and each beside its one main call alone. x-base is
// the page's rate over the calls'. A page also reads its session and the
// navigation's unreviewed count, and writes HTML.
//
//	go test ./server -run XXX -bench JournalPages -benchtime 500x
func BenchmarkJournalPages(b *testing.B) {
	e := newScaleEnv(b)
	shot := widePNG(b, 1280, 720)
	for i := range 4 {
		parts := []part{field("trade_id", e.tradeID), field("document_name", fmt.Sprintf("Chart %d", i+1)),
			field("category", "receipt"), filePart(fmt.Sprintf("chart-%d.png", i+1), shot)}
		if err := e.send(0, uploadRequest(b, e.key, parts), http.StatusCreated); err != nil {
			b.Fatal(err)
		}
	}
	var day string
	if err := e.raw.QueryRow(`SELECT day FROM trades WHERE id = ?`, e.tradeID).Scan(&day); err != nil {
		b.Fatal(err)
	}
	var trades int
	if err := e.raw.QueryRow(`SELECT count(*) FROM trades WHERE day = ?`, day).Scan(&trades); err != nil {
		b.Fatal(err)
	}
	cookie := e.pageSession(b)
	dayPage, tradePage := e.page(cookie, "/days/"+day), e.page(cookie, "/trades/"+e.tradeID)
	b.Run(fmt.Sprintf("day/trades=%d/calls=2", trades), func(b *testing.B) {
		compare(b, 1, dayPage, 1, e.gets("/api/v1/days/"+day, "/api/v1/accounts"))
	})
	b.Run(fmt.Sprintf("day/trades=%d/calls=1", trades), func(b *testing.B) {
		compare(b, 1, dayPage, 1, e.get("/api/v1/days/"+day))
	})
	b.Run("trade/screenshots=4/calls=3", func(b *testing.B) {
		compare(b, 1, tradePage, 1, e.gets("/api/v1/trades/"+e.tradeID, "/api/v1/playbooks", "/api/v1/tags"))
	})
	b.Run("trade/screenshots=4/calls=1", func(b *testing.B) {
		compare(b, 1, tradePage, 1, e.get("/api/v1/trades/"+e.tradeID))
	})
}

// gets gets each target in turn, as a client showing what a page shows
// would.
func (s *scaleEnv) gets(targets ...string) op {
	return func(w int) error {
		for _, target := range targets {
			if err := s.call(w, "GET", s.url+target, "", http.StatusOK); err != nil {
				return err
			}
		}
		return nil
	}
}

// send sends a request built for the handler (httptest.NewRequest) to the
// server's port from worker w, and wants the status.
func (s *scaleEnv) send(w int, req *http.Request, want int) error {
	u, err := url.Parse(s.url + req.URL.RequestURI())
	if err != nil {
		return err
	}
	req.URL, req.Host, req.RequestURI = u, u.Host, ""
	res, err := s.clients[w].Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", req.Method, req.URL, res.StatusCode, body)
	}
	return nil
}

// pageSession signs in to the pages with the env's key and returns the
// session's cookie.
func (s *scaleEnv) pageSession(b *testing.B) *http.Cookie {
	req, err := http.NewRequest("POST", s.url+"/login", strings.NewReader(url.Values{"key": {s.key}}.Encode()))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", s.url)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Name == "tj_session" {
			return c
		}
	}
	b.Fatalf("sign in: %d, no session cookie", res.StatusCode)
	return nil
}

// page gets a page with the session's cookie, read to the end.
func (s *scaleEnv) page(cookie *http.Cookie, target string) op {
	return func(w int) error {
		req, err := http.NewRequest("GET", s.url+target, nil)
		if err != nil {
			return err
		}
		req.AddCookie(cookie)
		res, err := s.clients[w].Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			body, _ := io.ReadAll(res.Body)
			return fmt.Errorf("GET %s: %d %s", target, res.StatusCode, body)
		}
		_, err = io.Copy(io.Discard, res.Body)
		return err
	}
}
