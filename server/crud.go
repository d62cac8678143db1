package server

import (
	"context"
	"net/http"
	"net/url"

	"tradejournal/db"
	"tradejournal/server/input"
)

// Every handler is a handlerFunc that the route table (server.go) names.
// Most routes have one of a few shapes: a list, a filtered list, get,
// create, update or delete by id, each calling one db method. The builders
// here (and contentList and statsHandler beside their resources) make
// those handlers from the record's kind, its body decoder and the db
// method, so the steps (parse the id or the query, decode the body, call
// the method, answer or write the error) are written once. A route that
// does more (a cascade, an upload, the tags' type-switched bodies) is a
// method of Server, s.handleX, in its resource's file.

// decodeFunc reads and validates a body; create says whether the fields a
// new record needs must be present.
type decodeFunc[In any] func(w http.ResponseWriter, r *http.Request, create bool) (In, error)

// jsonBody is the decodeFunc of a JSON body that validate checks (and
// normalises in place) once decoded.
func jsonBody[In any](validate func(in *In, create bool) error) decodeFunc[In] {
	return func(w http.ResponseWriter, r *http.Request, create bool) (In, error) {
		var in In
		if err := decodeJSON(w, r, &in); err != nil {
			return in, err
		}
		return in, validate(&in, create)
	}
}

// listHandler answers an unfiltered list with a page and its pagination.
func listHandler[T any](s *Server, list func(ctx context.Context, userID string, page db.Page) ([]T, int, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *db.Principal) {
		page, err := input.Page(r.URL.Query())
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		items, total, err := list(r.Context(), p.UserID, page)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeList(w, items, total, page)
	}
}

// filteredList answers a list route whose query parse reads into a
// filter: 400 naming a malformed parameter, else a page and its
// pagination, written by write (writeList, or writeEncodedList for items
// the database keeps encoded).
func filteredList[F, T any](s *Server, parse func(url.Values) (F, error),
	list func(ctx context.Context, userID string, f F, page db.Page) ([]T, int, error),
	write func(w http.ResponseWriter, items []T, total int, p db.Page)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *db.Principal) {
		q := r.URL.Query()
		page, err := input.Page(q)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		filter, err := parse(q)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		items, total, err := list(r.Context(), p.UserID, filter, page)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		write(w, items, total, page)
	}
}

// getHandler answers GET …/{id} with 200 {"data": record}. A malformed id
// is the kind's 404, as an unknown one is.
func getHandler[T any](s *Server, kind string, get func(ctx context.Context, userID, id string) (T, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *db.Principal) {
		id, err := input.PathID(r, kind)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		v, err := get(r.Context(), p.UserID, id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, dataBody[T]{v})
	}
}

// createHandler answers POST with 201 {"data": record}.
func createHandler[In, T any](s *Server, decode decodeFunc[In], create func(ctx context.Context, userID string, in In) (T, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *db.Principal) {
		in, err := decode(w, r, true)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		v, err := create(r.Context(), p.UserID, in)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusCreated, dataBody[T]{v})
	}
}

// updateHandler answers PUT …/{id} with 200 {"data": record}. The id is
// checked before the body is read, so a malformed one is a 404 whatever
// the body holds.
func updateHandler[In, T any](s *Server, kind string, decode decodeFunc[In], update func(ctx context.Context, userID, id string, in In) (T, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *db.Principal) {
		id, err := input.PathID(r, kind)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		in, err := decode(w, r, false)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		v, err := update(r.Context(), p.UserID, id, in)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, dataBody[T]{v})
	}
}

// deleteHandler answers DELETE …/{id} with 200 {"success": true,
// "deleted_id": …, "warnings": […]}.
func deleteHandler(s *Server, kind string, del func(ctx context.Context, userID, id string) (db.Deleted, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *db.Principal) {
		id, err := input.PathID(r, kind)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		d, err := del(r.Context(), p.UserID, id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, deletedBody{Success: true, DeletedID: d.ID, Warnings: d.Warnings})
	}
}
