package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"tradejournal/db"
)

// TestPlaybookRoundTrip: a playbook sent back as read is accepted and
// keeps its criteria's ids; editing one criterion through the read shape
// keeps trades' checklist answers about it.
func TestPlaybookRoundTrip(t *testing.T) {
	e := newTradeEnv(t)
	pb := e.createPlaybook(t, e.key, `{"title": "ORB", "entry_criteria": ["Range set", "Volume up"], "exit_criteria": ["Target"]}`)
	tr, _ := e.create(t, e.tradeBody("ES", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 1, "playbook_id": %q,
		"criteria_checklist": [{"criterion_id": %q, "checked": true}]`, pb.ID, pb.EntryCriteria[1].ID)))

	_, b := e.do(t, "GET", "/api/v1/playbooks/"+pb.ID, e.key, "")
	var read struct{ Data json.RawMessage }
	json.Unmarshal(b, &read)
	status, b := e.do(t, "PUT", "/api/v1/playbooks/"+pb.ID, e.key, string(read.Data))
	back := decode[dataOf[db.Playbook]](t, b).Data
	if status != http.StatusOK || back.EntryCriteria[0].ID != pb.EntryCriteria[0].ID || back.ExitCriteria[0].ID != pb.ExitCriteria[0].ID {
		t.Fatalf("PUT as read: %d %s", status, b)
	}

	// Fix a typo in the second criterion and add a third.
	body := fmt.Sprintf(`{"entry_criteria": [{"id": %q, "description": "Range set"}, {"id": %q, "description": "Volume rising"}, "New"]}`,
		pb.EntryCriteria[0].ID, pb.EntryCriteria[1].ID)
	got := e.putPlaybook(t, e.key, pb.ID, body)
	if len(got.EntryCriteria) != 3 || got.EntryCriteria[1].ID != pb.EntryCriteria[1].ID || got.EntryCriteria[1].Description != "Volume rising" ||
		got.EntryCriteria[2].Order != 3 || got.EntryCriteria[2].ID == "" {
		t.Errorf("entry criteria after the edit: %+v", got.EntryCriteria)
	}
	checklist := e.get(t, tr.ID).CriteriaChecklist
	if len(checklist) != 4 || checklist[1].CriterionID != pb.EntryCriteria[1].ID || !checklist[1].Checked || checklist[1].Description != "Volume rising" {
		t.Errorf("checklist after the edit: %+v", checklist)
	}
	for _, bad := range []string{`{"entry_criteria": [5]}`, `{"entry_criteria": [{"id": "x"}]}`} {
		if status, b := e.do(t, "PUT", "/api/v1/playbooks/"+pb.ID, e.key, bad); status != 400 || decode[errBody](t, b).Details["entry_criteria[0]"] == "" {
			t.Errorf("PUT %s: got %d %s, want 400 naming entry_criteria[0]", bad, status, b)
		}
	}
}
