package chess

import "testing"

// TestStoredMagicsAreFound searches for the magic numbers again: the stored
// ones are what the search finds (init has already checked that they send
// no two occupancies with different attacks to one slot).
func TestStoredMagicsAreFound(t *testing.T) {
	if got := findMagics(&rookDirs); got != rookMagicNumbers {
		t.Errorf("the rooks' stored magic numbers are not the ones found:\n%#x", got)
	}
	if got := findMagics(&bishopDirs); got != bishopMagicNumbers {
		t.Errorf("the bishops' stored magic numbers are not the ones found:\n%#x", got)
	}
}
