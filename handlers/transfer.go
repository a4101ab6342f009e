package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"chesstutor/limits"
	"chesstutor/transfer"
	"chesstutor/words"
)

// Continue on another device (G28): the first device makes a short code
// (and its QR code), the other device types it at /continue (or opens the
// QR code's link there) and becomes the same visitor: its visitor cookie
// is set to the first device's id. A code works once, for ten minutes;
// tries are limited per client address.

func (h *Handler) registerTransfer(e *echo.Echo, api *echo.Group) {
	e.GET("/continue", h.showContinue)
	e.POST("/continue", h.continueForm)
	e.POST("/continue/new", h.newTransferForm)
	e.GET("/continue/qr.svg", h.transferQR)
	api.POST("/me/transfer", h.createTransfer)
	api.POST("/me/transfer/redeem", h.redeemTransfer)
}

// continuePage is the /continue page's data: the form to type a code, a
// code just made (with its QR code), or the welcome once a code worked.
type continuePage struct {
	Code    string // the new code, grouped for reading ("ABCD-EFGH")
	Raw     string // the same without the dash, as the QR code's link has it
	Address string // where to type the code: the site's host and /continue
	Minutes int    // how long a code works
	Length  int    // how many characters a code has
	Typed   string // what was typed, shown again after a refusal
	Error   words.Message
	Done    bool // the code worked: this device is now the other one's visitor
	Stored  bool // this device has progress of its own (it would be left behind)
}

// newContinuePage is the page's data with its facts filled in.
func newContinuePage(c echo.Context) continuePage {
	return continuePage{Minutes: int(transfer.Lifetime / time.Minute), Length: transfer.Length,
		Address: c.Request().Host + "/continue"}
}

func (h *Handler) showContinue(c echo.Context) error {
	p := newContinuePage(c)
	p.Done = c.QueryParam("done") == "1"
	if code, ok := transfer.Normalize(c.QueryParam("code")); ok {
		p.Typed = code[:transfer.Length/2] + "-" + code[transfer.Length/2:]
	}
	if !p.Done && !freshVisitor(c) {
		stored, err := h.visitorStored(c.Request().Context(), visitorID(c))
		if err != nil {
			return err
		}
		p.Stored = stored
	}
	return h.render(c, http.StatusOK, "continue", p)
}

// continueForm is the /continue form: redeem the typed code, then come
// back to the page with the welcome (303), or show the page again with
// the reason it did not work.
func (h *Handler) continueForm(c echo.Context) error {
	typed := c.FormValue("code")
	err := h.redeem(c, typed)
	var he *echo.HTTPError
	switch {
	case err == nil:
		return c.Redirect(http.StatusSeeOther, "/continue?done=1")
	case errors.As(err, &he) && (he.Code == http.StatusBadRequest || he.Code == http.StatusNotFound):
		msg, _ := he.Message.(words.Message)
		p := newContinuePage(c)
		p.Typed, p.Error = clipTyped(typed), msg
		return h.render(c, he.Code, "continue", p)
	}
	return err
}

// newTransferForm is the "Continue on another device" button: it makes a
// code and shows it with its QR code.
func (h *Handler) newTransferForm(c echo.Context) error {
	code, err := h.transfers.Create(c.Request().Context(), visitorID(c))
	if err != nil {
		return err
	}
	p := newContinuePage(c)
	p.Code, p.Raw = code.Grouped(), code.Text
	c.Response().Header().Set("Cache-Control", "no-store")
	return h.render(c, http.StatusOK, "continue", p)
}

// transferJSON is POST /api/me/transfer's answer.
type transferJSON struct {
	Code    string `json:"code"`    // Length characters of transfer.Alphabet
	URL     string `json:"url"`     // the link the QR code holds: /continue?code=…
	Expires string `json:"expires"` // RFC 3339, UTC
	QR      string `json:"qr"`      // the QR code's picture (SVG), on this site
}

// createTransfer answers POST /api/me/transfer with a new code.
func (h *Handler) createTransfer(c echo.Context) error {
	code, err := h.transfers.Create(c.Request().Context(), visitorID(c))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, transferJSON{
		Code: code.Text, URL: continueLink(c, code.Text),
		Expires: code.Expires.UTC().Format(time.RFC3339),
		QR:      "/continue/qr.svg?code=" + url.QueryEscape(code.Text),
	})
}

// redeemTransfer answers POST /api/me/transfer/redeem {"code"}: 200 and a
// new visitor cookie, 400 for something that is not a code, 404 for a
// wrong, used or expired one, 429 after too many tries.
func (h *Handler) redeemTransfer(c echo.Context) error {
	var req struct {
		Code string `json:"code"`
	}
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if err := h.redeem(c, req.Code); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"message": h.w(c).T("transfer.done_heading")})
}

// redeem spends one try of the client's address, redeems the code and
// makes this device its visitor.
func (h *Handler) redeem(c echo.Context, typed string) error {
	if ok, wait := h.transferLimiter.Allow(clientAddress(c), h.now()); !ok {
		c.Response().Header().Set("Retry-After", strconv.Itoa(limits.RetryAfterSeconds(wait)))
		return refuse(http.StatusTooManyRequests, "transfer.refuse_too_many")
	}
	visitor, err := h.transfers.Redeem(c.Request().Context(), typed)
	switch {
	case errors.Is(err, transfer.ErrMalformed):
		return refuse(http.StatusBadRequest, "transfer.refuse_malformed", "Length", transfer.Length)
	case errors.Is(err, transfer.ErrUnknown):
		return refuse(http.StatusNotFound, "transfer.refuse_unknown", "Count", int(transfer.Lifetime/time.Minute))
	case err != nil:
		return err
	}
	// A device without a cookie was handed a fresh one on this very
	// response; the transferred visitor's cookie replaces it.
	hd := c.Response().Header()
	var kept []string
	for _, v := range hd.Values("Set-Cookie") {
		if !strings.HasPrefix(v, visitorCookie+"=") {
			kept = append(kept, v)
		}
	}
	hd.Del("Set-Cookie")
	for _, v := range kept {
		hd.Add("Set-Cookie", v)
	}
	h.setVisitorCookie(c, visitor)
	c.Set(visitorKey, visitor)
	c.Set(freshVisitorKey, false)
	return nil
}

// transferQR draws the QR code of a code's link as SVG. Any well-formed
// code is drawn (the picture holds nothing the code does not): the page
// that showed the code asks for it.
func (h *Handler) transferQR(c echo.Context) error {
	code, ok := transfer.Normalize(c.QueryParam("code"))
	if !ok {
		return refuse(http.StatusBadRequest, "transfer.refuse_malformed", "Length", transfer.Length)
	}
	svg, err := transfer.QRCode(continueLink(c, code))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "image/svg+xml", svg)
}

// continueLink is the absolute link to /continue with the code filled in,
// on the host the visitor reached: the other device scans it.
func continueLink(c echo.Context, code string) string {
	scheme := "http"
	if overTLS(c.Request()) {
		scheme = "https"
	}
	u := url.URL{Scheme: scheme, Host: c.Request().Host, Path: "/continue", RawQuery: "code=" + url.QueryEscape(code)}
	return u.String()
}
