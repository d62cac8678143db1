package web

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
	"tradejournal/server/problem"
)

// A record's pages are built, as crud.go builds the API's handlers, from
// what differs between records: its form's fields, how the form reads into
// the API's input, the same input check and db calls the API makes, and
// how a record fills the form. The steps (show the form, read the post,
// check it, save it, redirect, or show the form again with what was typed
// and each field's reason in the form's words) are written once, here.

// field is one input of a record's form: the API's name of its field, the
// label the trader reads, how it is typed in (text, number, select, time,
// date, textarea, or checks: a box per option, for a list of ids), a
// select's choices (Choices, shown as they are sent, or Options, each
// with its own words), and a hint below it.
type field struct {
	Name, Label, Kind, Hint string
	Choices                 []string
	Options                 []option
	Required                bool
}

// option is one of a field's choices: the value the form sends and the
// words the trader reads ("APEX-1" for an account's id).
type option struct{ Value, Label string }

// form is a record's form as a page shows it: where it posts, its fields,
// the values in them (the record's, or what was typed), each field's
// reason, and a problem that names no field of the form.
type form struct {
	Title, Action, Submit, Cancel string
	Fields                        []field
	Values                        url.Values
	Errors                        map[string]string
	Problem                       string
}

// Value is what the form shows in the field name.
func (f form) Value(name string) string { return f.Values.Get(name) }

// Checked reports whether the checks field name holds value.
func (f form) Checked(name, value string) bool { return slices.Contains(f.Values[name], value) }

// Error is the field name's reason, "" when it has none.
func (f form) Error(name string) string { return f.Errors[name] }

// fieldReasons sorts a refused input's reasons onto the form's fields, in
// the form's words: a reason that names the field ("account_number is
// required", "commission_schedule.MNQ must be ...") loses the JSON name,
// as the label beside it says which field it is. What names no field of
// the form comes back as one line, each reason under its label or name.
func fieldReasons(e *problem.Problem, fields []field) (byField map[string]string, rest string) {
	byField = map[string]string{}
	labels := map[string]string{}
	for _, f := range fields {
		labels[f.Name] = f.Label
	}
	var others []string
	for _, path := range slices.Sorted(maps.Keys(e.Details)) {
		reason := e.Details[path]
		name := path
		if i := strings.IndexAny(path, "[."); i >= 0 {
			name = path[:i]
		}
		if _, ok := labels[name]; !ok {
			others = append(others, problemReason(path, reason))
			continue
		}
		short := strings.TrimSpace(strings.TrimPrefix(reason, path))
		if path != name {
			short = strings.TrimPrefix(path, name) + " " + short // "[1].price must be …", ".MNQ must be …"
			short = strings.TrimLeft(short, ".")
		}
		if _, dup := byField[name]; !dup {
			byField[name] = short
		}
	}
	if len(e.Details) == 0 {
		others = append(others, e.Message)
	}
	return byField, strings.Join(others, ". ")
}

// formReader reads a form post into an API input, the way the API's JSON
// would carry it. On create an empty field is absent (the default); on an
// edit it clears what can be cleared (null) and leaves the rest.
type formReader struct {
	values url.Values
	create bool
	errs   input.Errors
	labels map[string]string
}

func newFormReader(values url.Values, create bool, fields []field) *formReader {
	labels := map[string]string{}
	for _, f := range fields {
		labels[f.Name] = f.Label
	}
	return &formReader{values: values, create: create, errs: input.Errors{}, labels: labels}
}

// text reads a text field; clearable says an edit's empty value is null.
func (r *formReader) text(name string, clearable bool) db.Optional[string] {
	v := strings.TrimSpace(r.values.Get(name))
	switch {
	case v != "":
		return db.Some(v)
	case !r.create && clearable && r.values.Has(name):
		return db.Optional[string]{Set: true, Null: true}
	}
	return db.Optional[string]{}
}

// number reads a number field (thousands separators allowed).
func (r *formReader) number(name string, clearable bool) db.Optional[float64] {
	v := strings.ReplaceAll(strings.TrimSpace(r.values.Get(name)), ",", "")
	if v == "" {
		if !r.create && clearable && r.values.Has(name) {
			return db.Optional[float64]{Set: true, Null: true}
		}
		return db.Optional[float64]{}
	}
	if n := r.errs.QueryNumber(name, v); n != nil {
		return db.Some(*n)
	}
	return db.Optional[float64]{}
}

// whole reads a whole-number field.
func (r *formReader) whole(name string, clearable bool) db.Optional[int] {
	v := strings.TrimSpace(r.values.Get(name))
	if v == "" {
		if !r.create && clearable && r.values.Has(name) {
			return db.Optional[int]{Set: true, Null: true}
		}
		return db.Optional[int]{}
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		r.errs.Add(name, name+" must be a whole number")
		return db.Optional[int]{}
	}
	return db.Some(n)
}

// ids reads a checks field: the ids ticked, in the form's order. A form
// that shows the field sends its empty marker too, so that no box ticked
// is the empty list (an edit clears it); a form without the field leaves
// the list as it is.
func (r *formReader) ids(name string) db.Optional[[]string] {
	if !r.values.Has(name) {
		return db.Optional[[]string]{}
	}
	out := []string{}
	for _, v := range r.values[name] {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return db.Some(out)
}

// err is what reading the form found wrong, as the API's check would say
// it.
func (r *formReader) err() error { return r.errs.Err() }

// recordPages are one kind of record's form pages: a new record's form and
// its post, an edit's form and its post. In is the API's input, T the
// record.
type recordPages[In, T any] struct {
	kind     string // "Account": its 404s and titles
	path     string // "/accounts": the list the posts go back to
	nav      string
	fields   []field
	read     func(r *formReader) In
	check    func(in *In, create bool) error
	values   func(T) url.Values
	get      func(ctx context.Context, userID, id string) (T, error)
	create   func(ctx context.Context, userID string, in In) (T, error)
	update   func(ctx context.Context, userID, id string, in In) (T, error)
	describe func(T) string // the record as its edit's title names it
	// defaults fill a new record's form as it first shows (today's
	// date, the record a link names); nil shows it empty.
	defaults func(r *http.Request, sess *db.Session) url.Values
}

// formPage is the data of the record form template.
type formPage struct {
	pageData
	Form form
}

func (rp recordPages[In, T]) render(s *Pages, w http.ResponseWriter, r *http.Request, sess *db.Session, status int, f form) {
	f.Fields, f.Cancel = rp.fields, rp.path
	s.render(w, r, status, "record", formPage{pageData{Session: sess, Nav: rp.nav}, f})
}

// newForm shows an empty form for a new record.
func (rp recordPages[In, T]) newForm(s *Pages) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, sess *db.Session) {
		values := url.Values{}
		if rp.defaults != nil {
			values = rp.defaults(r, sess)
		}
		rp.render(s, w, r, sess, http.StatusOK, form{Title: "New " + strings.ToLower(rp.kind), Action: rp.path,
			Submit: "Create " + strings.ToLower(rp.kind), Values: values})
	}
}

// createPost creates the record from the form: back to the list, or the
// form again with what was typed and why it was refused.
func (rp recordPages[In, T]) createPost(s *Pages) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, sess *db.Session) {
		err := rp.save(r.Context(), r.PostForm, true, func(in In) error {
			_, err := rp.create(r.Context(), sess.UserID, in)
			return err
		})
		if err == nil {
			http.Redirect(w, r, rp.path+"?saved=1", http.StatusSeeOther)
			return
		}
		rp.refused(s, w, r, sess, err, form{Title: "New " + strings.ToLower(rp.kind), Action: rp.path,
			Submit: "Create " + strings.ToLower(rp.kind)})
	}
}

// editForm shows the record in its form.
func (rp recordPages[In, T]) editForm(s *Pages) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, sess *db.Session) {
		id, err := input.PathID(r, rp.kind)
		var rec T
		if err == nil {
			rec, err = rp.get(r.Context(), sess.UserID, id)
		}
		if err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
		rp.render(s, w, r, sess, http.StatusOK, form{Title: "Edit " + rp.describe(rec), Action: rp.path + "/" + id,
			Submit: "Save", Values: rp.values(rec)})
	}
}

// updatePost saves the form over the record, as the API's PUT does.
func (rp recordPages[In, T]) updatePost(s *Pages) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, sess *db.Session) {
		id, err := input.PathID(r, rp.kind)
		if err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
		err = rp.save(r.Context(), r.PostForm, false, func(in In) error {
			_, err := rp.update(r.Context(), sess.UserID, id, in)
			return err
		})
		if err == nil {
			http.Redirect(w, r, rp.path+"?saved=1", http.StatusSeeOther)
			return
		}
		rp.refused(s, w, r, sess, err, form{Title: "Edit " + strings.ToLower(rp.kind), Action: rp.path + "/" + id, Submit: "Save"})
	}
}

// save reads the form, checks it as the API checks its body, and saves it.
func (rp recordPages[In, T]) save(ctx context.Context, values url.Values, create bool, save func(In) error) error {
	fr := newFormReader(values, create, rp.fields)
	in := rp.read(fr)
	if err := fr.err(); err != nil {
		return err
	}
	if err := rp.check(&in, create); err != nil {
		return err
	}
	return save(in)
}

// refused shows the form again after a refusal of the form's making (a
// 4xx), with everything typed and each reason beside its field; anything
// else is the error page.
func (rp recordPages[In, T]) refused(s *Pages, w http.ResponseWriter, r *http.Request, sess *db.Session, err error, f form) {
	e := problem.Answer(w, r, s.log, err)
	if e.Status >= 500 {
		s.renderError(w, r, sess, e)
		return
	}
	f.Values = r.PostForm
	f.Errors, f.Problem = fieldReasons(e, rp.fields)
	rp.render(s, w, r, sess, e.Status, f)
}

// confirmPage is the data of a delete's confirm step: what goes with it,
// and where its post goes.
type confirmPage struct {
	pageData
	Title, Action, Cancel, Submit string
	Consequences                  []string
}

// confirmDelete is a delete's confirm step (no JavaScript needed): a page
// that names the record and lists what else goes or is unlinked, from the
// same counts the API's delete uses, with the post that deletes.
func (s *Pages) confirmDelete(kind, path, nav string, describe func(ctx context.Context, userID, id string) (title string, consequences []string, err error)) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, sess *db.Session) {
		id, err := input.PathID(r, kind)
		var title string
		var consequences []string
		if err == nil {
			title, consequences, err = describe(r.Context(), sess.UserID, id)
		}
		if err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
		s.render(w, r, http.StatusOK, "confirm", confirmPage{pageData: pageData{Session: sess, Nav: nav},
			Title: "Delete " + title + "?", Action: path + "/" + id + "/delete", Cancel: path,
			Submit: "Delete " + title, Consequences: consequences})
	}
}

// deletePost deletes the record and goes back to its list.
func (s *Pages) deletePost(kind, path string, del func(ctx context.Context, userID, id string) error) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, sess *db.Session) {
		id, err := input.PathID(r, kind)
		if err == nil {
			err = del(r.Context(), sess.UserID, id)
		}
		if err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
		http.Redirect(w, r, path+"?deleted=1", http.StatusSeeOther)
	}
}

// deleteOnly is a store's delete, as the API's DELETE makes it, for a
// page's delete step: what it reports back (its warnings) is the API's to
// show, the confirm step having said it before.
func deleteOnly[R any](del func(ctx context.Context, userID, id string) (R, error)) func(ctx context.Context, userID, id string) error {
	return func(ctx context.Context, userID, id string) error {
		_, err := del(ctx, userID, id)
		return err
	}
}

// count is n things, as a confirm step lists them: "12 trades", "1 payout".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// doneWords are what a page says when a form sent it back with one of
// these in its query, after a redirect.
var doneWords = map[string]string{"added": "Added.", "uploaded": "Uploaded.", "saved": "Saved.", "deleted": "Deleted.",
	"revoked": "The key is revoked: its scripts and browser sessions are refused from now on."}

// doneMessage is the page's message for the first of keys that its query
// has, "" for none.
func doneMessage(q url.Values, keys ...string) string {
	for _, k := range keys {
		if q.Has(k) {
			return doneWords[k]
		}
	}
	return ""
}

// formProblem answers a form whose save failed: for the form's fault (a
// 4xx) show gets the status and the reason, to show the page again with
// it; anything else is the error page.
func (s *Pages) formProblem(w http.ResponseWriter, r *http.Request, sess *db.Session, err error, show func(status int, problem string)) {
	e := problem.Answer(w, r, s.log, err)
	if e.Status >= 500 {
		s.renderError(w, r, sess, e)
		return
	}
	show(e.Status, problemText(e))
}

// formProblemText is an API error in a form's words: each field's reason
// with the field's label (labels, by the API's name of the field) in
// place of its JSON name, so that "stop_loss_levels[1].price must be a
// number" reads "Stops: the 2nd price must be a number" on the form whose
// field is labelled Stops. A field without a label keeps its name.
func formProblemText(e *problem.Problem, labels map[string]string) string {
	if len(e.Details) == 0 {
		return e.Message
	}
	var reasons []string
	for _, field := range slices.Sorted(maps.Keys(e.Details)) {
		reason := e.Details[field]
		name, rest := field, ""
		if i := strings.IndexAny(field, "[."); i >= 0 {
			name, rest = field[:i], field[i:]
		}
		label, ok := labels[name]
		if !ok {
			reasons = append(reasons, problemReason(field, reason))
			continue
		}
		reason = strings.TrimPrefix(strings.TrimPrefix(reason, field), " ")
		if n, ok := entryNumber(rest); ok {
			label += ", entry " + strconv.Itoa(n)
		}
		reasons = append(reasons, label+": "+reason)
	}
	return strings.Join(reasons, ". ")
}

// entryNumber is the 1-based number of a field path's first index
// ("[1].price" is entry 2).
func entryNumber(rest string) (int, bool) {
	if !strings.HasPrefix(rest, "[") {
		return 0, false
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(rest[1:end])
	return n + 1, err == nil
}

// problemReason is one field's reason, naming the field where the reason
// does not.
func problemReason(field, reason string) string {
	if !strings.HasPrefix(reason, field) {
		reason = field + ": " + reason
	}
	return reason
}

// problemText is an API error as one line for a page: the message and
// each field's reason, by field, named where the reason does not name it.
func problemText(e *problem.Problem) string {
	msg := e.Message
	for _, field := range slices.Sorted(maps.Keys(e.Details)) {
		msg += ". " + problemReason(field, e.Details[field])
	}
	return msg
}
