package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tradejournal/db"
)

// FuzzJSONBodies sends arbitrary bodies to every route that decodes JSON.
// Whatever arrives, the answer is a JSON body with a 2xx or a 4xx: never a
// panic, never a 500.
func FuzzJSONBodies(f *testing.F) {
	e := newTradeEnv(f)
	tr, _ := e.create(f, e.tradeBody("ES", "long", `"entry_price": 5000, "quantity": 1`))
	pb := e.createPlaybook(f, e.key, `{"title": "P", "entry_criteria": ["x"]}`)
	st := e.createStrategy(f, e.key, `{"title": "S"}`)
	doc := e.mustUpload(f, e.key, form("APEX-1", filePart("p.pdf", samplePDF(f))), http.StatusCreated)
	created := func(path, body string) string {
		status, b := e.do(f, "POST", path, e.key, body)
		if status != http.StatusCreated {
			f.Fatalf("POST %s: %d %s", path, status, b)
		}
		var out struct{ Data struct{ ID string } }
		json.Unmarshal(b, &out)
		return path + "/" + out.Data.ID
	}
	targets := []struct{ method, path string }{
		{"POST", "/api/v1/trades"},
		{"PUT", "/api/v1/trades/" + tr.ID},
		{"POST", "/api/v1/accounts"},
		{"PUT", "/api/v1/accounts/" + e.accountID},
		{"POST", "/api/v1/tags"},
		{"PUT", "/api/v1/tags"},
		{"PUT", "/api/v1/instruments/FDAX"},
		{"POST", "/api/v1/playbooks"},
		{"PUT", "/api/v1/playbooks/" + pb.ID},
		{"POST", "/api/v1/strategies"},
		{"PUT", "/api/v1/strategies/" + st.ID},
		{"PUT", "/api/v1/documents/" + doc.ID},
		{"POST", "/api/v1/write-ups"},
		{"PUT", created("/api/v1/write-ups", fmt.Sprintf(`{"trade_id": %q}`, tr.ID))},
		{"POST", "/api/v1/trading-plans"},
		{"PUT", created("/api/v1/trading-plans", `{"title": "T"}`)},
		{"POST", "/api/v1/chart-books"},
		{"PUT", created("/api/v1/chart-books", `{"title": "C"}`)},
		{"POST", "/api/v1/report-cards"},
		{"PUT", created("/api/v1/report-cards", `{"report_date": "2026-02-05"}`)},
	}
	for i := range targets {
		f.Add(uint8(i), `{}`)
		f.Add(uint8(i), `null`)
		f.Add(uint8(i), `[]`)
	}
	f.Add(uint8(0), e.tradeBody("NQZ5", "short", `"executions": [{"side": "sell", "price": 29298, "quantity": 1, "execution_time": "09:30:00"}, {"side": "buy", "price": 29290, "quantity": 1, "execution_timestamp": "2026-02-05T14:31:00Z"}]`))
	f.Add(uint8(1), `{"executions": [{"side": "buy", "price": 1e308, "quantity": 1e-320, "execution_time": "23:59:59"}], "status": null}`)
	f.Add(uint8(2), `{"account_number": "A", "starting_balance": -0, "tag_ids": ["x", 1]}`)
	f.Add(uint8(4), `{"type": "bulk_tags", "tagGroupId": "01a1fbe5-0d64-76ed-86e9-d763a9f4f538", "tags": [{"id": 5}]}`)
	f.Add(uint8(6), `{"point_value": 1e-300, "asset_class": "futures"}`)
	f.Add(uint8(9), `{"title": "S", "strategy_rules": [{"check": {"kind": "trading_window", "start": "09:30:00", "end": "09:00:00"}}]}`)
	f.Add(uint8(7), `{"title": "P", "entry_criteria": ["a", ""], "strategy_ids": [null]}`)
	f.Add(uint8(11), `{"document_name": "", "category": "receipt"}`)
	f.Add(uint8(16), `{"title": "C", "document_ids": ["x"]}`)
	f.Add(uint8(1), `{"review_notes": {"type": "doc", "content": [{"type": "p", "content": [{"type": 1}]}]}, "stop_loss_levels": [{"price": 6000}]}`)
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		target := targets[int(which)%len(targets)]
		w := e.request(t, target.method, target.path, e.key, body)
		if w.Code >= 500 || w.Code < 200 || (w.Code >= 300 && w.Code < 400) {
			t.Fatalf("%s %s %q: got %d %s", target.method, target.path, body, w.Code, w.Body)
		}
		if !json.Valid(w.Body.Bytes()) || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			t.Fatalf("%s %s %q: body is not JSON: %s", target.method, target.path, body, w.Body)
		}
		if w.Code == http.StatusOK || w.Code == http.StatusCreated {
			return
		}
		// The standard body, or the documents' nested one.
		var e struct {
			Code  string          `json:"code"`
			Error json.RawMessage `json:"error"`
		}
		var nested struct{ Code string }
		if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Code == "" && (json.Unmarshal(e.Error, &nested) != nil || nested.Code == "") {
			t.Fatalf("%s %s %q: error body without a code: %s", target.method, target.path, body, w.Body)
		}
	})
}

// FuzzUpload sends arbitrary multipart forms to the upload: whatever
// arrives, the answer is a JSON 201, 400, 404 or 413, never a 500, and no
// temp file is left behind.
func FuzzUpload(f *testing.F) {
	e := newTradeEnv(f)
	pdf := samplePDF(f)
	f.Add("document_name", "Payout", "category", "receipt", "payout.pdf", pdf, "APEX-1", false)
	f.Add("document_name", "", "category", "bogus", "x.png", []byte("not a png"), "APEX-1", false)
	f.Add("replace", "true", "document_id", "01a1fbe5-0d64-76ed-86e9-d763a9f4f538", "../../etc/passwd", pdf, "nope", true)
	f.Add("file", "x", "file", "y", "", []byte{}, "", true)
	f.Fuzz(func(t *testing.T, name1, value1, name2, value2, fileName string, content []byte, account string, fileFirst bool) {
		parts := []part{field(name1, value1), field(name2, value2), field("account_number", account)}
		file := part{name: "file", fileName: fileName, content: bytes.NewReader(content)}
		if fileFirst {
			parts = append([]part{file}, parts...)
		} else {
			parts = append(parts, file)
		}
		w := e.upload(t, e.key, parts)
		switch w.Code {
		case http.StatusCreated, http.StatusOK, http.StatusBadRequest, http.StatusNotFound, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("upload %q=%q %q=%q file %q (%d bytes): got %d %s", name1, value1, name2, value2, fileName, len(content), w.Code, w.Body)
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("body is not JSON: %s", w.Body)
		}
		left, err := os.ReadDir(filepath.Join(e.files, "tmp"))
		if err != nil {
			t.Fatalf("the store's temp folder: %v", err) // else a folder that moved would hide every leftover
		}
		if len(left) != 0 {
			t.Fatalf("%d temp files left after a %d", len(left), w.Code)
		}
	})
}

func samplePDF(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("../testdata/payout.pdf")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzImport posts arbitrary files and form fields to the import route,
// read by a format, or by an arbitrary column mapping (created through the
// API when it is one, then named by mapping_id and tried by format auto):
// every answer is a 2xx or a 4xx in JSON, never a 5xx, and a refused
// import leaves no import and no fill behind.
func FuzzImport(f *testing.F) {
	e := newTradeEnv(f)
	f.Add("format", "auto", []byte(morning), "")
	f.Add("dry_run", "true", []byte(genericHeader+"APEX-1,MNQZ5,buy,1,1e9,-1,2025-03-09T02:30:00,x\n"), "")
	f.Add("timezone", "Europe/Berlin", []byte("account_number;symbol;side;quantity;price;timestamp\nAPEX-1;ES;B;\"1\";(5,0);2025-03-30 02:30:00\n"), "")
	f.Add("format", "generic", []byte("\xff\xfea\x00"), "")
	f.Add("account_id", e.accountID, []byte(metaTraderFile), metaTraderMapping)
	f.Add("account_id", e.accountID, []byte(metaTraderFile), strings.Replace(metaTraderMapping, `"Time"`, `"Deal"`, 1))
	f.Add("dry_run", "true", []byte(quantowerFile), quantowerMapping)
	f.Add("account_id", e.accountID, []byte(quantowerFile), strings.Replace(quantowerMapping, `"dmy"`, `"ymd"`, 1))
	f.Add("decimal", "comma", []byte("a;b;c;d;e\n1;2;3;4;5\n"),
		`{"name": "m", "columns": {"timestamp": "a", "symbol": "b", "side": "c", "quantity": "d", "price": "e"}, "side_values": {"buy": ["1"], "sell": ["2"], "skip": ["3"]}}`)
	f.Fuzz(func(t *testing.T, name, value string, content []byte, mapping string) {
		mappingID := ""
		if mapping != "" {
			status, b := e.do(t, "POST", "/api/v1/import-mappings", e.key, mapping)
			if status >= 500 || !json.Valid(b) {
				t.Fatalf("mapping %q: got %d %s", mapping, status, b)
			}
			if status == http.StatusCreated {
				mappingID = decode[struct{ Data db.ImportMapping }](t, b).Data.ID
				defer e.do(t, "DELETE", "/api/v1/import-mappings/"+mappingID, e.key, "")
			}
		}
		try := func(fields ...string) {
			before := count(t, e.sql(t), `SELECT count(*) FROM imports`) + count(t, e.sql(t), `SELECT count(*) FROM executions`)
			status, b := e.postImport(t, e.key, "fuzz.csv", string(content), fields...)
			if status >= 500 || !json.Valid(b) {
				t.Fatalf("import %q (%d bytes): got %d %s", fields, len(content), status, b)
			}
			after := count(t, e.sql(t), `SELECT count(*) FROM imports`) + count(t, e.sql(t), `SELECT count(*) FROM executions`)
			if status >= 400 && after != before {
				t.Fatalf("a refused import (%d) left rows behind", status)
			}
		}
		try(name, value)
		if mappingID != "" {
			try(name, value, "mapping_id", mappingID)
		}
	})
}
