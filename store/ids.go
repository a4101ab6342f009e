package store

import (
	"crypto/rand"
	"encoding/hex"
)

// NewID returns a fresh record id: 128 random bits as 32 lower-case hex
// digits. Visitors, games and quiz rounds all take their ids from here.
func NewID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: no randomness: " + err.Error()) // crypto/rand never fails on Linux
	}
	return hex.EncodeToString(b[:])
}

// ValidID reports whether s has the form NewID gives: 32 lower-case hex
// digits. Anything else is refused before it reaches a store.
func ValidID(s string) bool {
	if len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f') {
			return false
		}
	}
	return true
}
