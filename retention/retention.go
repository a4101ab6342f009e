// Package retention deletes what the site no longer needs to keep (N8):
// visitors untouched for a long time with all their data, visitors who
// never stored anything, expired codes for continuing on another device
// (G28), and closes unfinished games nobody plays. It
// runs in the server's process on a ticker, one small transaction at a
// time with a pause between, so requests never wait behind it for long.
package retention

import (
	"context"
	"log/slog"
	"time"

	"chesstutor/store"
)

// Periods say how long things are kept. They are shown on the privacy
// page, so they are the site's promise.
type Periods struct {
	// Visitors: a visitor whose last write (a lesson read, an exercise
	// solved, a quiz answer, a game move…) is older than this is deleted
	// with everything stored about them.
	Visitors time.Duration
	// Empty: a visitor row with nothing stored (a post that kept nothing)
	// is deleted once it is this old. It must stay above the handlers'
	// one-hour cache of stored visitors.
	Empty time.Duration
	// Games: an unfinished game nobody has played for this long is closed
	// as abandoned.
	Games time.Duration
	// Classes: a teacher's class nobody opened or joined for this long is
	// deleted with its memberships and homework (T5).
	Classes time.Duration
}

// DefaultPeriods: a year for a visitor's data, a day for an empty visitor,
// thirty days for an unfinished game.
var DefaultPeriods = Periods{Visitors: 365 * 24 * time.Hour, Empty: 24 * time.Hour, Games: 30 * 24 * time.Hour,
	Classes: 365 * 24 * time.Hour}

// Config is what a Job needs.
type Config struct {
	Store   store.Store
	Periods Periods
	Now     func() time.Time // defaults to time.Now
	Logger  *slog.Logger     // defaults to slog.Default()
	// Batch is how many visitors or games one transaction handles; default 100.
	Batch int
	// Pause is the wait between two transactions of one sweep, so writers
	// of pages get the database in between; default 50 ms.
	Pause time.Duration
}

// Job runs sweeps.
type Job struct {
	cfg Config
}

// New returns a Job; zero fields take their defaults.
func New(cfg Config) *Job {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 100
	}
	if cfg.Pause < 0 {
		cfg.Pause = 0
	} else if cfg.Pause == 0 {
		cfg.Pause = 50 * time.Millisecond
	}
	p, d := &cfg.Periods, DefaultPeriods
	if p.Visitors <= 0 {
		p.Visitors = d.Visitors
	}
	if p.Empty <= 0 {
		p.Empty = d.Empty
	}
	if p.Games <= 0 {
		p.Games = d.Games
	}
	if p.Classes <= 0 {
		p.Classes = d.Classes
	}
	return &Job{cfg: cfg}
}

// Report counts what one sweep did.
type Report struct {
	GamesClosed, TransfersDeleted, ClassesDeleted, VisitorsDeleted int
}

// Sweep closes idle games, deletes expired transfer codes, classes nobody
// used for Periods.Classes and then expired visitors (a visitor whose only row was such a code goes in the
// same sweep), batch by batch, until none are left or ctx ends. The
// cut-off times come from the Job's clock once, at the start.
func (j *Job) Sweep(ctx context.Context) (Report, error) {
	var r Report
	now := j.cfg.Now()
	p := j.cfg.Periods
	steps := []struct {
		count *int
		run   func(limit int) (int, error)
	}{
		{&r.GamesClosed, func(n int) (int, error) { return j.cfg.Store.AbandonIdleGames(ctx, now.Add(-p.Games), n) }},
		{&r.TransfersDeleted, func(n int) (int, error) { return j.cfg.Store.ExpireTransfers(ctx, now, n) }},
		{&r.ClassesDeleted, func(n int) (int, error) { return j.cfg.Store.ExpireClasses(ctx, now.Add(-p.Classes), n) }},
		{&r.VisitorsDeleted, func(n int) (int, error) {
			return j.cfg.Store.ExpireVisitors(ctx, now.Add(-p.Visitors), now.Add(-p.Empty), n)
		}},
	}
	for _, st := range steps {
		if err := j.drain(ctx, st.count, st.run); err != nil {
			return r, err
		}
	}
	return r, nil
}

// drain runs one kind of deletion batch by batch, pausing between, until
// a batch comes back short (nothing left) or ctx ends; count adds up.
func (j *Job) drain(ctx context.Context, count *int, run func(limit int) (int, error)) error {
	for {
		n, err := run(j.cfg.Batch)
		*count += n
		if err != nil || n < j.cfg.Batch {
			return err
		}
		if err := j.pause(ctx); err != nil {
			return err
		}
	}
}

func (j *Job) pause(ctx context.Context) error {
	t := time.NewTimer(j.cfg.Pause)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Run sweeps once at start and then every interval until ctx ends. A
// failed sweep is logged and tried again at the next tick.
func (j *Job) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		r, err := j.Sweep(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			j.cfg.Logger.Error("retention sweep failed", "err", err, "games_closed", r.GamesClosed,
				"transfers_deleted", r.TransfersDeleted, "visitors_deleted", r.VisitorsDeleted)
		case r.GamesClosed+r.TransfersDeleted+r.VisitorsDeleted > 0:
			j.cfg.Logger.Info("retention sweep", "games_closed", r.GamesClosed,
				"transfers_deleted", r.TransfersDeleted, "visitors_deleted", r.VisitorsDeleted)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Periods returns the periods the job keeps data for, defaults filled in.
func (j *Job) Periods() Periods { return j.cfg.Periods }
