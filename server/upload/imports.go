package upload

import (
	"fmt"
	"io"
	"mime/multipart"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"tradejournal/db"
	"tradejournal/db/brokers"
	"tradejournal/server/input"
)

// importFields are the import form's text fields (DESIGN §8). They come
// before the file part, so that the file can be read as it arrives.
var importFields = []string{"format", "account_id", "timezone", "decimal", "date_order", "dry_run", "create_accounts"}

// ImportForm reads the form's fields, then parses its file with them.
func ImportForm(mr *multipart.Reader, p *db.Principal) (db.ImportInput, error) {
	fields := map[string]string{}
	var in db.ImportInput
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return db.ImportInput{}, bodyReadError(err)
		}
		name := part.FormName()
		switch {
		case name == "file":
			if in.File != nil {
				return db.ImportInput{}, input.Invalid("file", "send one file per import")
			}
			opts, err := importOptions(fields, p, &in)
			if err != nil {
				return db.ImportInput{}, err
			}
			in.FileName = partFileName(part)
			body := &sizedReader{r: part, left: maxUpload}
			file, err := brokers.Read(body, opts)
			switch {
			case body.err != nil:
				return db.ImportInput{}, bodyReadError(body.err)
			case body.left < 0:
				return db.ImportInput{}, input.Invalid("file", fmt.Sprintf("file must be at most 25 MiB (%d bytes)", maxUpload))
			case err != nil:
				return db.ImportInput{}, err
			}
			in.File = file
		case slices.Contains(importFields, name):
			if in.File != nil {
				return db.ImportInput{}, input.Invalid(name, name+" must come before the file in the form")
			}
			if _, dup := fields[name]; dup {
				return db.ImportInput{}, input.Invalid(name, name+" is given more than once")
			}
			b, err := io.ReadAll(io.LimitReader(part, maxFormField+1))
			if err != nil {
				return db.ImportInput{}, bodyReadError(err)
			}
			if len(b) > maxFormField || !utf8.Valid(b) {
				return db.ImportInput{}, input.Invalid(name, fmt.Sprintf("%s must be UTF-8 text of at most %d bytes", name, maxFormField))
			}
			fields[name] = strings.TrimSpace(string(b))
		}
	}
	if in.File == nil {
		return db.ImportInput{}, input.Invalid("file", "file is required")
	}
	return in, nil
}

// importOptions checks the form's fields and turns them into the parser's
// options and the import's account, zone and flags. A dry run read from a
// form lists unknown account numbers rather than refusing them (DESIGN §14).
func importOptions(fields map[string]string, p *db.Principal, in *db.ImportInput) (brokers.Options, error) {
	f := input.Errors{}
	opts := brokers.Options{Format: fields["format"], Decimal: fields["decimal"], DateOrder: fields["date_order"]}
	if opts.Format != "" && opts.Format != "auto" && !slices.Contains(brokers.Formats, opts.Format) {
		f.Add("format", "format must be auto or one of "+strings.Join(brokers.Formats, ", "))
	}
	if !slices.Contains([]string{"", "point", "comma"}, opts.Decimal) {
		f.Add("decimal", "decimal must be point or comma")
	}
	if !slices.Contains([]string{"", "auto", "mdy", "dmy", "ymd"}, opts.DateOrder) {
		f.Add("date_order", "date_order must be auto, mdy, dmy or ymd")
	}
	if id := fields["account_id"]; id != "" {
		in.AccountID, _ = f.UUID("account_id", id)
	}
	in.Timezone = p.Timezone
	if tz := fields["timezone"]; tz != "" {
		if db.CheckTimezone(tz) != nil {
			f.Add("timezone", "timezone must be an IANA zone name such as America/New_York")
		}
		in.Timezone = tz
	}
	in.DryRun = formBool(f, fields, "dry_run")
	in.CreateAccounts = formBool(f, fields, "create_accounts")
	in.ListUnknown = true
	if err := f.Err(); err != nil {
		return brokers.Options{}, err
	}
	loc, err := time.LoadLocation(in.Timezone)
	if err != nil {
		return brokers.Options{}, input.Invalid("timezone", "timezone must be an IANA zone name such as America/New_York")
	}
	opts.Location = loc
	return opts, nil
}

// formBool reads a true/false field; absent is false.
func formBool(f input.Errors, fields map[string]string, name string) bool {
	switch fields[name] {
	case "", "false":
	case "true":
		return true
	default:
		f.Add(name, name+" must be true or false")
	}
	return false
}

// sizedReader reads r until left bytes are used up, and notes one byte
// more by making left negative; it remembers r's first error other than EOF.
type sizedReader struct {
	r    io.Reader
	left int64
	err  error
}

func (s *sizedReader) Read(p []byte) (int, error) {
	if s.left < 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > s.left+1 {
		p = p[:s.left+1]
	}
	n, err := s.r.Read(p)
	s.left -= int64(n)
	if s.left < 0 {
		return n, io.EOF
	}
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}
