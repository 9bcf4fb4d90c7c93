// Package script runs scripted games: a JSON script of a game, its options,
// seed, fixed deals and moves in, a JSON report of where the game stands out.
// The format is the contract in shared/spec/script.md.
package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"parlour/game"
)

// Script is one scripted game.
type Script struct {
	Game    string         `json:"game"`
	Options map[string]any `json:"options"`
	Seed    json.Number    `json:"seed"`
	Layout  game.Layout    `json:"layout"`
	Deals   []game.Layout  `json:"deals"`
	Moves   []string       `json:"moves"`
}

// Report is where a scripted game stands after its moves.
type Report struct {
	Game       string              `json:"game"`
	Applied    int                 `json:"applied"`
	Error      *string             `json:"error"`
	ToAct      []int               `json:"to_act"`
	Legal      map[string][]string `json:"legal"`
	Deal       int                 `json:"deal"`
	DealScores [][]int             `json:"deal_scores"`
	Totals     []int               `json:"totals"`
	Over       bool                `json:"over"`
	Winners    []int               `json:"winners"`
	Public     any                 `json:"public"`
}

// ErrUnusable marks a script that cannot be run at all (exit status 2).
var ErrUnusable = errors.New("unusable script")

type unusable struct{ msg string }

func (e *unusable) Error() string        { return e.msg }
func (e *unusable) Is(target error) bool { return target == ErrUnusable }

func fail(format string, args ...any) error {
	return &unusable{fmt.Sprintf(format, args...)}
}

// Lookup finds a game by name.
type Lookup func(name string) (game.Game, error)

// Parse reads a script, refusing unknown keys, both layout and deals, and
// a seed that is not an unsigned integer.
func Parse(r io.Reader) (*Script, uint64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, fail("reading the script: %v", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, 0, fail("the script is not a JSON object: %v", err)
	}
	for k := range raw {
		switch k {
		case "game", "options", "seed", "layout", "deals", "moves":
		default:
			return nil, 0, fail("unknown key %q in the script (keys: game, options, seed, layout, deals, moves)", k)
		}
	}
	if _, ok := raw["layout"]; ok {
		if _, ok := raw["deals"]; ok {
			return nil, 0, fail("the script has both \"layout\" and \"deals\"; give one")
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return nil, 0, fail("the script is malformed: %v", err)
	}
	if s.Game == "" {
		return nil, 0, fail("the script names no \"game\"")
	}
	var seed uint64
	if s.Seed != "" {
		seed, err = strconv.ParseUint(s.Seed.String(), 10, 64)
		if err != nil {
			return nil, 0, fail("seed %s is not an unsigned integer", s.Seed)
		}
	}
	return &s, seed, nil
}

// Run plays a script and returns its report. The error is nil when every
// move applied; it matches game.ErrIllegalMove (or game.ErrBadMove) when a
// move was refused, the report then showing the state before that move;
// it matches ErrUnusable when the script cannot be run (including a fixed
// deal that play reaches and that the rules cannot use), and there is no report.
func Run(lookup Lookup, r io.Reader) (*Report, error) {
	s, seed, err := Parse(r)
	if err != nil {
		return nil, err
	}
	g, err := lookup(s.Game)
	if err != nil {
		return nil, fail("%v", err)
	}
	opts, err := game.Resolve(g, s.Options)
	if err != nil {
		return nil, fail("%v", err)
	}
	deals := s.Deals
	if s.Layout != nil {
		deals = []game.Layout{s.Layout}
	}
	st, err := g.New(opts, seed, deals)
	if err != nil {
		return nil, fail("%v", err)
	}
	rep := &Report{Game: g.Name()}
	var moveErr error
	for i, text := range s.Moves {
		if err := game.Step(st, text); err != nil {
			if errors.Is(err, game.ErrBadLayout) {
				// A fixed deal that only proves unusable when play reaches
				// it (a Tractric grid in a deal that starts no game).
				return nil, fail("move %d %q: %v", i+1, text, err)
			}
			msg := fmt.Sprintf("move %d %q: %v", i+1, text, err)
			rep.Error = &msg
			moveErr = fmt.Errorf("move %d: %w", i+1, err)
			break
		}
		rep.Applied++
	}
	Fill(rep, st)
	return rep, moveErr
}

// Fill sets the report's position fields from st.
func Fill(rep *Report, st game.State) {
	res := st.Result()
	rep.ToAct = st.ToAct().List()
	rep.Legal = map[string][]string{}
	for _, seat := range rep.ToAct {
		rep.Legal[strconv.Itoa(seat)] = game.LegalText(st, seat)
	}
	rep.Deal = res.Deal
	rep.DealScores = res.DealScores
	rep.Totals = res.Totals
	rep.Over = res.Over
	rep.Winners = res.Winners
	if r, ok := st.(game.Reporter); ok {
		rep.Public = r.Report()
	} else {
		rep.Public = st.View(game.Spectator)
	}
}
