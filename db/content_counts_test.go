package db

import (
	"errors"
	"slices"
	"testing"
)

// TestDocumentLinks: what a document's confirm step counts is what its
// delete's warnings then say it was unlinked from; counting changes
// nothing; another user's document is a *NotFoundError.
func TestDocumentLinks(t *testing.T) {
	f := newDocFixture(t)
	ctx := t.Context()
	if _, err := f.d.UpdateTrade(ctx, f.alice, f.trade, TradeInput{DocumentIDs: Some([]string{f.one, f.three})}); err != nil {
		t.Fatal(err)
	}
	f.newTrade(t, f.alice, f.account2, Some([]string{f.two, f.one}))
	if _, err := f.d.ChartBooks().Create(ctx, f.alice, ChartBookInput{Title: Some("Book"), DocumentIDs: Some([]string{f.one})}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := f.d.CreatePayout(ctx, f.alice, PayoutInput{AccountID: Some(f.account), TotalAmount: Some(1000.0),
			DocumentIDs: Some([]string{f.one})}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.d.CreateExpense(ctx, f.alice, ExpenseInput{AccountID: Some(f.account), Amount: Some(99.0), Category: Some("data"),
		DocumentIDs: Some([]string{f.one, f.two})}); err != nil {
		t.Fatal(err)
	}

	n, err := f.d.DocumentLinks(ctx, f.alice, f.one)
	if want := (DocumentLinks{Trades: 2, ChartBooks: 1, Payouts: 2, Expenses: 1}); err != nil || n != want {
		t.Fatalf("DocumentLinks: %+v, %v, want %+v", n, err, want)
	}
	if again, _ := f.d.DocumentLinks(ctx, f.alice, f.one); again != n {
		t.Errorf("counting twice: %+v, then %+v", n, again)
	}
	var nf *NotFoundError
	if _, err := f.d.DocumentLinks(ctx, f.bob, f.one); !errors.As(err, &nf) || nf.Kind != "Document" {
		t.Errorf("bob counting alice's document: %v, want Document not found", err)
	}
	if n, err := f.d.DocumentLinks(ctx, f.alice, f.three); err != nil || n != (DocumentLinks{Trades: 1}) {
		t.Errorf("a document of one trade: %+v, %v", n, err)
	}

	del, err := f.d.DeleteDocument(ctx, f.alice, f.one)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Unlinked from 2 trades", "Unlinked from 1 chart book", "Unlinked from 2 payouts", "Unlinked from 1 expense"}
	if !slices.Equal(del.Warnings, want) {
		t.Errorf("the delete's warnings %q, want %q, as counted", del.Warnings, want)
	}
}
