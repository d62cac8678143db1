// Package problem is the one mapping from an error to what a client reads:
// a status, a code, a message and each field's reason. The API writes a
// Problem as its JSON error body; the web pages show it on a page or
// beside a form's fields. Either side calls Answer, so both log, count and
// set headers alike.
package problem

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"tradejournal/db"
	"tradejournal/db/brokers"
	"tradejournal/server/input"
)

// Problem is an error with the status, code and message a client reads,
// and, for a bad input, each field's reason.
type Problem struct {
	Status  int
	Code    string
	Message string
	Details map[string]string
}

func (e *Problem) Error() string { return e.Code + ": " + e.Message }

// Problems of the authentication layer. InvalidKey is one value so that the
// 401 body is byte-identical for a missing, malformed or unknown key.
var (
	InvalidKey   = &Problem{Status: http.StatusUnauthorized, Code: "INVALID_API_KEY", Message: "Invalid or missing API key"}
	RevokedKey   = &Problem{Status: http.StatusUnauthorized, Code: "UNAUTHORIZED", Message: "API key has been revoked"}
	Subscription = &Problem{Status: http.StatusForbidden, Code: "SUBSCRIPTION_REQUIRED", Message: "API access requires an active subscription"}
	Internal     = &Problem{Status: http.StatusInternalServerError, Code: "INTERNAL_ERROR", Message: "Internal server error"}
)

// Forbidden refuses a key without scope.
func Forbidden(scope string) error {
	return &Problem{Status: http.StatusForbidden, Code: "FORBIDDEN", Message: "This API key lacks the " + scope + " scope"}
}

// StorageFull is the 507 of a write refused for want of disk space
// (db.IsStorageFull). Nothing of the write was kept; the same write
// succeeds once space is freed, without a restart.
var StorageFull = &Problem{Status: http.StatusInsufficientStorage, Code: "STORAGE_FULL",
	Message: "The disk that holds the journal's data directory is full, so nothing was written. Free some space on it, then retry"}

// StorageFullRetry is the Retry-After of a 507, in seconds.
const StorageFullRetry = 60

// Misdirected is the 421 of a request whose Host names no name the
// journal answers to (DESIGN §15: DNS rebinding).
var Misdirected = &Problem{Status: http.StatusMisdirectedRequest, Code: "MISDIRECTED_REQUEST",
	Message: "This server does not answer to that host name; use its address or public URL, or allow the name with serve --allowed-host"}

// TooLarge refuses a JSON body over its 1 MiB limit.
var TooLarge = &Problem{Status: http.StatusRequestEntityTooLarge, Code: "PAYLOAD_TOO_LARGE",
	Message: "Request body exceeds the limit of 1 MiB"}

// TooLargeFor refuses a JSON body over limit bytes, a route's own limit
// (a whole number of MiB).
func TooLargeFor(limit int64) *Problem {
	if limit == 1<<20 {
		return TooLarge
	}
	return &Problem{Status: http.StatusRequestEntityTooLarge, Code: "PAYLOAD_TOO_LARGE",
		Message: fmt.Sprintf("Request body exceeds the limit of %d MiB", limit>>20)}
}

// TooSlow is the 408 of an upload whose body arrives below the rate
// floor. The connection is closed after it: the rest of the body is not
// read.
var TooSlow = &Problem{Status: http.StatusRequestTimeout, Code: "REQUEST_TIMEOUT",
	Message: "The upload arrived too slowly and was stopped; nothing was kept. Retry on a faster connection"}

// RateLimited is a 429 telling the client when to come back.
func RateLimited(w http.ResponseWriter, wait time.Duration) error {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	return &Problem{Status: http.StatusTooManyRequests, Code: "RATE_LIMITED",
		Message: "Too many requests; retry after " + strconv.Itoa(secs) + " seconds"}
}

// Of maps every error the handlers see to what the client reads. This is
// the one place where errors become statuses; internal says the cause is
// not the client's, to be logged and never shown.
func Of(err error) (e *Problem, internal bool) {
	var (
		p        *Problem
		fields   *input.Error
		notFound *db.NotFoundError
		inv      *db.InvalidError
		conflict *db.ConflictError
		rows     *brokers.Error
		field    *brokers.FieldError
	)
	switch {
	case errors.As(err, &p):
		return p, p.Status >= 500
	case errors.As(err, &notFound):
		e := &Problem{Status: http.StatusNotFound, Code: "NOT_FOUND", Message: notFound.Error()}
		if notFound.Field != "" {
			e.Details = map[string]string{notFound.Field: notFound.Error()}
		}
		return e, false
	case errors.As(err, &fields):
		return &Problem{Status: http.StatusBadRequest, Code: "VALIDATION_ERROR", Message: "Validation failed", Details: fields.Fields}, false
	case errors.As(err, &inv):
		return Of(input.Invalid(inv.Field, inv.Message))
	case errors.As(err, &rows):
		details := make(map[string]string, len(rows.Rows))
		for _, e := range rows.Rows {
			details[fmt.Sprintf("rows[%d].%s", e.Line, e.Column)] = e.Message
		}
		return &Problem{Status: http.StatusBadRequest, Code: "VALIDATION_ERROR",
			Message: "The file has rows that cannot be read; nothing was imported", Details: details}, false
	case errors.As(err, &field):
		return Of(input.Invalid(field.Field, field.Message))
	case errors.As(err, &conflict):
		return &Problem{Status: http.StatusConflict, Code: "CONFLICT", Message: conflict.Message, Details: conflict.Details}, false
	case db.IsStorageFull(err):
		return StorageFull, false
	}
	return Internal, true
}

// Answer is the answer to err, for the API and the pages alike: it logs
// internal causes with the request id (never shown to the client) and a
// full disk, and sets the headers the answer needs whatever its body.
func Answer(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) *Problem {
	e, internal := Of(err)
	if internal {
		log.ErrorContext(r.Context(), "request failed", "request_id", RequestID(r.Context()),
			"method", r.Method, "path", r.URL.Path, "err", err)
	}
	if e == StorageFull {
		// Not the client's fault nor a bug: the owner must free space.
		log.WarnContext(r.Context(), "write refused: the disk holding the data directory is full",
			"request_id", RequestID(r.Context()), "method", r.Method, "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", strconv.Itoa(StorageFullRetry))
	}
	if e == TooSlow {
		// The rest of the body is still coming: do not wait to read it.
		w.Header().Set("Connection", "close")
	}
	return e
}

type ctxKey int

const ctxRequestID ctxKey = iota

// WithRequestID gives a request's context its id, for the log lines of
// everything that answers it.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxRequestID, id)
}

// RequestID is the id WithRequestID gave ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(ctxRequestID).(string)
	return id
}
