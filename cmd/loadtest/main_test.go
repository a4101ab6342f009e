package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"chesstutor/internal/pgtest"
)

// TestMain runs the five load runs side by side (unless -parallel is
// given): each spends most of its time waiting out a few seconds of load,
// and one after another they took 40 s of CI's time, side by side 20 s.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		flag.Set("test.parallel", "5")
	}
	os.Exit(m.Run())
}

// TestSmoke is the CI run of the load program: the real server on
// loopback, every kind of visitor for a few seconds, and not one error.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real server under load: skipped under -short")
	}
	t.Parallel() // each runs its own servers for a few seconds of wall time
	rep, err := Run(context.Background(), smokeConfig)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.Print(&out)
	t.Log("\n" + out.String())
	if rep.Errors != 0 {
		t.Errorf("%d errors under load, want 0:\n%s", rep.Errors, strings.Join(rep.ErrorLog, "\n"))
	}
	for _, cat := range []string{catFriend, catLesson, catCheck, catComputer} {
		if s := rep.Stat(cat); s == nil || s.Requests == 0 {
			t.Errorf("no %s requests were made", cat)
		}
	}
	if len(rep.PeakRSSKB) != 1 || rep.PeakRSSKB[0] <= 0 {
		t.Errorf("the server's peak memory was not read from /proc: %v", rep.PeakRSSKB)
	}
	if rep.P50 <= 0 || rep.P99 < rep.P50 {
		t.Errorf("percentiles make no sense: p50 %s, p99 %s", rep.P50, rep.P99)
	}
}

// TestSmokeTwoInstancesOnPostgreSQL: -db postgres -instances 2 starts a
// throwaway cluster and two servers on it, spreads the visitors over both
// and removes everything afterwards, without an error.
func TestSmokeTwoInstancesOnPostgreSQL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two real servers on PostgreSQL under load: skipped under -short")
	}
	t.Parallel() // each runs its own servers for a few seconds of wall time
	if !pgtest.Enabled() {
		t.Skip("CHESS_PG=0: skipping the load run on PostgreSQL")
	}
	cfg := Config{Friends: 4, Readers: 2, Level: 1, Duration: 2 * time.Second, DB: "postgres", Instances: 2}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.Print(&out)
	t.Log("\n" + out.String())
	if rep.Errors != 0 {
		t.Errorf("%d errors under load, want 0:\n%s", rep.Errors, strings.Join(rep.ErrorLog, "\n"))
	}
	if len(rep.PeakRSSKB) != 2 {
		t.Errorf("memory of %d servers reported, want 2", len(rep.PeakRSSKB))
	}
	if s := rep.Stat(catFriend); s == nil || s.Requests == 0 {
		t.Errorf("no friend game requests were made")
	}
	if _, err := Run(context.Background(), Config{Friends: 1, Level: 1, Duration: time.Second, Instances: 2}); err == nil ||
		!strings.Contains(err.Error(), "PostgreSQL") {
		t.Errorf("two instances on SQLite: %v; want a refusal naming PostgreSQL", err)
	}
}

// TestSmokeRemote: a few live games on two devices for a few seconds:
// every move reaches the other player's stream, without an error.
func TestSmokeRemote(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real server with open streams: skipped under -short")
	}
	t.Parallel() // each runs its own servers for a few seconds of wall time
	var out bytes.Buffer
	err := RunRemote(context.Background(), RemoteConfig{Games: 6, Think: 200 * time.Millisecond, Duration: 4 * time.Second}, &out)
	t.Log("\n" + out.String())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), catArrive) {
		t.Errorf("the report lacks %q", catArrive)
	}
}

func TestPercentile(t *testing.T) {
	var lat []int
	for i := 1; i <= 100; i++ {
		lat = append(lat, i)
	}
	sorted := make([]time.Duration, len(lat))
	for i, v := range lat {
		sorted[i] = time.Duration(v)
	}
	for _, tc := range []struct {
		p    float64
		want time.Duration
	}{{0.50, 50}, {0.95, 95}, {0.99, 99}, {1, 100}} {
		if got := percentile(sorted, tc.p); got != tc.want {
			t.Errorf("percentile(%v) = %d, want %d", tc.p, got, tc.want)
		}
	}
	if got := percentile(nil, 0.5); got != 0 {
		t.Errorf("percentile of nothing = %d, want 0", got)
	}
}

// TestCrawlerAndAbuseModes runs both modes small: page views store no row
// and do not grow the WAL; a cookieless flood from one address gets no
// more than the new-visitor allowance; fake cookies store nothing.
func TestCrawlerAndAbuseModes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the server twice")
	}
	t.Parallel() // each runs its own servers for a few seconds of wall time
	var out bytes.Buffer
	if err := RunCrawler(context.Background(), AbuseConfig{CrawlRequests: 200, CrawlAddresses: 50, Workers: 4}, &out); err != nil {
		t.Fatalf("crawler: %v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	out.Reset()
	rep, err := RunAbuse(context.Background(), AbuseConfig{FloodGames: 100, FakeCookies: 500, Players: 1, Workers: 4}, &out)
	if err != nil {
		t.Fatalf("abuse: %v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	// The allowance: a burst of 60 new visitors, then one every 2 s.
	if allowed := 60 + int(rep.FloodTime.Seconds()/2) + 1; rep.FloodCreated < 60 || rep.FloodCreated > allowed {
		t.Errorf("the cookieless flood created %d games in %s, want 60 to %d", rep.FloodCreated, rep.FloodTime, allowed)
	}
	if rep.FakeVisitors != 0 {
		t.Errorf("fake cookies stored %d visitors", rep.FakeVisitors)
	}
}

// TestClassesSmoke: -mode classes with two small classes for a few
// seconds: every pupil joins and is on the dashboard, which the teachers
// read again and again, without an error (issue 33).
func TestClassesSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real server under load: skipped under -short")
	}
	t.Parallel() // each runs its own servers for a few seconds of wall time
	cc := ClassesConfig{Config: Config{Duration: 6 * time.Second, LogLevel: "warn"}, Classes: 2, Pupils: 4,
		Think: 300 * time.Millisecond, Refresh: time.Second}
	rep, err := RunClasses(context.Background(), cc)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	PrintClasses(&out, cc, rep)
	t.Log("\n" + out.String())
	if rep.Errors != 0 {
		t.Errorf("%d errors, want 0:\n%s", rep.Errors, strings.Join(rep.ErrorLog, "\n"))
	}
	for _, cat := range []string{catJoin, catPupilPage, catCheck, catDashboard, catDashJSON} {
		if s := rep.Stat(cat); s == nil || s.Requests == 0 {
			t.Errorf("no %s requests were made", cat)
		}
	}
}

// TestFlags parses the command line the way docs/performance.md writes it.
// Two modes once defined -think each, and the program panicked at start.
func TestFlags(t *testing.T) {
	o, err := parseFlags([]string{"-mode", "remote", "-games", "200", "-think", "3s", "-duration", "60s"})
	if err != nil {
		t.Fatal(err)
	}
	if *o.mode != "remote" || o.rc.Games != 200 || o.rc.Think != 3*time.Second || o.cfg.Duration != time.Minute {
		t.Errorf("remote flags read as mode %q, games %d, think %v, duration %v", *o.mode, o.rc.Games, o.rc.Think, o.cfg.Duration)
	}
	o, err = parseFlags([]string{"-mode", "classes"})
	if err != nil {
		t.Fatal(err)
	}
	if o.cc.Think != 4*time.Second || o.rc.Think != 2*time.Second {
		t.Errorf("default pauses: classes %v, remote %v; want 4s and 2s", o.cc.Think, o.rc.Think)
	}
	if _, err := parseFlags([]string{"-games", "many"}); err == nil {
		t.Error("-games many was accepted")
	}
}
