package loadgen

import (
	"encoding/binary"
	"errors"
	"hash/maphash"
	"math"
	"math/bits"
	"sync/atomic"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// frame is what the generator reads of a server message; the rest (the
// view, seats, clocks) is skipped. The json tags say which keys fill which
// fields, as encoding/json would read them (the tests compare the two).
type frame struct {
	Type   string   `json:"type"`
	Seq    int      `json:"seq"`
	Status string   `json:"status"`
	ToAct  []int    `json:"to_act"`
	Legal  []string `json:"legal"`
	Events []event  `json:"events"`
	Code   string   `json:"code"`
	ID     string   `json:"id"`

	// nToAct, nLegal and nEvents are how many leading elements of the
	// arrays behind ToAct, Legal and Events may be other than zero: past
	// them, up to the arrays' capacity, every element is zero.
	nToAct, nLegal, nEvents int
	// buf holds a string being unescaped.
	buf []byte
}

// event is one event of a state frame.
type event struct {
	Kind string `json:"kind"`
	N    int    `json:"n"`
	Seat int    `json:"seat"`
	Move string `json:"move"`
	By   string `json:"by"`
}

// reset empties f for the next frame, keeping its slices' room (zeroed: a
// frame is read as encoding/json reads into a new one).
func (f *frame) reset() {
	clear(f.ToAct[:f.nToAct])
	clear(f.Legal[:f.nLegal])
	clear(f.Events[:f.nEvents])
	*f = frame{ToAct: f.ToAct[:0], Legal: f.Legal[:0], Events: f.Events[:0], buf: f.buf[:0]}
}

// errSyntax is the error of a frame that is not JSON.
var errSyntax = errors.New("the frame is not valid JSON")

// errShape is the error of a frame that is JSON with a value of the wrong
// type for its field (a string as seq, an object as legal...).
var errShape = errors.New("the frame has a value of the wrong type")

// maxDepth is the deepest nesting of arrays and objects that encoding/json
// takes.
const maxDepth = 10000

// parse reads data, a server message, into f (reset first) in one pass,
// skipping the values it does not need without decoding them. It gives
// what json.Unmarshal(data, f) would give a new frame, and an error for
// every message json.Unmarshal refuses (not JSON, or a value of the wrong
// type for its field).
func (f *frame) parse(data []byte) error {
	f.reset()
	r := frameReader{data: data, f: f}
	r.space()
	var err error
	switch r.peek() {
	case '{':
		err = r.frameObject()
	case 'n': // json.Unmarshal leaves the frame as it is
		err = r.literal("null")
	default:
		return errShape
	}
	if err != nil {
		return err
	}
	r.space()
	if r.i != len(data) {
		return errSyntax
	}
	return nil
}

// frameReader reads one message into a frame.
type frameReader struct {
	data []byte
	i    int // the next byte to read
	f    *frame
}

// peek is the next byte, 0 at the end.
func (r *frameReader) peek() byte {
	if r.i < len(r.data) {
		return r.data[r.i]
	}
	return 0
}

// space skips white space.
func (r *frameReader) space() {
	r.i = skipSpace(r.data, r.i)
}

// literal reads lit (true, false or null).
func (r *frameReader) literal(lit string) (err error) {
	r.i, err = skipLiteral(r.data, r.i, lit)
	return err
}

// open reads the '{' or '[' at r.i and the space after it; true when the
// container is empty (its close, then, read too).
func (r *frameReader) open(close byte, depth int) (empty bool, err error) {
	if depth > maxDepth {
		return false, errSyntax
	}
	r.i++
	r.space()
	if r.peek() == close {
		r.i++
		return true, nil
	}
	return false, nil
}

// next reads what follows a member or element: a comma (true; and the
// space after it) or the container's close (false).
func (r *frameReader) next(close byte) (more bool, err error) {
	if r.peek() <= ' ' {
		r.space()
	}
	switch r.peek() {
	case ',':
		r.i++
		r.space()
		return true, nil
	case close:
		r.i++
		return false, nil
	}
	return false, errSyntax
}

// fieldNone to fieldBy are the fields a key may name (fieldNone: none, a
// key to skip).
const (
	fieldNone = iota
	fieldType
	fieldSeq
	fieldStatus
	fieldToAct
	fieldLegal
	fieldEvents
	fieldCode
	fieldID
	fieldKind
	fieldN
	fieldSeat
	fieldMove
	fieldBy
)

// key reads a member's key, the colon after it and the space around, and
// says which field it names.
func (r *frameReader) key() (int, error) {
	if r.peek() != '"' {
		return 0, errSyntax
	}
	k, err := r.str()
	if err != nil {
		return 0, err
	}
	return field(k), r.colon()
}

// colon reads the colon after a member's key and the space around it.
func (r *frameReader) colon() error {
	r.space()
	if r.peek() != ':' {
		return errSyntax
	}
	r.i++
	r.space()
	return nil
}

// field says which field key names. As in encoding/json, a key names a
// field whose name is the same but for case (Unicode simple folding: "ſ"
// is an s, the Kelvin sign a k).
func field(key []byte) int {
	switch string(key) {
	case "type":
		return fieldType
	case "seq":
		return fieldSeq
	case "status":
		return fieldStatus
	case "to_act":
		return fieldToAct
	case "legal":
		return fieldLegal
	case "events":
		return fieldEvents
	case "code":
		return fieldCode
	case "id":
		return fieldID
	case "kind":
		return fieldKind
	case "n":
		return fieldN
	case "seat":
		return fieldSeat
	case "move":
		return fieldMove
	case "by":
		return fieldBy
	}
	if len(key) > 24 { // no name folds from so many bytes (3 a letter at most)
		return fieldNone
	}
	fold := false
	for _, c := range key {
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			fold = true
			break
		}
	}
	if !fold { // folding would change nothing
		return fieldNone
	}
	var buf [32]byte
	switch string(appendFolded(buf[:0], key)) {
	case "TYPE":
		return fieldType
	case "SEQ":
		return fieldSeq
	case "STATUS":
		return fieldStatus
	case "TO_ACT":
		return fieldToAct
	case "LEGAL":
		return fieldLegal
	case "EVENTS":
		return fieldEvents
	case "CODE":
		return fieldCode
	case "ID":
		return fieldID
	case "KIND":
		return fieldKind
	case "N":
		return fieldN
	case "SEAT":
		return fieldSeat
	case "MOVE":
		return fieldMove
	case "BY":
		return fieldBy
	}
	return fieldNone
}

// appendFolded appends to out the key in, folded as encoding/json folds
// keys: ASCII letters in upper case, any other rune the smallest of its
// simple fold orbit.
func appendFolded(out, in []byte) []byte {
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:])
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return out
}

// frameObject reads the message's object at r.i.
func (r *frameReader) frameObject() error {
	const depth = 1
	f := r.f
	return r.fields(depth, func(k int) error {
		switch k {
		case fieldType:
			return r.readString(&f.Type)
		case fieldSeq:
			return r.readInt(&f.Seq)
		case fieldStatus:
			return r.readString(&f.Status)
		case fieldToAct:
			return readArray(r, &f.ToAct, &f.nToAct, depth+1)
		case fieldLegal:
			return readArray(r, &f.Legal, &f.nLegal, depth+1)
		case fieldEvents:
			return readArray(r, &f.Events, &f.nEvents, depth+1)
		case fieldCode:
			return r.readString(&f.Code)
		case fieldID:
			return r.readString(&f.ID)
		}
		return r.skip(depth)
	})
}

// event reads an event's object (or null) at r.i into e, in an array at
// depth.
func (r *frameReader) event(e *event, depth int) error {
	switch r.peek() {
	case 'n': // leaves e as it is
		return r.literal("null")
	case '{':
	default:
		return errShape
	}
	depth++
	return r.fields(depth, func(k int) error {
		switch k {
		case fieldKind:
			return r.readString(&e.Kind)
		case fieldN:
			return r.readInt(&e.N)
		case fieldSeat:
			return r.readInt(&e.Seat)
		case fieldMove:
			return r.readString(&e.Move)
		case fieldBy:
			return r.readString(&e.By)
		}
		return r.skip(depth)
	})
}

// fields reads the object at r.i, at depth, calling value for each of its
// members with the member's key (field) once r.i is at its value; value
// reads or skips the value.
func (r *frameReader) fields(depth int, value func(k int) error) error {
	empty, err := r.open('}', depth)
	if empty || err != nil {
		return err
	}
	for {
		k, err := r.key()
		if err != nil {
			return err
		}
		if err := value(k); err != nil {
			return err
		}
		more, err := r.next('}')
		if !more || err != nil {
			return err
		}
	}
}

// readArray reads an array (or null) at r.i, at depth, into *s as
// encoding/json reads into a slice: element i into the slice's element i,
// as it is (the array behind it is kept, even past the slice's length, until
// null or [] makes the slice new), and the slice cut to the array's length.
// *n is s's count of elements that may be other than zero.
func readArray[T int | string | event](r *frameReader, s *[]T, n *int, depth int) error {
	switch r.peek() {
	case 'n':
		if err := r.literal("null"); err != nil {
			return err
		}
		renew(s, n)
		return nil
	case '[':
	default:
		return errShape
	}
	empty, err := r.open(']', depth)
	if err != nil {
		return err
	}
	if empty {
		renew(s, n)
		return nil
	}
	a := *s
	for i := 0; ; i++ {
		if i >= len(a) {
			var zero T
			if len(a) < cap(a) {
				a = a[:i+1]
			} else {
				a = append(a, zero)
			}
			*s = a
			*n = max(*n, len(a))
		}
		switch p := any(&a[i]).(type) {
		case *int:
			err = r.readInt(p)
		case *string:
			err = r.readString(p)
		case *event:
			err = r.event(p, depth)
		}
		if err != nil {
			return err
		}
		more, err := r.next(']')
		if err != nil {
			return err
		}
		if !more {
			*s = a[:i+1]
			return nil
		}
	}
}

// renew empties *s as if new (its elements zeroed, its room kept).
func renew[T any](s *[]T, n *int) {
	clear((*s)[:*n])
	*s, *n = (*s)[:0], 0
}

// readString reads a string (or null, which leaves *p as it is) into *p.
func (r *frameReader) readString(p *string) error {
	switch r.peek() {
	case '"':
		s, err := r.str()
		if err != nil {
			return err
		}
		*p = intern(s)
		return nil
	case 'n':
		return r.literal("null")
	}
	return errShape
}

// readInt reads an integer (or null, which leaves *p as it is) into *p.
func (r *frameReader) readInt(p *int) error {
	switch c := r.peek(); {
	case c == 'n':
		return r.literal("null")
	case c == '-' || '0' <= c && c <= '9':
	default:
		return errShape
	}
	start := r.i
	whole, err := r.number()
	if err != nil {
		return err
	}
	if !whole {
		return errShape
	}
	b := r.data[start:r.i]
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	limit := uint64(math.MaxInt)
	if neg {
		limit++
	}
	var u uint64
	for _, c := range b {
		d := uint64(c - '0')
		if u > (limit-d)/10 {
			return errShape
		}
		u = u*10 + d
	}
	v := int(u)
	if neg {
		v = -v
	}
	*p = v
	return nil
}

// number reads a number; whole says it has neither fraction nor exponent.
func (r *frameReader) number() (whole bool, err error) {
	r.i, whole, err = skipNumber(r.data, r.i)
	return whole, err
}

// skip reads a value, in a container at depth, without keeping it: its
// containers with open and next, as the fields' are read.
func (r *frameReader) skip(depth int) (err error) {
	switch c := r.peek(); c {
	case '"':
		r.i, err = skipString(r.data, r.i)
		return err
	case '{', '[':
		close := byte(']')
		if c == '{' {
			close = '}'
		}
		empty, err := r.open(close, depth+1)
		if empty || err != nil {
			return err
		}
		for {
			if close == '}' {
				if r.peek() != '"' {
					return errSyntax
				}
				if r.i, err = skipString(r.data, r.i); err != nil {
					return err
				}
				if err := r.colon(); err != nil {
					return err
				}
			}
			if err := r.skip(depth + 1); err != nil {
				return err
			}
			more, err := r.next(close)
			if !more || err != nil {
				return err
			}
		}
	case 't':
		return r.literal("true")
	case 'f':
		return r.literal("false")
	case 'n':
		return r.literal("null")
	}
	_, err = r.number()
	return err
}

// skipSpace is the index of the first byte from i in d that is not white
// space.
func skipSpace(d []byte, i int) int {
	for i < len(d) && d[i] <= ' ' && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// skipLiteral skips lit (true, false or null) at d[i:].
func skipLiteral(d []byte, i int, lit string) (int, error) {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return i, errSyntax
	}
	return i + len(lit), nil
}

// skipNumber skips the number at d[i:]; whole says it has neither fraction
// nor exponent.
func skipNumber(d []byte, i int) (_ int, whole bool, _ error) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d):
		return i, false, errSyntax
	case d[i] == '0':
		i++
	case '1' <= d[i] && d[i] <= '9':
		i++
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	default:
		return i, false, errSyntax
	}
	whole = true
	if i < len(d) && d[i] == '.' {
		whole = false
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, false, errSyntax
		}
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		whole = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, false, errSyntax
		}
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	}
	return i, whole, nil
}

// plain marks the bytes that may stand for themselves in a JSON string
// (neither a quote, a backslash nor a control character).
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// skipString skips the string at d[i:] (its opening quote).
func skipString(d []byte, i int) (int, error) {
	for i++; ; {
		for {
			if i+8 > len(d) {
				for i < len(d) && plain[d[i]] {
					i++
				}
				break
			}
			if m := specials(binary.LittleEndian.Uint64(d[i:])); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		if i >= len(d) {
			return i, errSyntax
		}
		switch d[i] {
		case '"':
			return i + 1, nil
		case '\\':
			if i+1 >= len(d) {
				return i, errSyntax
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if hex4(d[i:]) < 0 {
					return i, errSyntax
				}
				i += 6
			default:
				return i, errSyntax
			}
		default: // a control character
			return i, errSyntax
		}
	}
}

// specials marks, in the high bit of its byte, the first of the 8 bytes of
// x (little-endian) that is a quote, a backslash or a control character
// (the bits of bytes after it may be wrong); 0 if none is.
func specials(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((x-ones*0x20)&^x | (q-ones)&^q | (b-ones)&^b) & highs
}

// str reads a string and returns its text, unescaped as encoding/json
// unescapes it (bad UTF-8 and lone surrogates as U+FFFD): a part of the
// frame's data or of r.f.buf, good until the next call.
func (r *frameReader) str() ([]byte, error) {
	d := r.data
	start := r.i + 1
	for i := start; i < len(d); {
		c := d[i]
		switch {
		case c == '"':
			r.i = i + 1
			return d[start:i], nil
		case c == '\\' || c < 0x20:
			return r.unescape(start, i)
		case c < utf8.RuneSelf:
			i++
		default:
			rr, n := utf8.DecodeRune(d[i:])
			if rr == utf8.RuneError && n == 1 {
				return r.unescape(start, i)
			}
			i += n
		}
	}
	return nil, errSyntax
}

// unescape goes on with the string begun at start from i, its first byte
// to change, into r.f.buf.
func (r *frameReader) unescape(start, i int) ([]byte, error) {
	d := r.data
	b := append(r.f.buf[:0], d[start:i]...)
	defer func() { r.f.buf = b[:0] }() // its room, for the next
	for i < len(d) {
		switch c := d[i]; {
		case c == '"':
			r.i = i + 1
			return b, nil
		case c == '\\':
			if i+1 >= len(d) {
				return nil, errSyntax
			}
			switch e := d[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := hex4(d[i:])
				if rr < 0 {
					return nil, errSyntax
				}
				i += 6
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, hex4(d[i:])); dec != unicode.ReplacementChar {
						i += 6
						b = utf8.AppendRune(b, dec)
						continue
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
				continue
			default:
				return nil, errSyntax
			}
			i += 2
		case c < 0x20:
			return nil, errSyntax
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			rr, n := utf8.DecodeRune(d[i:])
			b = utf8.AppendRune(b, rr)
			i += n
		}
	}
	return nil, errSyntax
}

// hex4 is the rune of the \uXXXX that s begins with; -1 if it does not.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// internTab holds the strings read in frames lately (moves, types,
// statuses, kinds), one a slot by their hash, for intern.
var internTab [4096]atomic.Pointer[string]

// internSeed is the seed of internTab's hash.
var internSeed = maphash.MakeSeed()

// intern is b as a string, the one made before for the same text if
// internTab still has it: the same few texts (moves, types, kinds) come in
// frame after frame.
func intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 64 {
		return string(b)
	}
	e := &internTab[maphash.Bytes(internSeed, b)%uint64(len(internTab))]
	if p := e.Load(); p != nil && *p == string(b) {
		return *p
	}
	s := string(b)
	e.Store(&s)
	return s
}
