package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
	"tradejournal/server/problem"
)

// The tags page lists the groups with their tags, each group with a form
// for a new tag, and a form for a new group; a group's or a tag's edit
// and delete are record pages. Every write is one of POST, PUT or DELETE
// /api/v1/tags, whose type each page's route fixes.

// tagRoutes are the pages of tags and their groups.
func (s *Pages) tagRoutes() []Route {
	tags, groups := s.tagPages(), s.tagGroupPages()
	return []Route{
		{Pattern: "GET /tags", Handler: s.page("tags:read", s.handleTagsPage)},
		{Pattern: "POST /tags", Handler: s.page("tags:write", s.handleTagCreate), API: "POST /api/v1/tags"},
		{Pattern: "POST /tags/defaults", Handler: s.page("tags:write", s.handleTagDefaults), API: "POST /api/v1/tags"},
		{Pattern: "GET /tags/{id}/edit", Handler: s.page("tags:write", tags.step(s, recordPages[db.TagUpdate, db.Tag].editForm))},
		{Pattern: "POST /tags/{id}", Handler: s.page("tags:write", tags.step(s, recordPages[db.TagUpdate, db.Tag].updatePost)), API: "PUT /api/v1/tags"},
		{Pattern: "GET /tags/{id}/delete", Handler: s.page("tags:write", s.confirmDelete("Tag", "/tags", "library", s.describeTagDelete))},
		{Pattern: "POST /tags/{id}/delete", Handler: s.page("tags:write", s.deletePost("Tag", "/tags", deleteOnly(s.db.DeleteTag))), API: "DELETE /api/v1/tags"},
		// A group's pages go back to the tags page, message and all.
		{Pattern: "GET /tag-groups", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, (&url.URL{Path: "/tags", RawQuery: r.URL.RawQuery}).String(), http.StatusSeeOther)
		})},
		{Pattern: "POST /tag-groups", Handler: s.page("tags:write", s.handleTagGroupCreate), API: "POST /api/v1/tags"},
		{Pattern: "GET /tag-groups/{id}/edit", Handler: s.page("tags:write", groups.editForm(s))},
		{Pattern: "POST /tag-groups/{id}", Handler: s.page("tags:write", groups.updatePost(s)), API: "PUT /api/v1/tags"},
		{Pattern: "GET /tag-groups/{id}/delete", Handler: s.page("tags:write", s.confirmDelete("Tag group", "/tag-groups", "library", s.describeTagGroupDelete))},
		{Pattern: "POST /tag-groups/{id}/delete", Handler: s.page("tags:write", s.deletePost("Tag group", "/tag-groups", deleteOnly(s.db.DeleteTagGroup))), API: "DELETE /api/v1/tags"},
	}
}

var (
	tagGroupFields = []field{
		{Name: "name", Label: "Name", Kind: "text", Required: true},
		{Name: "color", Label: "Colour", Kind: "text", Hint: "#RRGGBB, such as #2563EB"},
		{Name: "sort_order", Label: "Order", Kind: "number", Hint: "Groups show from the lowest order up"},
	}
	tagFields = []field{
		{Name: "name", Label: "Name", Kind: "text", Required: true},
		{Name: "sort_order", Label: "Order", Kind: "number", Hint: "A group's tags show from the lowest order up"},
	}
	// newTagFields are the fields of a new tag's form on the tags page (or
	// a trade's tag box).
	newTagFields = []field{{Name: "name", Label: "Name"}, {Name: "tag_group_id", Label: "Group"}}
)

// tagGroupPages are a group's edit and delete pages: rename, recolour,
// reorder.
func (s *Pages) tagGroupPages() recordPages[db.TagGroupUpdate, db.TagGroup] {
	return recordPages[db.TagGroupUpdate, db.TagGroup]{
		kind: "Tag group", path: "/tag-groups", nav: "library", fields: tagGroupFields,
		read: func(r *formReader) db.TagGroupUpdate {
			return db.TagGroupUpdate{Name: r.required("name"), Color: r.required("color"), SortOrder: r.whole("sort_order", false)}
		},
		check: input.TagGroup,
		values: func(g db.TagGroup) url.Values {
			return url.Values{"name": {g.Name}, "color": {g.Color}, "sort_order": {strconv.Itoa(g.SortOrder)}}
		},
		get: s.tagGroup, update: s.db.UpdateTagGroup,
		describe: func(g db.TagGroup) string { return "the group " + g.Name },
	}
}

// tagPages are a tag's edit and delete pages: rename, reorder, move to
// another of the user's groups.
func (s *Pages) tagPages() livePages[db.TagUpdate, db.Tag] {
	return livePages[db.TagUpdate, db.Tag]{recordPages[db.TagUpdate, db.Tag]{
		kind: "Tag", path: "/tags", nav: "library",
		read: func(r *formReader) db.TagUpdate {
			return db.TagUpdate{Name: r.required("name"), TagGroupID: r.text("tag_group_id", false), SortOrder: r.whole("sort_order", false)}
		},
		check: input.Tag,
		values: func(t db.Tag) url.Values {
			return url.Values{"name": {t.Name}, "tag_group_id": {t.TagGroupID}, "sort_order": {strconv.Itoa(t.SortOrder)}}
		},
		get: s.tag, update: s.db.UpdateTag,
		describe: func(t db.Tag) string { return "the tag " + t.Name },
	}, s.tagFields}
}

// tagFields are the tag form's fields, with the user's groups to move it
// to.
func (s *Pages) tagFields(r *http.Request, sess *db.Session) ([]field, error) {
	groups, err := s.db.TagGroups(r.Context(), sess.UserID)
	if err != nil {
		return nil, err
	}
	options := make([]option, len(groups))
	for i, g := range groups {
		options[i] = option{g.ID, g.Name}
	}
	return []field{tagFields[0], {Name: "tag_group_id", Label: "Group", Kind: "select", Required: true, Options: options}, tagFields[1]}, nil
}

// tagGroup reads one of the user's groups from the list the API serves.
func (s *Pages) tagGroup(ctx context.Context, userID, id string) (db.TagGroup, error) {
	groups, err := s.db.TagGroups(ctx, userID)
	if err != nil {
		return db.TagGroup{}, err
	}
	for _, g := range groups {
		if g.ID == id {
			return g, nil
		}
	}
	return db.TagGroup{}, &db.NotFoundError{Kind: "Tag group"}
}

// tag reads one of the user's tags from the list the API serves.
func (s *Pages) tag(ctx context.Context, userID, id string) (db.Tag, error) {
	groups, err := s.db.TagGroups(ctx, userID)
	if err != nil {
		return db.Tag{}, err
	}
	for _, g := range groups {
		for _, t := range g.Tags {
			if t.ID == id {
				return t, nil
			}
		}
	}
	return db.Tag{}, &db.NotFoundError{Kind: "Tag"}
}

// tagsPage is the tags page's data: the groups, and a refused form's
// values and reasons where it was (the new group's, or a group's new
// tag's).
type tagsPage struct {
	pageData
	Groups   []db.TagGroup
	CanEdit  bool
	Message  string
	Problem  string // a refusal whose form is not on the page
	NewGroup form
	NewTag   form
	NewTagIn string // the group whose new-tag form NewTag fills
	ReturnTo string // where a new tag's post goes back to, when not here
}

// tagMessages are what the tags page says after a post.
var tagMessages = map[string]string{
	"saved": "Saved.", "deleted": "Deleted.",
	"defaults": "The default groups and tags are loaded; the ones you had are kept.",
}

func (s *Pages) handleTagsPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	p := tagsPage{}
	for key, msg := range tagMessages {
		if r.URL.Query().Get(key) == "1" {
			p.Message = msg
		}
	}
	s.renderTags(w, r, sess, http.StatusOK, p)
}

func (s *Pages) renderTags(w http.ResponseWriter, r *http.Request, sess *db.Session, status int, p tagsPage) {
	groups, err := s.db.TagGroups(r.Context(), sess.UserID)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	p.pageData, p.Groups, p.CanEdit = pageData{Session: sess, Nav: "library"}, groups, sess.Can("tags:write")
	if (len(p.NewTag.Errors) > 0 || p.NewTag.Problem != "") && !hasGroup(groups, p.NewTagIn) {
		p.Problem = joinReasons(p.NewTag)
	}
	s.render(w, r, status, "tags", p)
}

func hasGroup(groups []db.TagGroup, id string) bool {
	for _, g := range groups {
		if g.ID == id {
			return true
		}
	}
	return false
}

// joinReasons is a refused form's reasons as one line, for a form the
// page does not show.
func joinReasons(f form) string {
	out := []string{}
	for _, fl := range newTagFields {
		if e := f.Errors[fl.Name]; e != "" {
			out = append(out, fl.Label+" "+e)
		}
	}
	if f.Problem != "" {
		out = append(out, f.Problem)
	}
	return strings.Join(out, ". ")
}

// refusedTags shows the tags page again after a refused post: the form
// posted, with what was typed and each reason, placed by fill. A record
// not found, or a failure of the server's, is the error page.
func (s *Pages) refusedTags(w http.ResponseWriter, r *http.Request, sess *db.Session, err error, fields []field, fill func(*tagsPage, form)) {
	e := problem.Answer(w, r, s.log, err)
	if e.Status >= 500 || e.Status == http.StatusNotFound {
		s.renderError(w, r, sess, e)
		return
	}
	f := form{Values: r.PostForm}
	f.Errors, f.Problem = fieldReasons(e, fields)
	p := tagsPage{}
	fill(&p, f)
	s.renderTags(w, r, sess, e.Status, p)
}

// handleTagGroupCreate adds a group, as POST /api/v1/tags of type
// tag_group does.
func (s *Pages) handleTagGroupCreate(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	fr := newFormReader(r.PostForm, true, tagGroupFields)
	in := db.TagGroupUpdate{Name: fr.required("name"), Color: fr.text("color", false)}
	err := fr.err()
	if err == nil {
		err = input.TagGroup(&in, true)
	}
	if err == nil {
		_, err = s.db.CreateTagGroup(r.Context(), sess.UserID, in.Name.Value, in.Color.Value)
	}
	if err != nil {
		s.refusedTags(w, r, sess, err, tagGroupFields, func(p *tagsPage, f form) { p.NewGroup = f })
		return
	}
	http.Redirect(w, r, "/tags?saved=1", http.StatusSeeOther)
}

// handleTagCreate adds a tag to a group, as POST /api/v1/tags of type tag
// does: from the tags page, or from a trade's tag box, whose return_to
// (a path of this site) it goes back to with the new tag's id in new_tag.
// A refused tag is shown on the tags page, in its group's form, with the
// way back.
func (s *Pages) handleTagCreate(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	fr := newFormReader(r.PostForm, true, newTagFields)
	in := db.TagUpdate{Name: fr.required("name"), TagGroupID: fr.text("tag_group_id", false)}
	returnTo := localPath(r.PostFormValue("return_to"))
	err := fr.err()
	if err == nil {
		err = input.Tag(&in, true)
	}
	var t db.Tag
	if err == nil {
		t, err = s.db.CreateTag(r.Context(), sess.UserID, in.TagGroupID.Value, in.Name.Value)
	}
	if err != nil {
		s.refusedTags(w, r, sess, err, newTagFields, func(p *tagsPage, f form) {
			p.NewTag, p.NewTagIn, p.ReturnTo = f, strings.ToLower(strings.TrimSpace(r.PostFormValue("tag_group_id"))), returnTo
		})
		return
	}
	if returnTo == "" {
		http.Redirect(w, r, "/tags?saved=1", http.StatusSeeOther)
		return
	}
	u, _ := url.Parse(returnTo)
	q := u.Query()
	q.Set("new_tag", t.ID)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// localPath is p when it is a path of this site ("/trades/…"), else "":
// a form's way back never leads to another site.
func localPath(p string) string {
	u, err := url.Parse(p)
	if err != nil || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") ||
		u.Scheme != "" || u.Host != "" {
		return ""
	}
	return p
}

// handleTagDefaults loads the default groups and tags, as POST
// /api/v1/tags of type load_defaults does: what the user has is kept.
func (s *Pages) handleTagDefaults(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	if _, err := s.db.LoadDefaultTags(r.Context(), sess.UserID); err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	http.Redirect(w, r, "/tags?defaults=1", http.StatusSeeOther)
}

// tagUses names the records a tag (or a group's tags) is taken off.
func tagUses(n db.TagUses) []string {
	var out []string
	for _, c := range []struct {
		n         int
		one, many string
	}{
		{n.Trades, "trade", "trades"}, {n.Accounts, "account", "accounts"}, {n.Playbooks, "playbook", "playbooks"},
		{n.Strategies, "strategy", "strategies"}, {n.WriteUps, "write-up", "write-ups"},
		{n.TradingPlans, "trading plan", "trading plans"}, {n.ChartBooks, "chart book", "chart books"},
		{n.ReportCards, "report card", "report cards"},
	} {
		if c.n > 0 {
			out = append(out, count(c.n, c.one, c.many))
		}
	}
	return out
}

// describeTagDelete names the records a tag's delete takes it off, from
// the counts DeleteTag's warning adds up.
func (s *Pages) describeTagDelete(ctx context.Context, userID, id string) (string, []string, error) {
	t, err := s.tag(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	n, err := s.db.TagUses(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	var out []string
	if uses := tagUses(n); len(uses) > 0 {
		out = append(out, "takes it off "+strings.Join(uses, ", ")+", which "+agree(n.Links(), "stays", "stay"))
	}
	return "the tag " + t.Name, out, nil
}

// describeTagGroupDelete names a group's tags, which go with it, and the
// records they are taken off, from the counts DeleteTagGroup's warnings
// give.
func (s *Pages) describeTagGroupDelete(ctx context.Context, userID, id string) (string, []string, error) {
	g, err := s.tagGroup(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	n, err := s.db.TagGroupUses(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	var out []string
	if n.Tags > 0 {
		out = append(out, "deletes its "+count(n.Tags, "tag", "tags"))
	}
	if uses := tagUses(n); len(uses) > 0 {
		out = append(out, "takes them off "+strings.Join(uses, ", ")+", which "+agree(n.Links(), "stays", "stay"))
	}
	return "the group " + g.Name, out, nil
}
