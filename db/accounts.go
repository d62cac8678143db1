package db

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
)

// Account is a trading account: a prop-firm evaluation or funded account, or
// a retail brokerage account. Trades and documents belong to one.
type Account struct {
	ID              string   `json:"id"`
	Name            string   `json:"name"`
	AccountNumber   string   `json:"account_number"`
	AccountType     string   `json:"account_type"`
	PropFirm        *string  `json:"prop_firm"`
	FirmsLogo       *string  `json:"firms_logo"`
	Broker          *string  `json:"broker"`
	Currency        string   `json:"currency"`
	StartingBalance *float64 `json:"starting_balance"`
	Status          string   `json:"status"`
	// CommissionSchedule prices imported fills whose file has no
	// commission; nil when the account has none.
	CommissionSchedule CommissionSchedule `json:"commission_schedule"`
	AccountRules
	Tags      []TagRef `json:"tags"`
	CreatedAt string   `json:"created_at"`
	UpdatedAt string   `json:"updated_at"`
}

// AccountRules are a prop-firm account's rules (DESIGN §10): nil is a rule
// the account does not set. GET /accounts/{id}/status checks them.
type AccountRules struct {
	ProfitTarget   *float64 `json:"profit_target"` // profit to reach above starting_balance
	MaxDailyLoss   *float64 `json:"max_daily_loss"`
	MaxDrawdown    *float64 `json:"max_drawdown"`
	DrawdownMode   *string  `json:"drawdown_mode"` // static (also when null), trailing, eod_trailing
	DrawdownLockAt *float64 `json:"drawdown_lock_at"`
	MinTradingDays *int     `json:"min_trading_days"`
	ConsistencyPct *float64 `json:"consistency_pct"`
	MaxContracts   *int     `json:"max_contracts"`
	DayStartsAt    string   `json:"day_starts_at"` // HH:MM
	DayTimezone    string   `json:"day_timezone"`
	ProfitSplit    float64  `json:"profit_split"` // the trader's percent
}

// AccountInput is the body of an account create or partial update. On
// create, absent fields take their defaults; on update they are untouched.
type AccountInput struct {
	Name               Optional[string]             `json:"name"`
	AccountNumber      Optional[string]             `json:"account_number"`
	AccountType        Optional[string]             `json:"account_type"`
	PropFirm           Optional[string]             `json:"prop_firm"`
	FirmsLogo          Optional[string]             `json:"firms_logo"`
	Broker             Optional[string]             `json:"broker"`
	Currency           Optional[string]             `json:"currency"`
	StartingBalance    Optional[float64]            `json:"starting_balance"`
	Status             Optional[string]             `json:"status"`
	CommissionSchedule Optional[CommissionSchedule] `json:"commission_schedule"`
	ProfitTarget       Optional[float64]            `json:"profit_target"`
	MaxDailyLoss       Optional[float64]            `json:"max_daily_loss"`
	MaxDrawdown        Optional[float64]            `json:"max_drawdown"`
	DrawdownMode       Optional[string]             `json:"drawdown_mode"`
	DrawdownLockAt     Optional[float64]            `json:"drawdown_lock_at"`
	MinTradingDays     Optional[int]                `json:"min_trading_days"`
	ConsistencyPct     Optional[float64]            `json:"consistency_pct"`
	MaxContracts       Optional[int]                `json:"max_contracts"`
	DayStartsAt        Optional[string]             `json:"day_starts_at"`
	DayTimezone        Optional[string]             `json:"day_timezone"`
	ProfitSplit        Optional[float64]            `json:"profit_split"`
	TagIDs             Optional[[]string]           `json:"tag_ids"`
}

// Account types and statuses.
var (
	AccountTypes    = []string{"prop", "retail"}
	AccountStatuses = []string{"evaluation", "funded", "passed", "failed", "active", "closed"}
)

// Days of a prop account start at 18:00 New York unless it says otherwise
// (the futures convention), and the trader keeps all of a payout.
const (
	DefaultDayStartsAt = "18:00"
	DefaultDayTimezone = "America/New_York"
	DefaultProfitSplit = 100
)

// accountColumns are the columns fields lists the pointers of, in order.
const accountColumns = `id, name, account_number, account_type, prop_firm, firms_logo, broker,
	currency, starting_balance, status, created_at, updated_at, commission_schedule,
	profit_target, max_daily_loss, max_drawdown, drawdown_mode, drawdown_lock_at, min_trading_days,
	consistency_pct, max_contracts, day_starts_at, day_timezone, profit_split`

// fields are pointers to the account's fields in the order of
// accountColumns: scanned into, and bound as arguments.
func (a *Account) fields() []any {
	r := &a.AccountRules
	return []any{&a.ID, &a.Name, &a.AccountNumber, &a.AccountType, &a.PropFirm, &a.FirmsLogo, &a.Broker,
		&a.Currency, &a.StartingBalance, &a.Status, &a.CreatedAt, &a.UpdatedAt, &a.CommissionSchedule,
		&r.ProfitTarget, &r.MaxDailyLoss, &r.MaxDrawdown, &r.DrawdownMode, &r.DrawdownLockAt, &r.MinTradingDays,
		&r.ConsistencyPct, &r.MaxContracts, &r.DayStartsAt, &r.DayTimezone, &r.ProfitSplit}
}

func scanAccount(s interface{ Scan(...any) error }) (Account, error) {
	var a Account
	err := s.Scan(a.fields()...)
	return a, err
}

// apply copies the fields set in in onto a.
func (in *AccountInput) apply(a *Account) {
	if in.Name.Set {
		a.Name = in.Name.Value // null clears to ""
	}
	if in.AccountNumber.Set {
		a.AccountNumber = in.AccountNumber.Value
	}
	if in.AccountType.Set {
		a.AccountType = in.AccountType.Value
	}
	if in.PropFirm.Set {
		a.PropFirm = in.PropFirm.Ptr()
	}
	if in.FirmsLogo.Set {
		a.FirmsLogo = in.FirmsLogo.Ptr()
	}
	if in.Broker.Set {
		a.Broker = in.Broker.Ptr()
	}
	if in.Currency.Set {
		a.Currency = in.Currency.Value
	}
	if in.StartingBalance.Set {
		a.StartingBalance = in.StartingBalance.Ptr()
	}
	if in.Status.Set {
		a.Status = in.Status.Value
	}
	if in.CommissionSchedule.Set {
		a.CommissionSchedule = in.CommissionSchedule.Value // null clears it
	}
	r := &a.AccountRules
	assignPtr(&r.ProfitTarget, in.ProfitTarget)
	assignPtr(&r.MaxDailyLoss, in.MaxDailyLoss)
	assignPtr(&r.MaxDrawdown, in.MaxDrawdown)
	assignPtr(&r.DrawdownMode, in.DrawdownMode)
	assignPtr(&r.DrawdownLockAt, in.DrawdownLockAt)
	assignPtr(&r.MinTradingDays, in.MinTradingDays)
	assignPtr(&r.ConsistencyPct, in.ConsistencyPct)
	assignPtr(&r.MaxContracts, in.MaxContracts)
	assign(&r.DayStartsAt, in.DayStartsAt) // never null: the server refuses it
	assign(&r.DayTimezone, in.DayTimezone)
	assign(&r.ProfitSplit, in.ProfitSplit)
}

// CreateAccount adds an account for the user. A duplicate account_number
// is a *ConflictError.
func (db *DB) CreateAccount(ctx context.Context, userID string, in AccountInput) (Account, error) {
	now := db.now()
	a := Account{ID: db.NewID(), Currency: "USD", Status: "active", CreatedAt: now, UpdatedAt: now,
		AccountRules: AccountRules{DayStartsAt: DefaultDayStartsAt, DayTimezone: DefaultDayTimezone, ProfitSplit: DefaultProfitSplit}}
	in.apply(&a)
	if a.AccountType == "" {
		a.AccountType = "retail"
		if a.PropFirm != nil {
			a.AccountType = "prop"
		}
	}
	return inTx(ctx, db.begin, func(tx txn) (Account, error) {
		fields := a.fields()
		_, err := tx.ExecContext(ctx, insertSQL("accounts", accountColumns, len(fields)), append([]any{userID}, fields...)...)
		if isUniqueViolation(err) {
			return Account{}, accountNumberTaken(a.AccountNumber)
		}
		if err != nil {
			return Account{}, err
		}
		if a.Tags, err = setTags(ctx, tx, userID, accountTags, a.ID, in.TagIDs); err != nil {
			return Account{}, err
		}
		return a, nil
	})
}

func accountNumberTaken(number string) error {
	return &ConflictError{
		Message: "An account with this account_number already exists",
		Details: map[string]string{"account_number": "account_number " + number + " is already used by another account"},
	}
}

// oneAccount reads one of the user's accounts without its tags.
func oneAccount(ctx context.Context, q querier, userID, id string) (Account, error) {
	a, err := scanAccount(q.QueryRowContext(ctx,
		`SELECT `+accountColumns+` FROM accounts WHERE user_id = ? AND id = ?`, userID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Account{}, notFound("Account")
	}
	return a, err
}

// accountRef reads the account a body's account_id names: one that is not
// the user's is a *NotFoundError naming the field.
func accountRef(ctx context.Context, q querier, userID, id string) (Account, error) {
	a, err := oneAccount(ctx, q, userID, id)
	var missing *NotFoundError
	if errors.As(err, &missing) {
		return Account{}, &NotFoundError{Kind: "Account", Field: "account_id"}
	}
	return a, err
}

// Account reads one of the user's accounts.
func (db *DB) Account(ctx context.Context, userID, id string) (Account, error) {
	a, err := oneAccount(ctx, db.read, userID, id)
	if err != nil {
		return Account{}, err
	}
	tags, err := loadTags(ctx, db.read, accountTags, []string{a.ID})
	a.Tags = tags[a.ID]
	return a, err
}

// Accounts lists a page of the user's accounts, newest first, and the total.
func (db *DB) Accounts(ctx context.Context, userID string, page Page) ([]Account, int, error) {
	var total int
	out, err := inTx(ctx, db.beginRead, func(tx txn) ([]Account, error) {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE user_id = ?`, userID).Scan(&total); err != nil {
			return nil, err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE user_id = ?
			ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, userID, page.Limit, page.Offset)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []Account{}
		var ids []string
		for rows.Next() {
			a, err := scanAccount(rows)
			if err != nil {
				return nil, err
			}
			out = append(out, a)
			ids = append(ids, a.ID)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		tags, err := loadTags(ctx, tx, accountTags, ids)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].Tags = tags[out[i].ID]
		}
		return out, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// AccountName is an account as the pages name it: in their filters and
// selects, and beside a record of the account.
type AccountName struct {
	ID, AccountNumber, Name string
}

// AccountNames are the user's first limit accounts in Accounts' order,
// with only what names them: one statement kept prepared (every trade list
// and dashboard page reads it), no count and no tags. It only reads.
func (db *DB) AccountNames(ctx context.Context, userID string, limit int) ([]AccountName, error) {
	stmt, err := db.readStmts.prepared(ctx, `SELECT id, account_number, name FROM accounts WHERE user_id = ?
		ORDER BY created_at DESC, id DESC LIMIT ?`)
	if err != nil {
		return nil, err
	}
	rows, err := stmt.QueryContext(ctx, userID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AccountName
	for rows.Next() {
		var a AccountName
		if err := rows.Scan(&a.ID, &a.AccountNumber, &a.Name); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// UpdateAccount changes the fields set in in.
func (db *DB) UpdateAccount(ctx context.Context, userID, id string, in AccountInput) (Account, error) {
	return inTx(ctx, db.begin, func(tx txn) (Account, error) {
		a, err := oneAccount(ctx, tx, userID, id)
		if err != nil {
			return Account{}, err
		}
		in.apply(&a)
		a.UpdatedAt = db.now()
		// Every column is written back; the id and created_at as they were.
		fields := a.fields()
		_, err = tx.ExecContext(ctx, updateSQL("accounts", accountColumns, len(fields)), append(fields, userID, id)...)
		if isUniqueViolation(err) {
			return Account{}, accountNumberTaken(a.AccountNumber)
		}
		if err != nil {
			return Account{}, err
		}
		if a.Tags, err = setTags(ctx, tx, userID, accountTags, a.ID, in.TagIDs); err != nil {
			return Account{}, err
		}
		return a, nil
	})
}

// AccountDependents counts what belongs to an account and so goes, or is
// unlinked, with it: a delete's confirm step shows it before anything
// changes, and DeleteAccount refuses or cascades by it.
type AccountDependents struct {
	Trades, WriteUps, Documents, ReportCards, TagLinks, Payouts, Expenses int
}

// accountDependentsQuery counts an account's dependents, of the user's
// account only.
const accountDependentsQuery = `SELECT
	(SELECT count(*) FROM trades WHERE account_id = a.id),
	(SELECT count(*) FROM write_ups w JOIN trades t ON t.id = w.trade_id WHERE t.account_id = a.id),
	(SELECT count(*) FROM documents WHERE account_id = a.id),
	(SELECT count(*) FROM report_cards WHERE account_id = a.id),
	(SELECT count(*) FROM account_tags WHERE account_id = a.id),
	(SELECT count(*) FROM payouts WHERE account_id = a.id),
	(SELECT count(*) FROM expenses WHERE account_id = a.id)
	FROM accounts a WHERE a.user_id = ? AND a.id = ?`

func scanAccountDependents(row *sql.Row) (AccountDependents, error) {
	var n AccountDependents
	err := row.Scan(&n.Trades, &n.WriteUps, &n.Documents, &n.ReportCards, &n.TagLinks, &n.Payouts, &n.Expenses)
	if errors.Is(err, sql.ErrNoRows) {
		return n, notFound("Account")
	}
	return n, err
}

// AccountDependents counts what belongs to one of the user's accounts. It
// only reads.
func (db *DB) AccountDependents(ctx context.Context, userID, id string) (AccountDependents, error) {
	return scanAccountDependents(db.read.QueryRowContext(ctx, accountDependentsQuery, userID, id))
}

// DeleteAccount removes one of the user's accounts. While trades or
// documents belong to it, that is a *ConflictError giving their counts,
// unless cascade is set, when they go with it in the same transaction; the
// blobs its documents leave unused are in Deleted.Blobs. Report cards that
// named it are kept, their account_id set to null.
func (db *DB) DeleteAccount(ctx context.Context, userID, id string, cascade bool) (Deleted, error) {
	return inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		n, err := scanAccountDependents(tx.QueryRowContext(ctx, accountDependentsQuery, userID, id))
		if err != nil {
			return Deleted{}, err
		}
		trades, writeUps, documents, reportCards, tagLinks, payouts, expenses :=
			n.Trades, n.WriteUps, n.Documents, n.ReportCards, n.TagLinks, n.Payouts, n.Expenses
		if (trades > 0 || documents > 0 || payouts > 0 || expenses > 0) && !cascade {
			return Deleted{}, &ConflictError{
				Message:  "Account has trades, documents, payouts or expenses; delete them first",
				Override: "cascade",
				Details: map[string]string{"trades": strconv.Itoa(trades), "documents": strconv.Itoa(documents),
					"payouts": strconv.Itoa(payouts), "expenses": strconv.Itoa(expenses)},
			}
		}
		d := Deleted{ID: id, Warnings: []string{}}
		if trades > 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM trades WHERE user_id = ? AND account_id = ?`, userID, id); err != nil {
				return Deleted{}, err
			}
			d.note("Deleted", trades, "trade")
			d.note("Deleted", writeUps, "trade write-up")
		}
		if documents > 0 {
			if d.Blobs, err = deleteAccountDocuments(ctx, tx, userID, id); err != nil {
				return Deleted{}, err
			}
			d.note("Deleted", documents, "document")
		}
		// Payouts and expenses go with their document links (ON DELETE
		// CASCADE); the documents themselves are the account's, deleted above.
		for _, c := range []struct {
			table, noun string
			n           int
		}{{"payouts", "payout", payouts}, {"expenses", "expense", expenses}} {
			if c.n == 0 {
				continue
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+c.table+` WHERE user_id = ? AND account_id = ?`, userID, id); err != nil {
				return Deleted{}, err
			}
			d.note("Deleted", c.n, c.noun)
		}
		// Report cards stay; the foreign key clears their account_id.
		d.note("Cleared the account of", reportCards, "report card")
		d.note("Removed", tagLinks, "tag association")
		if _, err := tx.ExecContext(ctx, `DELETE FROM accounts WHERE user_id = ? AND id = ?`, userID, id); err != nil {
			return Deleted{}, err
		}
		return d, nil
	})
}
