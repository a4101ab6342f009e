package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"chesstutor/store"
)

// codeHash is a stored transfer code's hash: 64 hex digits.
func codeHash(n int) string { return fmt.Sprintf("%064x", n) }

// transfers: a code is redeemed once, only while it is valid, and only by
// its hash; a new code replaces the visitor's earlier one; a hash already
// stored for someone else is a conflict that changes nothing.
func (c *contract) transfers(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob)
	now := time.Now()
	later := now.Add(10 * time.Minute)

	if err := s.CreateTransfer(ctx, alice, codeHash(1), later); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RedeemTransfer(ctx, codeHash(99), now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RedeemTransfer(a wrong code) = %v, want ErrNotFound", err)
	}
	if v, err := s.RedeemTransfer(ctx, codeHash(1), now); err != nil || v != alice {
		t.Fatalf("RedeemTransfer(good code) = %q, %v; want Alice", v, err)
	}
	if _, err := s.RedeemTransfer(ctx, codeHash(1), now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RedeemTransfer(a used code) = %v, want ErrNotFound", err)
	}

	// A new code replaces the visitor's earlier one.
	if err := s.CreateTransfer(ctx, alice, codeHash(2), later); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTransfer(ctx, alice, codeHash(3), later); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RedeemTransfer(ctx, codeHash(2), now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RedeemTransfer(a replaced code) = %v, want ErrNotFound", err)
	}
	// Another visitor's code with the same hash is refused and changes nothing.
	if err := s.CreateTransfer(ctx, bob, codeHash(3), later); !errors.Is(err, store.ErrConflict) {
		t.Errorf("CreateTransfer(a hash Alice holds) = %v, want ErrConflict", err)
	}
	if err := s.CreateTransfer(ctx, bob, codeHash(4), later); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTransfer(ctx, bob, codeHash(3), later); !errors.Is(err, store.ErrConflict) {
		t.Errorf("CreateTransfer(replacing Bob's code with a hash Alice holds) = %v, want ErrConflict", err)
	}
	if v, err := s.RedeemTransfer(ctx, codeHash(4), now); err != nil || v != bob {
		t.Errorf("Bob's code after the refused replacement = %q, %v; want Bob", v, err)
	}
	if v, err := s.RedeemTransfer(ctx, codeHash(3), now); err != nil || v != alice {
		t.Errorf("Alice's code = %q, %v; want Alice", v, err)
	}

	// An expired code does not work, and is gone afterwards.
	if err := s.CreateTransfer(ctx, alice, codeHash(5), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RedeemTransfer(ctx, codeHash(5), now.Add(time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RedeemTransfer(at its expiry) = %v, want ErrNotFound", err)
	}
	if _, err := s.RedeemTransfer(ctx, codeHash(5), now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RedeemTransfer(an expired code, tried again) = %v, want ErrNotFound", err)
	}

	// Only stored visitors get codes.
	if err := s.CreateTransfer(ctx, carol, codeHash(6), later); !errors.Is(err, store.ErrGone) {
		t.Errorf("CreateTransfer(a visitor never stored) = %v, want ErrGone", err)
	}
}

// transfersRedeemedOnce: a code redeemed by many at once goes to exactly one.
func (c *contract) transfersRedeemedOnce(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice)
	now := time.Now()
	for round := range 3 {
		h := codeHash(100 + round)
		if err := s.CreateTransfer(ctx, alice, h, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		const racers = 8
		var wg sync.WaitGroup
		var mu sync.Mutex
		won, lost := 0, 0
		for range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := s.RedeemTransfer(ctx, h, now)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && v == alice:
					won++
				case errors.Is(err, store.ErrNotFound):
					lost++
				default:
					t.Errorf("RedeemTransfer: %q, %v", v, err)
				}
			}()
		}
		wg.Wait()
		if won != 1 || lost != racers-1 {
			t.Errorf("round %d: %d redeemed the code and %d were refused; want 1 and %d", round, won, lost, racers-1)
		}
	}
}

// transfersForgottenAndExpired: forgetting a visitor deletes their pending
// code, the export shows it (its hash), and ExpireTransfers deletes
// expired codes only, limit at a time.
func (c *contract) transfersForgottenAndExpired(t *testing.T) {
	ctx := context.Background()
	s := c.fresh(t, alice, bob, carol)
	now := time.Now()
	if err := s.CreateTransfer(ctx, alice, codeHash(1), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	e, err := s.ExportVisitor(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(e)
	if len(e.Tables["transfer_codes"]) != 1 || !bytes.Contains(raw, []byte(codeHash(1))) {
		t.Errorf("Alice's export lacks her pending code: %s", raw)
	}
	if err := s.ForgetVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureVisitor(ctx, alice); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RedeemTransfer(ctx, codeHash(1), now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the code of a forgotten visitor: %v, want ErrNotFound", err)
	}

	// Bob's and Carol's codes have expired, Alice's new one has not.
	for i, v := range []string{bob, carol} {
		if err := s.CreateTransfer(ctx, v, codeHash(10+i), now.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateTransfer(ctx, alice, codeHash(12), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if n, err := s.ExpireTransfers(ctx, now, 1); err != nil || n != 1 {
		t.Fatalf("ExpireTransfers(limit 1) = %d, %v; want 1", n, err)
	}
	if n, err := s.ExpireTransfers(ctx, now, 10); err != nil || n != 1 {
		t.Fatalf("ExpireTransfers(the rest) = %d, %v; want 1", n, err)
	}
	if n, err := s.ExpireTransfers(ctx, now, 10); err != nil || n != 0 {
		t.Fatalf("ExpireTransfers(none left) = %d, %v; want 0", n, err)
	}
	if v, err := s.RedeemTransfer(ctx, codeHash(12), now); err != nil || v != alice {
		t.Errorf("a valid code after the sweep = %q, %v; want Alice", v, err)
	}
}
