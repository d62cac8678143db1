package db

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"tradejournal/db/brokers"
	"tradejournal/db/trading"
)

// Import is one broker file brought into the journal (DESIGN §8).
type Import struct {
	ID         *string        `json:"id"` // null for a dry run
	Format     string         `json:"format"`
	MappingID  *string        `json:"mapping_id"` // the mapping the file was read by (format "mapping"), else null
	FileName   ImportFileName `json:"file_name"`
	Timezone   string         `json:"timezone"`
	AccountIDs []string       `json:"account_ids"`
	// UnknownAccounts are the account numbers the file's rows name that the
	// user had no account for (DESIGN §14), sorted: the accounts the import
	// created (a dry run: would create), or, in a dry run without
	// CreateAccounts, the numbers whose rows it left out. Never nil.
	UnknownAccounts []string `json:"unknown_accounts"`
	Rows            int      `json:"rows"`
	Fills           int      `json:"fills"`
	Skipped         int      `json:"skipped"`
	Duplicates      int      `json:"duplicates"`
	TradesCreated   int      `json:"trades_created"`
	TradesUpdated   int      `json:"trades_updated"`
	Warnings        []string `json:"warnings"`
	CreatedAt       string   `json:"created_at"`
	// Trades is a dry run's preview: at most maxPreview of the trades it
	// would create or continue.
	Trades []Trade `json:"trades,omitempty"`
}

// ImportInput is a read file on its way into the journal.
type ImportInput struct {
	File      *brokers.File
	FileName  string
	Timezone  string // the zone named in the Import: the request's or the user's; a mapping's own zone, when it has one, wins
	AccountID string // every fill goes to this account; "" to place fills by their account column
	// AccountNumber names that account by its number instead (the command line).
	AccountNumber string
	DryRun        bool
	// CreateAccounts makes a retail account for each account number the
	// rows name that the user has none for, instead of refusing those rows.
	CreateAccounts bool
	// ListUnknown lets a dry run whose only row errors are unknown account
	// numbers preview the other rows and name the numbers in
	// UnknownAccounts, rather than refuse the file as the import would. The
	// API's dry run sets it; the command line's --dry-run does not.
	ListUnknown bool
	// OnlyNew writes nothing, not even the Import, when every fill is a
	// duplicate, and answers with id null: fills posted by a script, which
	// may retry freely (DESIGN §14).
	OnlyNew bool
}

// errDryRun ends a dry run's transaction: it rolls back what the import
// wrote, once the preview is taken.
var errDryRun = errors.New("dry run")

// maxPreview bounds a dry run's preview.
const maxPreview = 100

// importedFill is one fill of the file on its way to a trade: the file's
// fill (shared, not copied), and what the import adds to it.
type importedFill struct {
	*brokers.Fill
	accountID  string
	commission float64
	// ordinal numbers, from 1, the fills without an id that are identical
	// to each other, in file order: the n of their source id.
	ordinal int
}

// sourceID is the fill's source id: the file's id for it, else a hash of
// what it is with its ordinal (DESIGN §8). It is worked out when asked
// for, not kept: a file holds up to a million fills.
func (f importedFill) sourceID() string {
	if f.SourceID != "" {
		return f.SourceID
	}
	h := fillHash(f)
	return hex.EncodeToString(h[:]) + "#" + strconv.Itoa(f.ordinal)
}

// contractKey groups fills: the same contract in two accounts (a copy-traded
// account) is two positions.
type contractKey struct{ accountID, contract string }

// Import writes the fills of a read file into the user's accounts as trades,
// in one transaction: duplicates of fills the account already holds are
// counted and skipped, the rest grouped into flat-to-flat trades, continuing
// an open trade where the file picks up after it. A dry run does all of it
// and then rolls back, answering with a preview.
func (db *DB) Import(ctx context.Context, userID string, in ImportInput) (Import, error) {
	in.Timezone = cmp.Or(in.File.Timezone, in.Timezone) // the mapping's zone read the file
	var preview Import
	imp, err := inTx(ctx, db.beginAlone, func(tx txn) (Import, error) {
		now := db.now()
		imp := Import{Format: in.File.Format, MappingID: nullable(in.File.MappingID), FileName: ImportFileName(in.FileName), Timezone: in.Timezone, AccountIDs: []string{},
			UnknownAccounts: []string{}, Rows: in.File.Rows, Fills: len(in.File.Fills), Skipped: in.File.Skipped,
			Warnings: append([]string{}, in.File.Warnings...), CreatedAt: now}
		if !in.DryRun {
			id := db.NewID()
			imp.ID = &id
			// The row comes first: the fills point at it.
			if _, err := tx.ExecContext(ctx, `INSERT INTO imports (id, user_id, format, mapping_id, file_name, timezone, rows, fills,
				skipped, duplicates, trades_created, trades_updated, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, 0, 0, 0, ?)`,
				id, userID, imp.Format, imp.MappingID, imp.FileName, imp.Timezone, now); err != nil {
				return Import{}, err
			}
		}

		p, err := placeFills(ctx, tx, userID, in)
		if err != nil {
			return Import{}, err
		}
		if err := db.unknownAccounts(ctx, tx, userID, in, &imp, &p); err != nil {
			return Import{}, err
		}
		fills, schedules := p.fills, p.schedules
		for _, f := range fills {
			if !slices.Contains(imp.AccountIDs, f.accountID) {
				imp.AccountIDs = append(imp.AccountIDs, f.accountID)
			}
		}
		slices.Sort(imp.AccountIDs)
		fresh, err := dropDuplicates(ctx, tx, fills, schedules)
		if err != nil {
			return Import{}, err
		}
		fresh, warnings, err := db.dropHeldElsewhere(ctx, tx, userID, in, fresh)
		if err != nil {
			return Import{}, err
		}
		imp.Warnings = append(imp.Warnings, warnings...)
		imp.Duplicates = len(fills) - len(fresh)
		if in.OnlyNew && len(fresh) == 0 {
			imp.ID = nil
			preview = imp
			return Import{}, errDryRun // nothing new: nothing written, the Import neither
		}

		loc, overrides, err := db.pricing(ctx, tx, userID)
		if err != nil {
			return Import{}, err
		}
		g := grouper{db: db, tx: tx, userID: userID, loc: loc, overrides: overrides, importID: imp.ID, now: now,
			columns: in.File.Columns, days: map[dayKey]bool{}}
		keys, byContract := groupByContract(fresh)
		g.previewOnly = in.DryRun && !sharedSymbol(keys)
		p.fills = nil // what is left of them is in byContract
		for _, k := range keys {
			err := g.contract(ctx, k, byContract[k])
			delete(byContract, k) // written: let it go
			if err != nil {
				return Import{}, p.withUnknown(err)
			}
		}
		// Day-level rules once per day touched, not once per trade; a dry
		// run's would be rolled back unread.
		if !g.previewOnly {
			days := make([]dayKey, 0, len(g.days))
			for d := range g.days {
				days = append(days, d)
			}
			if err := db.reevaluateDays(ctx, tx, userID, "", days...); err != nil {
				return Import{}, err
			}
		}
		imp.TradesCreated, imp.TradesUpdated = g.created, g.updated
		imp.Warnings = append(imp.Warnings, g.warnings...)

		if in.DryRun {
			imp.Trades = g.preview
			if imp.Trades == nil {
				imp.Trades = []Trade{}
			}
			preview = imp
			return Import{}, errDryRun // rolls it all back
		}
		if _, err := tx.ExecContext(ctx, `UPDATE imports SET account_ids = ?, unknown_accounts = ?, rows = ?, fills = ?,
			skipped = ?, duplicates = ?, trades_created = ?, trades_updated = ?, warnings = ? WHERE id = ?`,
			jsonList(imp.AccountIDs), jsonList(imp.UnknownAccounts), imp.Rows, imp.Fills, imp.Skipped, imp.Duplicates,
			imp.TradesCreated, imp.TradesUpdated, jsonList(imp.Warnings), *imp.ID); err != nil {
			return Import{}, err
		}
		return imp, nil
	})
	if errors.Is(err, errDryRun) {
		return preview, nil
	}
	return imp, err
}

// groupByContract splits fills by account and contract, in file order,
// the keys in the order they first appear. A file of one contract in one
// account (most) is not copied.
func groupByContract(fills []importedFill) ([]contractKey, map[contractKey][]importedFill) {
	byContract := map[contractKey][]importedFill{}
	var keys []contractKey
	for _, f := range fills {
		k := contractKey{f.accountID, f.Contract}
		if _, ok := byContract[k]; !ok {
			keys = append(keys, k)
			byContract[k] = nil
		}
	}
	if len(keys) == 1 {
		byContract[keys[0]] = fills
		return keys, byContract
	}
	for _, f := range fills {
		k := contractKey{f.accountID, f.Contract}
		byContract[k] = append(byContract[k], f)
	}
	return keys, byContract
}

// sharedSymbol reports whether two of the keys are one symbol of one
// account as trades store it: the first one's trades then bear on how the
// second's group, so a dry run writes them all.
func sharedSymbol(keys []contractKey) bool {
	seen := map[contractKey]bool{}
	for _, k := range keys {
		k.contract = trading.Normalise(k.contract)
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// fillProblem checks one read fill by the rules of a fill typed into the
// API, and names the part at fault.
func fillProblem(f brokers.Fill) (role, msg string) {
	if msg := trading.CheckAmount("price", f.Price); msg != "" {
		return "price", msg
	}
	if msg := trading.CheckAmount("quantity", f.Quantity); msg != "" {
		return "quantity", msg
	}
	if f.Commission != nil {
		return "commission", trading.CheckCommission("commission", *f.Commission)
	}
	return "", ""
}

// rowErrors collects a file's bad cells, as many as a client reads.
type rowErrors struct{ Rows []brokers.RowError }

func (e *rowErrors) add(line int, column, msg string) {
	if len(e.Rows) < brokers.MaxRowErrors {
		e.Rows = append(e.Rows, brokers.RowError{Line: line, Column: column, Message: msg})
	}
}

// dropDuplicates gives every fill its source id and commission and returns
// those neither the account nor an earlier row of the file already holds.
//
// Without a map of a million source ids: fills with ids are sorted by
// account and id to find the ones an earlier row gave, fills without by
// what they are, to number the identical ones; the hashed ids are then
// unique by their numbers.
func dropDuplicates(ctx context.Context, tx txn, fills []importedFill, schedules map[string]CommissionSchedule) ([]importedFill, error) {
	var withID, without []int32
	for i, f := range fills {
		if f.SourceID != "" {
			withID = append(withID, int32(i))
		} else {
			without = append(without, int32(i))
		}
	}
	repeated := make(map[int32]bool) // fills whose source id an earlier row of the file gave
	slices.SortFunc(withID, func(a, b int32) int {
		x, y := fills[a], fills[b]
		return cmp.Or(cmp.Compare(x.accountID, y.accountID), cmp.Compare(x.SourceID, y.SourceID), cmp.Compare(a, b))
	})
	for k := 1; k < len(withID); k++ {
		x, y := fills[withID[k-1]], fills[withID[k]]
		if x.accountID == y.accountID && x.SourceID == y.SourceID {
			repeated[withID[k]] = true
		}
	}
	slices.SortFunc(without, func(a, b int32) int { return cmp.Or(compareIdentical(fills[a], fills[b]), cmp.Compare(a, b)) })
	for k, i := range without {
		fills[i].ordinal = 1
		if k > 0 && compareIdentical(fills[without[k-1]], fills[i]) == 0 {
			fills[i].ordinal = fills[without[k-1]].ordinal + 1
		}
	}
	repeatedHashes(fills, withID, repeated)
	withID, without = nil, nil

	fresh := fills[:0] // in place: each fill is read before its slot is written
	for i, f := range fills {
		if !repeated[int32(i)] {
			fresh = append(fresh, f)
		}
	}
	held, err := heldSources(ctx, tx, fresh)
	if err != nil {
		return nil, err
	}
	kept := fresh[:0]
	for i, f := range fresh {
		if held[i] {
			continue
		}
		if f.Commission != nil {
			f.commission = *f.Commission // the file's, 0.00 included: never the schedule on top
		} else {
			f.commission = schedules[f.accountID].For(f.Contract, f.Quantity)
		}
		kept = append(kept, f)
	}
	return kept, nil
}

// compareIdentical orders fills without an id by what their hash covers,
// so that identical ones are next to each other.
func compareIdentical(x, y importedFill) int {
	return cmp.Or(cmp.Compare(x.accountID, y.accountID), cmp.Compare(x.Contract, y.Contract), cmp.Compare(x.Side, y.Side),
		cmp.Compare(x.Quantity, y.Quantity), cmp.Compare(x.Price, y.Price), x.At.Compare(y.At))
}

// repeatedHashes marks in repeated the later of a fill with an id written
// as a hashed source id (64 hex digits, #n) and the fill without an id
// that hashes to it, as if both ids were one. Only a file that copies the
// journal's own hashed ids can have such a pair.
func repeatedHashes(fills []importedFill, withID []int32, repeated map[int32]bool) {
	hashed := map[contractKey]int32{}
	for _, i := range withID {
		if id := fills[i].SourceID; len(id) > 65 && id[64] == '#' && !repeated[i] {
			hashed[contractKey{fills[i].accountID, id}] = i
		}
	}
	if len(hashed) == 0 {
		return
	}
	for i, f := range fills {
		if f.SourceID != "" {
			continue
		}
		if j, ok := hashed[contractKey{f.accountID, f.sourceID()}]; ok {
			repeated[max(int32(i), j)] = true
		}
	}
}

// sourcesPerQuery is how many source ids heldSources asks after at once.
const sourcesPerQuery = 500

// heldSources reports which of the fills their accounts already hold, by
// index: their source ids asked after a few hundred at a time, since a
// file holds up to a million fills and a query apiece cost more than the
// rest of the import.
func heldSources(ctx context.Context, tx txn, fills []importedFill) ([]bool, error) {
	held := make([]bool, len(fills))
	pending := map[string][]int{} // by account: fills not asked after yet
	ask := func(account string) error {
		chunk := pending[account]
		delete(pending, account)
		ids := make([]string, len(chunk))
		at := make(map[string]int, len(chunk)) // the fills have one source id each
		for k, i := range chunk {
			ids[k] = fills[i].sourceID()
			at[ids[k]] = i
		}
		rows, err := tx.QueryContext(ctx, `SELECT e.source_id FROM executions e JOIN trades t ON t.id = e.trade_id
			WHERE e.source_id IN (SELECT value FROM json_each(?)) AND t.account_id = ?`, jsonList(ids), account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			if i, ok := at[id]; ok {
				held[i] = true
			}
		}
		return rows.Err()
	}
	for i, f := range fills {
		pending[f.accountID] = append(pending[f.accountID], i)
		if len(pending[f.accountID]) == sourcesPerQuery {
			if err := ask(f.accountID); err != nil {
				return nil, err
			}
		}
	}
	for _, account := range slices.Sorted(maps.Keys(pending)) {
		if err := ask(account); err != nil {
			return nil, err
		}
	}
	return held, nil
}

// fillHash identifies a fill the file gives no id for by what it is; its
// source id is the hash in hex.
func fillHash(f importedFill) [sha256.Size]byte {
	return sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%s\x00%s\x00%s\x00%s", f.accountID, f.Contract, f.Side,
		strconv.FormatFloat(f.Quantity, 'f', -1, 64), strconv.FormatFloat(f.Price, 'f', -1, 64),
		f.At.UTC().Format(time.RFC3339Nano)))
}

// jsonStrings decodes a stored JSON array of strings.
func jsonStrings(s string) []string {
	out := []string{}
	_ = json.Unmarshal([]byte(s), &out)
	return out
}
