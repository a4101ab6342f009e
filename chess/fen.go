package chess

import (
	"fmt"
	"strings"
)

// ParseFEN parses a position in Forsyth–Edwards Notation. Positions without
// a king are accepted for diagrams and exercises (R12); use NewGame to check
// that a position can start a game. The last two fields (half-move clock and
// move number) may be left out; they then default to 0 and 1.
func ParseFEN(s string) (*Position, error) {
	fields := strings.Fields(s)
	if len(fields) == 4 {
		fields = append(fields, "0", "1")
	}
	if len(fields) != 6 {
		return nil, newError("fen_fields", fmt.Sprintf("FEN has %d fields, want 6 (placement, side to move, castling, en passant, half-move clock, move number)", len(fields)), "Count", itoa(len(fields)), "Text", s)
	}
	p := &Position{ep: NoSquare}
	if err := p.parsePlacement(fields[0]); err != nil {
		return nil, err
	}
	switch fields[1] {
	case "w":
		p.turn = White
	case "b":
		p.turn = Black
		p.hash ^= zobristTurn
	default:
		return nil, newError("fen_turn", fmt.Sprintf("FEN side to move is %q, want w or b", fields[1]), "Text", fields[1])
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return nil, err
	}
	if err := p.parseEnPassant(fields[3]); err != nil {
		return nil, err
	}
	half, err := parseFENNumber(fields[4], "half-move clock", 0, 10000)
	if err != nil {
		return nil, err
	}
	full, err := parseFENNumber(fields[5], "move number", 1, 100000)
	if err != nil {
		return nil, err
	}
	p.halfmove, p.fullmove = int32(half), int32(full)
	return p, nil
}

func (p *Position) parsePlacement(s string) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return newError("fen_ranks", fmt.Sprintf("FEN has %d ranks, want 8", len(ranks)), "Count", itoa(len(ranks)), "Text", s)
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		lastDigit := false
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				if lastDigit {
					return newError("fen_two_digits", fmt.Sprintf("FEN rank %d has two digits in a row (%q); write their sum instead", rank+1, row), "Rank", itoa(rank+1), "Text", row)
				}
				lastDigit = true
				file += int(c - '0')
				if file > 8 {
					return newError("fen_rank_long", fmt.Sprintf("FEN rank %d (%q) has more than 8 squares", rank+1, row), "Rank", itoa(rank+1), "Text", row)
				}
				continue
			}
			lastDigit = false
			pc := pieceFromFENChar(c)
			if pc == NoPiece {
				return newError("fen_bad_char", fmt.Sprintf("FEN rank %d (%q) has %q, which is not a piece letter (KQRBNP or kqrbnp) or a digit 1–8", rank+1, row, c), "Rank", itoa(rank+1), "Text", row, "Char", string(c))
			}
			if file >= 8 {
				return newError("fen_rank_long", fmt.Sprintf("FEN rank %d (%q) has more than 8 squares", rank+1, row), "Rank", itoa(rank+1), "Text", row)
			}
			p.put(pc, NewSquare(file, rank))
			file++
		}
		if file != 8 {
			return newError("fen_rank_length", fmt.Sprintf("FEN rank %d (%q) has %d squares, want 8", rank+1, row, file), "Rank", itoa(rank+1), "Text", row, "Count", itoa(file))
		}
	}
	for c := White; c <= Black; c++ {
		if n := p.Pieces(c, King).Count(); n > 1 {
			return newError("fen_kings", fmt.Sprintf("FEN has %d %s kings; a side has at most one", n, c), "Count", itoa(n), "Color", c.String())
		}
	}
	return nil
}

func pieceFromFENChar(c byte) Piece {
	color := White
	if c >= 'a' && c <= 'z' {
		color = Black
		c -= 'a' - 'A'
	}
	for t := Pawn; t <= King; t++ {
		if t.Letter() == c {
			return NewPiece(color, t)
		}
	}
	return NoPiece
}

func (p *Position) parseCastling(s string) error {
	if s == "-" {
		return nil
	}
	last := -1
	for j := 0; j < len(s); j++ {
		i := strings.IndexByte("KQkq", s[j])
		if i < 0 {
			return newError("fen_castling_char", fmt.Sprintf("FEN castling field %q has %q; use K, Q, k, q or a single -", s, s[j]), "Text", s, "Char", string(s[j]))
		}
		if i <= last {
			return newError("fen_castling_order", fmt.Sprintf("FEN castling field %q must list rights once each, in the order KQkq", s), "Text", s)
		}
		last = i
		right := Castling(1) << i
		color, king, rook := White, E1, H1
		switch right {
		case WhiteQueenSide:
			rook = A1
		case BlackKingSide:
			color, king, rook = Black, E8, H8
		case BlackQueenSide:
			color, king, rook = Black, E8, A8
		}
		if p.board[king] != NewPiece(color, King) || p.board[rook] != NewPiece(color, Rook) {
			return newError("fen_castling_pieces", fmt.Sprintf("FEN castling right %c needs the %s king on %s and a %s rook on %s", s[j], color, king, color, rook), "Text", s, "Char", string(s[j]), "Color", color.String(), "King", king.String(), "Rook", rook.String())
		}
		p.castling |= right
	}
	p.hash ^= zobristCastling[p.castling]
	return nil
}

func (p *Position) parseEnPassant(s string) error {
	if s == "-" {
		return nil
	}
	sq, err := ParseSquare(s)
	if err != nil {
		return newError("fen_ep_field", fmt.Sprintf("FEN en passant field %q is not - or a square", s), "Text", s)
	}
	wantRank, pawnSq, fromSq := 5, sq-8, sq+8
	if p.turn == Black {
		wantRank, pawnSq, fromSq = 2, sq+8, sq-8
	}
	if sq.Rank() != wantRank {
		return newError("fen_ep_rank", fmt.Sprintf("FEN en passant square %s must be on rank %d when %s is to move", s, wantRank+1, p.turn), "Text", s, "Rank", itoa(wantRank+1), "Color", p.turn.String())
	}
	them := p.turn.Other()
	if p.board[pawnSq] != NewPiece(them, Pawn) || p.board[sq] != NoPiece || p.board[fromSq] != NoPiece {
		return newError("fen_ep_board", fmt.Sprintf("FEN en passant square %s does not fit the board: a %s pawn must stand on %s with %s and %s empty", s, them, pawnSq, sq, fromSq), "Text", s, "Color", them.String(), "Pawn", pawnSq.String(), "From", fromSq.String())
	}
	p.ep = sq
	return nil
}

// fenFieldCode names the number fields in an Error's Args.
var fenFieldCode = map[string]string{"half-move clock": "halfmove", "move number": "fullmove"}

func parseFENNumber(s, what string, min, max int) (int, error) {
	if s == "" || len(s) > 6 || (len(s) > 1 && s[0] == '0') {
		return 0, newError("fen_number", fmt.Sprintf("FEN %s %q is not a plain number", what, s), "Field", fenFieldCode[what], "Text", s)
	}
	n := 0
	for j := 0; j < len(s); j++ {
		if s[j] < '0' || s[j] > '9' {
			return 0, newError("fen_number", fmt.Sprintf("FEN %s %q is not a plain number", what, s), "Field", fenFieldCode[what], "Text", s)
		}
		n = n*10 + int(s[j]-'0')
	}
	if n < min || n > max {
		return 0, newError("fen_number_range", fmt.Sprintf("FEN %s %d is out of range (%d–%d)", what, n, min, max), "Field", fenFieldCode[what], "Text", s, "Min", itoa(min), "Max", itoa(max))
	}
	return n, nil
}

// FEN returns the position in Forsyth–Edwards Notation.
func (p *Position) FEN() string {
	var b strings.Builder
	b.Grow(90)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := p.board[NewSquare(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(pc.FENChar())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	fmt.Fprintf(&b, " %c %s %s %d %d", "wb"[p.turn], p.castling, p.ep, p.halfmove, p.fullmove)
	return b.String()
}

// String returns the FEN of the position.
func (p *Position) String() string { return p.FEN() }
