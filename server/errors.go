package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"tradejournal/db"
	"tradejournal/db/brokers"
	"tradejournal/server/input"
)

// apiError is an error with the status, code and message a client reads.
type apiError struct {
	status  int
	code    string
	message string
	details map[string]string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

// Errors of the authentication layer. errInvalidKey is one value so that the
// 401 body is byte-identical for a missing, malformed or unknown key.
var (
	errInvalidKey   = &apiError{status: http.StatusUnauthorized, code: "INVALID_API_KEY", message: "Invalid or missing API key"}
	errRevokedKey   = &apiError{status: http.StatusUnauthorized, code: "UNAUTHORIZED", message: "API key has been revoked"}
	errSubscription = &apiError{status: http.StatusForbidden, code: "SUBSCRIPTION_REQUIRED", message: "API access requires an active subscription"}
	errInternal     = &apiError{status: http.StatusInternalServerError, code: "INTERNAL_ERROR", message: "Internal server error"}
)

func errForbidden(scope string) error {
	return &apiError{status: http.StatusForbidden, code: "FORBIDDEN", message: "This API key lacks the " + scope + " scope"}
}

type ctxKey int

const (
	ctxRequestID ctxKey = iota
	ctxNested
)

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(ctxRequestID).(string)
	return id
}

// errorBody is the standard error body of SPEC.md.
type errorBody struct {
	Error   string            `json:"error"`
	Code    string            `json:"code"`
	Details map[string]string `json:"details,omitempty"`
}

// nestedErrorBody is the documents' validation and not-found body.
type nestedErrorBody struct {
	Error nestedError `json:"error"`
}

type nestedError struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Details map[string]string `json:"details,omitempty"`
}

// errStorageFull is the 507 of a write refused for want of disk space
// (db.IsStorageFull). Nothing of the write was kept; the same write
// succeeds once space is freed, without a restart.
var errStorageFull = &apiError{status: http.StatusInsufficientStorage, code: "STORAGE_FULL",
	message: "The disk that holds the journal's data directory is full, so nothing was written. Free some space on it, then retry"}

// storageFullRetry is the Retry-After of a 507, in seconds.
const storageFullRetry = 60

// toAPIError maps every error the handlers see to what the client reads.
// This is the one place where errors become statuses.
func toAPIError(err error) (e *apiError, internal bool) {
	var (
		ae       *apiError
		fields   *input.Error
		notFound *db.NotFoundError
		inv      *db.InvalidError
		conflict *db.ConflictError
		rows     *brokers.Error
		field    *brokers.FieldError
	)
	switch {
	case errors.As(err, &ae):
		return ae, ae.status >= 500
	case errors.As(err, &notFound):
		e := &apiError{status: http.StatusNotFound, code: "NOT_FOUND", message: notFound.Error()}
		if notFound.Field != "" {
			e.details = map[string]string{notFound.Field: notFound.Error()}
		}
		return e, false
	case errors.As(err, &fields):
		return &apiError{status: http.StatusBadRequest, code: "VALIDATION_ERROR", message: "Validation failed", details: fields.Fields}, false
	case errors.As(err, &inv):
		return fromFields(input.Invalid(inv.Field, inv.Message)), false
	case errors.As(err, &rows):
		details := make(map[string]string, len(rows.Rows))
		for _, e := range rows.Rows {
			details[fmt.Sprintf("rows[%d].%s", e.Line, e.Column)] = e.Message
		}
		return &apiError{status: http.StatusBadRequest, code: "VALIDATION_ERROR",
			message: "The file has rows that cannot be read; nothing was imported", details: details}, false
	case errors.As(err, &field):
		return fromFields(input.Invalid(field.Field, field.Message)), false
	case errors.As(err, &conflict):
		return &apiError{status: http.StatusConflict, code: "CONFLICT", message: conflict.Message, details: conflict.Details}, false
	case db.IsStorageFull(err):
		return errStorageFull, false
	}
	return errInternal, true
}

// fromFields is the 400 of an *input.Error.
func fromFields(err error) *apiError {
	e, _ := toAPIError(err)
	return e
}

// answerError is the answer to err, for the API and the pages alike: it
// logs internal causes with the request id (never shown to the client) and
// a full disk, and sets the headers the answer needs whatever its body.
func (s *Server) answerError(w http.ResponseWriter, r *http.Request, err error) *apiError {
	e, internal := toAPIError(err)
	if internal {
		s.log.ErrorContext(r.Context(), "request failed", "request_id", requestID(r.Context()),
			"method", r.Method, "path", r.URL.Path, "err", err)
	}
	if e == errStorageFull {
		// Not the client's fault nor a bug: the owner must free space.
		s.log.WarnContext(r.Context(), "write refused: the disk holding the data directory is full",
			"request_id", requestID(r.Context()), "method", r.Method, "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", strconv.Itoa(storageFullRetry))
	}
	if e == errTooSlow {
		// The rest of the body is still coming: do not wait to read it.
		w.Header().Set("Connection", "close")
	}
	return e
}

// writeError answers err in the body the route uses (answerError).
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := s.answerError(w, r, err)
	if e.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", "Bearer") // RFC 6750: the key goes in Authorization: Bearer
	}
	if nested, _ := r.Context().Value(ctxNested).(bool); nested &&
		(e.status == http.StatusBadRequest || e.status == http.StatusNotFound) {
		writeJSON(w, e.status, nestedErrorBody{nestedError{Code: e.code, Message: e.message, Details: e.details}})
		return
	}
	writeJSON(w, e.status, errorBody{Error: e.message, Code: e.code, Details: e.details})
}
