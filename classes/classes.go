// Package classes is a teacher's classroom without accounts (T1–T6): a
// class is made with a name and gets a secret teacher link (a capability
// URL, 144 random bits) and a six-character join code; pupils join with
// the code and a nickname; the teacher sees what each pupil has done and
// gives homework. Nothing here knows HTTP: refusals are an *Error with a
// kind and a catalogue message.
//
// Invariants: the store keeps only a hash of a teacher link's secret on
// the class; a nickname is letters, digits and single spaces, so it can
// hold no address, no e-mail and no markup; nicknames are shown to the
// teacher only, never to another pupil.
package classes

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"chesstutor/store"
	"chesstutor/transfer"
	"chesstutor/words"
)

// CodeLength is the number of characters of a join code: 31^6, about
// 8.9 × 10^8 codes, against 20 wrong tries a minute from one address.
const CodeLength = 6

// CodeAlphabet holds a join code's characters: capital letters and digits
// without 0, O, 1, I and L, the same as a transfer code's.
const CodeAlphabet = transfer.Alphabet

// Limits on what a teacher and a pupil type.
const (
	MaxPupils      = 100 // pupils in one class
	MaxNameLen     = 60  // characters of a class's name
	MaxNicknameLen = 20  // characters of a nickname
	secretBytes    = 18  // 144 random bits, 24 characters of base64url
	SecretLength   = 24
)

// Expiry is how long a class nobody touches is kept.
const Expiry = 365 * 24 * time.Hour

// Kind says what went wrong, so the edge can choose a status.
type Kind uint8

// The kinds of refusal.
const (
	Invalid  Kind = iota + 1 // what was typed cannot be used (400)
	NotFound                 // no such class (404)
	Taken                    // the nickname is taken (409)
	Full                     // the class has MaxPupils pupils (409)
)

// Error is a refusal: a kind and the words that explain it.
type Error struct {
	Kind    Kind
	Message words.Message
}

func (e *Error) Error() string { return "classes: " + e.Message.Key }

func refuse(k Kind, m words.Message) error { return &Error{Kind: k, Message: m} }

// Service runs classes over the store.
type Service struct {
	store store.Classes
	now   func() time.Time
}

// New returns a service; now defaults to time.Now.
func New(st store.Classes, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: st, now: now}
}

// Created is a new class with its teacher link's secret, which is shown
// once to the teacher and never stored on the class.
type Created struct {
	Class  *store.Class
	Secret string
}

// Create makes a class named name; teacher (a stored visitor, or "")
// remembers it.
func (s *Service) Create(ctx context.Context, name, teacher string) (Created, error) {
	name, err := ClassName(name)
	if err != nil {
		return Created{}, err
	}
	for try := 0; ; try++ {
		code, err1 := newCode()
		secret, err2 := newSecret()
		if err := errors.Join(err1, err2); err != nil {
			return Created{}, err
		}
		c := &store.Class{ID: store.NewID(), Name: name, JoinCode: code, SecretHash: Hash(secret), CreatedAt: s.now()}
		err := s.store.CreateClass(ctx, c, teacher, secret)
		if errors.Is(err, store.ErrConflict) && try < 5 {
			continue // another class has this code: draw again
		}
		if err != nil {
			return Created{}, err
		}
		return Created{Class: c, Secret: secret}, nil
	}
}

// BySecret returns the class a teacher link opens and touches it; any
// unknown, malformed or rotated secret is a NotFound refusal.
func (s *Service) BySecret(ctx context.Context, secret string) (*store.Class, error) {
	if !ValidSecret(secret) {
		return nil, refuse(NotFound, words.M("classes.refuse_no_class"))
	}
	c, err := s.store.ClassBySecret(ctx, Hash(secret))
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(NotFound, words.M("classes.refuse_no_class"))
	}
	if err != nil {
		return nil, err
	}
	if err := s.store.TouchClass(ctx, c.ID, s.now()); err != nil {
		return nil, err
	}
	return c, nil
}

// Rotate gives the class a new teacher link; the old one stops working
// at once, in every browser but teacher's, which remembers the new one.
func (s *Service) Rotate(ctx context.Context, c *store.Class, teacher string) (string, error) {
	for try := 0; ; try++ {
		secret, err := newSecret()
		if err != nil {
			return "", err
		}
		err = s.store.RotateClassSecret(ctx, c.ID, Hash(secret), teacher, secret)
		if errors.Is(err, store.ErrConflict) && try < 3 {
			continue
		}
		if errors.Is(err, store.ErrNotFound) {
			return "", refuse(NotFound, words.M("classes.refuse_no_class"))
		}
		if err != nil {
			return "", err
		}
		c.SecretHash = Hash(secret)
		return secret, nil
	}
}

// Join makes visitor (stored) a pupil of the class with the typed code
// under the typed nickname. created is false when the visitor was in the
// class already (their first nickname stays).
func (s *Service) Join(ctx context.Context, code, nickname, visitor string) (m *store.Member, c *store.Class, created bool, err error) {
	norm, ok := NormalizeCode(code)
	if !ok {
		return nil, nil, false, refuse(Invalid, words.M("classes.refuse_code_malformed", "Length", CodeLength))
	}
	nick, key, err := Nickname(nickname)
	if err != nil {
		return nil, nil, false, err
	}
	c, err = s.store.ClassByCode(ctx, norm)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, false, refuse(NotFound, words.M("classes.refuse_code_unknown"))
	}
	if err != nil {
		return nil, nil, false, err
	}
	m, created, err = s.store.JoinClass(ctx, &store.Member{ID: store.NewID(), ClassID: c.ID, Visitor: visitor,
		Nickname: nick, NicknameKey: key, JoinedAt: s.now()}, MaxPupils)
	switch {
	case errors.Is(err, store.ErrConflict):
		return nil, nil, false, refuse(Taken, words.M("classes.refuse_nickname_taken", "Nickname", nick))
	case errors.Is(err, store.ErrFull):
		return nil, nil, false, refuse(Full, words.M("classes.refuse_class_full", "Count", MaxPupils))
	case errors.Is(err, store.ErrNotFound):
		return nil, nil, false, refuse(NotFound, words.M("classes.refuse_code_unknown"))
	case err != nil:
		return nil, nil, false, err
	}
	if created {
		if err := s.store.TouchClass(ctx, c.ID, s.now()); err != nil {
			return nil, nil, false, err
		}
	}
	return m, c, created, nil
}

// Rename gives a pupil a new nickname (the teacher's fix for a full name
// or an unkind one).
func (s *Service) Rename(ctx context.Context, classID, memberID, nickname string) error {
	nick, key, err := Nickname(nickname)
	if err != nil {
		return err
	}
	err = s.store.RenameMember(ctx, classID, memberID, nick, key)
	switch {
	case errors.Is(err, store.ErrConflict):
		return refuse(Taken, words.M("classes.refuse_nickname_taken", "Nickname", nick))
	case errors.Is(err, store.ErrNotFound):
		return refuse(NotFound, words.M("classes.refuse_no_pupil"))
	}
	return err
}

// ClassName checks a class's name: 1 to MaxNameLen characters, no
// control characters; spaces are tidied.
func ClassName(typed string) (string, error) {
	name := strings.Join(strings.Fields(norm.NFC.String(typed)), " ")
	n := utf8.RuneCountInString(name)
	if n == 0 || n > MaxNameLen {
		return "", refuse(Invalid, words.M("classes.refuse_name_length", "Max", MaxNameLen))
	}
	for _, r := range name {
		if !unicode.IsPrint(r) || r == '<' || r == '>' {
			return "", refuse(Invalid, words.M("classes.refuse_name_chars"))
		}
	}
	return name, nil
}

// Nickname checks a typed nickname and returns it tidied (spaces
// collapsed, NFC) and its key (lower case), which is unique in a class:
// 1 to MaxNicknameLen letters, digits and spaces, so never an address,
// an e-mail or markup.
func Nickname(typed string) (nickname, key string, err error) {
	if len(typed) > 200 {
		return "", "", refuse(Invalid, words.M("classes.refuse_nickname_length", "Max", MaxNicknameLen))
	}
	nick := strings.Join(strings.Fields(norm.NFC.String(typed)), " ")
	n := utf8.RuneCountInString(nick)
	if n == 0 || n > MaxNicknameLen {
		return "", "", refuse(Invalid, words.M("classes.refuse_nickname_length", "Max", MaxNicknameLen))
	}
	for _, r := range nick {
		if r != ' ' && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) {
			return "", "", refuse(Invalid, words.M("classes.refuse_nickname_chars"))
		}
	}
	low := strings.ToLower(nick)
	return nick, low, nil
}

// NormalizeCode reads a typed join code: either case, spaces and dashes
// anywhere. It reports false unless the rest is CodeLength characters of
// CodeAlphabet.
func NormalizeCode(typed string) (string, bool) { return transfer.NormalizeLength(typed, CodeLength) }

// ValidSecret reports whether s has the shape of a teacher link's secret.
func ValidSecret(s string) bool {
	if len(s) != SecretLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Hash is what the class keeps of its teacher link's secret: SHA-256 in hex.
func Hash(secret string) string {
	sum := sha256.Sum256([]byte("chesstutor class v1:" + secret))
	return hex.EncodeToString(sum[:])
}

// newSecret draws a teacher link's secret: 144 bits, base64url.
func newSecret() (string, error) {
	b := make([]byte, secretBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("classes: random secret: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// newCode draws a join code.
func newCode() (string, error) { return transfer.RandomCode(CodeLength) }
