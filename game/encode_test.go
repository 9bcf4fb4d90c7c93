package game_test

import (
	"strings"
	"testing"

	"parlour/game"
)

func TestEncodingLayout(t *testing.T) {
	e := game.NewEncoding(
		game.Field{Name: "hand", Size: 52, Doc: "cards held"},
		game.Field{Name: "turn", Size: 3, Doc: "one-hot seat to act"},
	)
	e.Actions = 10
	if err := e.Check(); err != nil {
		t.Fatal(err)
	}
	if f, ok := e.Field("turn"); !ok || f.Offset != 52 || f.Size != 3 || e.Size != 55 {
		t.Fatalf("turn = %+v (found %v), size %d; want offset 52, size 3, total 55", f, ok, e.Size)
	}
	if _, ok := e.Field("trump"); ok {
		t.Error("found a field that is not there")
	}
	c := e.Clone()
	c.Fields[0].Name = "changed"
	if e.Fields[0].Name != "hand" {
		t.Error("changing a clone's fields changed the original")
	}
	for _, c := range []struct {
		name string
		edit func(*game.Encoding)
		want string
	}{
		{"gap", func(e *game.Encoding) { e.Fields[1].Offset = 53 }, "starts at 53"},
		{"size", func(e *game.Encoding) { e.Size = 60 }, "cover 55 entries of 60"},
		{"unnamed", func(e *game.Encoding) { e.Fields[1].Name = "" }, "no name"},
		{"twice", func(e *game.Encoding) { e.Fields[1].Name = "hand" }, "named twice"},
		{"empty", func(e *game.Encoding) { e.Fields[1].Size = 0 }, "size 0"},
		{"no actions", func(e *game.Encoding) { e.Actions = 0 }, "0 actions"},
	} {
		bad := e.Clone()
		c.edit(&bad)
		if err := bad.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check() = %v, want an error with %q", c.name, err, c.want)
		}
	}
}
