package server_test

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"
)

// TestContentTags: tag_ids on create and update replace the set (a
// repeated id once, [] clears, absent keeps), every read carries tags
// with their group's colour, list items too, and deleting a tag removes it
// from every kind of content, counted in the tag delete's warnings.
func TestContentTags(t *testing.T) {
	e := newContentEnv(t)
	setups := e.newGroup(t, e.key, "Setups")
	mistakes := e.newGroup(t, e.key, "Mistakes")
	orb, fomo := e.newTag(t, e.key, setups.ID, "ORB"), e.newTag(t, e.key, mistakes.ID, "FOMO")
	wantTags := func(ids ...string) []any {
		out := []any{}
		for _, id := range ids {
			for _, tag := range []struct{ id, name, group string }{{orb.ID, "ORB", setups.ID}, {fomo.ID, "FOMO", mistakes.ID}} {
				if tag.id == id {
					out = append(out, map[string]any{"id": id, "name": tag.name, "tag_group_id": tag.group, "groupColor": "#1A2B3C"})
				}
			}
		}
		return out
	}

	records := map[string]string{}
	for _, path := range contentPaths {
		r := e.post(t, e.key, path, e.minimalBody(path, fmt.Sprintf(`"tag_ids":[%q,%q,%q]`, fomo.ID, orb.ID, fomo.ID)))
		records[path] = r.id()
		// Groups by their sort order: Setups first.
		if !reflect.DeepEqual(r["tags"], wantTags(orb.ID, fomo.ID)) {
			t.Errorf("POST %s: tags %v, want ORB, FOMO", path, r["tags"])
		}
		l := e.listMaps(t, e.key, path)
		if len(l.Data) != 1 || !reflect.DeepEqual(l.Data[0]["tags"], wantTags(orb.ID, fomo.ID)) {
			t.Errorf("GET %s: items %v, want one with ORB, FOMO", path, l.Data)
		}
		for _, step := range []struct {
			body string
			want []any
		}{
			{fmt.Sprintf(`{"tag_ids":[%q]}`, fomo.ID), wantTags(fomo.ID)},
			{`{}`, wantTags(fomo.ID)},
			{`{"tag_ids":[]}`, wantTags()},
			{fmt.Sprintf(`{"tag_ids":[%q,%q]}`, orb.ID, fomo.ID), wantTags(orb.ID, fomo.ID)},
		} {
			status, b := e.do(t, "PUT", path+"/"+r.id(), e.key, step.body)
			if got := dataMap(t, b)["tags"]; status != http.StatusOK || !reflect.DeepEqual(got, step.want) {
				t.Errorf("PUT %s %s: got %d tags %v, want %v", path, step.body, status, got, step.want)
			}
		}
	}

	status, b := e.do(t, "DELETE", "/api/v1/tags?type=tag&id="+orb.ID, e.key, "")
	want := fmt.Sprintf(`{"success":true,"deleted_id":%q,"warnings":["Removed 4 tag associations"]}`+"\n", orb.ID)
	if status != http.StatusOK || string(b) != want {
		t.Errorf("tag delete: got %d %s, want 200 %s", status, b, want)
	}
	for path, id := range records {
		if tags := dataMap(t, must200(t, e.testServer, path+"/"+id, e.key))["tags"]; !reflect.DeepEqual(tags, wantTags(fomo.ID)) {
			t.Errorf("%s after the tag's delete: tags %v, want only FOMO", path, tags)
		}
	}
}
