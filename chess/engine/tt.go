package engine

import (
	"unsafe"

	"chesstutor/chess"
)

// Bound kinds stored with a score.
const (
	boundNone uint8 = iota
	boundUpper
	boundLower
	boundExact
)

type ttEntry struct {
	key   uint64
	move  chess.Move
	score int16
	depth int8
	bound uint8
	age   uint8
}

// table is a transposition table of fixed size. Each searcher owns its own
// table, so no locking is needed; the pool divides its memory budget among
// its workers.
type table struct {
	entries []ttEntry
	mask    uint64
	age     uint8
}

// newTable returns a table using at most mb megabytes (at least 1024 entries).
func newTable(mb int) *table {
	size := uint64(1024)
	entry := uint64(unsafe.Sizeof(ttEntry{}))
	limit := uint64(max(mb, 0)) << 20
	for size*2*entry <= limit {
		size *= 2
	}
	return &table{entries: make([]ttEntry, size), mask: size - 1}
}

func (t *table) clear() {
	clear(t.entries)
	t.age = 0
}

// newSearch marks older entries as stale so that they are replaced first.
func (t *table) newSearch() { t.age++ }

func (t *table) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.key == key && e.bound != boundNone
}

func (t *table) store(key uint64, m chess.Move, score, depth int, bound uint8, ply int) {
	e := &t.entries[key&t.mask]
	if e.key == key && depth < int(e.depth)-2 && bound != boundExact && e.age == t.age {
		return // keep the deeper result for the same position
	}
	if e.key != key && e.age == t.age && int(e.depth) > depth+3 && e.bound == boundExact {
		return // a much deeper exact entry of this search is worth more
	}
	if m == chess.NoMove && e.key == key {
		m = e.move
	}
	// Mate scores are stored relative to this node, not the root.
	if score > mateBound {
		score += ply
	} else if score < -mateBound {
		score -= ply
	}
	*e = ttEntry{key: key, move: m, score: int16(score), depth: int8(depth), bound: bound, age: t.age}
}

// ttScore converts a stored score back to one relative to the root.
func ttScore(score, ply int) int {
	if score > mateBound {
		return score - ply
	}
	if score < -mateBound {
		return score + ply
	}
	return score
}
