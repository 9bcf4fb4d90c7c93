package protocol

import (
	"encoding/json"
	"reflect"
	"testing"
)

// compactSeeds are client messages in and out of parseCompact's shape.
var compactSeeds = []string{
	`{"v":1,"type":"move","id":"7","move":"1: draw stock"}`,
	`{"v":1,"type":"move","move":"play 10H","seat":2}`,
	`{"v":1,"type":"hello","token":"abc","spectate":true}`,
	`{"v":1,"type":"chat","text":"héllo"}`,
	`{"v":1,"type":"sync"}`, `{"v":-0}`, `{}`,
	// encoding/json's to read:
	`{"v":1, "type":"sync"}`, `{"V":1}`, `{"v":1,"v":2}`, `{"v":1,}`, `{"v":01}`,
	`{"v":1.0}`, `{"v":1e0}`, `{"v":"1"}`, `{"seat":null}`, `{"move":"a\"b"}`,
	`{"text":"a\u00e9"}`, "{\"text\":\"\xff\"}", `{"spectate":truex}`, `{"v":1234567890}`,
	`{"other":1}`, `{"v":1}{"v":1}`, `[1]`, `{`, ``,
}

// TestParseCompact checks which messages the compact reader takes, and
// that ParseClient reads every one as encoding/json does.
func TestParseCompact(t *testing.T) {
	for i, s := range compactSeeds {
		_, ok := parseCompact([]byte(s))
		if want := i < 7; ok != want {
			t.Errorf("parseCompact(%s): taken %v, want %v", s, ok, want)
		}
		got, refusal := ParseClient([]byte(s))
		var want ClientMessage
		err := json.Unmarshal([]byte(s), &want)
		switch {
		case err != nil && refusal == nil:
			t.Errorf("ParseClient(%s) took what encoding/json refuses (%v)", s, err)
		case err == nil && want.V == Version && (refusal != nil || !reflect.DeepEqual(got, want)):
			t.Errorf("ParseClient(%s) = %+v, %v; encoding/json reads %+v", s, got, refusal, want)
		}
	}
}

// FuzzParseCompact checks that whatever the compact reader takes,
// encoding/json reads the same way.
func FuzzParseCompact(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := parseCompact(data)
		if !ok {
			return
		}
		var want ClientMessage
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("parseCompact took %q, which encoding/json refuses: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("parseCompact(%q) = %+v; encoding/json reads %+v", data, got, want)
		}
	})
}

// BenchmarkParseClient reads a move as a browser sends it: by the compact
// reader, and by encoding/json (a space after a comma sends it there).
func BenchmarkParseClient(b *testing.B) {
	for _, c := range []struct{ name, msg string }{
		{"compact", `{"v":1,"type":"move","id":"42","move":"1: draw stock"}`},
		{"json", `{"v":1, "type":"move","id":"42","move":"1: draw stock"}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := []byte(c.msg)
			b.ReportAllocs()
			for b.Loop() {
				if _, refusal := ParseClient(data); refusal != nil {
					b.Fatal(refusal.Message)
				}
			}
		})
	}
}
