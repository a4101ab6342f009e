// Package handlers is the site's HTTP layer: one Handler struct holding the
// dependencies, one file per resource, every route listed in Register.
package handlers

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"chesstutor/classes"
	"chesstutor/games"
	"chesstutor/lessons"
	"chesstutor/limits"
	"chesstutor/live"
	"chesstutor/puzzles"
	"chesstutor/quiz/rounds"
	"chesstutor/retention"
	"chesstutor/review"
	"chesstutor/store"
	"chesstutor/transfer"
	"chesstutor/views"
	"chesstutor/words"
)

// Deps are the dependencies New needs. Store and Views are required.
type Deps struct {
	Store   store.Store
	Views   *views.Renderer
	Words   *words.Catalogue // defaults to the embedded catalogue
	Games   *games.Service
	Rounds  *rounds.Service
	Lessons *lessons.Library // the course in every language
	Reviews *review.Service  // nil: no game reviews
	// Transfers makes and redeems the codes that continue on another
	// device (G28); nil: a service over Store.
	Transfers *transfer.Service
	// Classes runs teachers' classrooms (T1–T6); nil: a service over Store.
	Classes *classes.Service
	// Puzzles plays the puzzles (puzzles.go); nil: the shipped puzzles on
	// the store, without the punishing reply's engine.
	Puzzles *puzzles.Service
	// Live holds the event streams of games from two devices (G25); nil:
	// a hub of this process alone over Games.
	Live   *live.Hub
	Logger *slog.Logger     // defaults to slog.Default()
	Now    func() time.Time // defaults to time.Now
	Limits Limits
	// CookieKeys sign visitor cookies: the first signs, all verify (key
	// rotation, see cookieSigner). Empty: a random key for this process
	// only (tests); main.go passes CHESS_COOKIE_KEY or the stored key.
	CookieKeys [][]byte
	// Retention are the periods the retention job keeps data for, shown on
	// the privacy page; zero fields take retention.DefaultPeriods.
	Retention retention.Periods
}

// Limits bound what one request or one visitor may ask of the server.
type Limits struct {
	BodyBytes int64   // largest request body; default 16 KiB
	APIRate   float64 // sustained /api requests per second per visitor; default 20
	APIBurst  int     // /api requests allowed at once before the rate applies; default 60

	// Per client address (N8). A class of 30 children behind one school
	// address must never notice them; a script from one address is held
	// to them.
	PageRate     float64 // sustained page and API reads per second per address; default 20
	PageBurst    int     // reads at once per address; default 600
	VisitorRate  float64 // new visitors stored per second per address; default 0.5 (30 a minute)
	VisitorBurst int     // new visitors at once per address; default 60
	GameRate     float64 // games started per second per address; default 1
	GameBurst    int     // games started at once per address; default 120
	// Tries of a code to continue on another device (G28), right or
	// wrong: enough for a class each moving to a tablet, far too few to
	// guess a code.
	TransferRate  float64 // tries per second per address; default 0.1 (6 a minute)
	TransferBurst int     // tries at once per address; default 30
	// Wrong join codes of a class (T5): a school behind one address
	// joins freely (a right code costs nothing), guessing is pointless.
	JoinRate  float64 // wrong codes per second per address; default 1/3 (20 a minute)
	JoinBurst int     // wrong codes at once per address; default 20
	// LimiterKeys caps how many visitors or addresses each limiter
	// remembers (a few hundred bytes each); default 20,000.
	LimiterKeys int
	// TrustedProxies are the addresses (IPs or CIDRs) of reverse proxies
	// whose X-Forwarded-For names the client. Empty: the connection's
	// address is the client's, and X-Forwarded-For is ignored.
	TrustedProxies []string
}

// Defaults for Limits.
const (
	DefaultBodyBytes     = 16 << 10
	DefaultAPIRate       = 20
	DefaultAPIBurst      = 60
	DefaultPageRate      = 20
	DefaultPageBurst     = 600
	DefaultVisitorRate   = 0.5
	DefaultVisitorBurst  = 60
	DefaultGameRate      = 1
	DefaultGameBurst     = 120
	DefaultTransferRate  = 0.1
	DefaultTransferBurst = 30
	DefaultLimiterKeys   = 20_000
	DefaultJoinRate      = 1.0 / 3
	DefaultJoinBurst     = 20
)

// Handler serves every page and API route.
type Handler struct {
	store   store.Store
	views   *views.Renderer
	words   *words.Catalogue
	games   *games.Service
	rounds  *rounds.Service
	lessons *lessons.Library
	reviews *review.Service
	// transfers: continue on another device (transfer.go)
	transfers *transfer.Service
	// classes: teachers' classrooms (classes.go)
	classes *classes.Service
	// puzzles: the puzzles (puzzles.go)
	puzzles *puzzles.Service
	live    *live.Hub // remote.go: the games' event streams
	log     *slog.Logger
	limits  Limits
	now     func() time.Time // the clock (trainer rounds, rate limits)

	apiLimiter        *limits.Limiter // per visitor
	pageLimiter       *limits.Limiter // per address
	newVisitorLimiter *limits.Limiter // per address
	gameLimiter       *limits.Limiter // per address
	transferLimiter   *limits.Limiter // per address: tries of a transfer code
	joinLimiter       *limits.Limiter // per address: wrong join codes of a class
	newClassLimiter   *limits.Limiter // per address: classes made
	cookies           cookieSigner
	retention         retention.Periods
	visitors          *knownVisitors
	assets            map[string]asset
}

// New returns a Handler; zero Limits fields take the defaults.
func New(d Deps) *Handler {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Words == nil {
		d.Words = words.Default()
	}
	if d.Limits.BodyBytes <= 0 {
		d.Limits.BodyBytes = DefaultBodyBytes
	}
	if d.Limits.APIRate <= 0 {
		d.Limits.APIRate = DefaultAPIRate
	}
	if d.Limits.APIBurst <= 0 {
		d.Limits.APIBurst = DefaultAPIBurst
	}
	l := &d.Limits
	for _, f := range []struct {
		rate     *float64
		burst    *int
		defRate  float64
		defBurst int
	}{
		{&l.PageRate, &l.PageBurst, DefaultPageRate, DefaultPageBurst},
		{&l.VisitorRate, &l.VisitorBurst, DefaultVisitorRate, DefaultVisitorBurst},
		{&l.GameRate, &l.GameBurst, DefaultGameRate, DefaultGameBurst},
		{&l.TransferRate, &l.TransferBurst, DefaultTransferRate, DefaultTransferBurst},
		{&l.JoinRate, &l.JoinBurst, DefaultJoinRate, DefaultJoinBurst},
	} {
		if *f.rate <= 0 {
			*f.rate = f.defRate
		}
		if *f.burst <= 0 {
			*f.burst = f.defBurst
		}
	}
	if l.LimiterKeys <= 0 {
		l.LimiterKeys = DefaultLimiterKeys
	}
	if len(d.CookieKeys) == 0 {
		k, err := NewCookieKey()
		if err != nil {
			panic(err) // the system's random source failed
		}
		d.CookieKeys = [][]byte{k}
	}
	if d.Transfers == nil {
		d.Transfers = transfer.New(d.Store, d.Now)
	}
	if d.Classes == nil {
		d.Classes = classes.New(d.Store, d.Now)
	}
	if d.Puzzles == nil {
		d.Puzzles = puzzles.NewService(puzzles.ServiceConfig{Store: d.Store, Now: d.Now})
	}
	if d.Live == nil && d.Games != nil {
		d.Live = live.NewHub(d.Games.View, live.Options{Logger: d.Logger})
	}
	assets, err := loadAssets()
	if err != nil {
		// The files are embedded in the binary: failing to read them is a
		// broken build, so the boot stops here.
		panic(err)
	}
	return &Handler{
		assets:            assets,
		store:             d.Store,
		words:             d.Words,
		views:             d.Views,
		games:             d.Games,
		rounds:            d.Rounds,
		lessons:           d.Lessons,
		reviews:           d.Reviews,
		transfers:         d.Transfers,
		classes:           d.Classes,
		puzzles:           d.Puzzles,
		live:              d.Live,
		log:               d.Logger,
		limits:            d.Limits,
		now:               d.Now,
		apiLimiter:        limits.New(l.APIRate, l.APIBurst, l.LimiterKeys),
		pageLimiter:       limits.New(l.PageRate, l.PageBurst, l.LimiterKeys),
		newVisitorLimiter: limits.New(l.VisitorRate, l.VisitorBurst, l.LimiterKeys),
		gameLimiter:       limits.New(l.GameRate, l.GameBurst, l.LimiterKeys),
		transferLimiter:   limits.New(l.TransferRate, l.TransferBurst, l.LimiterKeys),
		joinLimiter:       limits.New(l.JoinRate, l.JoinBurst, l.LimiterKeys),
		// A class belongs to no visitor, so what caps them is this: a
		// staff room's worth at once, then one a minute per address.
		newClassLimiter: limits.New(1.0/60, 20, l.LimiterKeys),
		cookies:         cookieSigner{keys: d.CookieKeys},
		retention:       retention.New(retention.Config{Periods: d.Retention}).Periods(),
		visitors:        newKnownVisitors(100_000),
	}
}

// Register installs the middleware and lists every route of the site.
func (h *Handler) Register(e *echo.Echo) {
	e.HTTPErrorHandler = h.handleError
	e.IPExtractor = h.ipExtractor()
	e.Pre(headAsGet)
	e.Use(
		h.logRequests,
		h.recoverPanics,
		h.secureHeaders,
		// Pages and assets only, at BestSpeed: a gzip writer holds 0.5–1 MB
		// while it works, so compressing the small JSON game states cost
		// over 500 MB with 500 players at once to save about a kilobyte
		// each (issue 9).
		middleware.GzipWithConfig(middleware.GzipConfig{
			MinLength: 1024,
			Level:     gzip.BestSpeed,
			Skipper: func(c echo.Context) bool {
				p := c.Request().URL.Path
				return isAPI(p) || strings.HasPrefix(p, "/assets/") // assets come compressed already
			},
		}),
		h.chooseLanguage,
		h.limitBody,
		h.limitPages,
		h.identifyVisitor,
		h.checkOrigin,
		h.checkCSRF,
		h.keepVisitor,
	)

	e.GET("/healthz", h.health)
	e.GET("/assets/:version/*", h.serveAsset)
	e.GET("/favicon.ico", h.serveFavicon)

	e.GET("/", h.showHome)

	api := e.Group("/api", h.rateLimit)
	h.registerGames(e, api)
	h.registerLessons(e)
	h.registerExercises(e, api)
	h.registerWorksheets(e)
	h.registerExams(e)
	h.registerTrainer(e, api) // trainer.go
	h.registerGlossary(e)     // glossary.go
	// Feature routes: each feature adds its lines here, pages on e and
	// JSON routes on api, e.g. api.POST("/games", h.createGame).
	h.registerQuiz(e, api)
	if h.reviews != nil {
		h.registerReviews(e, api)
		h.registerHints(api) // hints.go
	}
	e.POST("/settings/board", h.saveBoardTheme)
	e.POST("/settings/notation", h.saveNotation) // notation.go
	h.registerPrivacy(e, api)
	h.registerTransfer(e, api) // transfer.go
	h.registerClasses(e, api)  // classes.go
	h.registerPuzzles(e, api)  // puzzles.go
	h.registerRemote(e, api)   // remote.go
}

// visitorID returns the current visitor's id (set by identifyVisitor), or
// "" on routes without a visitor (assets, /healthz).
func visitorID(c echo.Context) string {
	id, _ := c.Get(visitorKey).(string)
	return id
}

// sectionFor returns the header section a path belongs to.
func sectionFor(path string) string {
	switch {
	case path == "/":
		return "home"
	case path == "/practice" || strings.HasPrefix(path, "/practice/") || strings.HasSuffix(path, "/practice"):
		return "practice"
	case path == "/learn" || strings.HasPrefix(path, "/learn/") || path == "/rules",
		strings.HasPrefix(path, "/exam/"), strings.HasPrefix(path, "/certificate/"):
		return "learn"
	case path == "/quiz" || strings.HasPrefix(path, "/quiz/"):
		return "quiz"
	case path == "/play" || strings.HasPrefix(path, "/play/"):
		return "play"
	case path == "/games" || strings.HasPrefix(path, "/games/"):
		return "games"
	}
	return ""
}

// render renders a page inside the layout, filling in the header section
// (from the URL) and the CSRF token for the visitor's forms.
func (h *Handler) render(c echo.Context, status int, page string, data any) error {
	p := views.Page{
		Section: sectionFor(c.Request().URL.Path),
		CSRF:    h.pageCSRF(c),
		Data:    data,

		BoardTheme: boardTheme(c),
		Path:       c.Request().URL.RequestURI(),
		Lang:       h.w(c).Lang(),
		Notation:   notationStyle(c),
	}
	body, err := h.views.Execute(page, p)
	if err != nil {
		return err
	}
	hdr := c.Response().Header()
	hdr.Set("Content-Type", "text/html; charset=utf-8")
	if strings.HasPrefix(p.Path, "/play/") || status != http.StatusOK || hdr.Get("Cache-Control") == "no-store" {
		// A live game page (clocks) must never come back from a cache,
		// nor a page the handler marked so (a one-time code).
		hdr.Set("Cache-Control", "no-store")
	} else {
		// Pages are per visitor and change with progress: the browser keeps
		// them but asks every time; an unchanged page answers 304 (N5).
		sum := sha256.Sum256(body)
		etag := `W/"` + hex.EncodeToString(sum[:12]) + `"`
		hdr.Set("Cache-Control", "private, no-cache")
		hdr.Set("ETag", etag)
		hdr.Add("Vary", "Cookie")
		if match := c.Request().Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
			return c.NoContent(http.StatusNotModified)
		}
	}
	c.Response().WriteHeader(status)
	_, err = c.Response().Write(body)
	return err
}

// bindJSON decodes a JSON request body into dst, refusing unknown fields,
// trailing data and bodies over the limit with messages a person reads:
// 415 when the body is not JSON, 413 when it is too large, 400 otherwise.
func bindJSON(c echo.Context, dst any) error {
	if ct := c.Request().Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return refuse(http.StatusUnsupportedMediaType, "http.json_content_type")
		}
	}
	dec := json.NewDecoder(c.Request().Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return refuse(http.StatusBadRequest, "http.json_more_values")
	}
	return nil
}

// jsonError turns a decoding error into an HTTP error a person
// understands: a code with the byte offset, the field, the type it wants
// and the kind of value it got as arguments.
func jsonError(err error) error {
	var tooBig *http.MaxBytesError
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		return refuse(http.StatusRequestEntityTooLarge, "error.body_too_large", "Limit", tooBig.Limit)
	case errors.Is(err, io.EOF):
		return refuse(http.StatusBadRequest, "http.json_empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return refuse(http.StatusBadRequest, "http.json_truncated")
	case errors.As(err, &syntax):
		return refuse(http.StatusBadRequest, "http.json_syntax", "Offset", syntax.Offset)
	case errors.As(err, &typ):
		got := jsonKind(typ.Value)
		if typ.Field == "" {
			return refuse(http.StatusBadRequest, "http.json_not_object", "Got", got)
		}
		return refuse(http.StatusBadRequest, "http.json_field_type",
			"Field", typ.Field, "Want", friendlyType(typ.Type.String()), "Got", got)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return refuse(http.StatusBadRequest, "http.json_unknown_field", "Field", field)
	}
	return refuse(http.StatusBadRequest, "http.json_unreadable")
}

// friendlyType names the Go type a field wants in the words of the
// catalogue ("a whole number").
func friendlyType(t string) words.Message {
	switch {
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return words.M("http.json_type_whole")
	case strings.HasPrefix(t, "float"):
		return words.M("http.json_type_number")
	case t == "string":
		return words.M("http.json_type_string")
	case t == "bool":
		return words.M("http.json_type_bool")
	case strings.HasPrefix(t, "[]"):
		return words.M("http.json_type_list")
	}
	return words.M("http.json_type_object")
}

// jsonKind names the kind of JSON value encoding/json found ("string",
// "number -1", "array", …) in the words of the catalogue.
func jsonKind(value string) words.Message {
	kind, _, _ := strings.Cut(value, " ")
	switch kind {
	case "string", "number", "bool", "array", "object":
		return words.M("http.json_kind_" + kind)
	}
	return words.M("http.json_kind_value")
}
