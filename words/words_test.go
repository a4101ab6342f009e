package words

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestCatalogueConsistent(t *testing.T) {
	c := MustLoad()
	for _, p := range c.Check() {
		t.Error(p)
	}
	for _, l := range c.Languages() {
		t.Logf("%s: %d keys", l.Code, len(c.Keys(l.Code)))
	}
}

func TestRussianPlurals(t *testing.T) {
	w := MustLoad().For("ru")
	for n, want := range map[int]string{1: "1 ход", 2: "2 хода", 4: "4 хода", 5: "5 ходов", 11: "11 ходов", 21: "21 ход", 22: "22 хода", 25: "25 ходов"} {
		if got := w.T("test.plural", "Count", n); got != want {
			t.Errorf("ru %d: got %q, want %q", n, got, want)
		}
	}
	en := MustLoad().For("en")
	if got := en.T("test.plural", "Count", 1); got != "1 move" {
		t.Errorf("en 1: %q", got)
	}
	if got := en.T("test.plural", "Count", 0); got != "0 moves" {
		t.Errorf("en 0: %q", got)
	}
}

func TestMatch(t *testing.T) {
	c := MustLoad()
	cases := []struct{ choice, cookie, accept, want string }{
		{"", "", "", "en"},
		{"", "", "es-MX,es;q=0.9,en;q=0.5", "es"},
		{"", "", "ru-RU,ru;q=0.9", "ru"},
		{"", "", "de-DE,de;q=0.9", "en"},
		{"", "", "de;q=0.9,ru;q=0.5", "ru"},
		{"", "es", "ru", "es"},
		{"ru", "es", "en", "ru"},
		{"xx", "", "es", "es"},
		{"", "", "garbage;;;", "en"},
		{Pseudo, "", "", "en"}, // not loaded
	}
	for _, tc := range cases {
		if got := c.Match(tc.choice, tc.cookie, tc.accept); got != tc.want {
			t.Errorf("Match(%q,%q,%q) = %q, want %q", tc.choice, tc.cookie, tc.accept, got, tc.want)
		}
	}
}

func TestErrorsCarryCodes(t *testing.T) {
	cause := errors.New("underlying")
	err := fmt.Errorf("wrapped: %w", Wrap(cause, "test.plural", "Count", 3))
	if Code(err) != "test.plural" || !errors.Is(err, cause) {
		t.Fatalf("code %q, is %v", Code(err), errors.Is(err, cause))
	}
	c := MustLoad()
	if got := c.For("es").Error(err, "site.save"); got != "3 jugadas" {
		t.Errorf("es error words: %q", got)
	}
	if got := c.For("ru").Error(errors.New("x"), "site.save"); got != "Сохранить" {
		t.Errorf("fallback: %q", got)
	}
}

func TestPseudoWrapsEverything(t *testing.T) {
	c := MustLoad(WithPseudo())
	w := c.For(Pseudo)
	for _, k := range c.Keys(English) {
		s := w.T(k, "Count", 2)
		if !strings.HasPrefix(s, PseudoOpen) || !strings.HasSuffix(s, PseudoClose) {
			t.Errorf("%s: %q not wrapped", k, s)
		}
	}
	if got := w.T("test.plural", "Count", 2); !strings.Contains(got, "2 ") {
		t.Errorf("placeholder lost: %q", got)
	}
	if got := w.HTML("site.footer_about"); !strings.Contains(string(got), `<a href="/rules">`) {
		t.Errorf("markup lost: %q", got)
	}
}

// Requests in different languages at once never mix (run with -race).
func TestConcurrentLanguages(t *testing.T) {
	c := MustLoad()
	want := map[string]string{}
	for _, l := range c.Languages() {
		want[l.Code] = c.For(l.Code).T("test.plural", "Count", 5)
	}
	var wg sync.WaitGroup
	for i := 0; i < 30; i++ {
		for code, w := range want {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < 200; j++ {
					if got := c.For(code).T("test.plural", "Count", 5); got != w {
						t.Errorf("%s: %q, want %q", code, got, w)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
}
