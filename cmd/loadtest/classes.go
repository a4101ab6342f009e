package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"chesstutor/lessons"
)

// The classroom load (issue 33): -mode classes runs -classes classes of
// -pupils pupils each. Every class's pupils come from one school address
// (as behind a school's router) and join with the class's code, then work
// at a human pace (a request every -think, jittered: lesson pages, the
// home page with its homework, exercise checks, right and wrong), while
// each class's teacher reloads the dashboard every -refresh, as the
// dashboard's script does, and reads its JSON every other time:
//
//	go run ./cmd/loadtest -mode classes -classes 10 -pupils 30 -duration 2m
//	go run ./cmd/loadtest -mode classes -db postgres -instances 2

// Categories of the classroom load.
const (
	catJoin      = "class join API"
	catPupilPage = "pupil page"
	catDashboard = "dashboard page"
	catDashJSON  = "dashboard API"
)

// ClassesConfig is one classroom load run.
type ClassesConfig struct {
	Config
	Classes, Pupils int
	Think           time.Duration // a pupil's mean pause between two requests
	Refresh         time.Duration // how often a teacher's dashboard reloads
}

type madeClass struct {
	JoinCode   string `json:"join_code"`
	TeacherURL string `json:"teacher_url"`
}

// RunClasses starts a server, makes the classes, lets the pupils join
// and work while the teachers watch, and returns the report.
func RunClasses(ctx context.Context, cc ClassesConfig) (*Report, error) {
	cfg := cc.Config
	cfg.Instances = max(1, cfg.Instances)
	course, err := lessons.Load()
	if err != nil {
		return nil, err
	}
	srvs, cleanup, err := startServers(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	// With several instances a class's pupils and its teacher are spread
	// over them, as a balancer without sticky sessions would.
	urlOf := func(i int) string { return srvs[i%len(srvs)].url }
	transport := &http.Transport{MaxIdleConnsPerHost: 2048, IdleConnTimeout: time.Minute,
		DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext}
	defer transport.CloseIdleConnections()
	rec := newRecorder()
	setup := newRecorder() // making the classes is not the load

	var exs []*lessons.Exercise
	for _, ex := range course.Exercises() {
		if ex.Kind == lessons.KindSquares {
			exs = append(exs, ex)
		}
	}
	ls := course.Lessons()
	teachers := make([]*client, cc.Classes)
	classes := make([]madeClass, cc.Classes)
	for k := range cc.Classes {
		teachers[k] = newClient(urlOf(k), transport, setup, 100_000+k, 10)
		if err := teachers[k].call(ctx, "setup", "POST", "/api/classes", map[string]string{"name": fmt.Sprintf("Club %d", k+1)},
			http.StatusCreated, &classes[k]); err != nil {
			return nil, err
		}
		hw := map[string]any{"lessons": []string{ls[2].Slug, ls[3].Slug}, "beat_level": 1, "due": "2030-01-31"}
		if err := teachers[k].call(ctx, "setup", "POST", "/api"+classes[k].TeacherURL+"/homework", hw, http.StatusCreated, nil); err != nil {
			return nil, err
		}
		teachers[k].rec = rec
	}

	runCtx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	arrive := min(30*time.Second, cfg.Duration/3)
	for k := range cc.Classes {
		school := fmt.Sprintf("198.18.%d.1", k) // every pupil of a class behind one address
		for p := range cc.Pupils {
			c := newClient(urlOf(k+p+1), transport, rec, k*1000+p, 10)
			c.addr = school
			wg.Add(1)
			go func() {
				defer wg.Done()
				// The class arrives over the first half minute.
				if !c.sleep(runCtx, time.Duration(c.rng.Int64N(int64(arrive)))) {
					return
				}
				nick := fmt.Sprintf("Pupil %d", p+1)
				if err := c.call(runCtx, catJoin, "POST", "/api/classes/join",
					map[string]string{"code": classes[k].JoinCode, "nickname": nick}, http.StatusCreated, nil); err != nil {
					return
				}
				for runCtx.Err() == nil {
					if !c.sleep(runCtx, cc.Think/2+time.Duration(c.rng.Int64N(int64(cc.Think)))) {
						return
					}
					switch n := c.rng.IntN(10); {
					case n < 4:
						c.call(runCtx, catPupilPage, "GET", "/learn/"+ls[c.rng.IntN(len(ls))].Slug, nil, http.StatusOK, nil)
					case n < 5:
						c.call(runCtx, catPupilPage, "GET", "/", nil, http.StatusOK, nil)
					case n < 6:
						c.call(runCtx, catPupilPage, "GET", "/learn", nil, http.StatusOK, nil)
					default:
						ex := exs[c.rng.IntN(len(exs))]
						squares := []string{}
						for _, sq := range ex.Pos.Destinations(ex.From) {
							squares = append(squares, sq.String())
						}
						if c.rng.IntN(3) == 0 && len(squares) > 0 {
							squares = squares[1:]
						}
						c.call(runCtx, catCheck, "POST", "/api/exercises/"+ex.ID+"/check", map[string]any{"squares": squares}, http.StatusOK, nil)
					}
				}
			}()
		}
		t := teachers[k]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; runCtx.Err() == nil; i++ {
				if !t.sleep(runCtx, cc.Refresh) {
					return
				}
				t.call(runCtx, catDashboard, "GET", classes[k].TeacherURL, nil, http.StatusOK, nil)
				if i%2 == 1 {
					t.call(runCtx, catDashJSON, "GET", "/api"+classes[k].TeacherURL, nil, http.StatusOK, nil)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)

	// Every pupil must be on their teacher's dashboard.
	missing := 0
	for k := range cc.Classes {
		teachers[k].rec = setup
		var d struct {
			Students []struct{} `json:"students"`
		}
		if err := teachers[k].call(ctx, "check", "GET", "/api"+classes[k].TeacherURL, nil, http.StatusOK, &d); err == nil {
			missing += cc.Pupils - len(d.Students)
		}
	}
	rep := newReport(cfg, elapsed, rec, srvs)
	if missing != 0 {
		rep.ErrorLog = append(rep.ErrorLog, fmt.Sprintf("%d pupils missing from their dashboards", missing))
		rep.Errors += missing
	}
	return rep, nil
}

// sleep waits d unless ctx ends first; it reports whether to go on.
func (c *client) sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// PrintClasses writes the classroom report.
func PrintClasses(w io.Writer, cc ClassesConfig, r *Report) {
	fmt.Fprintf(w, "classes: %d × %d pupils (each class behind one address), a pupil request every %s ± half, dashboards every %s\n",
		cc.Classes, cc.Pupils, cc.Think, cc.Refresh)
	r.Config.Friends, r.Config.Readers, r.Config.Computer = 0, cc.Classes*cc.Pupils, 0
	r.Config.Pace = float64(time.Second) / float64(cc.Think)
	r.Print(w)
}
