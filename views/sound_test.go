package views

import (
	"strings"
	"testing"
)

// TestSoundURL: a sound the site has gets its hashed URL; one it lacks
// gets "", so the layout names no sound and the page fetches nothing.
func TestSoundURL(t *testing.T) {
	if got := soundURL("move"); !strings.HasPrefix(got, "/assets/") || !strings.HasSuffix(got, "/sounds/move.wav") {
		t.Errorf(`soundURL("move") = %q, want the hashed URL of sounds/move.wav`, got)
	}
	if got := soundURL("no-such-sound"); got != "" {
		t.Errorf(`soundURL("no-such-sound") = %q, want ""`, got)
	}
}
