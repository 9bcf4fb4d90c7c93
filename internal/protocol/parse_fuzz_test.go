package protocol_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"parlour/internal/protocol"
)

// FuzzParseClient fuzzes the reader of client messages: no input panics;
// a refusal is an error frame with a code and a reason; an accepted
// message speaks this protocol version and reads back the same after
// encoding.
func FuzzParseClient(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"type":"hello","token":"abc"}`,
		`{"v":1,"type":"hello","spectate":true}`,
		`{"v":1,"type":"move","id":"7","move":"1: draw stock"}`,
		`{"v":1,"type":"move","move":"play 10H","seat":2}`,
		`{"v":1,"type":"sync"}`,
		`{"v":2,"type":"sync"}`,
		`{"v":1}{"v":1}`,
		`[1,2]`, `null`, `"hello"`, ``, `{`, `{"v":1,"seat":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, refusal := protocol.ParseClient(data)
		if refusal != nil {
			frame := refusal.JSON()
			var e protocol.Error
			if err := json.Unmarshal(frame, &e); err != nil {
				t.Fatalf("refusal %q is not JSON: %v", frame, err)
			}
			if e.Type != protocol.TypeError || e.Code == "" || e.Message == "" || e.V != protocol.Version {
				t.Fatalf("refusal %q lacks a type, code, reason or version", frame)
			}
			return
		}
		if msg.V != protocol.Version {
			t.Fatalf("%q accepted with version %d", data, msg.V)
		}
		b, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		back, refusal := protocol.ParseClient(b)
		if refusal != nil || !reflect.DeepEqual(back, msg) {
			t.Fatalf("%q parsed to %+v, encoded %s, read back %+v (%+v)", data, msg, b, back, refusal)
		}
	})
}
