package protocol_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/card"
	"parlour/internal/protocol"
)

// apiTS is the browser's copy of the wire types, checked against them.
const apiTS = "../../web/src/api.ts"

// tsWire names the Go wire type each interface of api.ts copies.
var tsWire = map[string]reflect.Type{
	"OptionInfo":     reflect.TypeFor[protocol.OptionInfo](),
	"GameInfo":       reflect.TypeFor[protocol.GameInfo](),
	"SeatInfo":       reflect.TypeFor[protocol.SeatInfo](),
	"Result":         reflect.TypeFor[protocol.Result](),
	"TableInfo":      reflect.TypeFor[protocol.TableInfo](),
	"LobbyTables":    reflect.TypeFor[protocol.LobbyTables](),
	"Joined":         reflect.TypeFor[protocol.JoinResult](),
	"Event":          reflect.TypeFor[protocol.Event](),
	"Clock":          reflect.TypeFor[protocol.Clock](),
	"ChatMsg":        reflect.TypeFor[protocol.Chat](),
	"StateMsg":       reflect.TypeFor[protocol.State](),
	"DealEnd":        reflect.TypeFor[protocol.DealEnd](),
	"ReplayMove":     reflect.TypeFor[protocol.ReplayMove](),
	"Replay":         reflect.TypeFor[protocol.Replay](),
	"PlaceInfo":      reflect.TypeFor[protocol.PlaceInfo](),
	"ReplayStep":     reflect.TypeFor[protocol.ReplayStep](),
	"AnalysisStatus": reflect.TypeFor[protocol.AnalysisStatus](),
}

// tsNotWire are the interfaces of api.ts that copy no type of this
// package, and why.
var tsNotWire = map[string]string{
	"Held": "a seat token kept in the browser's storage, never sent",
	// The report of an analysis is package analysis's, in the format
	// shared/spec/analysis.md fixes (checked by that package's tests).
	"AnalysisReport":      "package analysis's Report",
	"AnalysisDecision":    "package analysis's Decision",
	"AnalysisAlternative": "package analysis's Alternative",
	"AnalysisSeat":        "package analysis's SeatSummary",
}

// TestAPITypes checks web/src/api.ts, field by field, against the wire
// types it copies: the same JSON names; a field optional ("?") exactly
// when the server leaves it out when empty (omitempty); a type that
// holds what the server sends (string, number, boolean, lists, records,
// the interfaces of other wire types, null where a pointer may be nil).
// Every interface of api.ts is checked or said not to be a wire type.
func TestAPITypes(t *testing.T) {
	src, err := os.ReadFile(apiTS)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parseTS(string(src))
	if err != nil {
		t.Fatalf("%s: %v", apiTS, err)
	}
	c := &tsCheck{file: f}
	for name, fields := range f.interfaces {
		goT, ok := tsWire[name]
		if !ok {
			if _, ok := tsNotWire[name]; !ok {
				t.Errorf("%s: interface %s is neither checked against a Go wire type (tsWire) nor said not to be one (tsNotWire)", apiTS, name)
			}
			continue
		}
		c.object(goT, fields, name)
	}
	for name := range tsWire {
		if _, ok := f.interfaces[name]; !ok {
			t.Errorf("%s has no interface %s (the copy of %v)", apiTS, name, tsWire[name])
		}
	}
	slices.Sort(c.errs)
	for _, e := range c.errs {
		t.Errorf("%s: %s", apiTS, e)
	}
}

// TestAPITypesChecker checks that the check finds each kind of drift.
func TestAPITypesChecker(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type wire struct {
		A string         `json:"a"`
		B int            `json:"b,omitempty"`
		C []inner        `json:"c"`
		D *inner         `json:"d"`
		E map[int]bool   `json:"e"`
		F time.Time      `json:"f"`
		G card.Card      `json:"g"`
		H any            `json:"h"`
		I map[string]any `json:"i"`
	}
	good := `{ a: "x" | "y"; b?: number; c: { n: number }[]; d: { n: number } | null;
		e: Record<string, boolean>; f: string; g: Card; h: any; i: Record<string, any> }`
	for _, c := range []struct {
		ts   string
		errs int
	}{
		{good, 0},
		{strings.Replace(good, "b?: number", "b: number", 1), 1},                  // omitempty but required
		{strings.Replace(good, "a: ", "a?: ", 1), 1},                              // always sent but optional
		{strings.Replace(good, "b?: number;", "", 1), 1},                          // a field left out
		{strings.Replace(good, "i: Record", "z: number; i: Record", 1), 1},        // a field the server never sends
		{strings.Replace(good, "| null", "", 1), 1},                               // a nil pointer sent as null
		{strings.Replace(good, "e: Record<string, boolean>", "e: boolean", 1), 1}, // the wrong type
		{strings.Replace(good, "{ n: number }[]", "{ m: number }[]", 1), 2},       // a nested field renamed
		{strings.Replace(good, "f: string", "f: number", 1), 1},
	} {
		f, err := parseTS("export type Card = string | null;\nexport interface W " + c.ts)
		if err != nil {
			t.Fatalf("%s: %v", c.ts, err)
		}
		chk := &tsCheck{file: f}
		chk.object(reflect.TypeFor[wire](), f.interfaces["W"], "W")
		if len(chk.errs) != c.errs {
			t.Errorf("%s: %d errors %q, want %d", c.ts, len(chk.errs), chk.errs, c.errs)
		}
	}
}

// A tsType is a TypeScript type as api.ts spells it.
type tsType struct {
	kind   string    // "name", "literal", "array", "record", "object" or "union"
	name   string    // a name's identifier, a literal's text
	elem   *tsType   // an array's element, a record's value
	key    *tsType   // a record's key
	alts   []*tsType // a union's alternatives
	fields []tsField // an object's fields
}

func (t *tsType) String() string {
	switch t.kind {
	case "name":
		return t.name
	case "literal":
		return fmt.Sprintf("%q", t.name)
	case "array":
		return t.elem.String() + "[]"
	case "record":
		return "Record<" + t.key.String() + ", " + t.elem.String() + ">"
	case "union":
		var s []string
		for _, a := range t.alts {
			s = append(s, a.String())
		}
		return strings.Join(s, " | ")
	}
	return "{...}"
}

// A tsField is one field of an interface or object type.
type tsField struct {
	name     string
	optional bool
	typ      *tsType
}

// tsFile is what api.ts declares: its interfaces and type aliases.
type tsFile struct {
	interfaces map[string][]tsField
	aliases    map[string]*tsType
}

var (
	tsInterface = regexp.MustCompile(`(?m)^export interface (\w+)\s*\{`)
	tsAlias     = regexp.MustCompile(`(?m)^export type (\w+)\s*=`)
	tsMember    = regexp.MustCompile(`(?s)^(\w+)(\?)?\s*:\s*(.+)$`)
	tsIdent     = regexp.MustCompile(`^[A-Za-z_]\w*$`)
)

// parseTS reads the interfaces and type aliases a TypeScript file
// exports (the forms api.ts uses).
func parseTS(src string) (*tsFile, error) {
	src = stripComments(src)
	f := &tsFile{interfaces: map[string][]tsField{}, aliases: map[string]*tsType{}}
	for _, m := range tsInterface.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[2]:m[3]]
		open := m[1] - 1
		end := closing(src, open)
		if end < 0 {
			return nil, fmt.Errorf("interface %s: no closing brace", name)
		}
		fields, err := parseMembers(src[open+1 : end])
		if err != nil {
			return nil, fmt.Errorf("interface %s: %w", name, err)
		}
		f.interfaces[name] = fields
	}
	for _, m := range tsAlias.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[2]:m[3]]
		rest := src[m[1]:]
		end := topLevel(rest, ';')
		if len(end) == 0 {
			return nil, fmt.Errorf("type %s: no closing semicolon", name)
		}
		typ, err := parseType(rest[:end[0]])
		if err != nil {
			return nil, fmt.Errorf("type %s: %w", name, err)
		}
		f.aliases[name] = typ
	}
	return f, nil
}

// stripComments removes the // comments, outside string literals.
func stripComments(src string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(src); i++ {
		ch := src[i]
		switch {
		case quote != 0:
			if ch == '\\' && i+1 < len(src) {
				b.WriteByte(ch)
				i++
				ch = src[i]
			} else if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'' || ch == '`':
			quote = ch
		case ch == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			if i < len(src) {
				b.WriteByte('\n')
			}
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// closing returns the index of the bracket closing the one at open, -1 if
// none does.
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{', '(', '<', '[':
			depth++
		case '}', ')', '>', ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// topLevel returns the indexes of sep in s outside brackets and quotes.
func topLevel(s string, seps ...byte) []int {
	var out []int
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case strings.IndexByte("{(<[", ch) >= 0:
			depth++
		case strings.IndexByte("})>]", ch) >= 0:
			depth--
		case depth == 0 && slices.Contains(seps, ch):
			out = append(out, i)
		}
	}
	return out
}

// split cuts s at its top-level separators.
func split(s string, seps ...byte) []string {
	var out []string
	from := 0
	for _, i := range topLevel(s, seps...) {
		out = append(out, s[from:i])
		from = i + 1
	}
	return append(out, s[from:])
}

// parseMembers reads the fields of an interface or object type's body.
func parseMembers(body string) ([]tsField, error) {
	var out []tsField
	for _, m := range split(body, ';', '\n', ',') {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		p := tsMember.FindStringSubmatch(m)
		if p == nil {
			return nil, fmt.Errorf("member %q is not NAME: TYPE", m)
		}
		typ, err := parseType(p[3])
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", p[1], err)
		}
		out = append(out, tsField{name: p[1], optional: p[2] == "?", typ: typ})
	}
	return out, nil
}

// parseType reads a type expression.
func parseType(s string) (*tsType, error) {
	s = strings.TrimSpace(s)
	if alts := split(s, '|'); len(alts) > 1 {
		u := &tsType{kind: "union"}
		for _, a := range alts {
			if strings.TrimSpace(a) == "" {
				continue // a leading "|"
			}
			t, err := parseType(a)
			if err != nil {
				return nil, err
			}
			u.alts = append(u.alts, t)
		}
		return u, nil
	}
	switch {
	case strings.HasSuffix(s, "[]"):
		elem, err := parseType(s[:len(s)-2])
		return &tsType{kind: "array", elem: elem}, err
	case strings.HasPrefix(s, "(") && closing(s, 0) == len(s)-1:
		return parseType(s[1 : len(s)-1])
	case strings.HasPrefix(s, "{") && closing(s, 0) == len(s)-1:
		fields, err := parseMembers(s[1 : len(s)-1])
		return &tsType{kind: "object", fields: fields}, err
	case strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) && len(s) >= 2:
		return &tsType{kind: "literal", name: s[1 : len(s)-1]}, nil
	case strings.HasPrefix(s, "Array<") && closing(s, 5) == len(s)-1:
		elem, err := parseType(s[6 : len(s)-1])
		return &tsType{kind: "array", elem: elem}, err
	case strings.HasPrefix(s, "Record<") && closing(s, 6) == len(s)-1:
		args := split(s[7:len(s)-1], ',')
		if len(args) != 2 {
			return nil, fmt.Errorf("%s: a Record takes two types", s)
		}
		key, err := parseType(args[0])
		if err != nil {
			return nil, err
		}
		val, err := parseType(args[1])
		return &tsType{kind: "record", key: key, elem: val}, err
	case tsIdent.MatchString(s):
		return &tsType{kind: "name", name: s}, nil
	}
	return nil, fmt.Errorf("type %q is not one this check reads", s)
}

// tsCheck compares api.ts's types with the Go wire types, gathering the
// differences.
type tsCheck struct {
	file *tsFile
	errs []string
}

func (c *tsCheck) fail(path, format string, args ...any) {
	c.errs = append(c.errs, path+": "+fmt.Sprintf(format, args...))
}

// jsonField is one field of a Go struct as encoding/json writes it.
type jsonField struct {
	name      string
	omitempty bool
	typ       reflect.Type
	goName    string
}

// jsonFields returns the fields of struct type t as encoding/json sees
// them (embedded structs' fields included).
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, omitempty: slices.Contains(strings.Split(opts, ","), "omitempty"), typ: f.Type, goName: t.Name() + "." + f.Name})
	}
	return out
}

// object compares the fields of Go struct type goT with fields.
func (c *tsCheck) object(goT reflect.Type, fields []tsField, path string) {
	ts := map[string]tsField{}
	for _, f := range fields {
		ts[f.name] = f
	}
	for _, g := range jsonFields(goT) {
		p := path + "." + g.name
		f, ok := ts[g.name]
		if !ok {
			c.fail(p, "missing (%s sends it)", g.goName)
			continue
		}
		delete(ts, g.name)
		switch {
		case g.omitempty && !f.optional:
			c.fail(p, "not optional, but %s leaves it out when empty (omitempty): write %s?", g.goName, g.name)
		case !g.omitempty && f.optional:
			c.fail(p, "optional, but %s always sends it: write %s without ?", g.goName, g.name)
		}
		c.value(g.typ, f.typ, p, g.omitempty)
	}
	for name := range ts {
		c.fail(path+"."+name, "%v sends no such field", goT)
	}
}

var (
	timeType = reflect.TypeFor[time.Time]()
	cardType = reflect.TypeFor[card.Card]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

// value compares a Go type with the TypeScript type of the same value.
// omitempty says the value is left out rather than sent as null when nil.
func (c *tsCheck) value(goT reflect.Type, ts *tsType, path string, omitempty bool) {
	ts = c.resolve(ts)
	if ts.kind == "union" {
		var rest []*tsType
		null := false
		for _, a := range ts.alts {
			a = c.resolve(a)
			if a.kind == "name" && a.name == "null" {
				null = true
				continue
			}
			rest = append(rest, a)
		}
		nilable := goT.Kind() == reflect.Pointer
		switch {
		case nilable && !omitempty && !null:
			c.fail(path, "%v may be nil, sent as null: write %v | null", goT, ts)
		case null && !nilable && goT != cardType:
			c.fail(path, "%v is never null, but the type allows it (%v)", goT, ts)
		}
		if nilable {
			goT = goT.Elem()
		}
		literals := true
		for _, a := range rest {
			literals = literals && a.kind == "literal"
		}
		switch {
		case len(rest) == 1:
			c.value(goT, rest[0], path, omitempty)
		case len(rest) > 1 && literals:
			if goT.Kind() != reflect.String {
				c.fail(path, "a union of strings for %v", goT)
			}
		default:
			c.fail(path, "the union %v does not match %v", ts, goT)
		}
		return
	}
	want := func(names ...string) {
		if ts.kind != "name" || !slices.Contains(names, ts.name) {
			c.fail(path, "%v, but %v is sent as %s", ts, goT, strings.Join(names, " or "))
		}
	}
	switch {
	case goT == timeType:
		want("string")
		return
	case goT == cardType:
		want("string")
		return
	case goT == rawType:
		// JSON the server passes on whole: any, or an interface of api.ts
		// that copies a type of another package (tsNotWire says which).
		if ts.kind != "name" || tsNotWire[ts.name] == "" {
			want("any", "unknown")
		}
		return
	}
	switch goT.Kind() {
	case reflect.String:
		if ts.kind != "literal" {
			want("string")
		}
	case reflect.Bool:
		want("boolean")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		want("number")
	case reflect.Interface:
		want("any", "unknown")
	case reflect.Pointer:
		if !omitempty {
			c.fail(path, "%v may be nil, sent as null: write %v | null", goT, ts)
		}
		c.value(goT.Elem(), ts, path, omitempty)
	case reflect.Slice, reflect.Array:
		if ts.kind != "array" {
			c.fail(path, "%v, but %v is sent as a list", ts, goT)
			return
		}
		c.value(goT.Elem(), ts.elem, path+"[]", false)
	case reflect.Map:
		if ts.kind != "record" {
			c.fail(path, "%v, but %v is sent as an object", ts, goT)
			return
		}
		if k := c.resolve(ts.key); k.kind != "name" || (k.name != "string" && k.name != "number") {
			c.fail(path, "a record keyed by %v", k)
		}
		c.value(goT.Elem(), ts.elem, path+"{}", false)
	case reflect.Struct:
		switch ts.kind {
		case "object":
			c.object(goT, ts.fields, path)
		case "name":
			if wire, ok := tsWire[ts.name]; !ok || wire != goT {
				c.fail(path, "%s, but %v is sent (%s copies %v)", ts.name, goT, ts.name, wire)
			}
		default:
			c.fail(path, "%v, but %v is sent as an object", ts, goT)
		}
	default:
		c.fail(path, "%v is no type of the wire", goT)
	}
}

// resolve follows a type alias of the file.
func (c *tsCheck) resolve(t *tsType) *tsType {
	for i := 0; t.kind == "name" && i < 10; i++ {
		a, ok := c.file.aliases[t.name]
		if !ok {
			break
		}
		t = a
	}
	return t
}
