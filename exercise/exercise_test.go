package exercise

import (
	"os"
	"strings"
	"testing"

	"chesstutor/chess"
	"chesstutor/words"
)

// english words the package's messages in English, the catalogue's source
// language, so tests can read the reasons a learner reads.
var english = words.Default().For(words.English)

// say words a message in English and fails when the catalogue lacks its
// key (Msg then answers the key in brackets).
func say(t *testing.T, m words.Message) string {
	t.Helper()
	if !english.Has(m.Key) {
		t.Fatalf("message %q is not in the catalogue", m.Key)
	}
	s := english.Msg(m)
	if strings.Contains(s, "[") || strings.Contains(s, "<no value>") {
		t.Fatalf("message %v worded with a missing piece: %q", m, s)
	}
	return s
}

// unexplained reports whether a reason is the catch-all one.
func unexplained(m words.Message) bool { return m.Key == "exercise.why_"+ReasonUnexplained }

func mustPos(t *testing.T, fen string) *chess.Position {
	t.Helper()
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return pos
}

func sq(t *testing.T, name string) chess.Square {
	t.Helper()
	s, err := chess.ParseSquare(name)
	if err != nil {
		t.Fatalf("ParseSquare(%q): %v", name, err)
	}
	return s
}

func squares(t *testing.T, names string) []chess.Square {
	t.Helper()
	var out []chess.Square
	for _, n := range strings.Fields(names) {
		out = append(out, sq(t, n))
	}
	return out
}

func names(sqs []chess.Square) string {
	parts := make([]string, len(sqs))
	for i, s := range sqs {
		parts[i] = s.String()
	}
	return strings.Join(parts, " ")
}

func TestCheckGrading(t *testing.T) {
	tests := []struct {
		name, fen, from, marked string
		correct                 bool
		missed, wrong           string
	}{
		{"knight all correct", "8/8/8/3N4/8/8/8/8 w - - 0 1", "d5", "b4 b6 c3 c7 e3 e7 f4 f6", true, "", ""},
		{"knight marked in another order with duplicates", "8/8/8/3N4/8/8/8/8 w - - 0 1", "d5", "f6 f4 e7 e3 c7 c3 b6 b4 b4 f6", true, "", ""},
		{"knight one missed one wrong", "8/8/8/3N4/8/8/8/8 w - - 0 1", "d5", "b4 b6 c3 c7 e3 e7 f4 d6", false, "f6", "d6"},
		{"nothing marked", "8/8/8/8/8/8/8/N7 w - - 0 1", "a1", "", false, "b3 c2", ""},
		{"rook blocked by own and enemy", "8/8/3p4/8/3R1P2/8/8/8 w - - 0 1", "d4", "a4 b4 c4 e4 d1 d2 d3 d5 d6", true, "", ""},
		{"rook marks beyond blockers", "8/8/3p4/8/3R1P2/8/8/8 w - - 0 1", "d4", "a4 b4 c4 e4 f4 g4 d1 d2 d3 d5 d6 d7", false, "", "d7 f4 g4"},
		{"king castling squares included", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1", "c1 d1 d2 e2 f1 f2 g1", true, "", ""},
		{"pawn promotion square once", "8/4P3/8/8/8/8/8/8 w - - 0 1", "e7", "e8", true, "", ""},
		{"en passant counted", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5", "d6 e6", true, "", ""},
		{"black pawn double step", "8/4p3/8/8/8/8/8/8 b - - 0 1", "e7", "e6 e5", true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := mustPos(t, tt.fen)
			res := Check(pos, sq(t, tt.from), squares(t, tt.marked))
			if res.Correct != tt.correct {
				t.Errorf("Correct = %v, want %v (answer %s)", res.Correct, tt.correct, names(res.Answer))
			}
			if got := names(res.Missed); got != tt.missed {
				t.Errorf("Missed = %q, want %q", got, tt.missed)
			}
			if got := names(res.Wrong); got != tt.wrong {
				t.Errorf("Wrong = %q, want %q", got, tt.wrong)
			}
			for _, s := range append(append([]chess.Square(nil), res.Missed...), res.Wrong...) {
				if res.Reasons[s].IsZero() {
					t.Errorf("no reason for %s", s)
				} else {
					say(t, res.Reasons[s])
				}
			}
			if len(res.Reasons) != len(res.Missed)+len(res.Wrong) {
				t.Errorf("got %d reasons, want %d", len(res.Reasons), len(res.Missed)+len(res.Wrong))
			}
		})
	}
}

func TestReasons(t *testing.T) {
	tests := []struct {
		name, fen, from, square string
		want                    string // a phrase the reason must contain
	}{
		// Wrong squares.
		{"own blocker on target", "8/8/8/8/3RP3/8/8/8 w - - 0 1", "d4", "e4", "blocked by your own pawn on e4"},
		{"path blocked by enemy", "8/8/8/3n4/8/8/8/3R4 w - - 0 1", "d1", "d7", "the path is blocked by the enemy knight on d5"},
		{"path blocked by own", "8/8/8/8/8/2P5/8/B7 w - - 0 1", "a1", "e5", "the path is blocked by your own pawn on c3"},
		{"bishop off diagonal", "8/8/8/8/3B4/8/8/8 w - - 0 1", "d4", "d5", "a bishop moves only diagonally"},
		{"rook off line", "8/8/8/8/3R4/8/8/8 w - - 0 1", "d4", "e5", "a rook moves only in straight lines"},
		{"queen off lines", "8/8/8/8/3Q4/8/8/8 w - - 0 1", "d4", "e6", "a queen moves in straight lines and along diagonals"},
		{"knight not L", "8/8/8/8/3N4/8/8/8 w - - 0 1", "d4", "d6", "that is not a knight's L-shaped jump"},
		{"own square", "8/8/8/8/3N4/8/8/8 w - - 0 1", "d4", "d4", "already stands on d4"},
		{"king two squares", "8/8/8/8/3K4/8/8/8 w - - 0 1", "d4", "d6", "a king moves only one square at a time"},
		{"pinned bishop", "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "e2", "d3", "the bishop is pinned to its king by the rook on e8"},
		{"pinned knight", "4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1", "d2", "f3", "the knight is pinned to its king by the bishop on a5"},
		{"king into check", "4k3/8/8/1b6/8/8/8/4K3 w - - 0 1", "e1", "e2", "the king would be in check there (attacked by the bishop on b5)"},
		{"king steps back along the checking line", "4r1k1/8/8/8/4K3/8/8/8 w - - 0 1", "e4", "e3", "the king would be in check there (attacked by the rook on e8)"},
		{"king captures defended piece", "4k3/8/8/8/8/3p4/4p3/4K3 w - - 0 1", "e1", "e2", "the king would be in check there (attacked by the pawn on d3)"},
		{"kings touching", "8/8/8/3k4/8/3K4/8/8 w - - 0 1", "d3", "d4", "kings may never stand next to each other"},
		{"must leave check", "4r1k1/8/8/8/8/8/1N6/4K3 w - - 0 1", "b2", "d3", "you must get out of check: this move leaves your king attacked by the rook on e8"},
		{"double check", "4r1k1/8/8/8/8/3n4/1B6/4K3 w - - 0 1", "b2", "e5", "double check"},
		{"pawn blocked straight", "8/8/8/8/4n3/4P3/8/8 w - - 0 1", "e3", "e4", "a pawn moves straight forward only onto an empty square"},
		{"pawn diagonal empty", "8/8/8/8/8/4P3/8/8 w - - 0 1", "e3", "d4", "a pawn moves diagonally only to capture"},
		{"pawn double step not from start", "8/8/8/8/8/4P3/8/8 w - - 0 1", "e3", "e5", "a pawn moves two squares only from its starting square"},
		{"pawn double step over piece", "8/8/8/8/8/4b3/4P3/8 w - - 0 1", "e2", "e4", "only over an empty square, and the enemy bishop stands on e3"},
		{"pawn backwards", "8/8/8/8/4P3/8/8/8 w - - 0 1", "e4", "e3", "a pawn only moves forward"},
		{"black pawn backwards", "8/8/8/4p3/8/8/8/8 b - - 0 1", "e5", "e6", "a pawn only moves forward"},
		{"pawn captures own", "8/8/8/8/3N4/4P3/8/8 w - - 0 1", "e3", "d4", "blocked by your own knight on d4"},
		{"en passant expired", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "e5", "d6", "en passant is possible only right after the enemy pawn's two-square move"},
		{"en passant pinned on rank", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "e5", "d6", "removes both pawns from rank 5 at once"},
		{"castle king moved", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "e1", "g1", "the king has moved (or both rooks have)"},
		{"castle rook moved", "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1", "g1", "the rook on h1 has already moved"},
		{"castle no rook", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1", "g1", "there is no rook of yours on h1"},
		{"castle square occupied", "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", "e1", "c1", "a square between the king and the rook is occupied (your own knight on b1)"},
		{"castle in check", "4k3/8/8/8/8/8/8/R3K1rR w KQ - 0 1", "e1", "c1", "you may not castle out of check"},
		{"castle through attack", "4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1", "e1", "g1", "the king would cross an attacked square (f1, attacked by the bishop on c4)"},
		{"castle onto attack", "4k3/8/7b/8/8/8/8/R3K2R w KQ - 0 1", "e1", "c1", "the king would land on an attacked square (c1, attacked by the bishop on h6)"},
		{"teaching position no king", "8/8/8/8/3B4/8/8/8 w - - 0 1", "d4", "h8", "the way there is clear"},
		// Missed squares.
		{"missed capture", "8/8/8/3n4/8/8/8/3R4 w - - 0 1", "d1", "d5", "a missed capture: you may take the enemy knight on d5"},
		{"missed promotion", "8/4P3/8/8/8/8/8/8 w - - 0 1", "e7", "e8", "a missed promotion square"},
		{"missed en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5", "d6", "a missed en passant capture"},
		{"missed castling", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1", "c1", "castle queenside to c1"},
		{"missed block", "4r1k1/8/8/8/8/2N5/8/4K3 w - - 0 1", "c3", "e4", "blocks the check"},
		{"missed capture of checker", "R3r1k1/8/8/8/8/8/8/4K3 w - - 0 1", "a8", "e8", "taking the checking rook on e8"},
		{"missed double step", "8/8/8/8/8/8/4P3/8 w - - 0 1", "e2", "e4", "move two squares"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := mustPos(t, tt.fen)
			reason := Reason(pos, sq(t, tt.from), sq(t, tt.square))
			if reason.IsZero() {
				t.Fatalf("empty reason")
			}
			if got := say(t, reason); !strings.Contains(got, tt.want) {
				t.Errorf("reason = %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

// TestEveryWrongSquareIsExplained walks the rules package's perft positions
// and the positions one move later, and asks for the reason of every square
// each piece of the side to move may not reach. A reason must never be the
// catch-all sentence: that would mean a rule the explainer does not know.
func TestEveryWrongSquareIsExplained(t *testing.T) {
	data, err := os.ReadFile("../chess/testdata/perft.epd")
	if err != nil {
		t.Skipf("no perft positions: %v", err)
	}
	var positions []*chess.Position
	for _, line := range strings.Split(string(data), "\n") {
		fen, _, _ := strings.Cut(line, ";")
		fen = strings.TrimSpace(fen)
		if fen == "" || strings.HasPrefix(fen, "#") {
			continue
		}
		pos := mustPos(t, fen)
		positions = append(positions, pos)
		if testing.Short() {
			continue
		}
		for _, m := range pos.LegalMoves() {
			positions = append(positions, pos.Play(m))
		}
	}
	checked := 0
	seen := map[string]words.Message{} // one reason of each kind, to word in every language
	for _, pos := range positions {
		us := pos.Turn()
		for from := chess.A1; from <= chess.H8; from++ {
			p := pos.PieceAt(from)
			if p == chess.NoPiece || p.Color() != us {
				continue
			}
			legal := map[chess.Square]bool{}
			for _, d := range pos.Destinations(from) {
				legal[d] = true
			}
			for to := chess.A1; to <= chess.H8; to++ {
				reason := Reason(pos, from, to)
				checked++
				if reason.IsZero() || (!legal[to] && unexplained(reason)) {
					t.Fatalf("%s: %s to %s (legal %v): unexplained reason %v", pos.FEN(), from, to, legal[to], reason)
				}
				if _, ok := seen[reason.Key]; !ok {
					seen[reason.Key] = reason
				}
				// The explainer must find nothing wrong with a legal move.
				ex := explainer{pos: pos, from: from, piece: p}
				if legal[to] && !unexplained(ex.wrong(to)) {
					t.Fatalf("%s: %s to %s is legal but explained as wrong: %v", pos.FEN(), from, to, ex.wrong(to))
				}
			}
		}
	}
	t.Logf("explained %d squares in %d positions with %d kinds of reason", checked, len(positions), len(seen))
	cat := words.Default()
	for _, l := range cat.Languages() {
		w := cat.For(l.Code)
		for key, m := range seen {
			if got := w.Msg(m); got == "" || strings.ContainsAny(got, "[]") || strings.Contains(got, "<no value>") || strings.Contains(got, "{{") {
				t.Errorf("%s: %s worded as %q", l.Code, key, got)
			}
		}
	}
}

// TestReasonsInSpanishAndRussian words reasons the way a learner reads
// them in Spanish and Russian: whole piece phrases with their articles and
// cases, the square names unchanged.
func TestReasonsInSpanishAndRussian(t *testing.T) {
	cat := words.Default()
	tests := []struct{ fen, from, square, lang, want string }{
		{"8/8/8/3n4/8/8/8/3R4 w - - 0 1", "d1", "d5", "es", "una captura olvidada: puedes capturar el caballo rival en d5"},
		{"8/8/8/3n4/8/8/8/3R4 w - - 0 1", "d1", "d7", "es", "el camino está cortado por el caballo rival en d5: la torre no puede saltar por encima de las piezas"},
		{"8/8/8/8/3RP3/8/8/8 w - - 0 1", "d4", "e4", "es", "e4 está ocupada por tu propio peón: nunca se capturan las piezas propias"},
		{"4k3/8/8/1b6/8/8/8/4K3 w - - 0 1", "e1", "e2", "es", "ahí el rey estaría en jaque (atacado por el alfil de b5)"},
		{"8/8/8/3n4/8/8/8/3R4 w - - 0 1", "d1", "d7", "ru", "путь закрыт: на d5 стоит конь соперника, а ладья не умеет перепрыгивать через фигуры"},
		{"4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "e2", "d3", "ru", "связка: слон стоит между твоим королём и фигурой соперника (ладья на e8), и ход на d3 подставил бы короля под удар"},
		{"4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1", "e1", "g1", "ru", "рокировка: король прошёл бы через битое поле f1 (туда бьёт слон на c4)"},
	}
	for _, tt := range tests {
		pos := mustPos(t, tt.fen)
		if got := cat.For(tt.lang).Msg(Reason(pos, sq(t, tt.from), sq(t, tt.square))); got != tt.want {
			t.Errorf("%s %s→%s in %s:\n got %q\nwant %q", tt.fen, tt.from, tt.square, tt.lang, got, tt.want)
		}
	}
}

// TestFindSquareWords checks the square-name reasons in English and the
// Russian plural forms (one, few, many) of the distances.
func TestFindSquareWords(t *testing.T) {
	cat := words.Default()
	tests := []struct{ target, clicked, lang, want string }{
		{"e4", "e4", "en", "Yes, that is e4: file e, rank 4."},
		{"e4", "e2", "en", "That is e2, not e4. The file (e) is right; e4 is 2 ranks towards rank 8."},
		{"a1", "h1", "en", "That is h1, not a1. The rank (1) is right; a1 is 7 files towards the a-file."},
		{"b3", "a2", "en", "That is a2, not b3. b3 is 1 file towards the h-file and 1 rank towards rank 8."},
		{"e4", "e2", "ru", "Это e2, а не e4. Вертикаль (e) верная; e4 — на 2 горизонтали ближе к 8-й горизонтали."},
		{"a1", "f1", "ru", "Это f1, а не a1. Горизонталь (1) верная; a1 — на 5 вертикалей ближе к вертикали a."},
		{"b3", "a2", "ru", "Это a2, а не b3. b3 — на 1 вертикаль ближе к вертикали h и на 1 горизонталь ближе к 8-й горизонтали."},
		{"h8", "a1", "es", "Esa es a1, no h8. h8 está 7 columnas más hacia la columna h y 7 filas más hacia la fila 8."},
	}
	for _, tt := range tests {
		res := FindSquare(sq(t, tt.target), sq(t, tt.clicked))
		if res.Correct != (tt.target == tt.clicked) {
			t.Errorf("%s for %s: correct %v", tt.clicked, tt.target, res.Correct)
		}
		if got := cat.For(tt.lang).Msg(res.Reason); got != tt.want {
			t.Errorf("%s for %s in %s:\n got %q\nwant %q", tt.clicked, tt.target, tt.lang, got, tt.want)
		}
	}
}
