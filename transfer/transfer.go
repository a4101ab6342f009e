// Package transfer lets a visitor continue on another device (G28): the
// first device asks for a short code, valid for ten minutes and usable
// once; typing it (or scanning its QR code) on another device makes that
// device the same visitor. The store keeps only a hash of each code.
package transfer

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"chesstutor/store"
)

// Alphabet holds the characters of a code: capital letters and digits
// without the ones a child mixes up (0 and O, 1, I and L). 31 characters.
const Alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// Length is the number of characters in a code: 31^8, about 8.5 × 10^11
// codes, against a few guesses a minute from one address and a handful of
// codes alive at once.
const Length = 8

// Lifetime is how long a code works.
const Lifetime = 10 * time.Minute

// Refusals of Redeem.
var (
	// ErrMalformed: what was typed cannot be a code (wrong length or a
	// character outside Alphabet); handlers answer 400.
	ErrMalformed = errors.New("transfer: not a code")
	// ErrUnknown: no such code, or it was used or has expired; handlers
	// answer 404.
	ErrUnknown = errors.New("transfer: no such code")
)

// Code is a new code and when it stops working.
type Code struct {
	Text    string // Length characters of Alphabet, as Redeem takes them
	Expires time.Time
}

// Grouped is the code as a person reads it: two groups of four.
func (c Code) Grouped() string {
	return c.Text[:Length/2] + "-" + c.Text[Length/2:]
}

// Service makes and redeems codes over the store.
type Service struct {
	store store.Transfers
	now   func() time.Time
}

// New returns a service; now defaults to time.Now.
func New(st store.Transfers, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: st, now: now}
}

// Create makes a code for visitor (who must be stored), replacing the
// visitor's earlier code.
func (s *Service) Create(ctx context.Context, visitor string) (Code, error) {
	expires := s.now().Add(Lifetime)
	for try := 0; ; try++ {
		text, err := newText()
		if err != nil {
			return Code{}, err
		}
		err = s.store.CreateTransfer(ctx, visitor, Hash(text), expires)
		if errors.Is(err, store.ErrConflict) && try < 3 {
			continue // another visitor holds this code: draw again
		}
		if err != nil {
			return Code{}, err
		}
		return Code{Text: text, Expires: expires}, nil
	}
}

// Redeem takes the code a person typed and returns its visitor, once.
// Case, spaces and dashes do not matter.
func (s *Service) Redeem(ctx context.Context, typed string) (string, error) {
	text, ok := Normalize(typed)
	if !ok {
		return "", ErrMalformed
	}
	v, err := s.store.RedeemTransfer(ctx, Hash(text), s.now())
	if errors.Is(err, store.ErrNotFound) {
		return "", ErrUnknown
	}
	return v, err
}

// Normalize reads a typed code: letters in either case, with spaces and
// dashes anywhere. It reports false when the rest is not Length
// characters of Alphabet.
func Normalize(typed string) (string, bool) { return NormalizeLength(typed, Length) }

// NormalizeLength is Normalize for a code of length characters of
// Alphabet (a class's join code has 6).
func NormalizeLength(typed string, length int) (string, bool) {
	if len(typed) > 64 {
		return "", false
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(typed) {
		switch {
		case r == ' ' || r == '-' || r == '\t':
			continue
		case r < 128 && strings.IndexByte(Alphabet, byte(r)) >= 0:
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	if b.Len() != length {
		return "", false
	}
	return b.String(), true
}

// Hash is what the store keeps of a code: SHA-256 in hex. The code
// itself is never stored.
func Hash(text string) string {
	sum := sha256.Sum256([]byte("chesstutor transfer v1:" + text))
	return hex.EncodeToString(sum[:])
}

// newText draws a code from the system's random source.
func newText() (string, error) { return RandomCode(Length) }

// RandomCode draws length characters of Alphabet from the system's
// random source.
func RandomCode(length int) (string, error) {
	n := big.NewInt(int64(len(Alphabet)))
	b := make([]byte, length)
	for i := range b {
		k, err := rand.Int(rand.Reader, n)
		if err != nil {
			return "", fmt.Errorf("transfer: random code: %w", err)
		}
		b[i] = Alphabet[k.Int64()]
	}
	return string(b), nil
}
