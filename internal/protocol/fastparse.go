package protocol

import (
	"bytes"
	"unicode/utf8"
)

// parseCompact reads the common shape of a client message without
// encoding/json: one object with no spaces, keys among ClientMessage's
// own (in lower case, each once), strings with no escapes and no control
// characters, integers of at most nine digits and, for spectate, a
// boolean. It reports false for anything else, which ParseClient then
// reads with encoding/json; for what it accepts the message is the one
// encoding/json would read (FuzzParseCompact checks). A move on the
// actor's path then costs its strings' allocations and not a decoder's
// with its reflection.
func parseCompact(data []byte) (msg ClientMessage, ok bool) {
	if len(data) < 2 || data[0] != '{' || data[len(data)-1] != '}' {
		return ClientMessage{}, false
	}
	p := data[1 : len(data)-1]
	var seen uint8
	for len(p) > 0 {
		key, rest, ok := compactString(p)
		if !ok || len(rest) == 0 || rest[0] != ':' {
			return ClientMessage{}, false
		}
		p = rest[1:]
		var bit uint8
		switch string(key) {
		case "v", "seat":
			n, rest, ok := compactInt(p)
			if !ok {
				return ClientMessage{}, false
			}
			p = rest
			if key[0] == 'v' {
				bit, msg.V = 1, n
			} else {
				seat := n // on the heap only for a message with a seat
				bit, msg.Seat = 2, &seat
			}
		case "spectate":
			switch {
			case bytes.HasPrefix(p, []byte("true")):
				bit, msg.Spectate, p = 4, true, p[4:]
			case bytes.HasPrefix(p, []byte("false")):
				bit, msg.Spectate, p = 4, false, p[5:]
			default:
				return ClientMessage{}, false
			}
		case "type", "id", "token", "move", "text":
			s, rest, ok := compactString(p)
			if !ok {
				return ClientMessage{}, false
			}
			p = rest
			switch string(key) {
			case "type":
				bit, msg.Type = 8, messageType(s)
			case "id":
				bit, msg.ID = 16, string(s)
			case "token":
				bit, msg.Token = 32, string(s)
			case "move":
				bit, msg.Move = 64, string(s)
			default:
				bit, msg.Text = 128, string(s)
			}
		default:
			return ClientMessage{}, false
		}
		if seen&bit != 0 {
			return ClientMessage{}, false // a key twice: encoding/json decides
		}
		seen |= bit
		if len(p) > 0 {
			if p[0] != ',' || len(p) == 1 {
				return ClientMessage{}, false
			}
			p = p[1:]
		}
	}
	return msg, true
}

// messageType returns s as a string, without an allocation for the
// protocol's own types.
func messageType(s []byte) string {
	for _, t := range [...]string{"move", "sync", "chat", "hello"} {
		if string(s) == t {
			return t
		}
	}
	return string(s)
}

// compactString reads a JSON string at the start of p that has no escapes
// and no control characters and is valid UTF-8: its bytes, and what
// follows it.
func compactString(p []byte) (s, rest []byte, ok bool) {
	if len(p) == 0 || p[0] != '"' {
		return nil, nil, false
	}
	for i := 1; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"':
			s = p[1:i]
			return s, p[i+1:], utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// compactInt reads a JSON integer of at most nine digits (no sign but a
// minus, no leading zero, no fraction or exponent) at the start of p.
func compactInt(p []byte) (n int, rest []byte, ok bool) {
	neg := len(p) > 0 && p[0] == '-'
	if neg {
		p = p[1:]
	}
	i := 0
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		n = n*10 + int(p[i]-'0')
		i++
	}
	if i == 0 || i > 9 || (p[0] == '0' && i > 1) {
		return 0, nil, false
	}
	if i < len(p) && (p[i] == '.' || p[i] == 'e' || p[i] == 'E') {
		return 0, nil, false
	}
	if neg {
		n = -n
	}
	return n, p[i:], true
}
