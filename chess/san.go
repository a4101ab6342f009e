package chess

import (
	"errors"
	"slices"
	"strings"
)

// SAN returns the move in Standard Algebraic Notation (R11): "Nf3", "exd5",
// "O-O", "e8=Q+", "Nbd2", "R1e2", "Qh4#". It returns "" when m is not a legal
// move in this position.
func (p *Position) SAN(m Move) string {
	san, _ := p.legalSAN(m)
	return san
}

// legalSAN formats m when it is legal here, and reports whether it is, so
// callers that need both generate the legal moves once.
func (p *Position) legalSAN(m Move) (string, bool) {
	var buf [256]Move
	moves := p.AppendLegalMoves(buf[:0])
	if !slices.Contains(moves, m) {
		return "", false
	}
	return p.san(m, moves), true
}

// san formats the legal move m; moves are all legal moves of p.
func (p *Position) san(m Move, moves []Move) string {
	b := make([]byte, 0, 8)
	from, to := m.From(), m.To()
	switch {
	case m.IsCastle():
		if to.File() == 6 {
			b = append(b, "O-O"...)
		} else {
			b = append(b, "O-O-O"...)
		}
	case m.Piece().Type() == Pawn:
		if m.IsCapture() {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = append(b, to.String()...)
		if pr := m.Promotion(); pr != NoPieceType {
			b = append(b, '=', pr.Letter())
		}
	default:
		b = append(b, m.Piece().Type().Letter())
		ambiguous, sameFile, sameRank := false, false, false
		for _, o := range moves {
			if o.To() == to && o.Piece() == m.Piece() && o.From() != from {
				ambiguous = true
				sameFile = sameFile || o.From().File() == from.File()
				sameRank = sameRank || o.From().Rank() == from.Rank()
			}
		}
		if ambiguous {
			switch {
			case !sameFile:
				b = append(b, byte('a'+from.File()))
			case !sameRank:
				b = append(b, byte('1'+from.Rank()))
			default:
				b = append(b, from.String()...)
			}
		}
		if m.IsCapture() {
			b = append(b, 'x')
		}
		b = append(b, to.String()...)
	}
	var next Position
	p.PlayInto(m, &next)
	if next.InCheck() {
		if next.hasLegalMove() {
			b = append(b, '+')
		} else {
			b = append(b, '#')
		}
	}
	return string(b)
}

// ParseSAN finds the legal move that a SAN string names. It is lenient in
// what people type (G22): check marks and "!?" notes are ignored, "0-0" and
// "o-o" mean castling, "e8Q", "e8q" and "e8=q" mean promotion, long forms
// such as "Ng1f3", "e2e4" and "e2-e4" are accepted, and a move typed in
// another case ("nf3", "NF3", "E4") is read as the one legal move it can
// name; a lower-case "b" is the b-pawn unless only a bishop move fits. A
// string that names no legal move, or more than one, gets an error saying
// so, an *Error with a san_ code (parseerror.go); text not written like a
// move gets a *SyntaxError. Either carries s as it was entered (Text).
func (p *Position) ParseSAN(s string) (Move, error) {
	m, err := p.parseSAN(s)
	if err == nil {
		return m, nil
	}
	for _, alt := range otherCases(strings.TrimSpace(s)) {
		m, altErr := p.parseSAN(alt)
		if altErr == nil {
			return m, nil
		}
		// Say what is wrong with the reading that is at least a move.
		var se *SyntaxError
		if errors.As(err, &se) && !errors.As(altErr, &se) {
			err = altErr
		}
	}
	retext(err, s)
	return NoMove, err
}

// otherCases lists the readings of a move typed in the wrong case: a piece
// letter in upper case and everything after it in lower case.
func otherCases(s string) []string {
	if len(s) < 2 || len(s) > 16 {
		return nil
	}
	rest := strings.ToLower(s[1:])
	switch c := s[0]; {
	case strings.IndexByte("nrqkp", c) >= 0:
		return []string{strings.ToUpper(s[:1]) + rest}
	case c == 'b': // the b-pawn came first; now the bishop
		return []string{"b" + rest, "B" + rest}
	case strings.IndexByte("NRQKBP", c) >= 0:
		return []string{s[:1] + rest}
	case c >= 'A' && c <= 'H':
		return []string{strings.ToLower(s)}
	}
	return nil
}

func (p *Position) parseSAN(s string) (Move, error) {
	orig := s
	s = strings.TrimSpace(s)
	if s == "" {
		return NoMove, p.syntaxErr(CodeSANEmpty, orig)
	}
	if len(s) > 16 {
		return NoMove, p.syntaxErr(CodeSANTooLong, orig)
	}
	s = strings.TrimRight(s, "+#!?")
	s = strings.TrimSuffix(s, "e.p.")
	s = strings.TrimSpace(s)

	var buf [256]Move
	moves := p.AppendLegalMoves(buf[:0])

	switch strings.ToUpper(strings.ReplaceAll(s, "0", "O")) {
	case "O-O", "O-O-O":
		long := len(s) == 5
		for _, m := range moves {
			if m.IsCastle() && (m.To().File() == 2) == long {
				return m, nil
			}
		}
		if long {
			return NoMove, p.moveErr(CodeSANCastleQueenSide, orig)
		}
		return NoMove, p.moveErr(CodeSANCastleKingSide, orig)
	}

	// Grammar: [KQRBNP]? [a-h]? [1-8]? [x:-]? [a-h][1-8] (=?[QRBN])?
	rest := s
	promo := NoPieceType
	if n := len(rest); n >= 3 {
		if t := promotionLetter(rest[n-1]); t != NoPieceType && (rest[n-2] == '=' || (rest[n-2] >= '1' && rest[n-2] <= '8')) {
			promo = t
			rest = strings.TrimSuffix(rest[:n-1], "=")
		} else if rest[n-1] == 'K' || rest[n-1] == 'k' || rest[n-1] == 'P' || rest[n-1] == 'p' {
			if rest[n-2] == '=' || (rest[n-2] >= '1' && rest[n-2] <= '8') {
				return NoMove, p.moveErr(CodeSANPromotionPiece, orig)
			}
		}
	}
	if len(rest) < 2 {
		return NoMove, p.syntaxErr(CodeSANNotNotation, orig)
	}
	to, err := ParseSquare(rest[len(rest)-2:])
	if err != nil {
		return NoMove, p.syntaxErr(CodeSANNoSquare, orig)
	}
	rest = rest[:len(rest)-2]
	piece := Pawn
	if rest != "" && strings.IndexByte("KQRBNP", rest[0]) >= 0 {
		piece = pieceTypeFromLetter(rest[0])
		rest = rest[1:]
	}
	capture := false
	if n := len(rest); n > 0 && (rest[n-1] == 'x' || rest[n-1] == ':' || rest[n-1] == '-') {
		capture = rest[n-1] != '-'
		rest = rest[:n-1]
	}
	fromFile, fromRank := -1, -1
	if rest != "" && rest[0] >= 'a' && rest[0] <= 'h' {
		fromFile = int(rest[0] - 'a')
		rest = rest[1:]
	}
	if rest != "" && rest[0] >= '1' && rest[0] <= '8' {
		fromRank = int(rest[0] - '1')
		rest = rest[1:]
	}
	if rest != "" {
		return NoMove, p.syntaxErr(CodeSANNotNotation, orig)
	}

	var found []Move
	needsPromo := false
	for _, m := range moves {
		if m.To() != to || m.Piece().Type() != piece {
			continue
		}
		if fromFile >= 0 && m.From().File() != fromFile || fromRank >= 0 && m.From().Rank() != fromRank {
			continue
		}
		if m.Promotion() != promo {
			if promo == NoPieceType {
				needsPromo = true
			}
			continue
		}
		found = append(found, m)
	}
	switch {
	case len(found) == 1:
		m := found[0]
		if capture && !m.IsCapture() {
			return NoMove, p.moveErr(CodeSANNothingToCapture, orig, "Square", to.String())
		}
		return m, nil
	case len(found) > 1:
		alts := make([]string, len(found))
		for i, m := range found {
			alts[i] = p.san(m, moves)
		}
		return NoMove, p.moveErr(CodeSANAmbiguous, orig, "Moves", strings.Join(alts, ", "))
	case needsPromo:
		return NoMove, p.moveErr(CodeSANNeedsPromotion, orig, "Square", to.String())
	case promo != NoPieceType && piece != Pawn:
		return NoMove, p.moveErr(CodeSANOnlyPawnPromotes, orig)
	case promo != NoPieceType:
		return NoMove, p.moveErr(CodeSANIllegalPromotion, orig)
	case p.Pieces(p.turn, piece) == 0:
		return NoMove, p.moveErr(CodeSANNoPiece+piece.String(), orig, "Piece", piece.String())
	}
	return NoMove, p.moveErr(CodeSANIllegal+piece.String(), orig, "Piece", piece.String(), "Square", to.String())
}

func promotionLetter(c byte) PieceType {
	switch c {
	case 'Q', 'q':
		return Queen
	case 'R', 'r':
		return Rook
	case 'B', 'b':
		return Bishop
	case 'N', 'n':
		return Knight
	}
	return NoPieceType
}

func pieceTypeFromLetter(c byte) PieceType {
	for t := Pawn; t <= King; t++ {
		if t.Letter() == c {
			return t
		}
	}
	return NoPieceType
}

// ParseUCI finds the legal move written in long algebraic notation, such as
// "e2e4", "e7e8q" or "e1g1" (castling is the king moving two squares).
// Its errors are *Errors with the uci_ codes; text of the wrong shape gets
// a *SyntaxError.
func (p *Position) ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NoMove, p.syntaxErr(CodeUCISyntax, s)
	}
	from, err1 := ParseSquare(s[:2])
	to, err2 := ParseSquare(s[2:4])
	if err1 != nil || err2 != nil {
		return NoMove, p.syntaxErr(CodeUCISyntax, s)
	}
	promo := NoPieceType
	if len(s) == 5 {
		switch s[4] {
		case 'q', 'Q':
			promo = Queen
		case 'r', 'R':
			promo = Rook
		case 'b', 'B':
			promo = Bishop
		case 'n', 'N':
			promo = Knight
		default:
			return NoMove, p.moveErr(CodeUCIPromotion, s)
		}
	}
	var buf [256]Move
	needsPromo := false
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if m.From() == from && m.To() == to {
			if m.Promotion() == promo {
				return m, nil
			}
			needsPromo = needsPromo || promo == NoPieceType
		}
	}
	if needsPromo {
		return NoMove, p.moveErr(CodeUCINeedsPromotion, s)
	}
	if p.board[from] == NoPiece {
		return NoMove, p.moveErr(CodeUCINoPiece, s, "Square", from.String())
	}
	return NoMove, p.moveErr(CodeUCIIllegal, s)
}
