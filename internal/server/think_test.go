package server_test

import (
	"strings"
	"testing"

	"parlour/internal/protocol"
)

// TestTableThink: a table's "think" (milliseconds per move for its search
// bots) is shown with the table and survives a restart; out of range, it
// is refused with a reason naming it.
func TestTableThink(t *testing.T) {
	e := newEnv(t, envConfig{})
	info := e.create(map[string]any{"game": "golf", "seats": []string{"open", "easy"}, "think": 40})
	if info.Think != 40 {
		t.Fatalf("created with think 40: %+v", info)
	}
	plain := e.create(map[string]any{"game": "golf", "seats": []string{"open", "easy"}})
	if plain.Think != 0 {
		t.Errorf("created without think: think %d, want the server's default 0", plain.Think)
	}
	e.restart()
	var again struct {
		Think *int64 `json:"think"`
	}
	if code := e.do("GET", "/api/tables/"+info.ID, nil, &again); code != 200 || again.Think == nil || *again.Think != 40 {
		t.Errorf("after a restart: %d, think %v; want 40", code, again.Think)
	}
	var out protocol.APIError
	if code := e.do("POST", "/api/tables", map[string]any{"game": "golf", "think": 20000}, &out); code != 400 ||
		!strings.Contains(out.Error.Message, "think 20000 is out of range (0 to 10000 milliseconds)") {
		t.Errorf("think 20000: %d %+v", code, out)
	}
}
