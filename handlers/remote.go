package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/games"
	"chesstutor/live"
	"chesstutor/store"
	"chesstutor/transfer"
	"chesstutor/words"
)

// This file serves a friend game played from two devices (G24–G26): the
// invite page and its QR code, joining, the watch view, and the event
// stream each page follows the game with (the streams themselves are
// package live's; the rules package games').

// registerRemote lists the routes of games from two devices.
func (h *Handler) registerRemote(e *echo.Echo, api *echo.Group) {
	e.GET("/join/:id", h.showInvite)
	e.POST("/join/:id", h.joinFromPage)
	e.GET("/play/:id/qr.svg", h.inviteQR)
	e.GET("/watch/:watch", h.showWatch)

	api.POST("/games/:id/join", h.joinGame)
	api.GET("/games/:id/events", h.streamGame)
	api.POST("/games/:id/takeback/accept", h.gameAction((*games.Service).AcceptTakeback))
	api.POST("/games/:id/takeback/decline", h.gameAction((*games.Service).DeclineTakeback))
	api.POST("/games/:id/claim", h.gameAction((*games.Service).Claim))
	api.GET("/watch/:watch", h.getWatched)
	api.GET("/watch/:watch/events", h.streamWatched)
}

// Stream timing: a comment line keeps proxies from closing a quiet
// stream, and a player's (or watcher's) presence is written this often
// while the stream is open (games.AwayClaim is a minute), or more often
// when the game service's away period is shorter (presenceEvery).
const (
	streamPing     = 15 * time.Second
	streamPresence = 20 * time.Second
	// streamRetryMS is how long the browser waits before reconnecting.
	streamRetryMS = 2000
)

// remoteCreated is the answer to POST /api/games with mode "remote": the
// state and the two links to share (H1).
type remoteCreated struct {
	*games.State
	InviteURL string `json:"invite_url"`
	WatchURL  string `json:"watch_url"`
}

// absolute is path on the host the visitor reached, for a link another
// device opens.
func absolute(c echo.Context, path string) string {
	scheme := "http"
	if overTLS(c.Request()) {
		scheme = "https"
	}
	return (&url.URL{Scheme: scheme, Host: c.Request().Host, Path: path}).String()
}

func inviteLink(c echo.Context, id string) string { return absolute(c, "/join/"+id) }

func watchLink(c echo.Context, st *games.State) string {
	if st.Remote == nil || st.Remote.WatchID() == "" {
		return ""
	}
	return absolute(c, "/watch/"+st.Remote.WatchID())
}

// createdAnswer is the 201 of POST /api/games: a remote game's carries its links.
func (h *Handler) createdAnswer(c echo.Context, st *games.State) any {
	if st.Remote == nil {
		return st
	}
	return remoteCreated{State: st, InviteURL: inviteLink(c, st.ID), WatchURL: watchLink(c, st)}
}

// joinGame is POST /api/games/:id/join: the visitor takes the free seat
// (200 with their state, human_color their colour), or 409 when both
// seats are taken or the invite expired.
func (h *Handler) joinGame(c echo.Context) error {
	st, err := h.games.Join(c.Request().Context(), visitorID(c), c.Param("id"))
	if err != nil {
		return gameError(err)
	}
	return c.JSON(http.StatusOK, st.Word(h.w(c)))
}

// invitePage is the payload of /join/:id.
type invitePage struct {
	ID               string
	Color, Clock     string // the joiner's colour and the time control, as codes
	Expired, Full    bool
	CreatorMoveFirst bool
	Error            words.Message
}

// showInvite is GET /join/:id, the invite link. It takes no seat by
// itself — link previews in chat apps open links too — but offers one
// big button; a visitor who already holds a seat goes to the game, and
// once both seats are taken the link shows the game to watch (G24).
func (h *Handler) showInvite(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("id")
	st, err := h.games.Get(ctx, visitorID(c), id)
	if err == nil && st.Remote == nil {
		err = &games.Error{Kind: games.NotFound, Message: words.M("game.not_found")}
	}
	if err != nil {
		return gameError(err)
	}
	if st.Remote.Seat != "" {
		return c.Redirect(http.StatusSeeOther, "/play/"+id)
	}
	if st.Remote.Joined {
		return h.renderGame(c, st)
	}
	p := invitePage{ID: id, Color: other(st.HumanColor), Expired: st.Remote.InviteExpired, Clock: "none"}
	if st.Clock != nil {
		p.Clock = st.Clock.Name
	}
	status := http.StatusOK
	if p.Expired {
		status = http.StatusGone
	}
	return h.render(c, status, "remote-join", p)
}

func other(color string) string {
	if color == "white" {
		return "black"
	}
	return "white"
}

// joinFromPage is POST /join/:id, the invite page's button.
func (h *Handler) joinFromPage(c echo.Context) error {
	id := c.Param("id")
	_, err := h.games.Join(c.Request().Context(), visitorID(c), id)
	var ge *games.Error
	if errors.As(err, &ge) && ge.Kind == games.Conflict {
		// Taken meanwhile, or expired: the invite page says which.
		return c.Redirect(http.StatusSeeOther, "/join/"+id)
	}
	if err != nil {
		return gameError(err)
	}
	return c.Redirect(http.StatusSeeOther, "/play/"+id)
}

// inviteQR is GET /play/:id/qr.svg: the invite link as a QR code, for the
// players of the game only.
func (h *Handler) inviteQR(c echo.Context) error {
	seat, err := h.games.Seat(c.Request().Context(), visitorID(c), c.Param("id"))
	if err != nil {
		return gameError(err)
	}
	if seat == "" {
		return refuse(http.StatusForbidden, "remote.refuse_no_seat")
	}
	svg, err := transfer.QRCode(inviteLink(c, c.Param("id")))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, max-age=86400")
	return c.Blob(http.StatusOK, "image/svg+xml", svg)
}

// watched finds the game of a watch link.
func (h *Handler) watched(c echo.Context) (string, error) {
	id, err := h.games.WatchedGame(c.Request().Context(), c.Param("watch"))
	if err != nil {
		return "", gameError(err)
	}
	return id, nil
}

// forWatchLink is a state as a watch link's holder sees it: no seat, and
// not even the game's id, which would let them take a free seat.
func forWatchLink(st *games.State) *games.State {
	w := st.ForSeat("")
	w.ID = ""
	return w
}

// showWatch is GET /watch/:watch: the game, read-only and live (G26).
func (h *Handler) showWatch(c echo.Context) error {
	id, err := h.watched(c)
	if err != nil {
		return err
	}
	st, err := h.games.View(c.Request().Context(), id)
	if err != nil {
		return gameError(err)
	}
	return h.renderWatch(c, forWatchLink(st), c.Param("watch"))
}

// getWatched is GET /api/watch/:watch: the state for a watch link (the
// watch view's polling when its stream fails).
func (h *Handler) getWatched(c echo.Context) error {
	id, err := h.watched(c)
	if err != nil {
		return err
	}
	st, err := h.games.View(c.Request().Context(), id)
	if err != nil {
		return gameError(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, forWatchLink(st).Word(h.w(c)))
}

// streamGame is GET /api/games/:id/events for the players, and for a
// visitor who opened the invite of a full game.
func (h *Handler) streamGame(c echo.Context) error {
	id := c.Param("id")
	seat, err := h.games.Seat(c.Request().Context(), visitorID(c), id)
	if err != nil {
		return gameError(err)
	}
	return h.stream(c, id, seat, false)
}

// streamWatched is GET /api/watch/:watch/events.
func (h *Handler) streamWatched(c echo.Context) error {
	id, err := h.watched(c)
	if err != nil {
		return err
	}
	return h.stream(c, id, "", true)
}

// stream serves one event stream (text/event-stream, G25): the state when
// it opens — unless Last-Event-ID (or ?last=) names the state the page
// already has, after a reconnect — and after every change, each event's
// id naming the state (eventID). It ends when the visitor goes, the game
// ends or the server shuts down. While it is open the player counts as
// present (the claim rule of G26) or the watcher as watching.
func (h *Handler) stream(c echo.Context, id, seat string, byWatchLink bool) error {
	visitor := visitorID(c)
	s, err := h.live.Follow(id, visitor)
	if errors.Is(err, live.ErrTooMany) {
		return refuse(http.StatusTooManyRequests, "remote.refuse_stream_limit")
	}
	if err != nil {
		return refuse(http.StatusServiceUnavailable, "error.status_503")
	}
	defer h.live.Leave(s)
	ctx := c.Request().Context()
	// Presence outlives the request: the last word must be written even
	// as the request's context ends.
	bg := context.WithoutCancel(ctx)
	watchStream := ""
	present := func(leaving bool) {
		var err error
		switch {
		case seat != "":
			err = h.games.Present(bg, id, visitor)
		case leaving:
			err = h.games.Watching(bg, id, watchStream, true)
		default:
			err = h.games.Watching(bg, id, watchStream, false)
		}
		if err != nil {
			h.log.Warn("live: presence", "game", id, "err", err)
		}
	}
	if seat == "" {
		watchStream = store.NewID()
	}
	present(false)
	h.announce(bg, id) // the other side learns who is here
	defer func() {
		present(true)
		h.announce(bg, id)
	}()

	st, err := h.games.View(ctx, id)
	if err != nil {
		return gameError(err)
	}
	res := c.Response()
	hd := res.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no") // nginx: pass events on at once
	res.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(res)
	w := h.w(c)
	last := c.Request().Header.Get("Last-Event-ID")
	if last == "" {
		last = c.QueryParam("last")
	}
	// A state the page has is not sent again: the first one when the
	// reconnect names it, and later ones that only repeat it.
	send := func(st *games.State) (bool, error) {
		view := st.ForSeat(seat)
		if byWatchLink {
			view = forWatchLink(st)
		}
		eid := eventID(view)
		if eid == last {
			return st.Status == "active", nil // the page has this one already
		}
		last = eid
		body, err := json.Marshal(view.Word(w))
		if err != nil {
			return false, err
		}
		_ = rc.SetWriteDeadline(time.Now().Add(streamPing + 10*time.Second))
		if _, err := fmt.Fprintf(res, "id: %s\nevent: state\ndata: %s\n\n", eid, body); err != nil {
			return false, err
		}
		return st.Status == "active", rc.Flush()
	}
	_ = rc.SetWriteDeadline(time.Now().Add(streamPing + 10*time.Second))
	if _, err := fmt.Fprintf(res, "retry: %d\n\n", streamRetryMS); err != nil || rc.Flush() != nil {
		return nil // the headers go now, even when the first state is skipped
	}
	if more, err := send(st); err != nil || !more {
		return nil
	}
	ping := time.NewTicker(streamPing)
	defer ping.Stop()
	seen := time.NewTicker(h.presenceEvery())
	defer seen.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.Done():
			// Shutting down: say so, and the page reconnects elsewhere.
			fmt.Fprint(res, "event: bye\ndata: {}\n\n")
			rc.Flush()
			return nil
		case st := <-s.States():
			if more, err := send(st); err != nil || !more {
				return nil
			}
		case <-ping.C:
			_ = rc.SetWriteDeadline(time.Now().Add(streamPing + 10*time.Second))
			if _, err := fmt.Fprint(res, "event: ping\ndata: {}\n\n"); err != nil {
				return nil
			}
			if rc.Flush() != nil {
				return nil
			}
		case <-seen.C:
			present(false)
		}
	}
}

// presenceEvery is how often an open stream says its player is there:
// streamPresence, or a third of the away period when that is shorter, so
// a player whose page is open never reads as gone.
func (h *Handler) presenceEvery() time.Duration {
	return max(min(streamPresence, h.games.AwayPeriod()/3), 100*time.Millisecond)
}

// announce tells every stream of the game, in every process, to read it
// again (presence and watchers changed).
func (h *Handler) announce(ctx context.Context, id string) {
	st, err := h.games.View(ctx, id)
	if err != nil {
		return
	}
	h.live.Changed(id, st.Ply)
}

// eventID names a state as the stream's viewer sees it: its ply and
// version, then what changes without a version — how many watch, and
// whether the player to move is away (a) or may be claimed against (c) —
// like "12.13.2a".
func eventID(view *games.State) string {
	r := view.Remote
	id := strconv.Itoa(view.Ply) + "." + strconv.FormatInt(r.Version, 10) + "." + strconv.Itoa(r.Watchers)
	switch {
	case r.Claimable:
		id += "c"
	case r.AwayMS > r.ClaimAfterMS/2:
		id += "a"
	}
	return id
}

// remotePage is the two-device part of the game page.
type remotePage struct {
	Seat      string // the viewer's colour; "" watching
	InviteURL string // players only
	WatchURL  string
	QR        string // the invite's QR code
	Joined    bool
	API       string // where the page reads the game: the watch link's API for its holders
	Events    string // the event stream
	Watchers  int
}

// remoteGamePage fills the game page's two-device part.
func (h *Handler) remoteGamePage(c echo.Context, st *games.State, p *gamePage) {
	r := &remotePage{Seat: st.Remote.Seat, Joined: st.Remote.Joined, Watchers: st.Remote.Watchers,
		API: "/api/games/" + st.ID, Events: "/api/games/" + st.ID + "/events"}
	if r.Seat != "" {
		r.InviteURL, r.WatchURL = inviteLink(c, st.ID), watchLink(c, st)
		r.QR = "/play/" + st.ID + "/qr.svg"
	}
	p.Remote = r
	p.Title = words.M("remote.title_player")
	if r.Seat == "" {
		p.Title = words.M("remote.title_watch")
	}
	p.Board.Flipped = r.Seat == "black"
}

// renderGame shows the game page for st (the invite of a full game shows
// the game to watch).
func (h *Handler) renderGame(c echo.Context, st *games.State) error {
	return h.render(c, http.StatusOK, "play_game", h.newGamePage(c, st))
}

// renderWatch shows the game page for a watch link's holder.
func (h *Handler) renderWatch(c echo.Context, st *games.State, watch string) error {
	p := h.newGamePage(c, st)
	p.Remote.API, p.Remote.Events = "/api/watch/"+watch, "/api/watch/"+watch+"/events"
	p.ID = ""
	return h.render(c, http.StatusOK, "play_game", p)
}
