package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"tradejournal/db"
)

type tagGroupsBody struct {
	TagGroups []db.TagGroup `json:"tagGroups"`
}

func (e *tradeEnv) newGroup(t *testing.T, key, name string) db.TagGroup {
	t.Helper()
	status, b := e.do(t, "POST", "/api/v1/tags", key, fmt.Sprintf(`{"type": "tag_group", "name": %q, "color": "#1a2b3c"}`, name))
	if status != http.StatusCreated {
		t.Fatalf("create group %s: got %d %s", name, status, b)
	}
	return decode[struct {
		TagGroup db.TagGroup `json:"tagGroup"`
	}](t, b).TagGroup
}

func (e *tradeEnv) newTag(t *testing.T, key, groupID, name string) db.Tag {
	t.Helper()
	status, b := e.do(t, "POST", "/api/v1/tags", key, fmt.Sprintf(`{"type": "tag", "tag_group_id": %q, "name": %q}`, groupID, name))
	if status != http.StatusCreated {
		t.Fatalf("create tag %s: got %d %s", name, status, b)
	}
	return decode[struct {
		Tag db.Tag `json:"tag"`
	}](t, b).Tag
}

func (e *tradeEnv) groups(t *testing.T, key string) []db.TagGroup {
	t.Helper()
	status, b := e.do(t, "GET", "/api/v1/tags", key, "")
	if status != http.StatusOK {
		t.Fatalf("GET /api/v1/tags: %d %s", status, b)
	}
	return decode[tagGroupsBody](t, b).TagGroups
}

func tagNames(tags []db.Tag) []string {
	var out []string
	for _, t := range tags {
		out = append(out, t.Name)
	}
	return out
}

func TestTagGroupsAndTags(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(t0)
	status, b := e.do(t, "POST", "/api/v1/tags", e.key, `{"type": "tag_group", "name": "Setups", "color": "#1a2b3c"}`)
	g := decode[struct {
		TagGroup db.TagGroup `json:"tagGroup"`
	}](t, b).TagGroup
	want := fmt.Sprintf(`{"tagGroup":{"id":%q,"name":"Setups","color":"#1A2B3C","sort_order":0,"tags":[],"created_at":%q,"updated_at":%q}}`+"\n", g.ID, t0Text, t0Text)
	if status != 201 || string(b) != want {
		t.Errorf("create group: got %d %s, want 201 %s", status, b, want)
	}
	second := e.newGroup(t, e.key, "Mistakes")
	if second.SortOrder != 1 {
		t.Errorf("second group sort_order = %d, want 1 (last)", second.SortOrder)
	}
	for i, name := range []string{"Pullback", "Breakout", "Reversal"} {
		if tag := e.newTag(t, e.key, g.ID, name); tag.SortOrder != i || tag.TagGroupID != g.ID {
			t.Errorf("tag %s: sort_order %d group %s, want %d, %s", name, tag.SortOrder, tag.TagGroupID, i, g.ID)
		}
	}
	got := e.groups(t, e.key)
	if len(got) != 2 || got[0].Name != "Setups" || !slices.Equal(tagNames(got[0].Tags), []string{"Pullback", "Breakout", "Reversal"}) {
		t.Fatalf("GET: %+v", got)
	}

	// bulk_tags reorders; equal sort orders fall back to the name.
	tags := got[0].Tags
	status, b = e.do(t, "PUT", "/api/v1/tags", e.key, fmt.Sprintf(`{"type": "bulk_tags", "tagGroupId": %q,
		"tags": [{"id": %q, "sort_order": 2}, {"id": %q, "sort_order": 0}, {"id": %q, "sort_order": 0}]}`,
		g.ID, tags[0].ID, tags[1].ID, tags[2].ID))
	reordered := decode[struct {
		Tags []db.Tag `json:"tags"`
	}](t, b).Tags
	if status != 200 || !slices.Equal(tagNames(reordered), []string{"Breakout", "Reversal", "Pullback"}) {
		t.Errorf("bulk_tags: got %d %v", status, tagNames(reordered))
	}
	if got := e.groups(t, e.key); !slices.Equal(tagNames(got[0].Tags), []string{"Breakout", "Reversal", "Pullback"}) {
		t.Errorf("GET after bulk_tags: %v", tagNames(got[0].Tags))
	}

	// Rename, recolour and reorder a group; rename and move a tag.
	status, b = e.do(t, "PUT", "/api/v1/tags", e.key, fmt.Sprintf(`{"type": "tag_group", "id": %q, "name": "A+ setups", "sort_order": 5}`, g.ID))
	if ug := decode[struct {
		TagGroup db.TagGroup `json:"tagGroup"`
	}](t, b).TagGroup; status != 200 || ug.Name != "A+ setups" || ug.Color != "#1A2B3C" || ug.SortOrder != 5 || len(ug.Tags) != 3 {
		t.Errorf("update group: %d %s", status, b)
	}
	if got := e.groups(t, e.key); got[0].Name != "Mistakes" {
		t.Errorf("groups after reorder: first is %s, want Mistakes", got[0].Name)
	}
	status, b = e.do(t, "PUT", "/api/v1/tags", e.key, fmt.Sprintf(`{"type": "tag", "id": %q, "name": "Chased", "tag_group_id": %q}`, tags[0].ID, second.ID))
	if moved := decode[struct {
		Tag db.Tag `json:"tag"`
	}](t, b).Tag; status != 200 || moved.Name != "Chased" || moved.TagGroupID != second.ID || moved.SortOrder != 0 {
		t.Errorf("move tag: %d %s", status, b)
	}
}

func TestTagErrors(t *testing.T) {
	e := newTradeEnv(t)
	g := e.newGroup(t, e.key, "Setups")
	other := e.newGroup(t, e.key, "Other")
	tag := e.newTag(t, e.key, g.ID, "Breakout")
	foreignTag := e.newTag(t, e.key, other.ID, "Elsewhere")
	_, bobKey := e.newUser(t, "bob")
	bobGroup := e.newGroup(t, bobKey, "Bob's")
	unknown := "01a1fbe5-0d64-76ed-86e9-d763a9f4f538"
	tests := []struct {
		method, target, body string
		wantStatus           int
		wantField            string
	}{
		{"POST", "/api/v1/tags", `{"name": "x"}`, 400, "type"},
		{"POST", "/api/v1/tags", `{"type": "tags"}`, 400, "type"},
		{"POST", "/api/v1/tags", `{"type": "tag_group"}`, 400, "name"},
		{"POST", "/api/v1/tags", `{"type": "tag_group", "name": "  "}`, 400, "name"},
		{"POST", "/api/v1/tags", `{"type": "tag_group", "name": "X", "color": "red"}`, 400, "color"},
		{"POST", "/api/v1/tags", `{"type": "tag_group", "name": "X", "color": "#12345"}`, 400, "color"},
		{"POST", "/api/v1/tags", `{"type": "tag_group", "name": "Setups"}`, 409, "name"},
		{"POST", "/api/v1/tags", `{"type": "tag", "name": "x"}`, 400, "tag_group_id"},
		{"POST", "/api/v1/tags", `{"type": "tag", "name": "x", "tag_group_id": "nope"}`, 400, "tag_group_id"},
		{"POST", "/api/v1/tags", fmt.Sprintf(`{"type": "tag", "name": "x", "tag_group_id": %q}`, bobGroup.ID), 404, "tag_group_id"},
		{"POST", "/api/v1/tags", fmt.Sprintf(`{"type": "tag", "name": "Breakout", "tag_group_id": %q}`, g.ID), 409, "name"},
		{"PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "tag_group", "id": %q, "name": "x"}`, unknown), 404, ""},
		{"PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "tag_group", "id": %q, "name": "x"}`, bobGroup.ID), 404, ""},
		{"PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "tag_group", "id": %q, "name": "Other"}`, g.ID), 409, "name"},
		{"PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "tag", "id": %q, "sort_order": -1}`, tag.ID), 400, "sort_order"},
		{"PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "tag", "id": %q, "tag_group_id": %q}`, tag.ID, bobGroup.ID), 404, "tag_group_id"},
		{"PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "bulk_tags", "tagGroupId": %q, "tags": [{"id": %q, "sort_order": 1}]}`, g.ID, foreignTag.ID), 400, "tags[0].id"},
		{"PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "bulk_tags", "tagGroupId": %q, "tags": [{"id": %q}]}`, g.ID, tag.ID), 400, "tags[0].sort_order"},
		{"PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "bulk_tags", "tagGroupId": %q, "tags": [{"id": %q, "sort_order": 1}]}`, g.ID, unknown), 404, "tags[0].id"},
		{"DELETE", "/api/v1/tags?type=tag&id=" + unknown, "", 404, ""},
		{"DELETE", "/api/v1/tags?type=tag_group&id=" + bobGroup.ID, "", 404, ""},
		{"DELETE", "/api/v1/tags?type=group&id=" + g.ID, "", 400, "type"},
		{"DELETE", "/api/v1/tags?type=tag&id=x", "", 400, "id"},
	}
	for _, tt := range tests {
		status, b := e.do(t, tt.method, tt.target, e.key, tt.body)
		got := decode[errBody](t, b)
		if status != tt.wantStatus || (tt.wantField != "" && got.Details[tt.wantField] == "") {
			t.Errorf("%s %s %s: got %d %s, want %d naming %q", tt.method, tt.target, tt.body, status, b, tt.wantStatus, tt.wantField)
		}
	}
	// Bob sees only his own group.
	if got := e.groups(t, bobKey); len(got) != 1 || got[0].ID != bobGroup.ID {
		t.Errorf("bob's groups: %+v", got)
	}
}

func TestTagLoadDefaults(t *testing.T) {
	e := newTradeEnv(t)
	mine := e.newGroup(t, e.key, "Setups")
	e.newTag(t, e.key, mine.ID, "My own setup")
	e.newTag(t, e.key, mine.ID, "Breakout")
	status, b := e.do(t, "POST", "/api/v1/tags", e.key, `{"type": "load_defaults"}`)
	first := decode[tagGroupsBody](t, b).TagGroups
	if status != 200 || len(first) != 5 {
		t.Fatalf("load_defaults: %d, %d groups", status, len(first))
	}
	for _, g := range first {
		if len(g.Tags) < 5 || len(g.Tags) > 9 {
			t.Errorf("group %s has %d tags", g.Name, len(g.Tags))
		}
		if g.Name == "Setups" && (g.ID != mine.ID || !slices.Contains(tagNames(g.Tags), "My own setup") ||
			strings.Count(strings.Join(tagNames(g.Tags), ","), "Breakout") != 1) {
			t.Errorf("Setups not merged into the existing group: %v", tagNames(g.Tags))
		}
	}
	_, b2 := e.do(t, "POST", "/api/v1/tags", e.key, `{"type": "load_defaults"}`)
	if string(b2) != string(b) {
		t.Errorf("second load_defaults changed something:\n%s\n%s", b, b2)
	}
}

func TestTagCascades(t *testing.T) {
	e := newTradeEnv(t)
	g := e.newGroup(t, e.key, "Setups")
	a, b := e.newTag(t, e.key, g.ID, "A"), e.newTag(t, e.key, g.ID, "B")
	tr, _ := e.create(t, e.tradeBody("ES", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 1, "tag_ids": [%q, %q]`, a.ID, b.ID)))
	status, body := e.do(t, "PUT", "/api/v1/accounts/"+e.accountID, e.key, fmt.Sprintf(`{"tag_ids": [%q]}`, a.ID))
	if status != 200 || !strings.Contains(string(body), `"groupColor":"#1A2B3C"`) {
		t.Fatalf("tag the account: %d %s", status, body)
	}
	trade := func() db.EnrichedTrade {
		_, body := e.do(t, "GET", "/api/v1/trades/"+tr.ID, e.key, "")
		return decode[struct{ Data db.EnrichedTrade }](t, body).Data
	}
	if got := trade().Tags; len(got) != 2 {
		t.Fatalf("trade tags before: %+v", got)
	}
	status, body = e.do(t, "DELETE", "/api/v1/tags?type=tag&id="+b.ID, e.key, "")
	if want := fmt.Sprintf(`{"success":true,"deleted_id":%q,"warnings":["Removed 1 tag association"]}`+"\n", b.ID); status != 200 || string(body) != want {
		t.Errorf("delete tag: got %d %s, want %s", status, body, want)
	}
	if got := trade().Tags; len(got) != 1 || got[0].ID != a.ID {
		t.Errorf("trade tags after deleting B: %+v", got)
	}
	status, body = e.do(t, "DELETE", "/api/v1/tags?type=tag_group&id="+g.ID, e.key, "")
	if want := fmt.Sprintf(`{"success":true,"deleted_id":%q,"warnings":["Deleted 1 tag","Removed 2 tag associations"]}`+"\n", g.ID); status != 200 || string(body) != want {
		t.Errorf("delete group: got %d %s, want %s", status, body, want)
	}
	if got := trade().Tags; len(got) != 0 {
		t.Errorf("trade tags after deleting the group: %+v", got)
	}
	raw := e.sql(t)
	for _, table := range []string{"tags", "trade_tags", "account_tags"} {
		if n := count(t, raw, "SELECT count(*) FROM "+table); n != 0 {
			t.Errorf("%d rows left in %s", n, table)
		}
	}
}

func TestTagsOnTradesOfOtherUsers(t *testing.T) {
	e := newTradeEnv(t)
	_, bobKey := e.newUser(t, "bob")
	bobTag := e.newTag(t, bobKey, e.newGroup(t, bobKey, "Bob's").ID, "Secret")
	status, b := e.do(t, "POST", "/api/v1/trades", e.key, e.tradeBody("ES", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 1, "tag_ids": [%q]`, bobTag.ID)))
	if got := decode[errBody](t, b); status != 404 || got.Error != "Tag not found" || got.Details["tag_ids"] != "Tag not found" {
		t.Errorf("alice using bob's tag: got %d %s", status, b)
	}
	// Filtering by someone else's tag finds nothing, rather than failing.
	if got, l := e.list(t, "tags="+bobTag.ID); len(got) != 0 || l.Pagination.Total != 0 {
		t.Errorf("filter by bob's tag: %d trades", len(got))
	}
}
