package puzzles

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

// shipped is the data file written by cmd/puzzles: a comment line saying
// how, then one puzzle a line (Puzzle.Line).
//
//go:embed data/puzzles.tsv
var shipped string

// Set is a list of puzzles with an index by id, sorted by rating.
type Set struct {
	all  []*Puzzle
	byID map[string]*Puzzle
}

var (
	shippedOnce sync.Once
	shippedSet  *Set
	shippedErr  error
)

// Shipped returns the puzzles in the repository. A bad data file is a
// programming error found by the tests and at start-up (Check).
func Shipped() *Set {
	shippedOnce.Do(func() { shippedSet, shippedErr = Read(strings.NewReader(shipped)) })
	if shippedErr != nil {
		panic(shippedErr)
	}
	return shippedSet
}

// Check reports whether the shipped puzzles can be read, for start-up.
func Check() error {
	shippedOnce.Do(func() { shippedSet, shippedErr = Read(strings.NewReader(shipped)) })
	return shippedErr
}

// Read reads a data file: blank lines and lines starting with # are
// skipped; ids must be unique.
func Read(r io.Reader) (*Set, error) {
	s := &Set{byID: map[string]*Puzzle{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := ParseLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if s.byID[p.ID] != nil {
			return nil, fmt.Errorf("line %d: puzzles: id %s twice", n, p.ID)
		}
		s.byID[p.ID] = p
		s.all = append(s.all, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sort.SliceStable(s.all, func(i, j int) bool { return s.all[i].Rating < s.all[j].Rating })
	return s, nil
}

// All returns every puzzle, easiest first (by starting rating).
func (s *Set) All() []*Puzzle { return s.all }

// Len is the number of puzzles.
func (s *Set) Len() int { return len(s.all) }

// Get returns the puzzle with id, or ErrNotFound.
func (s *Set) Get(id string) (*Puzzle, error) {
	if p := s.byID[id]; p != nil {
		return p, nil
	}
	return nil, ErrNotFound
}

// ThemeCount is how many puzzles have a theme.
type ThemeCount struct {
	Theme Theme
	Count int
}

// Themes counts the puzzles of every theme that has any, in the chooser's
// order.
func (s *Set) Themes() []ThemeCount {
	counts := map[Theme]int{}
	for _, p := range s.all {
		for _, t := range p.Themes {
			counts[t]++
		}
	}
	var out []ThemeCount
	for _, t := range AllThemes {
		if counts[t] > 0 {
			out = append(out, ThemeCount{t, counts[t]})
		}
	}
	return out
}
