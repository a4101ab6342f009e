package handlers

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// CookieKeyBytes is the size of a generated cookie-signing key.
const CookieKeyBytes = 32

// NewCookieKey returns a random cookie-signing key.
func NewCookieKey() ([]byte, error) {
	k := make([]byte, CookieKeyBytes)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("handlers: new cookie key: %w", err)
	}
	return k, nil
}

// cookieSigner signs visitor ids so that the server can refuse an id it
// never handed out without looking it up, and so without a database row
// per page view (N2, N8). The cookie holds "<id>.<mac>", where mac is the
// first 128 bits of HMAC-SHA256(key, id) in hex.
//
// Rotation: keys[0] signs; every key verifies. A cookie verified by an
// older key is signed again with keys[0] on that response, so after a
// while (the visitors who come back have been re-signed) the old key can
// be dropped.
type cookieSigner struct {
	keys [][]byte
}

// The purposes a signature is made for: a value signed for one cookie is
// refused by another.
const (
	visitorPurpose = "chesstutor visitor v1:"
)

func (s cookieSigner) mac(key []byte, purpose, id string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(purpose))
	m.Write([]byte(id))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// sign returns the visitor cookie's value for id.
func (s cookieSigner) sign(id string) string { return s.signAs(visitorPurpose, id) }

// verify returns the id inside a signed visitor cookie value; stale is
// true when an older key signed it (the cookie should be signed again).
func (s cookieSigner) verify(value string) (id string, stale, ok bool) {
	return s.verifyAs(visitorPurpose, value)
}

// signAs returns the cookie value for id signed for purpose.
func (s cookieSigner) signAs(purpose, id string) string {
	return id + "." + s.mac(s.keys[0], purpose, id)
}

// verifyAs returns the id inside a value signed for purpose.
func (s cookieSigner) verifyAs(purpose, value string) (id string, stale, ok bool) {
	id, mac, found := strings.Cut(value, ".")
	if !found || !validVisitorID(id) || len(mac) != 32 {
		return "", false, false
	}
	for i, k := range s.keys {
		if hmac.Equal([]byte(mac), []byte(s.mac(k, purpose, id))) {
			return id, i > 0, true
		}
	}
	return "", false, false
}
