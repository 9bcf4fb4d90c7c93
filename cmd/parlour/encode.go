package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"parlour/game"
	"parlour/games"
)

// runEncode is "parlour encode GAME": the layout of the game's observation
// vector (each field's name, offset, size and meaning) and the size of its
// action space, for the options given.
func runEncode(e *env, args []string) int {
	fs := newFlags(e, "encode")
	players := fs.Int("players", 0, "number of players (default: the game's default)")
	asJSON := fs.Bool("json", false, "print the layout as one JSON object")
	sets := setFlags{}
	fs.Var(sets, "set", "a game option as key=value (repeatable), e.g. --set edition=1862")
	var name string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if name == "" && fs.NArg() > 0 {
		name = fs.Arg(0)
	}
	if name == "" {
		fmt.Fprintf(e.stderr, "parlour encode: name a game (%s)\n", strings.Join(games.Registry.Names(), ", "))
		return 2
	}
	g, opts, err := gameOptions(name, sets, *players)
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour encode: %v\n", err)
		return 2
	}
	s, err := g.New(opts, 1, nil)
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour encode: %v\n", err)
		return 2
	}
	enc, ok := s.(game.Encoder)
	if !ok {
		fmt.Fprintf(e.stderr, "parlour encode: %s has no encoding\n", g.Name())
		return 1
	}
	l := enc.Encoding()
	if *asJSON {
		type field struct {
			Name   string `json:"name"`
			Offset int    `json:"offset"`
			Size   int    `json:"size"`
			Doc    string `json:"doc"`
		}
		out := struct {
			Game      string       `json:"game"`
			Players   int          `json:"players"`
			Options   game.Options `json:"options"`
			Size      int          `json:"size"`
			Fields    []field      `json:"fields"`
			Actions   int          `json:"actions"`
			ActionDoc string       `json:"action_doc"`
		}{Game: g.Name(), Players: s.Players(), Options: opts, Size: l.Size, Actions: l.Actions, ActionDoc: l.ActionDoc}
		for _, f := range l.Fields {
			out.Fields = append(out.Fields, field{f.Name, f.Offset, f.Size, f.Doc})
		}
		b, _ := json.Marshal(out)
		fmt.Fprintln(e.stdout, string(b))
		return 0
	}
	fmt.Fprintf(e.stdout, "%s, %d players: an observation of %d numbers, %d actions\n\n", g.Title(), s.Players(), l.Size, l.Actions)
	fmt.Fprintf(e.stdout, "%-6s %-5s %-22s %s\n", "offset", "size", "field", "holds")
	for _, f := range l.Fields {
		fmt.Fprintf(e.stdout, "%-6d %-5d %-22s %s\n", f.Offset, f.Size, f.Name, f.Doc)
	}
	fmt.Fprintf(e.stdout, "\nactions: %s\n", l.ActionDoc)
	return 0
}
