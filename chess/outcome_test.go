package chess

import (
	"fmt"
	"strings"
	"testing"
)

func TestMethodCodesRoundTrip(t *testing.T) {
	seen := map[string]Method{}
	for m := NoMethod; int(m) < numMethods; m++ {
		code := m.Code()
		if other, dup := seen[code]; dup {
			t.Errorf("%v and %v share code %q", other, m, code)
		}
		seen[code] = m
		if strings.ContainsAny(code, " ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Errorf("code %q is not lowercase words joined by hyphens", code)
		}
		got, err := ParseMethodCode(code)
		if err != nil || got != m {
			t.Errorf("ParseMethodCode(%q) = %v, %v; want %v", code, got, err, m)
		}
	}
	for _, bad := range []string{"threefold repetition", "Checkmate", "active", "timeout-no-mate", "x"} {
		if m, err := ParseMethodCode(bad); err == nil {
			t.Errorf("ParseMethodCode(%q) = %v, want an error", bad, m)
		}
	}
}

func TestOutcomeCodesRoundTrip(t *testing.T) {
	outcomes := []struct {
		o       Outcome
		flagged Color
		code    string
	}{
		{Ongoing, White, ""},
		{win(White, Checkmate), White, "checkmate"},
		{win(Black, Checkmate), White, "checkmate"},
		{draw(Stalemate), White, "stalemate"},
		{draw(ThreefoldRepetition), White, "threefold-repetition"},
		{draw(FiftyMoveRule), White, "fifty-move-rule"},
		{draw(InsufficientMaterial), White, "insufficient-material"},
		{win(White, Timeout), Black, "timeout"},
		{win(Black, Timeout), White, "timeout"},
		{Outcome{Result: "1/2-1/2", Method: Timeout, Winner: Black}, White, TimeoutNoMate},
		{Outcome{Result: "1/2-1/2", Method: Timeout, Winner: White}, Black, TimeoutNoMate},
		{win(Black, Resignation), White, "resignation"},
		{draw(Agreement), White, "agreement"},
	}
	for _, tt := range outcomes {
		if got := tt.o.Code(); got != tt.code {
			t.Errorf("%+v.Code() = %q, want %q", tt.o, got, tt.code)
		}
		back, err := ParseOutcome(tt.o.Code(), tt.o.Result, tt.flagged)
		if err != nil || back.Result != tt.o.Result || back.Method != tt.o.Method || back.Reason() != tt.o.Reason() {
			t.Errorf("ParseOutcome(%q, %q) = %+v, %v; want %+v", tt.o.Code(), tt.o.Result, back, err, tt.o)
		}
	}
	for _, bad := range [][2]string{
		{"checkmate", "1/2-1/2"}, {"stalemate", "1-0"}, {"timeout-no-mate", "0-1"},
		{"resignation", "*"}, {"", "1-0"}, {"agreement", "0-1"}, {"Draw by agreement", "1/2-1/2"},
	} {
		if o, err := ParseOutcome(bad[0], bad[1], White); err == nil {
			t.Errorf("ParseOutcome(%q, %q) = %+v, want an error", bad[0], bad[1], o)
		}
	}
}

func TestFullMoves(t *testing.T) {
	black, err := ParseFEN("4k3/8/8/8/8/8/8/4K2R b K - 0 7")
	if err != nil {
		t.Fatal(err)
	}
	start, _ := ParseFEN(StartFEN)
	tests := []struct {
		start *Position
		sans  []string
		want  []FullMove
	}{
		{start, nil, nil},
		{start, []string{"e4"}, []FullMove{{1, "e4", ""}}},
		{start, []string{"e4", "e5", "Nf3"}, []FullMove{{1, "e4", "e5"}, {2, "Nf3", ""}}},
		{black, []string{"Kd7", "O-O", "Kc6"}, []FullMove{{7, "", "Kd7"}, {8, "O-O", "Kc6"}}},
	}
	for _, tc := range tests {
		got := FullMoves(tc.start, tc.sans)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("FullMoves(%s, %v) = %v, want %v", tc.start.FEN(), tc.sans, got, tc.want)
		}
	}
}
