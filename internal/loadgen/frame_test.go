package loadgen

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// welcomeFrame, firstState, logFrame, ownMove and errorFrame are frames a
// parlour serve sent to the person at a table of Golf: the welcome, the
// state on connecting (to act, with legal moves), the log, the state after
// our own move, and the refusal of a move.
const (
	welcomeFrame = `{"v":1,"type":"welcome","table":"1b40bb871a03488f","game":"golf","title":"Golf","seat":1,"players":3}`
	firstState   = `{"v":1,"type":"state","table":"1b40bb871a03488f","seat":1,"seq":0,"status":"playing","to_act":[0,1,2],"legal":["reveal 0","reveal 1","reveal 2"],"view":{"seat":1,"players":3,"hole":1,"holes":9,"dealer":2,"phase":"reveal","to_act":[0,1,2],"layouts":[[null,null,null,null,null,null],[null,null,null,null,null,null],[null,null,null,null,null,null]],"chosen":[false,false,false],"my_reveal":-1,"discard":"3H","discards":1,"stock":89,"drawn":null,"holding":false,"drawn_from":"","out":-1,"hole_scores":[],"totals":[0,0,0],"over":false,"winners":[]},"result":{"deal":1,"deal_scores":[],"totals":[0,0,0],"over":false,"winners":[]},"seats":[{"seat":0,"kind":"bot","bot":"random","name":"Ada","state":"bot","level":"beginner"},{"seat":1,"kind":"human","name":"Zoë \"x\"","state":"here"},{"seat":2,"kind":"bot","bot":"random","name":"Cleo","state":"bot","level":"beginner"}],"clocks":[],"events":[]}`
	logFrame     = `{"v":1,"type":"log","table":"1b40bb871a03488f","seq":0,"events":[{"kind":"start","seat":-1,"at":"2026-11-26T21:46:59.443078701Z"}]}`
	ownMove      = `{"v":1,"type":"state","table":"1b40bb871a03488f","seat":1,"seq":13,"status":"playing","to_act":[2],"legal":[],"view":{"seat":1,"players":3,"hole":1,"holes":9,"dealer":2,"phase":"play","to_act":[2],"layouts":[[null,null,"KH","QS","QS","JK"],[null,"7C","10C",null,"JD",null],["JH","AS",null,"7H",null,null]],"chosen":[false,false,false],"my_reveal":-1,"discard":"2D","discards":6,"stock":84,"drawn":null,"holding":false,"drawn_from":"","out":-1,"hole_scores":[],"totals":[0,0,0],"over":false,"winners":[]},"result":{"deal":1,"deal_scores":[],"totals":[0,0,0],"over":false,"winners":[]},"seats":[{"seat":0,"kind":"bot","bot":"random","name":"Ada","state":"bot","level":"beginner"},{"seat":1,"kind":"human","name":"Zoë \"x\"","state":"here"},{"seat":2,"kind":"bot","bot":"random","name":"Cleo","state":"bot","level":"beginner"}],"clocks":[],"events":[{"kind":"move","n":13,"seat":1,"move":"swap 2","text":"{1} put [10C] in the top-right place and discarded [2D]","at":"2026-11-26T21:46:59.525883Z"}]}`
	errorFrame   = `{"v":1,"type":"error","code":"bad_move","message":"\"bogus\" is not a golf move (moves: reveal K, draw stock, draw discard, swap P, discard, stop)","id":"m17","move":"bogus"}`
)

// stateFrame is a state frame of Golf as a server sends it at the end of a
// hole (about 1.5 KB): a view, seats, a clock, legal moves and events.
const stateFrame = `{"v":1,"type":"state","table":"1b40bb871a03488f","seat":1,"seq":36,"status":"playing","to_act":[1],` +
	`"legal":["discard","swap 0","swap 1","swap 2","swap 3","swap 4","swap 5"],` +
	`"view":{"seat":1,"players":3,"hole":2,"holes":9,"dealer":0,"phase":"play","to_act":[1],` +
	`"layouts":[[null,"9D","KH","QS","QS","6H"],["3S","7C","10C",null,"JD","2H"],["JH","AS","4D","7H","AC",null]],` +
	`"chosen":[false,false,false],"my_reveal":-1,"discard":"JK","discards":14,"stock":71,"drawn":"KC","holding":true,` +
	`"drawn_from":"stock","out":2,"hole_scores":[[21,14,9]],"totals":[21,14,9],"over":false,"winners":[]},` +
	`"result":{"deal":2,"deal_scores":[[21,14,9]],"totals":[21,14,9],"over":false,"winners":[]},` +
	`"seats":[{"seat":0,"kind":"bot","bot":"random","name":"Ada","state":"bot","level":"beginner"},` +
	`{"seat":1,"kind":"human","name":"Zo\u00eb \"x\"","state":"here"},` +
	`{"seat":2,"kind":"bot","bot":"random","name":"Cleo","state":"bot","level":"beginner"}],` +
	`"clocks":[{"seat":1,"remaining_ms":28500},{"seat":2,"remaining_ms":30000}],` +
	`"events":[{"kind":"move","n":35,"seat":0,"move":"swap 5","text":"{0} put [6H] in the bottom-right place and discarded [JK]","by":"bot","at":"2026-11-26T21:46:59.575459Z"},` +
	`{"kind":"deal","seat":-1,"deal":1,"scores":[21,14,9],"text":"hole 1 is over: Ada 21, Zo\u00eb 14, Cleo 9; the next hole begins","at":"2026-11-26T21:46:59.575459Z"},` +
	`{"kind":"move","n":36,"seat":1,"move":"draw stock","text":"{1} drew from the stock","at":"2026-11-26T21:46:59.57579Z"}]}`

// sameFrame says how a differs from b ("" if in nothing; a nil slice is
// the same as an empty one).
func sameFrame(a, b *frame) string {
	switch {
	case a.Type != b.Type:
		return fmt.Sprintf("type %q, not %q", a.Type, b.Type)
	case a.Seq != b.Seq:
		return fmt.Sprintf("seq %d, not %d", a.Seq, b.Seq)
	case a.Status != b.Status:
		return fmt.Sprintf("status %q, not %q", a.Status, b.Status)
	case !slices.Equal(a.ToAct, b.ToAct):
		return fmt.Sprintf("to_act %v, not %v", a.ToAct, b.ToAct)
	case !slices.Equal(a.Legal, b.Legal):
		return fmt.Sprintf("legal %q, not %q", a.Legal, b.Legal)
	case !slices.Equal(a.Events, b.Events):
		return fmt.Sprintf("events %+v, not %+v", a.Events, b.Events)
	case a.Code != b.Code:
		return fmt.Sprintf("code %q, not %q", a.Code, b.Code)
	case a.ID != b.ID:
		return fmt.Sprintf("id %q, not %q", a.ID, b.ID)
	}
	return ""
}

// checkFrame reads data with frame.parse, into a new frame and into one
// that read other frames before, and with json.Unmarshal, and fails t
// unless the three agree: the same frame, or all an error. It returns the
// frame read and parse's error.
func checkFrame(t *testing.T, data []byte, used *frame) (frame, error) {
	t.Helper()
	var want frame
	jerr := json.Unmarshal(data, &want)
	var got frame
	err := got.parse(data)
	uerr := used.parse(data)
	switch {
	case jerr != nil && err == nil:
		t.Fatalf("parse(%q) took what json.Unmarshal refuses (%v): %+v", data, jerr, got)
	case jerr == nil && err != nil:
		t.Fatalf("parse(%q): %v; json.Unmarshal reads %+v", data, err, want)
	case (err == nil) != (uerr == nil):
		t.Fatalf("parse(%q) into a used frame: %v, into a new one: %v", data, uerr, err)
	case err != nil:
		return got, err
	}
	if d := sameFrame(&got, &want); d != "" {
		t.Fatalf("parse(%q): %s (json.Unmarshal)", data, d)
	}
	if d := sameFrame(used, &want); d != "" {
		t.Fatalf("parse(%q) into a used frame: %s (json.Unmarshal)", data, d)
	}
	return got, nil
}

// TestFrame reads real and made-up frames, well formed and not, and checks
// what parse reads (and that json.Unmarshal agrees).
func TestFrame(t *testing.T) {
	var used frame
	if err := used.parse([]byte(stateFrame)); err != nil {
		t.Fatal(err)
	}
	deep := func(n int) string {
		return `{"v":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `,"type":"deep"}`
	}
	for _, c := range []struct {
		name, data string
		want       frame // ignored when bad
		bad        bool
	}{
		{name: "welcome", data: welcomeFrame, want: frame{Type: "welcome"}},
		{name: "first state", data: firstState, want: frame{Type: "state", Status: "playing", ToAct: []int{0, 1, 2},
			Legal: []string{"reveal 0", "reveal 1", "reveal 2"}}},
		{name: "log", data: logFrame, want: frame{Type: "log", Events: []event{{Kind: "start", Seat: -1}}}},
		{name: "own move", data: ownMove, want: frame{Type: "state", Seq: 13, Status: "playing", ToAct: []int{2},
			Events: []event{{Kind: "move", N: 13, Seat: 1, Move: "swap 2"}}}},
		{name: "error", data: errorFrame, want: frame{Type: "error", Code: "bad_move", ID: "m17"}},
		{name: "end of a hole", data: stateFrame, want: frame{Type: "state", Seq: 36, Status: "playing", ToAct: []int{1},
			Legal: []string{"discard", "swap 0", "swap 1", "swap 2", "swap 3", "swap 4", "swap 5"},
			Events: []event{{Kind: "move", N: 35, Seat: 0, Move: "swap 5", By: "bot"}, {Kind: "deal", Seat: -1},
				{Kind: "move", N: 36, Seat: 1, Move: "draw stock"}}}},
		{name: "over", data: `{"v":1,"type":"state","seq":90,"status":"over","to_act":[],"legal":[],"events":[{"kind":"move","n":90,"seat":2,"move":"swap 1","by":"bot"},{"kind":"over","seat":-1}]}`,
			want: frame{Type: "state", Seq: 90, Status: "over", ToAct: []int{},
				Events: []event{{Kind: "move", N: 90, Seat: 2, Move: "swap 1", By: "bot"}, {Kind: "over", Seat: -1}}}},
		{name: "white space", data: " \r\n\t{ \"type\" : \"state\" , \"seq\"\t:\n7 ,\"legal\" : [ \"a\" , \"b\" ] , \"to_act\":[ ] } \n",
			want: frame{Type: "state", Seq: 7, Legal: []string{"a", "b"}}},
		{name: "escapes", data: `{"legal":["play \"K\\D\"","a\/b","\u00e9t\u00C9","\ud83c\udca1 ace","\n\t\r\b\f","caf\u00e9 \u0000"]}`,
			want: frame{Legal: []string{`play "K\D"`, "a/b", "étÉ", "🂡 ace", "\n\t\r\b\f", "café \x00"}}},
		{name: "lone surrogates", data: `{"legal":["\ud83c","\udca1x","\ud83c\u0041","\ud83c\ud83c\udca1"]}`,
			want: frame{Legal: []string{"\uFFFD", "\uFFFDx", "\uFFFDA", "\uFFFD🂡"}}},
		{name: "bad UTF-8", data: "{\"legal\":[\"a\xffb\",\"\xe2\x82\",\"ok é\"]}",
			want: frame{Legal: []string{"a\uFFFDb", "\uFFFD\uFFFD", "ok é"}}},
		{name: "keys in other cases", data: `{"TYPE":"state","Seq":3,"ſtatus":"over","\u0074o_act":[1],"eVents":[{"\u212Aind":"move","N":2,"SEAT":1}],"Id":"x"}`,
			want: frame{Type: "state", Seq: 3, Status: "over", ToAct: []int{1}, Events: []event{{Kind: "move", N: 2, Seat: 1}}, ID: "x"}},
		{name: "keys not ours", data: `{"types":"x","typ":"y","Type ":"z","v":{"type":"inner"},"seats":[{"seat":9}]}`},
		{name: "nulls", data: `{"type":null,"seq":null,"to_act":null,"legal":[null,"a"],"events":[null,{"kind":null,"n":null}]}`,
			want: frame{Legal: []string{"", "a"}, Events: []event{{}, {}}}},
		{name: "top-level null", data: ` null `},
		{name: "numbers", data: `{"seq":-0,"to_act":[-9223372036854775808,9223372036854775807],"v":[1.5e+3,-0.0,0E1,1e-7]}`,
			want: frame{ToAct: []int{-9223372036854775808, 9223372036854775807}}},
		{name: "keys again", data: `{"type":"a","type":"b","seq":1,"seq":2,"legal":["x","y"],"legal":["z"],"events":[{"n":1,"kind":"move"}],"events":[{"seat":3}]}`,
			want: frame{Type: "b", Seq: 2, Legal: []string{"z"}, Events: []event{{Kind: "move", N: 1, Seat: 3}}}},
		{name: "legal again, longer", data: `{"legal":["x","y"],"legal":["z"],"legal":[null,null]}`,
			want: frame{Legal: []string{"z", "y"}}},
		{name: "legal again after []", data: `{"legal":["x","y"],"legal":[],"legal":[null,null]}`,
			want: frame{Legal: []string{"", ""}}},
		{name: "events again after null", data: `{"events":[{"n":1}],"events":null,"events":[{"seat":2}]}`,
			want: frame{Events: []event{{Seat: 2}}}},
		{name: "deep", data: deep(maxDepth - 1), want: frame{Type: "deep"}},

		{name: "too deep", data: deep(maxDepth), bad: true},
		{name: "empty", data: ``, bad: true},
		{name: "cut", data: firstState[:len(firstState)-1], bad: true},
		{name: "cut in a string", data: `{"type":"sta`, bad: true},
		{name: "two values", data: `{"type":"state"}{}`, bad: true},
		{name: "trailing comma", data: `{"type":"state",}`, bad: true},
		{name: "trailing comma in an array", data: `{"to_act":[1,]}`, bad: true},
		{name: "trailing comma skipped", data: `{"v":[1,],"type":"state"}`, bad: true},
		{name: "no colon", data: `{"type" "state"}`, bad: true},
		{name: "single quotes", data: `{'type':'state'}`, bad: true},
		{name: "bad escape", data: `{"legal":["\x41"]}`, bad: true},
		{name: "bad escape skipped", data: `{"v":"\'","type":"state"}`, bad: true},
		{name: "short \\u", data: `{"legal":["\u12"]}`, bad: true},
		{name: "control character", data: "{\"legal\":[\"a\tb\"]}", bad: true},
		{name: "control character skipped", data: "{\"text\":\"a\nb\"}", bad: true},
		{name: "leading zero", data: `{"seq":01}`, bad: true},
		{name: "leading zero skipped", data: `{"v":-01}`, bad: true},
		{name: "bare minus", data: `{"v":-}`, bad: true},
		{name: "bad literal", data: `{"v":nul}`, bad: true},
		{name: "capital literal", data: `{"v":True}`, bad: true},
		{name: "not an object", data: `["state"]`, bad: true},
		{name: "string as seq", data: `{"seq":"5"}`, bad: true},
		{name: "fraction as seq", data: `{"seq":1.0}`, bad: true},
		{name: "exponent as seat", data: `{"events":[{"seat":1e2}]}`, bad: true},
		{name: "int too big", data: `{"to_act":[9223372036854775808]}`, bad: true},
		{name: "int too small", data: `{"seq":-9223372036854775809}`, bad: true},
		{name: "string as legal", data: `{"legal":"swap 1"}`, bad: true},
		{name: "number in legal", data: `{"legal":["a",1]}`, bad: true},
		{name: "object as type", data: `{"type":{}}`, bad: true},
		{name: "array as event", data: `{"events":[[]]}`, bad: true},
		{name: "true as code", data: `{"code":true}`, bad: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := checkFrame(t, []byte(c.data), &used)
			switch {
			case c.bad && err == nil:
				t.Fatalf("parse(%q) = %+v, want an error", c.data, got)
			case c.bad:
				return
			case err != nil:
				t.Fatalf("parse(%q): %v", c.data, err)
			}
			if d := sameFrame(&got, &c.want); d != "" {
				t.Errorf("parse(%q): %s", c.data, d)
			}
		})
	}
}

// TestFrameReuse reads frames one after another into the same frame, as
// a connection does, and checks that each reads as into a new frame.
func TestFrameReuse(t *testing.T) {
	var f frame
	for i, s := range []string{stateFrame, logFrame, `{"legal":[null,null,null],"to_act":[null,null],"events":[null,null,null,{}]}`,
		firstState, errorFrame, ownMove, `{"events":[{"kind":"x"}]}`, stateFrame, welcomeFrame} {
		var want frame
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatal(err)
		}
		if err := f.parse([]byte(s)); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if d := sameFrame(&f, &want); d != "" {
			t.Errorf("frame %d: %s", i, d)
		}
	}
}

// FuzzFrame checks frame.parse against encoding/json: whenever
// json.Unmarshal reads a frame, parse must read the same (into a new frame
// and into a used one), and it must refuse what json.Unmarshal refuses.
func FuzzFrame(f *testing.F) {
	for _, s := range []string{welcomeFrame, firstState, logFrame, ownMove, errorFrame, stateFrame,
		`{"legal":["play \"K\\D\"","a\/b","\u00e9","\ud83c\udca1","\ud83c","\n"],"SEQ":1,"ſeq":2,"\u212Aind":3}`,
		`{"events":[{"n":1}],"events":null,"events":[{"seat":2}],"legal":["x","y"],"legal":["z"],"legal":[null,null]}`,
		`{"seq":-0,"to_act":[-9223372036854775808],"v":[1.5e+3,-0.0,0E1,true,false,null,{}]}`,
		"{\"legal\":[\"a\xffb\"]}", ` null `, `{"seq":1.0}`,
	} {
		f.Add([]byte(s))
	}
	var used frame
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFrame(t, data, &used)
	})
}

// TestMoveMessage checks moveMessage against json.Marshal.
func TestMoveMessage(t *testing.T) {
	for _, mv := range []string{"swap 3", "draw stock", "", "play KD", `say "hi"`, `a\b`, "<b>&", "café", "tab\there", "\x7f", "\xff"} {
		for _, id := range []string{"m1", "m18446744073709551615", "<id>"} {
			want, err := json.Marshal(moveMsg{V: 1, Type: "move", Move: mv, ID: id})
			if err != nil {
				t.Fatal(err)
			}
			if got := moveMessage(mv, id); string(got) != string(want) {
				t.Errorf("moveMessage(%q, %q) = %s, want %s", mv, id, got, want)
			}
		}
	}
}

// BenchmarkFrame reads a state frame of about 1.5 KB.
func BenchmarkFrame(b *testing.B) {
	data := []byte(stateFrame)
	var f frame
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := f.parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
