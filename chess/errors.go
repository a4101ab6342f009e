package chess

import "fmt"

// Error is a refusal of the rules package: a stable code, the values a
// sentence about it needs (the text entered among them) and an English
// message for logs and Go callers. The site words it for visitors from its
// catalogue (key "chess.<Code>") in their language; nothing here is shown
// to them as it is.
type Error struct {
	Code string            // stable, such as "fen_fields" or "san_ambiguous"
	Args map[string]string // named values: Text (what was entered), Square, Color, …
	msg  string
}

func (e *Error) Error() string { return "chess: " + e.msg }

// newError returns an *Error with an English message and name, value pairs.
func newError(code, msg string, kv ...string) *Error {
	e := &Error{Code: code, msg: msg}
	if len(kv) > 0 {
		e.Args = make(map[string]string, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			e.Args[kv[i]] = kv[i+1]
		}
	}
	return e
}

func itoa(n int) string { return fmt.Sprint(n) }
