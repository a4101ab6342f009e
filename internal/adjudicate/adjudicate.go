// Package adjudicate ends engine games early, as the match and tuning
// programs do to save time: a side that every engine sees lost for a while
// has lost, and a long game that every engine sees dead level is drawn.
package adjudicate

// Rules are the thresholds of a referee. Scores are in centipawns from
// White's view.
type Rules struct {
	// LostBy and LostPlies: a side that every engine scores more than
	// LostBy down on LostPlies observations in a row has lost.
	LostBy, LostPlies int
	// LevelAfter, LevelWithin and LevelPlies: after ply LevelAfter, a game
	// that every engine scores within LevelWithin of level on LevelPlies
	// observations in a row is drawn.
	LevelAfter, LevelWithin, LevelPlies int
}

// Verdict is what a referee decides after an observation.
type Verdict int

const (
	// Play on: nothing is decided.
	Play Verdict = iota
	WhiteWins
	BlackWins
	Draw
)

// Result is the verdict as a PGN result, "*" while play goes on.
func (v Verdict) Result() string {
	return [...]string{"*", "1-0", "0-1", "1/2-1/2"}[v]
}

// Referee applies Rules to the scores of one game, observed move by move.
// The zero Referee with Rules set starts a game.
type Referee struct {
	Rules
	lost  [2]int // observations in a row on which White (0) or Black (1) was lost
	level int    // observations in a row on which the game was dead level
}

// Observe records the engines' latest scores at ply (one score for each
// engine, from White's view) and returns the verdict.
func (r *Referee) Observe(ply int, scores ...int) Verdict {
	some := len(scores) > 0
	whiteLost, blackLost, level := some, some, some && ply > r.LevelAfter
	for _, s := range scores {
		whiteLost = whiteLost && s < -r.LostBy
		blackLost = blackLost && s > r.LostBy
		level = level && -r.LevelWithin <= s && s <= r.LevelWithin
	}
	r.lost[0] = streak(r.lost[0], whiteLost)
	r.lost[1] = streak(r.lost[1], blackLost)
	r.level = streak(r.level, level)
	switch {
	case r.lost[0] >= r.LostPlies:
		return BlackWins
	case r.lost[1] >= r.LostPlies:
		return WhiteWins
	case r.level >= r.LevelPlies:
		return Draw
	}
	return Play
}

// streak returns the length of a run of n observations in a row after
// one more: longer by one if the condition holds on it, else nothing.
func streak(n int, holds bool) int {
	if holds {
		return n + 1
	}
	return 0
}
