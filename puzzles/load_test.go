package puzzles

import (
	"strings"
	"testing"
)

// BenchmarkRead measures reading the shipped data file, which start-up
// does once (Check).
func BenchmarkRead(b *testing.B) {
	for b.Loop() {
		if _, err := Read(strings.NewReader(shipped)); err != nil {
			b.Fatal(err)
		}
	}
}
