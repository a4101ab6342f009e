package classes

import (
	"errors"
	"strings"
	"testing"
)

func TestNickname(t *testing.T) {
	for _, c := range []struct {
		typed, want, key string
		ok               bool
	}{
		{"Ana", "Ana", "ana", true},
		{"  Ben   the  Bishop ", "Ben the Bishop", "ben the bishop", true},
		{"Cleo 7", "Cleo 7", "cleo 7", true},
		{"José", "José", "josé", true},
		{"Jose\u0301", "José", "josé", true}, // NFD typed, NFC kept: one nickname, not two
		{"Маша", "Маша", "маша", true},
		{"12345678901234567890", "12345678901234567890", "12345678901234567890", true},
		{"", "", "", false},
		{"   ", "", "", false},
		{"123456789012345678901", "", "", false},
		{"<b>Ana</b>", "", "", false},
		{"ana@school.es", "", "", false},
		{"https://example.com", "", "", false},
		{"www.example.com", "", "", false},
		{"Ana\u202e", "", "", false}, // a direction override hides text from the teacher
		{"Ana\u200b", "", "", false}, // zero width
		{"Ana\n", "Ana", "ana", true},
		{strings.Repeat("a", 300), "", "", false},
	} {
		got, key, err := Nickname(c.typed)
		if c.ok != (err == nil) || got != c.want || key != c.key {
			t.Errorf("Nickname(%q) = %q, %q, %v; want %q, %q, ok %v", c.typed, got, key, err, c.want, c.key, c.ok)
		}
		var ce *Error
		if err != nil && (!errors.As(err, &ce) || ce.Kind != Invalid || ce.Message.Key == "") {
			t.Errorf("Nickname(%q) refused with %v, want an Invalid refusal with its words", c.typed, err)
		}
	}
}

func TestClassName(t *testing.T) {
	for _, c := range []struct {
		typed, want string
		ok          bool
	}{
		{"Tuesday chess club", "Tuesday chess club", true},
		{"  Club   5ºB  ", "Club 5ºB", true},
		{"", "", false},
		{strings.Repeat("x", MaxNameLen+1), "", false},
		{"Club\x00", "", false},
		{"<script>", "", false},
	} {
		got, err := ClassName(c.typed)
		if c.ok != (err == nil) || got != c.want {
			t.Errorf("ClassName(%q) = %q, %v; want %q, ok %v", c.typed, got, err, c.want, c.ok)
		}
	}
}

func TestCodesAndSecrets(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		code, err := newCode()
		if err != nil {
			t.Fatal(err)
		}
		if len(code) != CodeLength || strings.ContainsAny(code, "01OIL") {
			t.Fatalf("code %q: want %d characters without 0, 1, O, I, L", code, CodeLength)
		}
		if got, ok := NormalizeCode(strings.ToLower(code[:2]) + " - " + code[2:]); !ok || got != code {
			t.Errorf("NormalizeCode of %q typed loosely = %q, %v", code, got, ok)
		}
		secret, err := newSecret()
		if err != nil {
			t.Fatal(err)
		}
		if !ValidSecret(secret) || seen[secret] {
			t.Fatalf("secret %q: malformed or drawn twice", secret)
		}
		seen[secret] = true
		if h := Hash(secret); len(h) != 64 || h == Hash(secret+"x") {
			t.Errorf("Hash(%q) = %q", secret, h)
		}
	}
	for _, bad := range []string{"ABCDE", "ABCDEFG", "ABCDE0", "ABCDEO", "ABCDE!", ""} {
		if _, ok := NormalizeCode(bad); ok {
			t.Errorf("NormalizeCode(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"", strings.Repeat("a", SecretLength-1), strings.Repeat("a", SecretLength-1) + "/", "../" + strings.Repeat("a", SecretLength-3)} {
		if ValidSecret(bad) {
			t.Errorf("ValidSecret(%q) = true", bad)
		}
	}
}
