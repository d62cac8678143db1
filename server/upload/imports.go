package upload

import (
	"bytes"
	"errors"
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
var importFields = []string{"format", "mapping_id", "account_id", "timezone", "decimal", "date_order", "dry_run",
	"create_accounts"}

// ImportForm reads the form's fields, then parses its file with them, and
// with mappings, the user's column mappings by name: the one mapping_id
// names, or those format=auto tries after the formats (DESIGN §14).
func ImportForm(mr *multipart.Reader, p *db.Principal, mappings []brokers.Mapping) (db.ImportInput, error) {
	return importForm(mr, p, mappings, nil)
}

// Unread is a file whose header no format or mapping reads, whole, as the
// import page keeps it while its trader maps its columns.
type Unread struct {
	FileName string
	Content  []byte
}

// ImportFormKeeping is ImportForm for the import page: where the error is
// that no format or mapping reads the file's header, it also answers the
// file, read to its end (at most 25 MiB).
func ImportFormKeeping(mr *multipart.Reader, p *db.Principal, mappings []brokers.Mapping) (db.ImportInput, *Unread, error) {
	keep := &Unread{}
	in, err := importForm(mr, p, mappings, keep)
	if err == nil || keep.Content == nil {
		return in, nil, err
	}
	return in, keep, err
}

func importForm(mr *multipart.Reader, p *db.Principal, mappings []brokers.Mapping, keep *Unread) (db.ImportInput, error) {
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
			if opts, err = withMappings(opts, fields["mapping_id"], mappings); err != nil {
				return db.ImportInput{}, err
			}
			in.FileName = partFileName(part)
			// The whole file first: one over the limit is refused before
			// the parser sees a byte of it.
			file, err := receive(part, maxUpload)
			if err != nil {
				return db.ImportInput{}, err
			}
			opts.Lines = file.lines + 1
			read, err := brokers.Read(file, opts)
			var fe *brokers.FieldError
			if errors.As(err, &fe) && fe.Field == "format" && keep != nil {
				keep.FileName, keep.Content = in.FileName, file.whole()
			}
			if err != nil {
				return db.ImportInput{}, err
			}
			in.File = read
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
	switch id := fields["mapping_id"]; {
	case opts.Format == "mapping" && id == "":
		f.Add("mapping_id", "mapping_id is required with format mapping")
	case id != "" && opts.Format != "" && opts.Format != "auto" && opts.Format != "mapping":
		f.Add("mapping_id", "mapping_id reads the file by a mapping: leave format auto (or mapping)")
	case id != "":
		f.UUID("mapping_id", id)
	case opts.Format != "" && opts.Format != "auto" && !slices.Contains(brokers.Formats, opts.Format):
		f.Add("format", "format must be auto, mapping or one of "+strings.Join(brokers.Formats, ", "))
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

// withMappings adds the user's mappings to the reading options: the one
// id names (404 naming mapping_id when the user has none such), or all of
// them for format=auto.
func withMappings(opts brokers.Options, id string, mappings []brokers.Mapping) (brokers.Options, error) {
	if id == "" {
		if opts.Format == "" || opts.Format == "auto" {
			opts.Mappings = mappings
		}
		return opts, nil
	}
	id = strings.ToLower(id)
	for i := range mappings {
		if mappings[i].ID == id {
			opts.Mapping = &mappings[i]
			return opts, nil
		}
	}
	return opts, &db.NotFoundError{Kind: "Import mapping", Field: "mapping_id"}
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

// spoolChunk is the size of the pieces a received file is held in.
const spoolChunk = 1 << 20

// receive reads a file part whole, into memory: at most max bytes, and one
// byte more ends the reading with the 400 that names the limit.
func receive(part io.Reader, max int64) (*spool, error) {
	s := &spool{}
	var size int64
	for size <= max {
		chunk := make([]byte, min(spoolChunk, max+1-size))
		n, err := io.ReadFull(part, chunk)
		if err == io.ErrUnexpectedEOF {
			err = io.EOF // the file ended inside this chunk
		}
		chunk = chunk[:n]
		s.chunks = append(s.chunks, chunk)
		s.lines += bytes.Count(chunk, []byte{'\n'})
		size += int64(len(chunk))
		if err == io.EOF && size <= max {
			return s, nil
		}
		if err != nil && err != io.EOF {
			return nil, bodyReadError(err)
		}
	}
	return nil, input.Invalid("file", fmt.Sprintf("file must be at most 25 MiB (%d bytes)", maxUpload))
}

// spool is a received file, read once: each chunk but the first is let go
// as soon as it is read, so that the file's bytes leave memory as the
// parser takes them. lines counts its line ends, for the parser to make
// room for its fills once; lost is set once a chunk that held bytes has
// gone.
type spool struct {
	chunks [][]byte
	i, off int // the next byte: chunks[i][off]
	lines  int
	lost   bool
}

func (s *spool) Read(p []byte) (int, error) {
	for s.i < len(s.chunks) && s.off == len(s.chunks[s.i]) {
		if s.i > 0 {
			s.lost = s.lost || len(s.chunks[s.i]) > 0
			s.chunks[s.i] = nil
		}
		s.i, s.off = s.i+1, 0
	}
	if s.i == len(s.chunks) {
		return 0, io.EOF
	}
	n := copy(p, s.chunks[s.i][s.off:])
	s.off += n
	return n, nil
}

// whole is the file as received, while no chunk of it has been let go
// (nil after): the import page keeps a file whose header nothing reads,
// which the parser refuses within its first 128 KiB, inside the first
// chunk, which it may have read to its end (a small file, whole).
func (s *spool) whole() []byte {
	if s.lost {
		return nil
	}
	return bytes.Join(s.chunks, nil)
}
