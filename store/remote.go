package store

import (
	"context"
	"time"
)

// ModeRemote is the mode of a friend game played from two devices
// (G24–G26): the creator holds one seat, the visitor who opens the invite
// the other, and anyone with the watch link follows it.
const ModeRemote = "remote"

// Remote is what a game played from two devices keeps besides the game
// itself. Game.Remote is nil for every other game.
type Remote struct {
	// WatchID is the watch link's secret (store.NewID): it names the game
	// for a read-only view without letting its holder take a seat.
	WatchID string
	// Guest is the visitor in the seat the creator did not take; "" while
	// the invite waits, and again once that visitor asked to be forgotten
	// (Joined stays set, so nobody else can take the seat).
	Guest  string
	Joined time.Time // zero while the invite waits
	// Takeback is the colour asking to take back its last move, or "";
	// saved with UpdateGame under the game's version (G26).
	Takeback string
	// Claimed: the game ended because one player was gone for over a
	// minute on their own clock and the other claimed it (G26); saved with
	// UpdateGame.
	Claimed bool
	// HostSeen and GuestSeen are when each seat's page last showed signs
	// of life (an open event stream); written by SeeSeat, never by
	// UpdateGame, so presence never races a move.
	HostSeen, GuestSeen time.Time
}

// RemoteGames keeps the seats, presence and watchers of games played from
// two devices. CreateGame stores a game's Remote, Game loads it and
// UpdateGame saves its Takeback and Claimed.
type RemoteGames interface {
	// JoinGame puts visitor in the free seat of the remote game id at at,
	// and moves the game's version on (the game changed).
	// It returns ErrNotFound when no remote game has that id, and
	// ErrConflict when the seat is taken (decided by the database, so two
	// visitors racing for it on two instances cannot both win).
	JoinGame(ctx context.Context, id, visitor string, at time.Time) error
	// WatchedGame returns the id of the game whose watch link is watchID,
	// or ErrNotFound.
	WatchedGame(ctx context.Context, watchID string) (string, error)
	// SeeSeat records that the host's (or the guest's) page is there at at.
	SeeSeat(ctx context.Context, id string, guest bool, at time.Time) error
	// WatchGame records that the watcher's stream (a random id) follows
	// game id at at; call it again to say it still does.
	WatchGame(ctx context.Context, id, stream string, at time.Time) error
	// StopWatching forgets a watcher's stream.
	StopWatching(ctx context.Context, stream string) error
	// Watchers counts the streams watching game id seen since since.
	Watchers(ctx context.Context, id string, since time.Time) (int, error)
}
