package transfer

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chesstutor/store"
	"chesstutor/store/sqlite"
)

const (
	alice = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	bob   = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func TestNormalize(t *testing.T) {
	for typed, want := range map[string]string{
		"ABCD-EFGH":       "ABCDEFGH",
		"abcd efgh":       "ABCDEFGH",
		" k7M2-pq9z ":     "K7M2PQ9Z",
		"23456789":        "23456789",
		"a-b-c-d-e-f-g-h": "ABCDEFGH",
	} {
		if got, ok := Normalize(typed); !ok || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", typed, got, ok, want)
		}
	}
	// Too short, too long, and the characters left out of the alphabet.
	for _, bad := range []string{"", "ABCDEFG", "ABCDEFGHJ", "ABCD0FGH", "ABCDOFGH", "ABCD1FGH", "ABCDIFGH", "ABCDLFGH",
		"ABCD_EFG", "ÄBCDEFGH", strings.Repeat("A", 100)} {
		if got, ok := Normalize(bad); ok {
			t.Errorf("Normalize(%q) = %q, accepted", bad, got)
		}
	}
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newService(t *testing.T) (*Service, *sqlite.SQLite, *clock) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "transfer.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, v := range []string{alice, bob} {
		if err := st.EnsureVisitor(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	clk := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	return New(st, clk.now), st, clk
}

func TestCreateAndRedeem(t *testing.T) {
	ctx := context.Background()
	s, st, clk := newService(t)
	c, err := s.Create(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Text) != Length || strings.Trim(c.Text, Alphabet) != "" {
		t.Errorf("code %q is not %d characters of the alphabet", c.Text, Length)
	}
	if g := c.Grouped(); len(g) != Length+1 || strings.ReplaceAll(g, "-", "") != c.Text {
		t.Errorf("Grouped() = %q for %q", g, c.Text)
	}
	if !c.Expires.Equal(clk.t.Add(Lifetime)) {
		t.Errorf("expires %v, want ten minutes after %v", c.Expires, clk.t)
	}
	// The store keeps the hash, never the code.
	e, err := st.ExportVisitor(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(e)
	if strings.Contains(string(raw), c.Text) || !strings.Contains(string(raw), Hash(c.Text)) {
		t.Errorf("the export should hold the code's hash, not the code: %s", raw)
	}

	if _, err := s.Redeem(ctx, "ABCD-EFG"); !errors.Is(err, ErrMalformed) {
		t.Errorf("Redeem(too short) = %v, want ErrMalformed", err)
	}
	wrong := "ABCDEFGH"
	if wrong == c.Text {
		wrong = "HGFEDCBA"
	}
	if _, err := s.Redeem(ctx, wrong); !errors.Is(err, ErrUnknown) {
		t.Errorf("Redeem(a wrong code) = %v, want ErrUnknown", err)
	}
	clk.t = clk.t.Add(Lifetime - time.Second)
	typed := strings.ToLower(c.Grouped()) // as a child might type it
	if v, err := s.Redeem(ctx, typed); err != nil || v != alice {
		t.Fatalf("Redeem(%q) = %q, %v; want Alice", typed, v, err)
	}
	if _, err := s.Redeem(ctx, c.Text); !errors.Is(err, ErrUnknown) {
		t.Errorf("Redeem(a used code) = %v, want ErrUnknown", err)
	}

	// A code expires after ten minutes; a newer one replaces it.
	old, err := s.Create(ctx, bob)
	if err != nil {
		t.Fatal(err)
	}
	clk.t = clk.t.Add(Lifetime)
	if _, err := s.Redeem(ctx, old.Text); !errors.Is(err, ErrUnknown) {
		t.Errorf("Redeem(an expired code) = %v, want ErrUnknown", err)
	}
	first, _ := s.Create(ctx, bob)
	second, _ := s.Create(ctx, bob)
	if first.Text == second.Text {
		t.Fatalf("two codes in a row are both %q", first.Text)
	}
	if _, err := s.Redeem(ctx, first.Text); !errors.Is(err, ErrUnknown) {
		t.Errorf("Redeem(a replaced code) = %v, want ErrUnknown", err)
	}
	if v, err := s.Redeem(ctx, second.Text); err != nil || v != bob {
		t.Errorf("Redeem(the newest code) = %q, %v; want Bob", v, err)
	}
}

// clashing is a store whose first writes find their hash taken.
type clashing struct {
	store.Transfers
	clashes int
	hashes  []string
}

func (c *clashing) CreateTransfer(ctx context.Context, visitor, hash string, expires time.Time) error {
	c.hashes = append(c.hashes, hash)
	if c.clashes > 0 {
		c.clashes--
		return store.ErrConflict
	}
	return c.Transfers.CreateTransfer(ctx, visitor, hash, expires)
}

func TestCreateDrawsAgainWhenTheCodeIsTaken(t *testing.T) {
	_, st, clk := newService(t)
	c := &clashing{Transfers: st, clashes: 2}
	code, err := New(c, clk.now).Create(context.Background(), alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.hashes) != 3 || c.hashes[2] != Hash(code.Text) || c.hashes[0] == c.hashes[1] {
		t.Errorf("tried hashes %v for code %q; want three draws, the last one kept", c.hashes, code.Text)
	}
	c.clashes = 10
	if _, err := New(c, clk.now).Create(context.Background(), alice); !errors.Is(err, store.ErrConflict) {
		t.Errorf("Create with every draw taken = %v, want ErrConflict after a few tries", err)
	}
}
