package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/chess/engine"
	"chesstutor/classes"
	"chesstutor/limits"
	"chesstutor/quiz"
	"chesstutor/store"
	"chesstutor/transfer"
	"chesstutor/words"
)

// A teacher's classroom without accounts (T1–T6): /teach makes a class
// and lists the classes this browser remembers; the teacher link
// /teach/{secret} is the dashboard, its join sheet, its CSV and its
// forms; /join is where a pupil types the code and a nickname. The JSON
// API does the same (H1). Pupils' nicknames reach the teacher only.

func (h *Handler) registerClasses(e *echo.Echo, api *echo.Group) {
	e.GET("/teach", h.showTeach)
	e.POST("/teach", h.createClassForm)
	e.GET("/teach/:secret", h.showDashboard)
	e.GET("/teach/:secret/sheet", h.showJoinSheet)
	e.GET("/teach/:secret/pupils.csv", h.downloadClassCSV)
	e.GET("/teach/:secret/qr.svg", h.teacherQR)
	e.POST("/teach/:secret/remember", h.rememberClassForm)
	e.POST("/teach/:secret/homework", h.addHomeworkForm)
	e.POST("/teach/:secret/homework/:id/delete", h.deleteHomeworkForm)
	e.POST("/teach/:secret/pupils/:id/rename", h.renamePupilForm)
	e.POST("/teach/:secret/pupils/:id/remove", h.removePupilForm)
	e.POST("/teach/:secret/rotate", h.rotateClassForm)
	e.POST("/teach/:secret/delete", h.deleteClassForm)
	e.GET("/join", h.showJoin)
	e.POST("/join", h.joinClassForm)
	e.POST("/join/leave", h.leaveClassForm)
	e.GET("/join/qr.svg", h.joinQR)

	api.POST("/classes", h.createClassAPI)
	api.POST("/classes/join", h.joinClassAPI)
	api.DELETE("/me/classes/:id", h.leaveClassAPI)
	api.GET("/teach/:secret", h.dashboardAPI)
	api.POST("/teach/:secret/homework", h.addHomeworkAPI)
	api.DELETE("/teach/:secret/homework/:id", h.deleteHomeworkAPI)
	api.POST("/teach/:secret/rotate", h.rotateClassAPI)
	api.PATCH("/teach/:secret/students/:id", h.renamePupilAPI)
	api.DELETE("/teach/:secret/students/:id", h.removePupilAPI)
	api.DELETE("/teach/:secret", h.deleteClassAPI)
}

// classError turns a refusal of the classes service into an HTTP error.
func classError(err error) error {
	var ce *classes.Error
	if !errors.As(err, &ce) {
		return err
	}
	status := http.StatusBadRequest
	switch ce.Kind {
	case classes.NotFound:
		status = http.StatusNotFound
	case classes.Taken, classes.Full:
		status = http.StatusConflict
	}
	return echo.NewHTTPError(status, ce.Message)
}

// siteURL is the absolute address of path on the host the visitor
// reached, for links that leave this page (the teacher link to open on
// another device, the join sheet's address and QR code).
func siteURL(c echo.Context, path, query string) string {
	scheme := "http"
	if overTLS(c.Request()) {
		scheme = "https"
	}
	return (&url.URL{Scheme: scheme, Host: c.Request().Host, Path: path, RawQuery: query}).String()
}

// teacherPath is a class's dashboard: its teacher link.
func teacherPath(secret string) string { return "/teach/" + secret }

// teacherClass opens the class of the :secret in the path; an unknown,
// malformed or rotated secret is 404. The answer must never be cached:
// it holds the capability.
func (h *Handler) teacherClass(c echo.Context) (*store.Class, string, error) {
	secret := c.Param("secret")
	c.Response().Header().Set("Cache-Control", "no-store")
	cl, err := h.classes.BySecret(c.Request().Context(), secret)
	if err != nil {
		return nil, "", classError(err)
	}
	return cl, secret, nil
}

// ----- /teach: make a class, the classes this browser remembers -----

// teachPage is the /teach page's data.
type teachPage struct {
	Classes []rememberedRow
	Typed   string
	Error   words.Message
	MaxName int
}

// rememberedRow is one class this browser remembers.
type rememberedRow struct {
	Name, Code, URL string
}

func (h *Handler) showTeach(c echo.Context) error {
	return h.renderTeach(c, http.StatusOK, "", words.Message{})
}

func (h *Handler) renderTeach(c echo.Context, status int, typed string, msg words.Message) error {
	p := teachPage{Typed: typed, Error: msg, MaxName: classes.MaxNameLen}
	if !freshVisitor(c) {
		list, err := h.store.RememberedClasses(c.Request().Context(), visitorID(c))
		if err != nil {
			return err
		}
		for _, r := range list {
			if classes.Hash(r.Secret) != r.SecretHash {
				continue // rotated in another browser: this link no longer opens it
			}
			p.Classes = append(p.Classes, rememberedRow{Name: r.Name, Code: r.JoinCode, URL: teacherPath(r.Secret)})
		}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return h.render(c, status, "teach", p)
}

// createClass spends one of the address's new classes and makes one.
func (h *Handler) createClass(c echo.Context, name string) (classes.Created, error) {
	if err := h.allow(c, h.newClassLimiter, clientAddress(c), "classes.refuse_too_many_classes"); err != nil {
		return classes.Created{}, err
	}
	return h.classes.Create(c.Request().Context(), name, visitorID(c))
}

func (h *Handler) createClassForm(c echo.Context) error {
	name := c.FormValue("name")
	made, err := h.createClass(c, name)
	var ce *classes.Error
	if errors.As(err, &ce) {
		return h.renderTeach(c, http.StatusBadRequest, truncate(name, classes.MaxNameLen), ce.Message)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, teacherPath(made.Secret)+"?new=1")
}

// classJSON is a class in the API.
type classJSON struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	JoinCode   string `json:"join_code"`
	TeacherURL string `json:"teacher_url,omitempty"`
	JoinURL    string `json:"join_url,omitempty"`
}

// createClassAPI answers POST /api/classes {"name"} with 201.
func (h *Handler) createClassAPI(c echo.Context) error {
	var req struct {
		Name string `json:"name"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	made, err := h.createClass(c, req.Name)
	if err != nil {
		return classError(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, classJSON{ID: made.Class.ID, Name: made.Class.Name, JoinCode: made.Class.JoinCode,
		TeacherURL: teacherPath(made.Secret), JoinURL: "/join?code=" + made.Class.JoinCode})
}

// rememberClassForm makes this browser remember a teacher link opened
// here (a page view stores nothing, so it is a button).
func (h *Handler) rememberClassForm(c echo.Context) error {
	cl, secret, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	if err := h.store.RememberClass(c.Request().Context(), visitorID(c), cl.ID, secret); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, teacherPath(secret))
}

// ----- the teacher's actions -----

func (h *Handler) rotateClassForm(c echo.Context) error {
	secret, err := h.rotateClass(c)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, teacherPath(secret)+"?rotated=1")
}

func (h *Handler) rotateClassAPI(c echo.Context) error {
	secret, err := h.rotateClass(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"teacher_url": teacherPath(secret)})
}

// rotateClass gives the class a new teacher link; this browser remembers
// the new one when it is stored.
func (h *Handler) rotateClass(c echo.Context) (string, error) {
	cl, _, err := h.teacherClass(c)
	if err != nil {
		return "", err
	}
	secret, err := h.classes.Rotate(c.Request().Context(), cl, visitorID(c))
	return secret, classError(err)
}

func (h *Handler) deleteClassForm(c echo.Context) error {
	cl, secret, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	if c.FormValue("confirm") != "yes" {
		return c.Redirect(http.StatusSeeOther, teacherPath(secret)+"?confirm=delete#delete")
	}
	if err := h.store.DeleteClass(c.Request().Context(), cl.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/teach?deleted=1")
}

func (h *Handler) deleteClassAPI(c echo.Context) error {
	cl, _, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	if err := h.store.DeleteClass(c.Request().Context(), cl.ID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) renamePupilForm(c echo.Context) error {
	cl, secret, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	if err := h.classes.Rename(c.Request().Context(), cl.ID, c.Param("id"), c.FormValue("nickname")); err != nil {
		var ce *classes.Error
		if errors.As(err, &ce) {
			return h.renderDashboard(c, cl, secret, http.StatusBadRequest, ce.Message)
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, teacherPath(secret))
}

func (h *Handler) renamePupilAPI(c echo.Context) error {
	cl, _, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	var req struct {
		Nickname string `json:"nickname"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := h.classes.Rename(c.Request().Context(), cl.ID, c.Param("id"), req.Nickname); err != nil {
		return classError(err)
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) removePupil(c echo.Context) (string, error) {
	cl, secret, err := h.teacherClass(c)
	if err != nil {
		return "", err
	}
	err = h.store.RemoveMember(c.Request().Context(), cl.ID, c.Param("id"))
	if errors.Is(err, store.ErrNotFound) {
		return "", refuse(http.StatusNotFound, "classes.refuse_no_pupil")
	}
	return secret, err
}

func (h *Handler) removePupilForm(c echo.Context) error {
	secret, err := h.removePupil(c)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, teacherPath(secret))
}

func (h *Handler) removePupilAPI(c echo.Context) error {
	if _, err := h.removePupil(c); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// ----- homework -----

// homeworkRequest is the body of POST /api/teach/{secret}/homework, and
// what the dashboard's form fills.
type homeworkRequest struct {
	Lessons    []string `json:"lessons"`
	Exercises  []string `json:"exercises"`
	QuizTopics []string `json:"quiz_topics"`
	BeatLevel  *int     `json:"beat_level"`
	// Puzzles asks for that many puzzles solved at the first attempt, of
	// PuzzleTheme when it is not "".
	Puzzles     *int   `json:"puzzles"`
	PuzzleTheme string `json:"puzzle_theme"`
	Due         string `json:"due"`
}

// maxHomeworkItems bounds one homework: a whole course's lessons and more.
const maxHomeworkItems = 40

// homework checks a request against the course and returns the items as
// codes, or a refusal that says what is wrong.
func (h *Handler) homework(c echo.Context, req homeworkRequest) ([]string, string, error) {
	course := h.course(c)
	var items []string
	add := func(code string) {
		if !slices.Contains(items, code) {
			items = append(items, code)
		}
	}
	for _, slug := range req.Lessons {
		if _, ok := course.Lesson(slug); !ok {
			return nil, "", refuse(http.StatusBadRequest, "classes.refuse_no_lesson", "Slug", truncate(slug, 40))
		}
		add("lesson:" + slug)
	}
	for _, id := range req.Exercises {
		if _, ok := course.Exercise(id); !ok {
			return nil, "", refuse(http.StatusBadRequest, "classes.refuse_no_exercise", "ID", truncate(id, 40))
		}
		add("exercise:" + id)
	}
	for _, topic := range req.QuizTopics {
		if !slices.Contains(quiz.Topics, topic) {
			return nil, "", refuse(http.StatusBadRequest, "classes.refuse_no_topic", "Topic", truncate(topic, 40))
		}
		add("quiz:" + topic)
	}
	if req.BeatLevel != nil {
		if *req.BeatLevel < engine.MinLevel || *req.BeatLevel > engine.MaxLevel {
			return nil, "", refuse(http.StatusBadRequest, "classes.refuse_level", "Min", engine.MinLevel, "Max", engine.MaxLevel)
		}
		add("level:" + strconv.Itoa(*req.BeatLevel))
	}
	if req.Puzzles != nil {
		code := strconv.Itoa(*req.Puzzles)
		if req.PuzzleTheme != "" {
			code += ":" + req.PuzzleTheme
		}
		if *req.Puzzles < 1 || *req.Puzzles > maxHomeworkPuzzles {
			return nil, "", refuse(http.StatusBadRequest, "classes.refuse_puzzles", "Max", maxHomeworkPuzzles)
		}
		if _, _, ok := puzzleItem(code); !ok {
			return nil, "", refuse(http.StatusBadRequest, "classes.refuse_puzzle_theme", "Theme", truncate(req.PuzzleTheme, 40))
		}
		add("puzzles:" + code)
	} else if req.PuzzleTheme != "" {
		return nil, "", refuse(http.StatusBadRequest, "classes.refuse_puzzles", "Max", maxHomeworkPuzzles)
	}
	if len(items) == 0 {
		return nil, "", refuse(http.StatusBadRequest, "classes.refuse_homework_empty")
	}
	if len(items) > maxHomeworkItems {
		return nil, "", refuse(http.StatusBadRequest, "classes.refuse_homework_long", "Max", maxHomeworkItems)
	}
	due := strings.TrimSpace(req.Due)
	if due != "" {
		if _, err := time.Parse(time.DateOnly, due); err != nil {
			return nil, "", refuse(http.StatusBadRequest, "classes.refuse_due")
		}
	}
	return items, due, nil
}

func (h *Handler) addHomework(c echo.Context, cl *store.Class, req homeworkRequest) (*store.Homework, error) {
	items, due, err := h.homework(c, req)
	if err != nil {
		return nil, err
	}
	hw := &store.Homework{ID: store.NewID(), ClassID: cl.ID, Items: items, Due: due, CreatedAt: h.now()}
	if err := h.store.AddHomework(c.Request().Context(), hw); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, refuse(http.StatusNotFound, "classes.refuse_no_class")
		}
		return nil, err
	}
	return hw, nil
}

func (h *Handler) addHomeworkForm(c echo.Context) error {
	cl, secret, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return refuse(http.StatusBadRequest, "http.form_unreadable")
	}
	req := homeworkRequest{Lessons: form["lesson"], Exercises: form["exercise"], QuizTopics: form["topic"], Due: form.Get("due")}
	if v := form.Get("level"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			n = -1 // refused below with the levels' range
		}
		req.BeatLevel = &n
	}
	if v := form.Get("puzzles"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			n = -1 // refused below with the range
		}
		req.Puzzles, req.PuzzleTheme = &n, form.Get("puzzle_theme")
	}
	if _, err := h.addHomework(c, cl, req); err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) && he.Code == http.StatusBadRequest {
			msg, _ := he.Message.(words.Message)
			return h.renderDashboard(c, cl, secret, http.StatusBadRequest, msg)
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, teacherPath(secret)+"#homework")
}

func (h *Handler) addHomeworkAPI(c echo.Context) error {
	cl, _, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	var req homeworkRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	hw, err := h.addHomework(c, cl, req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, homeworkJSON{ID: hw.ID, Items: hw.Items, Due: hw.Due, DoneBy: []string{}})
}

func (h *Handler) deleteHomework(c echo.Context) (string, error) {
	cl, secret, err := h.teacherClass(c)
	if err != nil {
		return "", err
	}
	err = h.store.DeleteHomework(c.Request().Context(), cl.ID, c.Param("id"))
	if errors.Is(err, store.ErrNotFound) {
		return "", refuse(http.StatusNotFound, "classes.refuse_no_homework")
	}
	return secret, err
}

func (h *Handler) deleteHomeworkForm(c echo.Context) error {
	secret, err := h.deleteHomework(c)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, teacherPath(secret)+"#homework")
}

func (h *Handler) deleteHomeworkAPI(c echo.Context) error {
	if _, err := h.deleteHomework(c); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// ----- /join: a pupil joins with the code and a nickname -----

// joinPage is the /join page's data.
type joinPage struct {
	Code, Nickname string // as typed, shown again after a refusal
	Error          words.Message
	ErrorField     string // "code" or "nickname": the field the error is about
	Joined         *store.Membership
	Classes        []store.Membership // the classes this visitor is in
	Length, Max    int
}

func (h *Handler) showJoin(c echo.Context) error {
	p := joinPage{Length: classes.CodeLength, Max: classes.MaxNicknameLen}
	if code, ok := classes.NormalizeCode(c.QueryParam("code")); ok {
		p.Code = code
	}
	if err := h.fillJoinPage(c, &p); err != nil {
		return err
	}
	if id := c.QueryParam("joined"); id != "" {
		for i := range p.Classes {
			if p.Classes[i].Class.ID == id {
				p.Joined = &p.Classes[i]
			}
		}
	}
	return h.render(c, http.StatusOK, "join", p)
}

func (h *Handler) fillJoinPage(c echo.Context, p *joinPage) error {
	p.Length, p.Max = classes.CodeLength, classes.MaxNicknameLen
	if freshVisitor(c) {
		return nil
	}
	list, err := h.store.VisitorClasses(c.Request().Context(), visitorID(c))
	p.Classes = list
	return err
}

// joinClass spends one try of the client's address (given back when the
// code was right, so only wrong codes count) and joins.
func (h *Handler) joinClass(c echo.Context, code, nickname string) (*store.Member, *store.Class, bool, error) {
	addr := clientAddress(c)
	if ok, wait := h.joinLimiter.Allow(addr, h.now()); !ok {
		c.Response().Header().Set("Retry-After", strconv.Itoa(limits.RetryAfterSeconds(wait)))
		return nil, nil, false, refuse(http.StatusTooManyRequests, "classes.refuse_too_many")
	}
	m, cl, created, err := h.classes.Join(c.Request().Context(), code, nickname, visitorID(c))
	var ce *classes.Error
	if err == nil || !errors.As(err, &ce) || ce.Kind != classes.NotFound {
		h.joinLimiter.Refund(addr) // only a wrong code costs a try
	}
	return m, cl, created, classError(err)
}

func (h *Handler) joinClassForm(c echo.Context) error {
	code, nickname := c.FormValue("code"), c.FormValue("nickname")
	_, cl, _, err := h.joinClass(c, code, nickname)
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/join?joined="+cl.ID)
	}
	var he *echo.HTTPError
	if !errors.As(err, &he) || he.Code >= 500 {
		return err
	}
	p := joinPage{Code: truncate(code, 12), Nickname: truncate(nickname, classes.MaxNicknameLen+10)}
	p.Error, _ = he.Message.(words.Message)
	p.ErrorField = "code"
	if strings.Contains(p.Error.Key, "nickname") {
		p.ErrorField = "nickname"
	}
	if err := h.fillJoinPage(c, &p); err != nil {
		return err
	}
	return h.render(c, he.Code, "join", p)
}

// joinClassAPI answers POST /api/classes/join {"code","nickname"}: 201
// when the visitor joined, 200 when they were in the class already.
func (h *Handler) joinClassAPI(c echo.Context) error {
	var req struct {
		Code     string `json:"code"`
		Nickname string `json:"nickname"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	m, cl, created, err := h.joinClass(c, req.Code, req.Nickname)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, myClassJSON{ID: cl.ID, Name: cl.Name, Nickname: m.Nickname, JoinedAt: m.JoinedAt.UTC().Format(time.RFC3339)})
}

func (h *Handler) leaveClassForm(c echo.Context) error {
	if err := h.store.LeaveClass(c.Request().Context(), c.FormValue("class"), visitorID(c)); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/join?left=1")
}

func (h *Handler) leaveClassAPI(c echo.Context) error {
	if err := h.store.LeaveClass(c.Request().Context(), c.Param("id"), visitorID(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// teacherQR draws the teacher link as a QR code, to open the dashboard on
// a phone or a tablet without typing it.
func (h *Handler) teacherQR(c echo.Context) error {
	_, secret, err := h.teacherClass(c)
	if err != nil {
		return err
	}
	svg, err := transfer.QRCode(siteURL(c, teacherPath(secret), ""))
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, "image/svg+xml", svg)
}

// joinQR draws the QR code of /join with a code filled in. Any
// well-formed code is drawn: the picture holds nothing the code does not.
func (h *Handler) joinQR(c echo.Context) error {
	code, ok := classes.NormalizeCode(c.QueryParam("code"))
	if !ok {
		return refuse(http.StatusBadRequest, "classes.refuse_code_malformed", "Length", classes.CodeLength)
	}
	svg, err := transfer.QRCode(siteURL(c, "/join", "code="+code))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, max-age=3600")
	return c.Blob(http.StatusOK, "image/svg+xml", svg)
}
