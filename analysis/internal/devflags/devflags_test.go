package devflags

import (
	"flag"
	"io"
	"testing"
)

// TestResolve checks the options a command's flags give: -set's values
// read as the game reads them, the command's own options over them,
// -players over both, and the game's error for an unknown game or a bad
// value.
func TestResolve(t *testing.T) {
	parse := func(args ...string) GameFlags {
		t.Helper()
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f := AddGame(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return f
	}
	g, opts, err := parse("-game", "court-circular", "-set", "players=3,edition=1860").Resolve(nil)
	if err != nil || g.Name() != "court-circular" || opts.Players() != 3 || opts.String("edition") != "1860" {
		t.Errorf("-set: %v %v, %v", g, opts, err)
	}
	_, opts, err = parse("-game", "court-circular", "-players", "2", "-set", "players=5").Resolve(map[string]any{"edition": "1862"})
	if err != nil || opts.Players() != 2 || opts.String("edition") != "1862" {
		t.Errorf("-players and the command's own: %v, %v", opts, err)
	}
	if _, _, err := parse("-game", "nope").Resolve(nil); err == nil {
		t.Error("an unknown game was taken")
	}
	if _, _, err := parse("-set", "holes=x").Resolve(nil); err == nil {
		t.Error("holes=x was taken")
	}
}
