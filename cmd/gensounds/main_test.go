package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestSoundsAreGenerated checks that public/sounds holds exactly what this
// program writes (nobody swapped in a downloaded file, nobody forgot to
// rerun it) and that all of them stay within the 30 KB of G20.
func TestSoundsAreGenerated(t *testing.T) {
	dir := filepath.Join("..", "..", "public", "sounds")
	total := 0
	for name, s := range sounds {
		want := wav(s.samples())
		got, err := os.ReadFile(filepath.Join(dir, name+".wav"))
		if err != nil {
			t.Fatalf("%s: %v (run go generate ./public)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s.wav differs from what gensounds makes; run go generate ./public", name)
		}
		if len(got) < 44 || string(got[:4]) != "RIFF" || string(got[8:12]) != "WAVE" {
			t.Errorf("%s.wav is not a WAV file", name)
		}
		total += len(got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(sounds) {
		t.Errorf("public/sounds holds %d files, want the %d this program makes", len(entries), len(sounds))
	}
	if total > 30*1024 {
		t.Errorf("the sounds take %d bytes, over 30 KB", total)
	}
}
