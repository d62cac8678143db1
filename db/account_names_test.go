package db

import (
	"slices"
	"testing"
)

// TestAccountNamesAreAccounts: the pages' narrow read of the accounts is
// Accounts' list (the same accounts, in the same order, up to the same
// limit) with only the id, number and name, and never another user's.
func TestAccountNamesAreAccounts(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	alice, bob := newTestUser(t, d, "alice"), newTestUser(t, d, "bob")
	for i, in := range []AccountInput{
		{AccountNumber: Some("APEX-1"), Name: Some("Evaluation")},
		{AccountNumber: Some("TOPSTEP-2")},
		{AccountNumber: Some(`<b>"3"</b>`), Name: Some("a & b")},
		{AccountNumber: Some("IBKR-4"), Name: Some("Cash")},
	} {
		if i == 2 { // two accounts made in the same millisecond: their ids break the tie
			pinClock(d, d.Now())
		}
		if _, err := d.CreateAccount(ctx, alice.ID, in); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.CreateAccount(ctx, bob.ID, AccountInput{AccountNumber: Some("BOB-1")}); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{100, 2} {
		accounts, _, err := d.Accounts(ctx, alice.ID, Page{Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		var want []AccountName
		for _, a := range accounts {
			want = append(want, AccountName{ID: a.ID, AccountNumber: a.AccountNumber, Name: a.Name})
		}
		got, err := d.AccountNames(ctx, alice.ID, limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != min(limit, 4) || !slices.Equal(got, want) {
			t.Errorf("limit %d: AccountNames = %+v, want %+v", limit, got, want)
		}
	}
	none := newTestUser(t, d, "carol")
	if got, err := d.AccountNames(ctx, none.ID, 100); err != nil || len(got) != 0 {
		t.Errorf("a user without accounts: %+v, %v", got, err)
	}
}
