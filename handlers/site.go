package handlers

import (
	"context"
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/chess/engine"
	"chesstutor/games"
	"chesstutor/lessons"
	"chesstutor/live"
	"chesstutor/puzzles"
	"chesstutor/quiz"
	"chesstutor/quiz/rounds"
	"chesstutor/retention"
	"chesstutor/review"
	"chesstutor/store"
	"chesstutor/transfer"
	"chesstutor/views"
	"chesstutor/words"
)

// SiteConfig is what the site takes from outside: the store, the computer
// opponent and the settings. NewSite loads the embedded content and builds
// the services itself, so main.go and the tests build the same site.
type SiteConfig struct {
	Store  store.Store  // required
	Engine games.Engine // the computer opponent; nil refuses computer games
	Logger *slog.Logger // defaults to slog.Default()
	Limits Limits       // zero fields take the defaults
	// ClockScale multiplies every game clock (tests shorten real time
	// controls with it); zero means 1.
	ClockScale float64
	// AwayClaim is how long a player of a game from two devices must be
	// gone before the other may claim (games.Config.AwayClaim; tests
	// shorten it); zero means a minute.
	AwayClaim time.Duration
	Now       func() time.Time // defaults to time.Now
	// MaxGames caps a visitor's unfinished games; zero means
	// games.DefaultMaxActive.
	MaxGames int
	// CookieKeys sign visitor cookies (Deps.CookieKeys); empty: a random
	// key for this process.
	CookieKeys [][]byte
	// Retention are the periods shown on the privacy page (the job itself
	// runs in main.go); zero fields take retention.DefaultPeriods.
	Retention retention.Periods
	// ReviewPace, in browser tests only, makes a review wait this long
	// after each position (see review.ServiceConfig.Pace).
	ReviewPace time.Duration
	// Words is the catalogue of every visitor-facing sentence; nil means
	// the embedded one (tests pass one loaded with words.WithPseudo).
	Words *words.Catalogue
	// Analysis is the engine of reviews and hints (C5): the built-in
	// engine's own pool or a UCI engine (Stockfish); nil uses Engine when
	// it analyses. AnalysisName is what a review says reviewed it
	// (review.BuiltinEngine when empty).
	Analysis     review.Engine
	AnalysisName string
	// Yield, when set, makes reviews give way to the computer's moves
	// (Engine must be a pool with the same Yield); ReviewWorkers is the
	// number of games reviewed at once (1 when zero).
	Yield         *engine.Yield
	ReviewWorkers int
	// ReviewDepth, when set, bounds a review's searches by depth instead
	// of by time (tests: the same work on a busy machine as on an idle
	// one).
	ReviewDepth int
	// Views, when set, are the pages already parsed for Words' languages;
	// nil parses them here. A Renderer never changes once made, so the
	// tests' many sites share one: parsing every page in every language
	// is most of what building a site costs.
	Views *views.Renderer
	// Lessons, when set, is the course already rendered in Words'
	// languages; nil loads it here (lessons.LoadLibrary, which renders the
	// embedded catalogue's once per process). Tests of another catalogue
	// share one, as they share Views.
	Lessons *lessons.Library
}

// Site is the whole site: every route registered on an Echo instance.
type Site struct {
	*echo.Echo
	Handler *Handler
	// Reviews runs game reviews in the background (nil without an engine
	// that analyses); the caller runs Reviews.Run for as long as it serves.
	Reviews *review.Service
	// Live holds the streams of games from two devices: with several
	// instances the caller connects it to the others (live.Postgres), and
	// it closes the streams when the server shuts down (Live.Close).
	Live *live.Hub
}

// NewSite builds the site: templates, lessons and quiz questions (all
// embedded, checked at start-up), the game and quiz services over the
// store, and the handlers with their middleware.
func NewSite(cfg SiteConfig) (*Site, error) {
	cat := cfg.Words
	if cat == nil {
		cat = words.Default()
	}
	renderer := cfg.Views
	if renderer == nil {
		var err error
		if renderer, err = views.New(cat); err != nil {
			return nil, err
		}
	}
	bank, err := quiz.Load()
	if err != nil {
		return nil, err
	}
	course := cfg.Lessons
	if course == nil {
		if course, err = lessons.LoadLibrary(cat); err != nil {
			return nil, err
		}
	}
	// The games' event streams re-read a changed game through the game
	// service, which tells them of every change (G25).
	var gs *games.Service
	hub := live.NewHub(func(ctx context.Context, id string) (*games.State, error) { return gs.View(ctx, id) },
		live.Options{Logger: cfg.Logger})
	gs = games.New(games.Config{Store: cfg.Store, Engine: cfg.Engine, Now: cfg.Now, ClockScale: cfg.ClockScale,
		MaxActive: cfg.MaxGames, Changed: hub.Changed, AwayClaim: cfg.AwayClaim})
	// Game reviews and hints need an engine that analyses (*engine.Pool).
	var reviews *review.Service
	an := cfg.Analysis
	if an == nil {
		an, _ = cfg.Engine.(review.Engine)
	}
	if an != nil {
		reviews = review.NewService(review.ServiceConfig{Store: cfg.Store, Hints: cfg.Store, Games: gs, Engine: an,
			EngineName: cfg.AnalysisName, Yield: cfg.Yield, Workers: cfg.ReviewWorkers,
			Pace: cfg.ReviewPace, Depth: cfg.ReviewDepth, Logger: cfg.Logger})
	}
	var puzzleEngine review.Engine
	if an, ok := cfg.Engine.(review.Engine); ok {
		puzzleEngine = an
	}
	h := New(Deps{
		Puzzles:    puzzles.NewService(puzzles.ServiceConfig{Store: cfg.Store, Engine: puzzleEngine, Now: cfg.Now}),
		Store:      cfg.Store,
		Views:      renderer,
		Words:      cat,
		Games:      gs,
		Reviews:    reviews,
		Rounds:     rounds.New(bank, cfg.Store),
		Transfers:  transfer.New(cfg.Store, cfg.Now),
		Live:       hub,
		Lessons:    course,
		Logger:     cfg.Logger,
		Now:        cfg.Now,
		Limits:     cfg.Limits,
		CookieKeys: cfg.CookieKeys,
		Retention:  cfg.Retention,
	})
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	h.Register(e)
	return &Site{Echo: e, Handler: h, Reviews: reviews, Live: hub}, nil
}
