package games

import "chesstutor/store"

// DefaultMaxActive is how many unfinished games a visitor may have at once
// (N8). Starting one more closes the least recently played as abandoned
// rather than refusing: a child who starts a new game should get it, and
// the game closed is the one they have not touched the longest.
const DefaultMaxActive = 20

// abandonedSentence is what a person reads about a game closed as
// abandoned (the API's status is "abandoned", its result "*"). Like the
// other reasons it has no full stop: pages add one.
const abandonedSentence = "This game was closed: nobody played it for a long time, or many newer games were started"

// abandoned reports whether the game was closed as abandoned. Its moves
// still give an unfinished game; nobody may play on.
func (l *loaded) abandoned() bool { return l.rec.Status == store.StatusAbandoned }

// MaxActive returns how many unfinished games a visitor may have.
func (s *Service) MaxActive() int { return s.max }

// statusAbandoned is the status code of an abandoned game, in storage and
// in the API.
const statusAbandoned = store.StatusAbandoned
