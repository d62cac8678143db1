// Package schema holds the journal's goose migrations, embedded in the binary.
package schema

import "embed"

// FS holds the numbered SQL migrations, applied in order when the database opens.
//
//go:embed *.sql
var FS embed.FS
