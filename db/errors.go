package db

import (
	"errors"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"tradejournal/db/trading"
)

// NotFoundError says a record does not exist or is not the caller's; the
// two cases are deliberately the same. Field names the body field that held
// the reference, when the missing record was referenced from a request body.
type NotFoundError struct {
	Kind  string // "Account", "Tag", …
	Field string // "account_id", or "" for the record the path names
}

func (e *NotFoundError) Error() string { return e.Kind + " not found" }

// InvalidError is a validation failure of one field, found by the rules in
// this package or the trading math (a fill that reverses the position, a
// root without a point value). It is the trading package's error, so that
// server maps the one type.
type InvalidError = trading.InvalidError

// ConflictError says a change would break a uniqueness rule or leave
// dependent records behind. Details name what conflicts, for the client.
type ConflictError struct {
	Message string
	Details map[string]string
	// Override names the option of the call that goes ahead anyway
	// (DeleteImport's force, DeleteAccount's cascade), or "" when none
	// does. Each caller says it in its own words: db speaks no HTTP.
	Override string
}

func (e *ConflictError) Error() string { return e.Message }

// isUniqueViolation reports whether err is SQLite refusing a duplicate,
// by its extended result code, never by message text.
func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

// notFound is the error for the record a path names.
func notFound(kind string) error { return &NotFoundError{Kind: kind} }

// IsStorageFull reports whether err is a write refused for want of space:
// SQLite's SQLITE_FULL (the disk is full, or the journal reached the size
// CapSize set) or the operating system's ENOSPC or EDQUOT from a file
// write. Such a write left nothing behind; once space is freed the same
// write succeeds.
func IsStorageFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
