package db

import "strconv"

// Deleted reports a delete: what went and what went with it.
type Deleted struct {
	ID       string
	Warnings []string
	// Blobs are the hashes of files that no document uses any more, for
	// the caller to remove from the store after the commit.
	Blobs []string
}

// note adds the warning "verb n nouns" (plural) when n is not 0.
func (d *Deleted) note(verb string, n int, noun string) {
	if n > 0 {
		d.Warnings = append(d.Warnings, verb+" "+plural(n, noun))
	}
}

// plural writes "1 trade", "2 trades".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
