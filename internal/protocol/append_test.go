package protocol

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"parlour/game"
)

// plainView is a view without AppendJSON: encoding/json writes it.
type plainView struct {
	Cards []string `json:"cards"`
	Note  string   `json:"note,omitempty"`
}

// ownView appends its own JSON (other than encoding/json's, to tell
// which wrote it).
type ownView struct {
	N int `json:"n"`
}

func (v ownView) AppendJSON(b []byte) []byte {
	b = append(b, `{"own":`...)
	b = append(b, byte('0'+v.N))
	return append(b, '}')
}

// TestAppendState checks AppendState against json.Marshal: nil and empty
// lists, every omitted field present and absent, strings that need
// escapes, and views with and without AppendJSON.
func TestAppendState(t *testing.T) {
	at := time.Date(2026, 11, 27, 7, 41, 5, 123456000, time.UTC)
	odd := "a\"b\\c<d>e&f\u2028g\u2029h\x01\b\f\n\r\t\xffé🂡"
	states := []State{
		{},
		{V: Version, Type: TypeState, Table: "t1", Seat: -1, Seq: 0, Status: "waiting",
			ToAct: []int{}, Legal: []string{}, View: nil, Result: ResultOf(game.Result{}),
			Seats: []SeatInfo{}, Clocks: []Clock{}, Events: []Event{}},
		{V: Version, Type: TypeState, Table: odd, Seat: 2, Seq: 41, Status: "playing",
			ToAct: []int{0, 2}, Legal: []string{"draw stock", odd}, View: plainView{Cards: []string{"7H", odd}},
			Result: Result{Deal: 3, DealScores: [][]int{{1, -2}, nil, {}}, Totals: []int{5, 6}, Over: true, Winners: []int{1}},
			Seats:  []SeatInfo{{Seat: 0, Kind: "human", Name: odd, State: "here"}, {Seat: 1, Kind: "bot", Bot: "random", Name: "Ada", State: "bot", Level: "easy"}},
			Clocks: []Clock{{Seat: 2, RemainingMS: 1234567890123}},
			Events: []Event{
				{Kind: EventMove, N: 41, Seat: 2, Move: "swap 3", Text: odd, By: "bot", At: at},
				{Kind: EventMove, Seat: 1, Hidden: true, Text: "{1} drew", At: at.In(time.FixedZone("x", 5*3600+30*60))},
				{Kind: "deal", Deal: 2, Scores: []int{3, -4}, At: time.Time{}},
				{Kind: "deal", Scores: []int{}, At: at},
			}},
		{Type: "state", Result: Result{DealScores: [][]int{}}},
		{Type: "state", View: map[string]any{"b": 1, "a": []any{nil, true, "x"}}},
		{Type: "state", DealEnd: &DealEnd{Deal: 2, Scores: []int{3, -1}, Totals: []int{7, 0}, View: json.RawMessage(`{"layouts": [["7H", null]], "note": "` + "\\u00e9" + `"}`)}},
		{Type: "state", DealEnd: &DealEnd{}},
	}
	for i, st := range states {
		want, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendState([]byte("prefix"), &st)
		if err != nil {
			t.Fatalf("state %d: %v", i, err)
		}
		if !bytes.HasPrefix(got, []byte("prefix")) || !bytes.Equal(got[len("prefix"):], want) {
			t.Errorf("state %d:\n got %s\nwant %s", i, got, want)
		}
	}

	// A view with AppendJSON writes itself.
	own := State{Type: "state", View: ownView{N: 7}}
	if got, err := AppendState(nil, &own); err != nil || !bytes.Contains(got, []byte(`,"view":{"own":7},"result":`)) {
		t.Errorf("a view with AppendJSON: %s, %v; want its own JSON", got, err)
	}

	// What encoding/json refuses, AppendState refuses, leaving dst.
	for name, st := range map[string]State{
		"view":      {View: make(chan int)},
		"deal end":  {DealEnd: &DealEnd{View: json.RawMessage(`{"cut`)}},
		"year 1e4":  {Events: []Event{{Kind: "move", At: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}},
		"zone hour": {Events: []Event{{Kind: "move", At: at.In(time.FixedZone("far", 24*3600))}}},
	} {
		if _, err := json.Marshal(st); err == nil {
			t.Fatalf("%s: encoding/json takes it", name)
		}
		got, err := AppendState([]byte("dst"), &st)
		if err == nil || string(got) != "dst" {
			t.Errorf("%s: AppendState gave %q, %v; want dst as it was and an error", name, got, err)
		}
	}
}
