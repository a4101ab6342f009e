package review

import (
	"context"
	"errors"
	"slices"
	"testing"

	"chesstutor/chess"
	"chesstutor/chess/engine"
	"chesstutor/games"
	"chesstutor/internal/sqlitetest"
	"chesstutor/store"
)

func TestThreats(t *testing.T) {
	t.Parallel()
	sq := func(s string) chess.Square {
		q, err := chess.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	tests := []struct {
		name, fen string
		want      []Threat
	}{
		{"a queen attacked by a pawn and a rook by a loose knight", "4k3/8/8/3p4/2Q5/8/5n2/4K2R w - - 0 1",
			[]Threat{{From: sq("d5"), To: sq("c4"), By: chess.Pawn, Target: chess.Queen}, {From: sq("f2"), To: sq("h1"), By: chess.Knight, Target: chess.Rook}}},
		{"a defended piece attacked by an equal one is no threat", "4k3/8/8/8/2b5/3B4/2P5/4K3 w - - 0 1", []Threat{}},
		{"a queen's check is the threat", "4k3/8/8/8/2b5/3B4/2P5/4K1q1 w - - 0 1",
			[]Threat{{From: sq("g1"), To: sq("e1"), By: chess.Queen, Target: chess.King}}},
		{"a knight's check", "4k3/8/8/8/8/5n2/8/4K3 w - - 0 1",
			[]Threat{{From: sq("f3"), To: sq("e1"), By: chess.Knight, Target: chess.King}}},
		{"an undefended rook", "4k3/8/8/8/8/1n6/8/R3K3 w - - 0 1",
			[]Threat{{From: sq("b3"), To: sq("a1"), By: chess.Knight, Target: chess.Rook}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := chess.ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := Threats(pos); !slices.Equal(got, tt.want) {
				t.Errorf("threats %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestHints(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := sqlitetest.New(t)
	if err := st.EnsureVisitor(ctx, testVisitor); err != nil {
		t.Fatal(err)
	}
	pool := engine.NewPool(1, 16)
	gs := games.New(games.Config{Store: st, Engine: pool})
	s := NewService(ServiceConfig{Store: st, Hints: st, Games: gs, Engine: pool, Depth: testDepth})
	g, err := gs.Create(ctx, testVisitor, games.NewGame{Mode: "computer", Color: "white", Level: new(2), Clock: "none"})
	if err != nil {
		t.Fatal(err)
	}
	piece, err := s.Hint(ctx, testVisitor, g.ID, 0, store.HintPiece)
	if err != nil {
		t.Fatal(err)
	}
	if piece.Move != chess.NoMove || piece.SAN != "" || piece.Piece == chess.NoPieceType {
		t.Errorf("the first step gave %+v, want only the piece", piece)
	}
	move, err := s.Hint(ctx, testVisitor, g.ID, 0, store.HintMove)
	if err != nil {
		t.Fatal(err)
	}
	if move.Move == chess.NoMove || move.Move.From() != piece.From || move.SAN == "" {
		t.Errorf("the second step gave %+v after the piece on %s", move, piece.From)
	}
	hs, err := st.GameHints(ctx, g.ID)
	if want := []store.Hint{{Ply: 0, Step: store.HintPiece}, {Ply: 0, Step: store.HintMove}}; err != nil || !slices.Equal(hs, want) {
		t.Errorf("hints recorded %v, %v; want %v", hs, err, want)
	}
	if _, err := s.Hint(ctx, testVisitor, g.ID, 1, store.HintPiece); !errors.Is(err, ErrStalePly) {
		t.Errorf("a hint for another ply: %v, want ErrStalePly", err)
	}
	if _, err := s.Hint(ctx, testVisitor, g.ID, 0, "everything"); !errors.Is(err, ErrBadStep) {
		t.Errorf("a hint step %q: %v, want ErrBadStep", "everything", err)
	}
	if th, err := s.Threats(ctx, testVisitor, g.ID); err != nil || len(th) != 0 {
		t.Errorf("threats at the start: %v, %v", th, err)
	}
	strong, err := gs.Create(ctx, testVisitor, games.NewGame{Mode: "computer", Color: "white", Level: new(5), Clock: "none"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Hint(ctx, testVisitor, strong.ID, 0, store.HintPiece); !errors.Is(err, ErrNoHelp) {
		t.Errorf("a hint against level 5: %v, want ErrNoHelp", err)
	}
	if _, err := s.Threats(ctx, testVisitor, strong.ID); !errors.Is(err, ErrNoHelp) {
		t.Errorf("threats against level 5: %v, want ErrNoHelp", err)
	}
	if _, err := s.Hint(ctx, "ffffffffffffffffffffffffffffffff", g.ID, 0, store.HintPiece); err == nil {
		t.Error("another visitor got a hint in this game")
	}
}
