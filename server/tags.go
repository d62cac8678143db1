package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
)

// Tag operations all use /api/v1/tags; the body's (or, for deletes, the
// query's) type selects the operation, and responses keep SPEC.md's keys
// instead of {data}.

// tagRequest is every tag body; which fields count depends on type.
type tagRequest struct {
	Type       db.Optional[string]            `json:"type"`
	ID         db.Optional[string]            `json:"id"`
	Name       db.Optional[string]            `json:"name"`
	Color      db.Optional[string]            `json:"color"`
	SortOrder  db.Optional[int]               `json:"sort_order"`
	TagGroupID db.Optional[string]            `json:"tag_group_id"`
	GroupID    db.Optional[string]            `json:"tagGroupId"` // bulk_tags
	Tags       db.Optional[[]json.RawMessage] `json:"tags"`       // bulk_tags
}

type tagOrderRequest struct {
	ID        db.Optional[string] `json:"id"`
	SortOrder db.Optional[int]    `json:"sort_order"`
}

func (s *Server) handleTagList(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	groups, err := s.db.TagGroups(r.Context(), p.UserID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string][]db.TagGroup{"tagGroups": groups})
}

func (s *Server) handleTagCreate(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	var req tagRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	f := input.Errors{}
	switch typ := req.Type.Value; typ {
	case "tag_group":
		name := input.TagName(f, req.Name)
		color := input.GroupColor(f, req.Color, true)
		if err := f.Err(); err != nil {
			s.writeError(w, r, err)
			return
		}
		g, err := s.db.CreateTagGroup(r.Context(), p.UserID, name, color)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusCreated, map[string]db.TagGroup{"tagGroup": g})
	case "tag":
		groupID := input.BodyUUID(f, "tag_group_id", req.TagGroupID, true)
		name := input.TagName(f, req.Name)
		if err := f.Err(); err != nil {
			s.writeError(w, r, err)
			return
		}
		t, err := s.db.CreateTag(r.Context(), p.UserID, groupID, name)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusCreated, map[string]db.Tag{"tag": t})
	case "load_defaults":
		groups, err := s.db.LoadDefaultTags(r.Context(), p.UserID)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string][]db.TagGroup{"tagGroups": groups})
	default:
		s.writeError(w, r, badTagType(req.Type, "tag_group, tag or load_defaults"))
	}
}

func (s *Server) handleTagUpdate(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	var req tagRequest
	if err := decodeJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	f := input.Errors{}
	switch req.Type.Value {
	case "tag_group":
		id := input.BodyUUID(f, "id", req.ID, true)
		upd := db.TagGroupUpdate{SortOrder: input.SortOrder(f, "sort_order", req.SortOrder)}
		if req.Name.Set {
			upd.Name = db.Some(input.TagName(f, req.Name))
		}
		if req.Color.Set {
			upd.Color = db.Some(input.GroupColor(f, req.Color, true))
		}
		if err := f.Err(); err != nil {
			s.writeError(w, r, err)
			return
		}
		g, err := s.db.UpdateTagGroup(r.Context(), p.UserID, id, upd)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]db.TagGroup{"tagGroup": g})
	case "tag":
		id := input.BodyUUID(f, "id", req.ID, true)
		upd := db.TagUpdate{SortOrder: input.SortOrder(f, "sort_order", req.SortOrder)}
		if req.Name.Set {
			upd.Name = db.Some(input.TagName(f, req.Name))
		}
		if req.TagGroupID.Set {
			upd.TagGroupID = db.Some(input.BodyUUID(f, "tag_group_id", req.TagGroupID, true))
		}
		if err := f.Err(); err != nil {
			s.writeError(w, r, err)
			return
		}
		t, err := s.db.UpdateTag(r.Context(), p.UserID, id, upd)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]db.Tag{"tag": t})
	case "bulk_tags":
		groupID := input.BodyUUID(f, "tagGroupId", req.GroupID, true)
		var orders []db.TagOrder
		if !req.Tags.Set || req.Tags.Null {
			f.Add("tags", "tags must be an array of {id, sort_order}")
		}
		for i, raw := range req.Tags.Value {
			path := fmt.Sprintf("tags[%d]", i)
			var o tagOrderRequest
			if err := decodeElement(raw, &o, path); err != nil {
				f.Merge(err)
				continue
			}
			id := input.BodyUUID(f, path+".id", o.ID, true)
			if !o.SortOrder.Set || o.SortOrder.Null {
				f.Add(path+".sort_order", path+".sort_order is required")
			}
			orders = append(orders, db.TagOrder{ID: id, SortOrder: input.SortOrder(f, path+".sort_order", o.SortOrder).Value})
		}
		if err := f.Err(); err != nil {
			s.writeError(w, r, err)
			return
		}
		tags, err := s.db.ReorderTags(r.Context(), p.UserID, groupID, orders)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string][]db.Tag{"tags": tags})
	default:
		s.writeError(w, r, badTagType(req.Type, "tag_group, tag or bulk_tags"))
	}
}

func (s *Server) handleTagDelete(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	q := r.URL.Query()
	typ, id := q.Get("type"), strings.ToLower(q.Get("id"))
	f := input.Errors{}
	if typ != "tag_group" && typ != "tag" {
		f.Add("type", "type must be tag_group or tag")
	}
	f.UUID("id", id)
	if err := f.Err(); err != nil {
		s.writeError(w, r, err)
		return
	}
	var d db.Deleted
	var err error
	if typ == "tag_group" {
		d, err = s.db.DeleteTagGroup(r.Context(), p.UserID, id)
	} else {
		d, err = s.db.DeleteTag(r.Context(), p.UserID, id)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, deletedBody{Success: true, DeletedID: d.ID, Warnings: d.Warnings})
}

func badTagType(t db.Optional[string], allowed string) error {
	if !t.Set || t.Null || t.Value == "" {
		return input.Invalid("type", "type is required: "+allowed)
	}
	return input.Invalid("type", "type must be one of "+allowed)
}
