//go:build full

package e2e

// The two end-to-end journeys of docs/requirements.md ("The journeys"), played like a person in
// one browser on a fresh server: every step is a click on what the page
// shows, and every answer is worked out from the page's own data with the
// rules package, never typed in.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chesstutor/chess"
	"chesstutor/lessons"
	"chesstutor/quiz"
)

// journeyWait polls a JavaScript condition until it holds or the timeout
// passes. Errors while a new page loads count as "not yet".
func journeyWait(t *testing.T, b *Browser, what, expr string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](expr))
		if err == nil && v {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s (%s); last error: %v", timeout, what, expr, err)
		}
		time.Sleep(60 * time.Millisecond)
	}
}

// jsString quotes s for a JavaScript expression.
func jsString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

// journeyClick scrolls the element into the middle of the window and clicks
// it with the mouse. The element must exist.
func journeyClick(t *testing.T, b *Browser, sel string) {
	t.Helper()
	journeyWait(t, b, "element "+sel, `(() => { const el = document.querySelector(`+jsString(sel)+`);
		if (!el) return false; el.scrollIntoView({block: "center", inline: "center"}); return true; })()`, 20*time.Second)
	b.Do(chromedp.Click(sel))
}

// followLink clicks a link or submit button that loads another page and
// waits until the address matches pathRe (a JavaScript regular expression
// source) and the new page has loaded.
func followLink(t *testing.T, b *Browser, sel, pathRe string) {
	t.Helper()
	before := Eval[string](b, `location.href`)
	journeyClick(t, b, sel)
	journeyWait(t, b, "page "+pathRe+" after clicking "+sel,
		`location.href !== `+jsString(before)+` && new RegExp(`+jsString(pathRe)+`).test(location.pathname) && document.readyState === "complete"`,
		30*time.Second)
}

// journeyShot saves a full-page screenshot to /tmp (never the repository).
func journeyShot(t *testing.T, b *Browser, name string) {
	t.Helper()
	b.Screenshot("journey-" + name)
}

// boardFEN reads and parses the data-fen of the board matched by sel.
func boardFEN(t *testing.T, b *Browser, sel string) *chess.Position {
	t.Helper()
	fen := Eval[string](b, `document.querySelector(`+jsString(sel)+`).dataset.fen`)
	pos, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatalf("board %s has data-fen %q that does not parse: %v", sel, fen, err)
	}
	return pos
}

func squareNames(sqs []chess.Square) []string {
	out := make([]string, len(sqs))
	for i, s := range sqs {
		out[i] = s.String()
	}
	slices.Sort(out)
	return out
}

// solveExercise marks exactly the legal destinations of the exercise's
// piece, computed from data-fen and data-from, presses Check and expects
// "correct".
func solveExercise(t *testing.T, b *Browser) string {
	t.Helper()
	const boardSel = `[data-board][data-exercise]`
	journeyWait(t, b, "the exercise board", `document.querySelector('`+boardSel+`') !== null && document.querySelector("[data-exercise-page]") !== null`, 20*time.Second)
	id := Eval[string](b, `document.querySelector('`+boardSel+`').dataset.exercise`)
	from := Eval[string](b, `document.querySelector('`+boardSel+`').dataset.from`)
	pos := boardFEN(t, b, boardSel)
	fromSq, err := chess.ParseSquare(from)
	if err != nil {
		t.Fatalf("exercise %s: data-from %q: %v", id, from, err)
	}
	want := squareNames(pos.Destinations(fromSq))
	if len(want) == 0 {
		t.Fatalf("exercise %s: the piece on %s has no legal destination in %s", id, from, pos.FEN())
	}
	for _, sq := range want {
		journeyClick(t, b, boardSel+` [data-square="`+sq+`"]`)
		journeyWait(t, b, sq+" marked", `document.querySelector('`+boardSel+` [data-square="`+sq+`"]').classList.contains("marked")`, 10*time.Second)
	}
	got := Eval[string](b, `[...document.querySelectorAll('`+boardSel+` [data-square].marked')].map(e => e.dataset.square).sort().join(" ")`)
	if got != strings.Join(want, " ") {
		t.Fatalf("exercise %s: marked %q, want %q", id, got, strings.Join(want, " "))
	}
	journeyClick(t, b, `[data-exercise-page] [data-action="check"]`)
	journeyWait(t, b, "the exercise verdict", `(() => { const v = document.querySelector("[data-result] [data-verdict]"); return v !== null && v.offsetParent !== null; })()`, 20*time.Second)
	if v := Eval[string](b, `document.querySelector("[data-result] [data-verdict]").dataset.verdict`); v != "correct" {
		t.Fatalf("exercise %s: verdict %q after marking %s, want correct", id, v, got)
	}
	return id
}

// answerQuizQuestion answers the question on screen. Board and position
// questions are worked out with the rules package from the page's data-fen;
// multiple-choice questions get the first option (the point is the flow).
// It returns whether the page says the answer was right.
func answerQuizQuestion(t *testing.T, b *Browser, bank *quiz.Bank, n int) (string, string, bool) {
	t.Helper()
	journeyWait(t, b, fmt.Sprintf("question %d", n),
		`(() => { const q = document.querySelector("[data-quiz]"); const num = document.querySelector("[data-quiz-number]");
			return q !== null && q.hasAttribute("data-ready") && !q.hasAttribute("data-answered") && num !== null && num.textContent === "`+strconv.Itoa(n)+`"; })()`, 30*time.Second)
	id := Eval[string](b, `document.querySelector("[data-quiz]").dataset.question`)
	kind := quiz.Kind(Eval[string](b, `document.querySelector("[data-quiz]").dataset.kind`))
	prompt := Eval[string](b, `document.querySelector("[data-quiz] .quiz-prompt").textContent`)
	expectRight := true
	switch kind {
	case quiz.Squares:
		// Which squares depends on the question ("where does the king
		// land", "click every mating move", "click the knight that
		// moves"): the bank's key is computed by the rules package; check
		// it against the page's position.
		q, ok := bank.Question(id)
		if !ok {
			t.Fatalf("the page shows question %q the bank does not know", id)
		}
		pos := boardFEN(t, b, `[data-quiz] [data-board]`)
		// Most keys are targets; a "which piece moves" question (Nbd2)
		// has the start of the move its prompt writes.
		targets := map[string]bool{}
		for _, m := range pos.LegalMoves() {
			targets[m.To().String()] = true
			if strings.Contains(prompt, strings.TrimRight(pos.SAN(m), "+#")) {
				targets[m.From().String()] = true
			}
		}
		for _, sq := range q.Key() {
			if !targets[sq] {
				t.Errorf("question %s: answer square %s is neither a legal move's target nor the start of the move the prompt writes in %s", id, sq, pos.FEN())
			}
			journeyClick(t, b, `[data-quiz] [data-board] [data-square="`+sq+`"]`)
			journeyWait(t, b, sq+" marked", `document.querySelector('[data-quiz] [data-board] [data-square="`+sq+`"]').classList.contains("marked")`, 10*time.Second)
		}
	case quiz.Name:
		// "Click the square h8": the one square the prompt names.
		q, ok := bank.Question(id)
		if !ok {
			t.Fatalf("the page shows question %q the bank does not know", id)
		}
		key := q.Key()
		if len(key) != 1 || !strings.Contains(prompt, key[0]) {
			t.Fatalf("question %s: key %v is not the one square the prompt %q names", id, key, prompt)
		}
		journeyClick(t, b, `[data-quiz] [data-board] [data-square="`+key[0]+`"]`)
		journeyWait(t, b, key[0]+" marked", `document.querySelector('[data-quiz] [data-board] [data-square="`+key[0]+`"]').classList.contains("marked")`, 10*time.Second)
	case quiz.Status:
		pos := boardFEN(t, b, `[data-quiz] [data-board]`)
		answer := "none"
		switch {
		case pos.IsCheckmate():
			answer = "checkmate"
		case pos.IsStalemate():
			answer = "stalemate"
		case pos.InCheck():
			answer = "check"
		}
		journeyClick(t, b, `[data-quiz] input[data-option="`+answer+`"]`)
	case quiz.Castle:
		pos := boardFEN(t, b, `[data-quiz] [data-board]`)
		queen := strings.Contains(prompt, "queen side")
		answer := "no"
		for _, m := range pos.LegalMoves() {
			if m.IsCastle() && (m.To() < m.From()) == queen {
				answer = "yes"
			}
		}
		journeyClick(t, b, `[data-quiz] input[data-option="`+answer+`"]`)
	default: // choice and draw questions: any option will do for the flow
		expectRight = false
		journeyClick(t, b, `[data-quiz] input[data-option]`)
	}
	journeyClick(t, b, `[data-quiz] [data-action="answer"]`)
	journeyWait(t, b, "the answer's verdict", `document.querySelector("[data-quiz-feedback] [data-verdict]") !== null && !document.querySelector("[data-quiz-feedback]").hidden`, 20*time.Second)
	right := Eval[string](b, `document.querySelector("[data-quiz-feedback] [data-verdict]").dataset.verdict`) == "right"
	if expectRight && !right {
		t.Errorf("question %d (%s, %s): the answer worked out with the rules package was marked wrong", n, id, kind)
	}
	if !Eval[bool](b, `document.querySelector("[data-quiz-feedback] .quiz-explanation").textContent.trim().length > 20 && document.querySelector("[data-quiz-feedback] [data-lesson-link]") !== null`) {
		t.Errorf("question %d (%s): no explanation or lesson link after answering", n, id)
	}
	return id, string(kind), right
}

// playClickedMove clicks from, waits for the selection and the marked
// destination, then clicks to.
func playClickedMove(t *testing.T, b *Browser, from, to string) {
	t.Helper()
	journeyClick(t, b, `[data-board] [data-square="`+from+`"]`)
	journeyWait(t, b, from+" selected and "+to+" offered",
		`document.querySelector('[data-board] [data-square="`+from+`"]').classList.contains("selected") && document.querySelector('[data-board] [data-square="`+to+`"]').classList.contains("dest")`, 15*time.Second)
	journeyClick(t, b, `[data-board] [data-square="`+to+`"]`)
}

// TestJourneyLearnPracticeQuizPlay is the first journey of docs/requirements.md:
// home → lesson 1 → next lessons → an exercise solved → the tick on /learn
// → a full quiz round with its score → a game against the computer at
// level 1 → resigned with confirmation → the result and reason → PGN.
func TestJourneyLearnPracticeQuizPlay(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	bank, err := quiz.Load()
	if err != nil {
		t.Fatal(err)
	}
	all := course.Lessons()
	// The first lesson after lesson 1 whose exercises are all "click every
	// square" ones (solveExercise works those out from the board).
	practiceAt := -1
	for i, l := range all {
		if i == 0 || len(l.Exercises) == 0 {
			continue
		}
		squaresOnly := true
		for _, ex := range l.Exercises {
			squaresOnly = squaresOnly && ex.Kind == lessons.KindSquares
		}
		if squaresOnly {
			practiceAt = i
			break
		}
	}
	if practiceAt < 0 || practiceAt+2 >= len(all) {
		t.Fatalf("the course has no lesson with exercises early enough (lesson index %d of %d)", practiceAt, len(all))
	}
	start := time.Now()
	srv := newServer(t)
	b := newBrowser(t, WithTimeout(5*time.Minute))

	// Home: a new visitor follows "Start the first lesson" straight into lesson 1.
	b.Open(srv.URL + "/")
	journeyWait(t, b, "the home page", `document.querySelector(".hero [data-board]") !== null`, 20*time.Second)
	journeyShot(t, b, "01-home")
	followLink(t, b, `.hero-actions [data-action="start-learning"]`, `^/learn/`+all[0].Slug+`$`)

	// Lesson 1, then Next (which records each lesson as read, L7) up to
	// the first lesson with exercises.
	for i := 0; i <= practiceAt; i++ {
		l := all[i]
		journeyWait(t, b, "lesson "+l.Slug, `document.querySelector('article[data-lesson="`+l.Slug+`"]') !== null`, 20*time.Second)
		if crumbs := Eval[string](b, `document.querySelector(".lesson-crumbs").textContent`); !strings.Contains(crumbs, fmt.Sprintf("Lesson %d of %d", i+1, len(all))) {
			t.Errorf("lesson %s crumbs say %q, want Lesson %d of %d", l.Slug, crumbs, i+1, len(all))
		}
		if i == 0 {
			journeyShot(t, b, "02-lesson1")
		}
		if i < practiceAt {
			followLink(t, b, `.lesson-nav [data-nav="next"]`, `^/learn/`+all[i+1].Slug+`$`)
		}
	}

	// Practice: solve every exercise of that lesson by clicking.
	pl := all[practiceAt]
	followLink(t, b, `[data-action="practice"]`, `^/learn/`+pl.Slug+`/practice$`)
	for i := range pl.Exercises {
		id := solveExercise(t, b)
		if id != pl.Exercises[i].ID {
			t.Errorf("exercise %d of %s is %s, want %s", i+1, pl.Slug, id, pl.Exercises[i].ID)
		}
		if i == 0 {
			journeyShot(t, b, "03-exercise-correct")
		}
		if i+1 < len(pl.Exercises) {
			followLink(t, b, `[data-exercise-page] [data-action="next"]`, `^/learn/`+pl.Slug+`/practice$`)
		}
	}
	// Back to the lesson: it is done now; Next twice more.
	followLink(t, b, `.practice-crumbs a[href="/learn/`+pl.Slug+`"]`, `^/learn/`+pl.Slug+`$`)
	if !Eval[bool](b, `document.querySelector(".lesson-crumbs .lesson-badge") !== null`) {
		t.Errorf("lesson %s does not show Done after all its exercises were solved", pl.Slug)
	}
	for i := practiceAt; i < practiceAt+2; i++ {
		followLink(t, b, `.lesson-nav [data-nav="next"]`, `^/learn/`+all[i+1].Slug+`$`)
		journeyWait(t, b, "lesson "+all[i+1].Slug, `document.querySelector('article[data-lesson="`+all[i+1].Slug+`"]') !== null`, 20*time.Second)
	}

	// /learn shows the tick and the progress.
	followLink(t, b, `.site-nav a[href="/learn"]`, `^/learn$`)
	journeyWait(t, b, "the table of contents", `document.querySelectorAll(".toc-item").length > 0`, 20*time.Second)
	if !Eval[bool](b, `document.querySelector('.toc-item[data-lesson="`+pl.Slug+`"]').hasAttribute("data-done")`) {
		t.Errorf("/learn does not tick lesson %s after its exercises were solved", pl.Slug)
	}
	// Every lesson left by its Next button is done too: lessons 1 to
	// practiceAt+2 (the last one was left by Next as well).
	if n := Eval[int](b, `document.querySelectorAll(".toc-item[data-done]").length`); n != practiceAt+2 {
		t.Errorf("/learn ticks %d lessons, want %d (every lesson read to its end and left by Next)", n, practiceAt+2)
	}
	count := Eval[string](b, `document.querySelector('.toc-item[data-lesson="`+pl.Slug+`"] .toc-count').textContent`)
	if want := fmt.Sprintf("%d of %d", len(pl.Exercises), len(pl.Exercises)); !strings.Contains(count, want) {
		t.Errorf("/learn counts %q for %s, want %s solved", count, pl.Slug, want)
	}
	progress := Eval[string](b, `document.querySelector(".course-progress progress").dataset.progress`)
	if steps, _, _ := strings.Cut(progress, "/"); steps == "0" || steps == "" {
		t.Errorf("course progress is %q after solving exercises, want more than 0", progress)
	}
	journeyShot(t, b, "04-learn-tick")

	// The quiz: a full round of ten.
	followLink(t, b, `.site-nav a[href="/quiz"]`, `^/quiz$`)
	followLink(t, b, `[data-action="start-quiz"]`, `^/quiz/rounds/`)
	rights := 0
	kinds := map[string]int{}
	for n := 1; n <= quiz.RoundSize; n++ {
		_, kind, right := answerQuizQuestion(t, b, bank, n)
		kinds[kind]++
		if right {
			rights++
		}
		if got := Eval[string](b, `document.querySelector("[data-quiz-score]").textContent.trim()`); got != strconv.Itoa(rights) {
			t.Errorf("after question %d the score so far says %s, want %d", n, got, rights)
		}
		if n == 1 {
			journeyShot(t, b, "05-quiz-answered")
		}
		journeyClick(t, b, `[data-quiz] [data-action="next"]`)
	}
	journeyWait(t, b, "the quiz result", `document.querySelector("[data-quiz-final-score]") !== null`, 30*time.Second)
	if got := Eval[string](b, `document.querySelector("[data-quiz-final-score]").textContent.trim()`); got != strconv.Itoa(rights) {
		t.Errorf("final score %s, want %d (the right answers the pages showed)", got, rights)
	}
	if n := Eval[int](b, `document.querySelectorAll("[data-review]").length`); n != quiz.RoundSize-rights {
		t.Errorf("the result lists %d questions to review, want %d", n, quiz.RoundSize-rights)
	}
	t.Logf("quiz: %d of %d right; kinds asked %v", rights, quiz.RoundSize, kinds)
	journeyShot(t, b, "06-quiz-result")

	// A game against the computer at level 1, as White.
	followLink(t, b, `.site-nav a[href="/play"]`, `^/play$`)
	journeyClick(t, b, `input[name="mode"][value="computer"]`)
	journeyClick(t, b, `input[name="color"][value="white"]`)
	journeyClick(t, b, `input[name="level"][value="1"]`)
	journeyClick(t, b, `input[name="clock"][value="none"]`)
	followLink(t, b, `form.new-game-form button[type="submit"]`, `^/play/[0-9a-f]{32}$`)
	gameID := strings.TrimPrefix(Eval[string](b, `location.pathname`), "/play/")
	journeyWait(t, b, "the game board", `document.querySelectorAll("[data-board] button[data-square]").length === 64 && document.querySelector("[data-status]").textContent.includes("Your move")`, 20*time.Second)

	rng := rand.New(rand.NewPCG(1, 2))
	const myMoves = 3
	for k := 1; k <= myMoves; k++ {
		pos := boardFEN(t, b, `[data-board]`)
		if pos.Turn() != chess.White {
			t.Fatalf("move %d: the board says %s to move, want White (%s)", k, pos.Turn(), pos.FEN())
		}
		m := beginnerMove(t, pos, rng)
		playClickedMove(t, b, m.From().String(), m.To().String())
		// The computer answers; then it is White's move again.
		journeyWait(t, b, fmt.Sprintf("the computer's reply to move %d (%s)", k, m.UCI()),
			`document.querySelectorAll("[data-movelist] .move").length === `+strconv.Itoa(2*k)+` && document.querySelector("[data-board]").dataset.fen.split(" ")[1] === "w" && document.querySelector("[data-status]").textContent.includes("Your move")`,
			30*time.Second)
	}
	moves := Eval[[]string](b, `[...document.querySelectorAll("[data-movelist] .move")].map(e => e.textContent.trim())`)
	journeyShot(t, b, "07-computer-game")

	// Resign, through the confirmation dialog.
	journeyClick(t, b, `[data-action="resign"]`)
	journeyWait(t, b, "the resign dialog", `document.querySelector('[data-dialog="resign"]').open`, 10*time.Second)
	if txt := Eval[string](b, `document.querySelector('[data-dialog="resign"]').textContent`); !strings.Contains(txt, "Resign") {
		t.Errorf("the resign dialog says %q", txt)
	}
	journeyShot(t, b, "08-resign-dialog")
	journeyClick(t, b, `[data-dialog="resign"] [data-action="confirm-resign"]`)
	journeyWait(t, b, "the end banner", `!document.querySelector("[data-end-banner]").hidden && document.querySelector("[data-end-banner] .end-reason").textContent !== ""`, 20*time.Second)
	result := Eval[string](b, `document.querySelector("[data-end-banner] .end-result").textContent.trim()`)
	reason := Eval[string](b, `document.querySelector("[data-end-banner] .end-reason").textContent.trim()`)
	if result != "0-1" || !strings.Contains(reason, "Black wins by resignation") {
		t.Errorf("end banner shows %q / %q, want 0-1 and Black wins by resignation", result, reason)
	}
	if st := Eval[string](b, `document.querySelector("[data-status]").textContent`); !strings.Contains(st, "resign") {
		t.Errorf("status line %q does not mention the resignation", st)
	}
	journeyShot(t, b, "09-game-over")

	// The PGN link, fetched with the visitor's own cookie.
	href := Eval[string](b, `document.querySelector('[data-end-banner] [data-action="download-pgn"]').getAttribute("href")`)
	if href != "/api/games/"+gameID+"/pgn" {
		t.Errorf("Download PGN links to %q, want /api/games/%s/pgn", href, gameID)
	}
	type pgnReply struct {
		Status      int    `json:"status"`
		Disposition string `json:"disposition"`
		Body        string `json:"body"`
	}
	raw, err := chromedp.Run(b.Ctx, chromedp.Evaluate[[]byte](`fetch(`+jsString(href)+`).then(async r => ({status: r.status, disposition: r.headers.get("Content-Disposition") || "", body: await r.text()}))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fetch the PGN: %v", err)
	}
	var pgn pgnReply
	if err := json.Unmarshal(raw, &pgn); err != nil {
		t.Fatalf("PGN reply %s: %v", raw, err)
	}
	if pgn.Status != 200 || !strings.HasPrefix(pgn.Disposition, "attachment") {
		t.Errorf("PGN answer: status %d, Content-Disposition %q", pgn.Status, pgn.Disposition)
	}
	for _, tag := range []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"} {
		if !strings.Contains(pgn.Body, "["+tag+" \"") {
			t.Errorf("PGN lacks the %s tag:\n%s", tag, pgn.Body)
		}
	}
	if !strings.Contains(pgn.Body, `[Result "0-1"]`) || !strings.HasSuffix(strings.TrimSpace(pgn.Body), "0-1") {
		t.Errorf("PGN does not carry the result 0-1:\n%s", pgn.Body)
	}
	// The move list shows figurines (♘f3); the PGN keeps English SAN.
	for _, shown := range moves {
		if san := chess.Figurines.Read(shown); !strings.Contains(pgn.Body, san) {
			t.Errorf("PGN lacks the move %s (%s) from the move list %v:\n%s", san, shown, moves, pgn.Body)
		}
	}
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	t.Logf("journey 1 took %s", time.Since(start).Round(time.Millisecond))
}

// clockMS reads a clock's text ("4:58" or "0:09.3") as milliseconds.
func clockMS(t *testing.T, text string) int64 {
	t.Helper()
	mins, secs, ok := strings.Cut(strings.TrimSpace(text), ":")
	m, err1 := strconv.Atoi(mins)
	s, err2 := strconv.ParseFloat(secs, 64)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("clock shows %q, not minutes:seconds", text)
	}
	return int64(m)*60000 + int64(s*1000)
}

// TestJourneyFriendGameWithClock is the second journey: a friend game on
// 5+0 with the pass screen, played to a scholar's mate by clicking; the
// status names the winner, the clocks are plausible, and /games lists it.
func TestJourneyFriendGameWithClock(t *testing.T) {
	// Scholar's mate, checked with the rules package first.
	sans := []string{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"}
	pos, err := chess.ParseFEN(chess.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	var plan [][2]string
	for _, s := range sans {
		m, err := pos.ParseSAN(s)
		if err != nil {
			t.Fatalf("scholar's mate move %s: %v", s, err)
		}
		plan = append(plan, [2]string{m.From().String(), m.To().String()})
		pos = pos.Play(m)
	}
	if !pos.IsCheckmate() {
		t.Fatalf("the planned moves do not end in checkmate: %s", pos.FEN())
	}

	start := time.Now()
	srv := newServer(t)
	b := newBrowser(t, WithViewport(Phone), WithTimeout(3*time.Minute))
	b.Open(srv.URL + "/play")
	journeyWait(t, b, "the new-game form", `document.querySelector("form.new-game-form") !== null`, 20*time.Second)
	journeyClick(t, b, `input[name="mode"][value="friend"]`)
	journeyClick(t, b, `input[name="clock"][value="5+0"]`)
	journeyWait(t, b, "the pass-screen option", `document.querySelector('input[name="pass_screen"]').offsetParent !== null`, 10*time.Second)
	if !Eval[bool](b, `document.querySelector('input[name="pass_screen"]').checked`) {
		journeyClick(t, b, `input[name="pass_screen"]`)
	}
	journeyShot(t, b, "11-friend-form")
	followLink(t, b, `form.new-game-form button[type="submit"]`, `^/play/[0-9a-f]{32}$`)
	gameID := strings.TrimPrefix(Eval[string](b, `location.pathname`), "/play/")
	journeyWait(t, b, "the game board", `document.querySelectorAll("[data-board] button[data-square]").length === 64`, 20*time.Second)

	for i, mv := range plan {
		side := "White"
		if i%2 == 1 {
			side = "Black"
		}
		if i == 0 {
			// No pass screen before White's first move: nobody has to
			// hand the device over yet (issue 38).
			if !Eval[bool](b, `document.querySelector("[data-pass-screen]").hidden`) {
				t.Error("a pass screen shows before White's first move")
			}
			playClickedMove(t, b, mv[0], mv[1])
			journeyWait(t, b, "the move "+sans[i]+" on the board", `document.querySelectorAll("[data-movelist] .move").length === 1`, 20*time.Second)
			continue
		}
		journeyWait(t, b, "the pass screen before move "+sans[i], `!document.querySelector("[data-pass-screen]").hidden`, 20*time.Second)
		if got := Eval[string](b, `document.querySelector("[data-pass-screen] .pass-screen-title").textContent`); !strings.HasPrefix(got, side+" to move") {
			t.Errorf("before %s the pass screen says %q, want %s to move", sans[i], got, side)
		}
		if i == 2 {
			journeyShot(t, b, "12-pass-screen")
		}
		// The clocks are paused behind the pass screen (G11).
		if Eval[bool](b, `document.querySelector(".clock.running") !== null`) {
			t.Errorf("before %s a clock runs behind the pass screen", sans[i])
		}
		journeyClick(t, b, `[data-pass-screen] button`)
		journeyWait(t, b, "the pass screen to go", `document.querySelector("[data-pass-screen]").hidden`, 10*time.Second)
		playClickedMove(t, b, mv[0], mv[1])
		journeyWait(t, b, "the move "+sans[i]+" on the board",
			`document.querySelectorAll("[data-movelist] .move").length === `+strconv.Itoa(i+1), 20*time.Second)
	}
	journeyWait(t, b, "the end banner", `!document.querySelector("[data-end-banner]").hidden`, 20*time.Second)
	if !Eval[bool](b, `document.querySelector("[data-pass-screen]").hidden`) {
		t.Error("a pass screen covers the board after checkmate")
	}
	if st := Eval[string](b, `document.querySelector("[data-status]").textContent`); !strings.Contains(st, "White wins by checkmate") {
		t.Errorf("status line %q, want White wins by checkmate", st)
	}
	if ml := Eval[string](b, `[...document.querySelectorAll("[data-movelist] .move")].map(e => e.textContent.trim()).join(" ")`); ml != figurines(sans) {
		t.Errorf("move list %q, want %q", ml, figurines(sans))
	}
	// Plausible clocks: both visible, between 4:00 and 5:00, stopped.
	for _, c := range []string{"white", "black"} {
		sel := `[data-clock="` + c + `"]`
		if Eval[bool](b, `document.querySelector('`+sel+`').hidden`) {
			t.Errorf("the %s clock is hidden in a 5+0 game", c)
			continue
		}
		ms := clockMS(t, Eval[string](b, `document.querySelector('`+sel+` .clock-time').textContent`))
		if ms < 240000 || ms > 300000 {
			t.Errorf("the %s clock shows %d ms, want between 4:00 and 5:00", c, ms)
		}
	}
	if Eval[bool](b, `document.querySelector(".clock.running") !== null`) {
		t.Error("a clock still runs after checkmate")
	}
	state, err := chromedp.Run(b.Ctx, chromedp.Evaluate[[]byte](`fetch("/api/games/`+gameID+`").then(r => r.json())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var st gameState
	if err := json.Unmarshal(state, &st); err != nil {
		t.Fatalf("game state %s: %v", state, err)
	}
	if st.Result != "1-0" || st.Clocks == nil {
		t.Fatalf("server state after mate: %s", state)
	}
	if w := (*st.Clocks)["white"]; w >= 300000 || w < 240000 {
		t.Errorf("server says White's clock is %d ms, want a little under 300000 (White thought about four moves)", w)
	}
	journeyShot(t, b, "13-checkmate")

	// /games lists the finished game with its result.
	followLink(t, b, `.site-nav a[href="/games"]`, `^/games$`)
	row := `[data-game-row="` + gameID + `"]`
	journeyWait(t, b, "the game's row", `document.querySelector('`+row+`') !== null`, 20*time.Second)
	text := Eval[string](b, `document.querySelector('`+row+`').textContent.replace(/\s+/g, " ")`)
	for _, want := range []string{"1-0", "White wins by checkmate", "5+0"} {
		if !strings.Contains(text, want) {
			t.Errorf("/games row %q lacks %q", text, want)
		}
	}
	if got, want := Eval[string](b, `document.querySelector('`+row+` td:nth-child(4)').textContent.trim()`), strconv.Itoa((len(sans)+1)/2); got != want {
		t.Errorf("/games counts %s moves, want %s", got, want)
	}
	if n := Eval[int](b, `document.querySelectorAll("[data-game-row]").length`); n != 1 {
		t.Errorf("/games lists %d games, want 1", n)
	}
	journeyShot(t, b, "14-games-list")
	if errs := b.ConsoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	t.Logf("journey 2 took %s", time.Since(start).Round(time.Millisecond))
}

// figurines is a list of SAN moves as the move list shows them by default.
func figurines(sans []string) string {
	shown := make([]string, len(sans))
	for i, san := range sans {
		shown[i] = chess.Figurines.Write(san)
	}
	return strings.Join(shown, " ")
}
