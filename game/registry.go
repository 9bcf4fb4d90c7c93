package game

import (
	"fmt"
	"sort"
	"strings"
)

// Registry finds games by name.
type Registry struct {
	games map[string]Game
}

// NewRegistry returns a registry of the given games.
func NewRegistry(games ...Game) *Registry {
	r := &Registry{games: map[string]Game{}}
	for _, g := range games {
		r.games[g.Name()] = g
	}
	return r
}

// Lookup returns the game called name, or an error matching ErrUnknownGame.
func (r *Registry) Lookup(name string) (Game, error) {
	if g, ok := r.games[strings.ToLower(strings.TrimSpace(name))]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("%w %q (games: %s)", ErrUnknownGame, name, strings.Join(r.Names(), ", "))
}

// Names returns the registered game names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.games))
	for n := range r.games {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// All returns the registered games, sorted by name.
func (r *Registry) All() []Game {
	out := make([]Game, 0, len(r.games))
	for _, n := range r.Names() {
		out = append(out, r.games[n])
	}
	return out
}
