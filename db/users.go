package db

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
	_ "time/tzdata" // user timezones must resolve on machines without zoneinfo
)

// DefaultTimezone is a new user's timezone: most futures traders keep
// exchange (Eastern) time.
const DefaultTimezone = "America/New_York"

// Subscription states of a user; an inactive user's keys get 403.
const (
	SubscriptionActive   = "active"
	SubscriptionInactive = "inactive"
)

// User is one person with records on this server.
type User struct {
	ID           string
	Name         string
	Timezone     string
	Subscription string
	CreatedAt    string
}

// UserUpdate holds the fields `user set` may change.
type UserUpdate struct {
	Subscription Optional[string]
	Timezone     Optional[string]
}

// CheckTimezone reports an IANA timezone name the server cannot use.
func CheckTimezone(tz string) error {
	if tz == "" || strings.EqualFold(tz, "local") {
		return &InvalidError{Field: "timezone", Message: "timezone must be an IANA name such as America/New_York"}
	}
	if _, err := time.LoadLocation(tz); err != nil {
		return &InvalidError{Field: "timezone", Message: "unknown timezone " + tz}
	}
	return nil
}

// CreateUser adds a user with an active subscription.
func (db *DB) CreateUser(ctx context.Context, name, timezone string) (User, error) {
	return inTx(ctx, db.begin, func(tx txn) (User, error) {
		u, err := db.insertUser(ctx, tx, name, timezone)
		if err != nil {
			return User{}, err
		}
		return u, nil
	})
}

func (db *DB) insertUser(ctx context.Context, tx txn, name, timezone string) (User, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 64 {
		return User{}, &InvalidError{Field: "name", Message: "name must be 1 to 64 characters"}
	}
	if timezone == "" {
		timezone = DefaultTimezone
	}
	if err := CheckTimezone(timezone); err != nil {
		return User{}, err
	}
	u := User{ID: db.NewID(), Name: name, Timezone: timezone, Subscription: SubscriptionActive, CreatedAt: db.now()}
	_, err := tx.ExecContext(ctx,
		`INSERT INTO users (id, name, timezone, subscription, created_at) VALUES (?, ?, ?, ?, ?)`,
		u.ID, u.Name, u.Timezone, u.Subscription, u.CreatedAt)
	if isUniqueViolation(err) {
		return User{}, &ConflictError{Message: "a user named " + name + " already exists"}
	}
	return u, err
}

// Users lists every user, oldest first.
func (db *DB) Users(ctx context.Context) ([]User, error) {
	rows, err := db.read.QueryContext(ctx,
		`SELECT id, name, timezone, subscription, created_at FROM users ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		var u User
		if err := rows.Scan(&u.ID, &u.Name, &u.Timezone, &u.Subscription, &u.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// UserByName finds a user by name.
func (db *DB) UserByName(ctx context.Context, name string) (User, error) {
	return scanUser(db.read.QueryRowContext(ctx,
		`SELECT id, name, timezone, subscription, created_at FROM users WHERE name = ?`, name))
}

// User finds a user by id.
func (db *DB) User(ctx context.Context, id string) (User, error) {
	return scanUser(db.read.QueryRowContext(ctx,
		`SELECT id, name, timezone, subscription, created_at FROM users WHERE id = ?`, id))
}

func scanUser(row *sql.Row) (User, error) {
	var u User
	err := row.Scan(&u.ID, &u.Name, &u.Timezone, &u.Subscription, &u.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, notFound("User")
	}
	return u, err
}

// UpdateUser changes a user's subscription or timezone. Changing the
// timezone changes no stored date or time.
func (db *DB) UpdateUser(ctx context.Context, name string, upd UserUpdate) (User, error) {
	if upd.Subscription.Set {
		if s := upd.Subscription.Value; s != SubscriptionActive && s != SubscriptionInactive {
			return User{}, &InvalidError{Field: "subscription", Message: "subscription must be active or inactive"}
		}
	}
	if upd.Timezone.Set {
		if err := CheckTimezone(upd.Timezone.Value); err != nil {
			return User{}, err
		}
	}
	return inTx(ctx, db.begin, func(tx txn) (User, error) {
		u, err := scanUser(tx.QueryRowContext(ctx,
			`SELECT id, name, timezone, subscription, created_at FROM users WHERE name = ?`, name))
		if err != nil {
			return User{}, err
		}
		if upd.Subscription.Set {
			u.Subscription = upd.Subscription.Value
		}
		if upd.Timezone.Set {
			u.Timezone = upd.Timezone.Value
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET subscription = ?, timezone = ? WHERE id = ?`,
			u.Subscription, u.Timezone, u.ID); err != nil {
			return User{}, err
		}
		return u, nil
	})
}
