package db

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"tradejournal/db/brokers"
)

// placement is where a file's fills go.
type placement struct {
	fills     []importedFill // in file order; accountID "" for a fill of an unknown number
	schedules map[string]CommissionSchedule
	numbers   []string           // the unknown account numbers, sorted
	unknown   []brokers.RowError // their rows, at most brokers.MaxRowErrors
}

// placeFills puts every fill in an account (the one given, or the one whose
// number the row names) and loads those accounts' commission schedules. A
// fill of an account number the user has no account for keeps accountID ""
// when the import creates the accounts or a dry run lists them; otherwise
// it is a row error.
func placeFills(ctx context.Context, tx txn, userID string, in ImportInput) (placement, error) {
	type account struct {
		id       string
		schedule CommissionSchedule
	}
	byNumber := map[string]account{}
	var fixed *account
	if in.AccountID != "" || in.AccountNumber != "" {
		var a account
		err := tx.QueryRowContext(ctx, `SELECT id, commission_schedule FROM accounts
			WHERE user_id = ? AND (id = ? OR account_number = ?)`,
			userID, in.AccountID, in.AccountNumber).Scan(&a.id, &a.schedule)
		if errors.Is(err, sql.ErrNoRows) {
			return placement{}, &NotFoundError{Kind: "Account", Field: "account_id"}
		}
		if err != nil {
			return placement{}, err
		}
		fixed = &a
	} else {
		rows, err := tx.QueryContext(ctx, `SELECT id, account_number, commission_schedule FROM accounts WHERE user_id = ?`, userID)
		if err != nil {
			return placement{}, err
		}
		defer rows.Close()
		for rows.Next() {
			var a account
			var number string
			if err := rows.Scan(&a.id, &number, &a.schedule); err != nil {
				return placement{}, err
			}
			byNumber[number] = a
		}
		if err := rows.Err(); err != nil {
			return placement{}, err
		}
	}

	p := placement{fills: make([]importedFill, 0, len(in.File.Fills)), schedules: map[string]CommissionSchedule{}}
	numbers := map[string]bool{}
	var unknown, bad rowErrors
	for i := range in.File.Fills {
		f := &in.File.Fills[i] // not copied: a file holds up to a million
		a := fixed
		if a == nil {
			if f.Account == "" {
				return placement{}, &InvalidError{Field: "account_id",
					Message: "the file names no account on its rows: choose the account to import into with account_id"}
			}
			number := strings.TrimSpace(f.Account)
			found, ok := byNumber[number]
			if !ok {
				numbers[number] = true
				column := in.File.Columns["account"]
				if !in.CreateAccounts {
					unknown.add(f.Line, column, "no account has the number "+strconv.Quote(number)+
						": create it, or import into one account with account_id")
					p.fills = append(p.fills, importedFill{Fill: f})
					continue
				}
				if utf8.RuneCountInString(number) > maxAccountNumber {
					bad.add(f.Line, column, fmt.Sprintf("an account number must be at most %d characters", maxAccountNumber))
					continue
				}
			} else {
				a = &found
			}
		}
		if role, msg := fillProblem(*f); msg != "" {
			bad.add(f.Line, in.File.Columns[role], msg)
			continue
		}
		importedTo := ""
		if a != nil {
			importedTo = a.id
			p.schedules[a.id] = a.schedule
		}
		p.fills = append(p.fills, importedFill{Fill: f, accountID: importedTo})
	}
	p.numbers, p.unknown = slices.Sorted(maps.Keys(numbers)), unknown.Rows
	switch {
	case len(bad.Rows) > 0:
		return placement{}, p.withUnknown(&brokers.Error{Rows: bad.Rows})
	case len(p.unknown) > 0 && !(in.DryRun && in.ListUnknown):
		return placement{}, &brokers.Error{Rows: p.unknown}
	}
	return p, nil
}

// withUnknown adds the rows of unknown account numbers to the row errors
// of err, so that a file refused for other rows names those too.
func (p placement) withUnknown(err error) error {
	var rows *brokers.Error
	if len(p.unknown) == 0 || !errors.As(err, &rows) {
		return err
	}
	all := append(slices.Clone(p.unknown), rows.Rows...)
	slices.SortStableFunc(all, func(a, b brokers.RowError) int { return cmp.Compare(a.Line, b.Line) })
	return &brokers.Error{Rows: all[:min(len(all), brokers.MaxRowErrors)]}
}

// maxAccountNumber is the longest account number, in characters, as an
// account's own create allows.
const maxAccountNumber = 128

// unknownAccounts settles the fills of account numbers the user has no
// account for: it creates those accounts (retail, the format's platform as
// broker) and puts the fills in them, or, in a dry run that lists them,
// leaves their rows out of the counts and the preview.
func (db *DB) unknownAccounts(ctx context.Context, tx txn, userID string, in ImportInput, imp *Import, p *placement) error {
	if len(p.numbers) == 0 {
		return nil
	}
	imp.UnknownAccounts = p.numbers
	if !in.CreateAccounts {
		kept := p.fills[:0]
		lines := map[int]bool{} // a round trip's two fills share a row
		for _, f := range p.fills {
			if f.accountID == "" {
				lines[f.Line] = true
				continue
			}
			kept = append(kept, f)
		}
		imp.Rows -= len(lines)
		imp.Fills -= len(p.fills) - len(kept)
		p.fills = kept
		return nil
	}
	ids := make(map[string]string, len(p.numbers))
	broker := platform(in.File.Format)
	for _, number := range p.numbers {
		a := importedAccount(db.NewID(), number, broker, imp.CreatedAt)
		fields := a.fields()
		if _, err := tx.ExecContext(ctx, insertSQL("accounts", accountColumns, len(fields)), append([]any{userID}, fields...)...); err != nil {
			return err
		}
		if imp.ID != nil {
			if _, err := tx.ExecContext(ctx, `INSERT INTO import_accounts (import_id, account_id) VALUES (?, ?)`, *imp.ID, a.ID); err != nil {
				return err
			}
		}
		ids[number] = a.ID
		p.schedules[a.ID] = nil
	}
	for i, f := range p.fills {
		if f.accountID == "" {
			p.fills[i].accountID = ids[strings.TrimSpace(f.Account)]
		}
	}
	return nil
}

// importedAccount is the account an import creates for an unknown number:
// the number as its number and name, retail (a prop firm is never guessed
// from a number), the platform as its broker, every other field its
// default. Undo compares an account with it to see whether it was changed.
func importedAccount(id, number string, broker *string, now string) Account {
	return Account{ID: id, Name: number, AccountNumber: number, AccountType: "retail", Broker: broker, Currency: "USD",
		Status: "active", CreatedAt: now, UpdatedAt: now,
		AccountRules: AccountRules{DayStartsAt: DefaultDayStartsAt, DayTimezone: DefaultDayTimezone, ProfitSplit: DefaultProfitSplit}}
}

// platforms name the trading platform of each format's prefix.
var platforms = map[string]string{"tradovate": "Tradovate", "ninjatrader": "NinjaTrader", "rithmic": "Rithmic",
	"projectx": "ProjectX", "ibkr": "IBKR"}

// platform is the platform whose export the format reads; nil for generic.
func platform(format string) *string {
	prefix, _, _ := strings.Cut(format, "_")
	if name, ok := platforms[prefix]; ok {
		return &name
	}
	return nil
}

// removeCreatedAccounts removes, as an import is undone, the accounts it
// created that hold nothing else (no trades, documents, payouts, expenses,
// report cards or tags) and are still as it made them; it returns the
// warnings naming those removed and those kept, with why. It runs after
// the import's own trades are gone.
func removeCreatedAccounts(ctx context.Context, tx txn, userID, importID, format string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+accountColumns+` FROM accounts
		WHERE user_id = ? AND id IN (SELECT account_id FROM import_accounts WHERE import_id = ?)
		ORDER BY account_number, id`, userID, importID)
	if err != nil {
		return nil, err
	}
	var created []Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		created = append(created, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}

	var removed, warnings []string
	for _, a := range created {
		n, err := scanAccountDependents(tx.QueryRowContext(ctx, accountDependentsQuery, userID, a.ID))
		if err != nil {
			return nil, err
		}
		made := importedAccount(a.ID, a.AccountNumber, platform(format), a.CreatedAt)
		made.UpdatedAt = a.UpdatedAt
		held := holdings(n)
		switch {
		case len(held) > 0:
			warnings = append(warnings, fmt.Sprintf("Kept account %s, which this import created: it holds %s",
				strconv.Quote(a.AccountNumber), strings.Join(held, ", ")))
		case !reflect.DeepEqual(a, made):
			warnings = append(warnings, fmt.Sprintf("Kept account %s, which this import created: it was changed since",
				strconv.Quote(a.AccountNumber)))
		default:
			if _, err := tx.ExecContext(ctx, `DELETE FROM accounts WHERE user_id = ? AND id = ?`, userID, a.ID); err != nil {
				return nil, err
			}
			removed = append(removed, strconv.Quote(a.AccountNumber))
		}
	}
	if len(removed) > 0 {
		warnings = append([]string{"Deleted " + plural(len(removed), "account") + " this import created: " +
			strings.Join(removed, ", ")}, warnings...)
	}
	return warnings, nil
}

// holdings names what an account holds besides itself: "1 trade", "2 payouts".
func holdings(n AccountDependents) []string {
	var out []string
	for _, h := range []struct {
		n    int
		noun string
	}{{n.Trades, "trade"}, {n.Documents, "document"}, {n.Payouts, "payout"}, {n.Expenses, "expense"},
		{n.ReportCards, "report card"}, {n.TagLinks, "tag"}} {
		if h.n > 0 {
			out = append(out, plural(h.n, h.noun))
		}
	}
	return out
}
