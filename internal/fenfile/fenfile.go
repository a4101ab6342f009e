// Package fenfile reads the position files of the engine tools, such as
// cmd/match/testdata/middlegames.fen: one position a line in FEN, with an
// optional comment after a semicolon. Blank lines and lines that start
// with # are skipped.
package fenfile

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"chesstutor/chess"
)

// Entry is one position of a file and the comment after it.
type Entry struct {
	Pos     *chess.Position
	Comment string
}

// Read returns the positions of the file at path, or the first line that
// is not a legal position.
func Read(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Entry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, comment, _ := strings.Cut(sc.Text(), ";")
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pos, err := chess.ParseFEN(line)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		out = append(out, Entry{Pos: pos, Comment: strings.TrimSpace(comment)})
	}
	return out, sc.Err()
}
