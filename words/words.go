// Package words is the site's one voice: every sentence a visitor reads,
// by key, in every language the site speaks. The catalogue is TOML files
// under locales/<lang>/, one file per feature, embedded in the binary and
// read with go-i18n (named arguments, CLDR plural rules). Services below
// the edge return codes and arguments (Message, Error); only the edge —
// templates, the JSON encoder, the page's script — turns them into words
// with a Words for the request's language.
package words

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"chesstutor/chess"
)

//go:embed locales
var localeFiles embed.FS

// Language is one language the site speaks: its code (BCP 47, as in
// <html lang>) and its name in itself, for the language menu.
type Language struct {
	Code, Name string
}

// English is the source language: every key exists in it first, and any
// key a translation lacks falls back to it.
const English = "en"

// Pseudo is the test-only pseudo-language (every string wrapped and
// lengthened); a Catalogue has it only when loaded WithPseudo.
const Pseudo = "en-XA"

// languages are the site's languages in menu order.
var languages = []Language{
	{"en", "English"},
	{"es", "Español"},
	{"ru", "Русский"},
}

// Catalogue holds every message of every language. It is read-only once
// loaded, so any number of requests may use it at once.
type Catalogue struct {
	bundle   *i18n.Bundle
	langs    []Language
	byCode   map[string]*Words
	messages map[string]map[string]*i18n.Message // lang -> id -> message
	files    map[string]map[string]string        // lang -> id -> file it came from
	matcher  language.Matcher
}

// Option changes how a catalogue is loaded.
type Option func(*options)

type options struct{ pseudo bool }

// WithPseudo adds the pseudo-language Pseudo, made from English, for tests
// that look for words that escaped the catalogue.
func WithPseudo() Option { return func(o *options) { o.pseudo = true } }

// Load reads the embedded catalogue.
func Load(opts ...Option) (*Catalogue, error) {
	sub, err := fs.Sub(localeFiles, "locales")
	if err != nil {
		return nil, err
	}
	return LoadFS(sub, opts...)
}

// MustLoad is Load for tests and programs whose catalogue is embedded and
// checked by this package's tests.
func MustLoad(opts ...Option) *Catalogue {
	c, err := Load(opts...)
	if err != nil {
		panic(err)
	}
	return c
}

// LoadFS reads a catalogue laid out as <lang>/<feature>.toml.
func LoadFS(fsys fs.FS, opts ...Option) (*Catalogue, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	c := &Catalogue{
		bundle:   i18n.NewBundle(language.English),
		byCode:   map[string]*Words{},
		messages: map[string]map[string]*i18n.Message{},
		files:    map[string]map[string]string{},
	}
	c.bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, l := range languages {
		if err := c.loadLanguage(fsys, l.Code); err != nil {
			return nil, err
		}
		c.langs = append(c.langs, l)
	}
	if o.pseudo {
		msgs := make([]*i18n.Message, 0, len(c.messages[English]))
		c.messages[Pseudo] = map[string]*i18n.Message{}
		for _, m := range c.messages[English] {
			p := pseudoMessage(m)
			msgs = append(msgs, p)
			c.messages[Pseudo][p.ID] = p
		}
		if err := c.bundle.AddMessages(language.MustParse(Pseudo), msgs...); err != nil {
			return nil, fmt.Errorf("words: pseudo-language: %w", err)
		}
		c.langs = append(c.langs, Language{Pseudo, "Ƥšéüđö"})
	}
	tags := make([]language.Tag, len(c.langs))
	for i, l := range c.langs {
		tags[i] = language.MustParse(l.Code)
		c.byCode[l.Code] = c.newWords(l.Code)
	}
	c.matcher = language.NewMatcher(tags)
	return c, nil
}

func (c *Catalogue) loadLanguage(fsys fs.FS, code string) error {
	names, err := fs.Glob(fsys, code+"/*.toml")
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("words: no catalogue files for %q", code)
	}
	tag := language.MustParse(code)
	c.messages[code] = map[string]*i18n.Message{}
	c.files[code] = map[string]string{}
	for _, name := range names {
		buf, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		msgs, err := c.bundle.ParseMessageBytes(tag, buf, toml.Unmarshal)
		if err != nil {
			return fmt.Errorf("words: %s: %w", name, err)
		}
		for _, m := range msgs {
			if prev, dup := c.files[code][m.ID]; dup {
				return fmt.Errorf("words: %s: key %q is also in %s", name, m.ID, prev)
			}
			c.messages[code][m.ID] = m
			c.files[code][m.ID] = path.Base(name)
		}
		if err := c.bundle.AddMessages(tag, msgs...); err != nil {
			return fmt.Errorf("words: %s: %w", name, err)
		}
	}
	return nil
}

// Languages lists the languages a visitor may choose, in menu order (the
// pseudo-language is never offered).
func (c *Catalogue) Languages() []Language {
	out := make([]Language, 0, len(c.langs))
	for _, l := range c.langs {
		if l.Code != Pseudo {
			out = append(out, l)
		}
	}
	return out
}

// Supported reports whether code names a language of the catalogue.
func (c *Catalogue) Supported(code string) bool { return c.byCode[code] != nil }

// For returns the words of one language; an unknown code gets English.
func (c *Catalogue) For(code string) *Words {
	if w := c.byCode[code]; w != nil {
		return w
	}
	return c.byCode[English]
}

// Match picks the language for a request: an explicit choice first (the
// ?lang= parameter, then the lang cookie), then the Accept-Language
// header through x/text's matcher, then English. It returns a code of
// the catalogue.
func (c *Catalogue) Match(choice, cookie, acceptLanguage string) string {
	for _, code := range []string{choice, cookie} {
		if code != "" && c.Supported(code) {
			return code
		}
	}
	if acceptLanguage == "" {
		return English
	}
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return English
	}
	_, idx, conf := c.matcher.Match(tags...)
	if conf == language.No || c.langs[idx].Code == Pseudo {
		return English
	}
	return c.langs[idx].Code
}

// Keys lists the keys of one language, sorted.
func (c *Catalogue) Keys(code string) []string {
	out := make([]string, 0, len(c.messages[code]))
	for k := range c.messages[code] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Problem is one inconsistency between a translation and English.
type Problem struct {
	Lang, Key, File, What string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: %s (%s): %s", p.Lang, p.Key, p.File, p.What)
}

// Check compares every language with English: missing and extra keys,
// and placeholders a translation dropped or invented. Plural forms are
// checked against the language's CLDR categories only where English has
// plural forms.
func (c *Catalogue) Check() []Problem {
	var out []Problem
	en := c.messages[English]
	for _, l := range c.langs {
		if l.Code == English || l.Code == Pseudo {
			continue
		}
		msgs := c.messages[l.Code]
		for _, k := range c.Keys(English) {
			m, ok := msgs[k]
			if !ok {
				out = append(out, Problem{l.Code, k, c.files[English][k], "missing"})
				continue
			}
			want := placeholders(en[k])
			got := placeholders(m)
			for p := range want {
				if !got[p] {
					out = append(out, Problem{l.Code, k, c.files[l.Code][k], "drops the placeholder " + p})
				}
			}
			for p := range got {
				if !want[p] {
					out = append(out, Problem{l.Code, k, c.files[l.Code][k], "has a placeholder English lacks: " + p})
				}
			}
			if plural(en[k]) && m.Other == "" {
				out = append(out, Problem{l.Code, k, c.files[l.Code][k], "lacks the plural form \"other\""})
			}
		}
		for _, k := range c.Keys(l.Code) {
			if _, ok := en[k]; !ok {
				out = append(out, Problem{l.Code, k, c.files[l.Code][k], "not in English (unused?)"})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func plural(m *i18n.Message) bool { return m.One != "" || m.Few != "" || m.Many != "" }

func forms(m *i18n.Message) []string {
	return []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other}
}

// placeholders are the {{.Name}} fields a message uses, in any form.
func placeholders(m *i18n.Message) map[string]bool {
	out := map[string]bool{}
	for _, f := range forms(m) {
		for {
			i := strings.Index(f, "{{")
			if i < 0 {
				break
			}
			j := strings.Index(f[i:], "}}")
			if j < 0 {
				break
			}
			out[strings.TrimSpace(f[i+2:i+j])] = true
			f = f[i+j+2:]
		}
	}
	return out
}

// Message is a sentence by code: a catalogue key and its named arguments.
// Services return Messages; the edge words them. An argument that is
// itself a Message is worded first, in the same language.
type Message struct {
	Key  string
	Args map[string]any
}

// M makes a Message from a key and name, value pairs: M("games.moves",
// "Count", 3). The argument "Count" also picks the plural form.
func M(key string, args ...any) Message {
	m := Message{Key: key}
	if len(args) > 0 {
		m.Args = make(map[string]any, len(args)/2)
		for i := 0; i+1 < len(args); i += 2 {
			name, _ := args[i].(string)
			m.Args[name] = args[i+1]
		}
	}
	return m
}

// IsZero reports whether m holds no message.
func (m Message) IsZero() bool { return m.Key == "" }

// Error is a refusal or failure by code. Its Error() is the code and the
// arguments, for logs and tests; visitors read it through Words.Error.
type Error struct {
	Message
	Err error // optional cause, for errors.Is
}

// Errorf returns an *Error for key with name, value pair arguments.
func Errorf(key string, args ...any) *Error { return &Error{Message: M(key, args...)} }

// Wrap returns an *Error for key that also wraps cause (errors.Is sees it).
func Wrap(cause error, key string, args ...any) *Error {
	return &Error{Message: M(key, args...), Err: cause}
}

func (e *Error) Error() string {
	if len(e.Args) == 0 {
		return e.Key
	}
	keys := make([]string, 0, len(e.Args))
	for k := range e.Args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(e.Key)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%v", k, e.Args[k])
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Code returns the catalogue key of the first *Error in err's chain, or "".
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Key
	}
	return ""
}

// Words is one language's voice. It is safe for concurrent use.
type Words struct {
	cat  *Catalogue
	lang string
	loc  *i18n.Localizer
	// plain holds every message without arguments or plural forms,
	// worded once at load: most of a page's words cost a map lookup.
	plain map[string]string
	// letters are the language's piece letters (notation.go).
	letters chess.Letters
	// moves is the table a SAN argument is shown with: the figurines,
	// or letters after ShowingMoves.
	moves chess.Letters
}

func (c *Catalogue) newWords(code string) *Words {
	w := &Words{cat: c, lang: code, loc: i18n.NewLocalizer(c.bundle, code, English), plain: map[string]string{}}
	for _, k := range c.Keys(English) {
		m := c.messages[code][k]
		if m == nil {
			m = c.messages[English][k]
		}
		if !plural(m) && !strings.Contains(m.Other, "{{") {
			w.plain[k] = m.Other
		}
	}
	w.letters = readLetters(w)
	w.moves = chess.Figurines
	return w
}

// Lang is the language's code.
func (w *Words) Lang() string { return w.lang }

// Catalogue is the catalogue the words come from.
func (w *Words) Catalogue() *Catalogue { return w.cat }

// T words a key with name, value pair arguments. A missing key reads as
// the key in brackets, which the catalogue's tests never let through.
func (w *Words) T(key string, args ...any) string { return w.Msg(M(key, args...)) }

// Msg words a Message.
func (w *Words) Msg(m Message) string {
	if m.Key == "" {
		return ""
	}
	if len(m.Args) == 0 {
		if s, ok := w.plain[m.Key]; ok {
			return s
		}
	}
	data := make(map[string]any, len(m.Args))
	for k, v := range m.Args {
		switch a := v.(type) {
		case Message:
			data[k] = w.Msg(a)
		case *Error:
			data[k] = w.Msg(a.Message)
		case SAN:
			data[k] = w.moves.Write(string(a))
		default:
			data[k] = v
		}
	}
	cfg := &i18n.LocalizeConfig{MessageID: m.Key, TemplateData: data}
	if n, ok := m.Args["Count"]; ok {
		// Only a message with plural forms is chosen by count; a plain
		// one may still show the number.
		if en := w.cat.messages[English][m.Key]; en != nil && plural(en) {
			cfg.PluralCount = n
		}
	}
	s, err := w.loc.Localize(cfg)
	if err != nil {
		return "[" + m.Key + "]"
	}
	return s
}

// HTML words a key whose text holds markup (links, <strong>): arguments
// are escaped first, the catalogue's own markup is kept.
func (w *Words) HTML(key string, args ...any) template.HTML {
	m := M(key, args...)
	for k, v := range m.Args {
		switch a := v.(type) {
		case Message:
			m.Args[k] = template.HTMLEscapeString(w.Msg(a))
		case template.HTML:
			m.Args[k] = string(a)
		case SAN:
			m.Args[k] = template.HTMLEscapeString(w.moves.Write(string(a)))
		case string:
			m.Args[k] = template.HTMLEscapeString(a)
		}
	}
	return template.HTML(w.Msg(m))
}

// Error words err for a visitor: the first *Error in its chain, else
// fallback's words.
func (w *Words) Error(err error, fallback string) string {
	var e *Error
	if errors.As(err, &e) {
		return w.Msg(e.Message)
	}
	return w.T(fallback)
}

// Has reports whether key is in the catalogue.
func (w *Words) Has(key string) bool {
	_, ok := w.cat.messages[English][key]
	return ok
}

// Script is the words under prefix for a page's script: key (without the
// prefix) -> text, or for a plural message its forms by CLDR category
// ({"one": …, "few": …, "other": …}), which the script picks with
// Intl.PluralRules. Placeholders stay as {{.Name}}.
func (w *Words) Script(prefix string) map[string]any {
	out := map[string]any{}
	for _, k := range w.cat.Keys(English) {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		m := w.cat.messages[w.lang][k]
		if m == nil {
			m = w.cat.messages[English][k]
		}
		short := strings.TrimPrefix(k, prefix)
		if plural(m) {
			f := map[string]string{}
			for name, s := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
				if s != "" {
					f[name] = s
				}
			}
			out[short] = f
			continue
		}
		out[short] = m.Other
	}
	return out
}

// Default is the embedded catalogue, loaded once. It is read-only; code
// that has a request's Words should use those instead.
var Default = sync.OnceValue(func() *Catalogue { return MustLoad() })

// Date writes a day as the language writes it ("2 Jan 2026", "2 ene
// 2026", "2 янв. 2026"): catalogue keys date.short and date.month_1 …
// date.month_12 (dates.toml).
func (w *Words) Date(t time.Time) string {
	t = t.UTC()
	return w.T("date.short", "Day", t.Day(), "Month", w.T(fmt.Sprintf("date.month_%d", int(t.Month()))), "Year", t.Year())
}
