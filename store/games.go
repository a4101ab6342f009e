package store

import (
	"context"
	"time"
)

// Games keeps the games visitors play (G13). Writes are guarded by a version
// number, checked inside the store, so two requests racing on one game —
// even in two processes sharing one database — can never both win (N3, N6).
type Games interface {
	// CreateGame stores a new game; g.Version becomes 1.
	CreateGame(ctx context.Context, g *Game) error
	// Game loads one game by id, or ErrNotFound.
	Game(ctx context.Context, id string) (*Game, error)
	// UpdateGame saves g if the stored version still equals g.Version —
	// compared and written atomically by the store, not in the caller's
	// memory — and then increments g.Version; otherwise it returns
	// ErrConflict and changes nothing (also when the game does not exist).
	UpdateGame(ctx context.Context, g *Game) error
	// VisitorGames lists a visitor's games, most recently played first.
	VisitorGames(ctx context.Context, visitor string, limit int) ([]*Game, error)
	// CapActiveGames closes, as abandoned, the visitor's least recently
	// played active games so that at most keep stay active (N8: a visitor's
	// unfinished games are capped). Each closed game's version goes up, so
	// a move racing the close gets ErrConflict. It returns how many it
	// closed.
	CapActiveGames(ctx context.Context, visitor string, keep int) (int, error)
	// AbandonIdleGames closes, as abandoned and in one transaction, at most
	// limit active games last played before idleSince. It returns how many
	// it closed; fewer than limit means none are left.
	AbandonIdleGames(ctx context.Context, idleSince time.Time, limit int) (int, error)
}

// StatusAbandoned is the status and reason code of a game closed because
// nobody played it for a long time, or because its visitor started too
// many others (N7, N8). Its result stays "*": nobody won.
const StatusAbandoned = "abandoned"

// ClockPair is what the two clocks show, in milliseconds.
type ClockPair struct {
	White int64 `json:"w"`
	Black int64 `json:"b"`
}

// Game is one stored game: its settings, its moves and its clock and ending
// bookkeeping. The game service (package games) gives the fields meaning.
type Game struct {
	ID          string
	Visitor     string
	Mode        string // "friend", "computer" or ModeRemote
	HumanColor  string // "white" or "black"
	Level       int    // 0..8 against the computer (Mode says which); 0 in a friend game
	ClockName   string // "none", "3+2", …
	BaseMS      int64  // 0 when untimed
	IncrementMS int64
	Undo        bool
	PassScreen  bool
	TurnBoard   bool
	StartFEN    string
	Moves       []string // UCI, one per ply
	Clocks      ClockPair
	// RunningSince is when the side to move's clock last started; zero
	// while the clocks are paused or the game is untimed or over.
	RunningSince time.Time
	Snapshots    []ClockPair // index = ply
	DrawOffer    string      // colour that offered a draw, or ""
	// Status is "active" or the ending's chess.Method code
	// ("checkmate", "threefold-repetition", …), or StatusAbandoned: a
	// code, never words (N7).
	Status string
	Result string // "1-0", "0-1", "1/2-1/2" or "*"
	// Reason is "" while active, else the chess.Outcome code (the method's
	// code, or "timeout-no-mate" for a drawn timeout). Sentences are built
	// from it; none is stored.
	Reason    string
	EndColor  string // who resigned or whose flag fell
	Version   int64
	CreatedAt time.Time
	UpdatedAt time.Time
	// Remote is set for a game played from two devices (Mode ModeRemote).
	Remote *Remote
	// WhiteName and BlackName are the players' names in a friend game,
	// as typed on the new-game form (at most MaxPlayerName characters),
	// or "". Kept only with the game, for its pages and its PGN.
	WhiteName, BlackName string
}

// MaxPlayerName is the longest player's name a game keeps, in characters.
const MaxPlayerName = 30
