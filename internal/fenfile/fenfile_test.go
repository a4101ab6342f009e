package fenfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chesstutor/chess"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.fen")
	text := "# two positions\n\n" + chess.StartFEN + " ; the start\n" +
		"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\n"
	if err := os.WriteFile(good, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := Read(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("%d entries, want 2", len(entries))
	}
	if entries[0].Pos.FEN() != chess.StartFEN || entries[0].Comment != "the start" {
		t.Errorf("first entry %q ; %q", entries[0].Pos.FEN(), entries[0].Comment)
	}
	if entries[1].Pos.FEN() != "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1" || entries[1].Comment != "" {
		t.Errorf("second entry %q ; %q", entries[1].Pos.FEN(), entries[1].Comment)
	}

	bad := filepath.Join(dir, "bad.fen")
	if err := os.WriteFile(bad, []byte(chess.StartFEN+"\nnot a fen ; x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bad); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a bad second line gave %v, want an error naming line 2", err)
	}
	if _, err := Read(filepath.Join(dir, "missing.fen")); err == nil {
		t.Error("a missing file gave no error")
	}
}
