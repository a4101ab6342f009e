package handlers

import (
	"fmt"
	"iter"
	"maps"

	"github.com/labstack/echo/v4"

	"chesstutor/exercise"
	"chesstutor/lessons"
	"chesstutor/store"
)

// This file keeps the stars (X11): every graded try of an exercise is
// recorded, the first solve fixes its stars (exercise.Stars), the check
// API returns them, and /learn shows them per lesson and per step.

// answerOf is an exercise's answer for helpResponse.
func answerOf(ex *lessons.Exercise) any {
	switch ex.Kind {
	case lessons.KindSquares, lessons.KindUndefended:
		return squareNames(markAnswer(ex))
	case lessons.KindMove:
		var moves []string
		for _, m := range ex.Task().RightMoves() {
			moves = append(moves, m.UCI())
		}
		return moves
	case lessons.KindName:
		return ex.Target.String()
	case lessons.KindSetup:
		out := map[string]string{}
		for sq, p := range ex.Setup().Answer() {
			out[sq.String()] = p.String()
		}
		return out
	}
	return nil
}

// recordTry records one graded try: a wrong one, or the solve (which also
// marks the exercise solved, L5). A right move that does not finish the
// exercise yet (a mate in two's first move) records nothing. It returns
// the exercise's stars after the try (0 until solved).
func (h *Handler) recordTry(c echo.Context, ex *lessons.Exercise, correct, solved bool) (int, error) {
	ctx := c.Request().Context()
	try := store.TryWrong
	switch {
	case solved:
		if err := h.store.MarkExerciseSolved(ctx, visitorID(c), ex.ID, ex.Lesson); err != nil {
			return 0, fmt.Errorf("handlers: mark exercise %s solved: %w", ex.ID, err)
		}
		try = store.TrySolved
	case correct:
		return 0, nil
	default:
		// The teacher's "stuck" mark counts wrong tries per exercise (T3).
		if err := h.recordMiss(c, ex); err != nil {
			return 0, err
		}
	}
	rec, err := h.store.RecordTry(ctx, visitorID(c), ex.ID, ex.Lesson, try)
	if err != nil {
		return 0, fmt.Errorf("handlers: record a try of %s: %w", ex.ID, err)
	}
	return starsOf(rec), nil
}

// recordHelp records that the form showed an exercise's answer.
func (h *Handler) recordHelp(c echo.Context, ex *lessons.Exercise) error {
	if _, err := h.store.RecordTry(c.Request().Context(), visitorID(c), ex.ID, ex.Lesson, store.TryHelped); err != nil {
		return fmt.Errorf("handlers: record help on %s: %w", ex.ID, err)
	}
	return nil
}

// starsOf is the stars a try record earns: none until solved.
func starsOf(rec store.TryRecord) int {
	if !rec.Solved {
		return 0
	}
	return exercise.Stars(rec.SolvedWrong, rec.SolvedHelped)
}

// visitorStars is the stars of every exercise the visitor has solved. An
// exercise solved before stars were kept (no try record) counts as
// solved with one star.
func (h *Handler) visitorStars(c echo.Context, solved map[string]bool) (map[string]int, error) {
	tries, err := h.store.VisitorTries(c.Request().Context(), visitorID(c))
	if err != nil {
		return nil, fmt.Errorf("handlers: load stars: %w", err)
	}
	return exerciseStars(maps.Keys(solved), tries), nil
}

// exerciseStars is the stars of each exercise solved: those its try
// record earns, or one for an exercise solved before stars were kept (no
// try record). The teacher's dashboard counts them the same way.
func exerciseStars(solved iter.Seq[string], tries map[string]store.TryRecord) map[string]int {
	out := map[string]int{}
	for id := range solved {
		out[id] = 1
	}
	for id, rec := range tries {
		if s := starsOf(rec); s > 0 {
			out[id] = s
		}
	}
	return out
}

// starCount sums the stars of a list of exercises and the most they can
// earn.
func starCount(stars map[string]int, exs []*lessons.Exercise) (got, most int) {
	for _, ex := range exs {
		got += stars[ex.ID]
		most += exercise.MaxStars
	}
	return got, most
}
