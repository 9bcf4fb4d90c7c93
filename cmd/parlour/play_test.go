package main

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestReplayCommand: the command shown at the end of a match names every
// setting that makes the match what it was, so that running it resolves
// to the same game options, seat, bots and seed.
func TestReplayCommand(t *testing.T) {
	for _, c := range []struct {
		name    string
		sets    setFlags
		players int
		seat    int
		bots    string
		think   time.Duration
		want    string
	}{
		{"golf", setFlags{}, 0, 0, "random", 0, "parlour play golf --seed 7"},
		{"golf", setFlags{"holes": "3"}, 8, 2, "random", 0, "parlour play golf --seed 7 --players 8 --set holes=3 --seat 2"},
		{"court-circular", setFlags{"edition": "1862", "dealer": "1"}, 0, 0, "easy, hard", 0, "parlour play court-circular --seed 7 --set dealer=1 --set edition=1862 --bots easy,hard"},
		{"tractric", setFlags{}, 4, 0, "medium", 500 * time.Millisecond, "parlour play tractric --seed 7 --players 4 --bots medium --think 500ms"},
	} {
		g, opts, err := gameOptions(c.name, c.sets, c.players)
		if err != nil {
			t.Fatal(err)
		}
		got := replayCommand(g, opts, 7, c.seat, c.bots, c.think)
		if got != c.want {
			t.Errorf("%s %v: %q, want %q", c.name, c.sets, got, c.want)
		}
		// Its flags resolve to the same options.
		args := strings.Fields(strings.TrimPrefix(got, "parlour play "+c.name))
		fs := flag.NewFlagSet("play", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		players := fs.Int("players", 0, "")
		fs.Uint64("seed", 0, "")
		fs.Int("seat", 0, "")
		fs.String("bots", "random", "")
		fs.Duration("think", 0, "")
		sets := setFlags{}
		fs.Var(sets, "set", "")
		if err := fs.Parse(args); err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		if _, again, err := gameOptions(c.name, sets, *players); err != nil || !reflect.DeepEqual(again, opts) {
			t.Errorf("%q resolves to %v (%v), want %v", got, again, err, opts)
		}
	}
}
