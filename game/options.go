package game

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// OptionSpec describes one option of a game: an integer in [Min, Max], or
// one of Choices when Choices is set.
type OptionSpec struct {
	Name    string
	Doc     string
	Default any // int, or string for a choice
	Min     int
	Max     int
	Choices []string
}

// DealerRandom is the dealer option's value when the first dealer is drawn
// with the seed.
const DealerRandom = -1

// Options are resolved option values: every option of the game that applies,
// each an int or a string, defaults filled in, with "players" always present
// and "dealer" present when the first dealer is fixed (absent: drawn with the
// seed). Resolved options are what a table stores and shows: given back to
// Resolve, they resolve to themselves.
type Options map[string]any

// Int returns an integer option (0 if absent).
func (o Options) Int(name string) int {
	v, _ := o[name].(int)
	return v
}

// String returns a choice option ("" if absent).
func (o Options) String(name string) string {
	v, _ := o[name].(string)
	return v
}

// Players returns the number of players.
func (o Options) Players() int { return o.Int("players") }

// Dealer returns the first dealer, or DealerRandom when it is drawn with the
// seed.
func (o Options) Dealer() int {
	if v, ok := o["dealer"].(int); ok {
		return v
	}
	return DealerRandom
}

// Given tells which options were given to Resolve (by name), as opposed to
// filled in with their defaults.
type Given func(name string) bool

// OptionChecker is implemented by a game whose options depend on each
// other. Resolve calls CheckOptions with the resolved options and which of
// them were given, after every option passed its own range check. It may
// refuse a combination (an *OptionError naming the option at fault), or
// delete an option that does not apply to the others (it is then neither
// stored nor shown).
type OptionChecker interface {
	CheckOptions(o Options, given Given) error
}

// OptionError names an option that is unknown or out of range.
type OptionError struct {
	Game, Option, Reason string
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("%s option %q: %s", e.Game, e.Option, e.Reason)
}

// Is makes errors.Is(err, ErrBadOption) true.
func (e *OptionError) Is(target error) bool { return target == ErrBadOption }

// Resolve checks given option values against the game's specs and fills in
// defaults. Values may be ints, whole float64s (as decoded from JSON),
// json.Numbers or strings. "dealer" is common to every game: 0 to players-1,
// or absent (or null) for a dealer drawn with the seed. A game that
// implements OptionChecker then checks the options together.
func Resolve(g Game, given map[string]any) (Options, error) {
	specs := g.Options()
	known := make([]string, 0, len(specs)+1)
	for _, s := range specs {
		known = append(known, s.Name)
	}
	known = append(known, "dealer")
	for name := range given {
		if !slices.Contains(known, name) {
			return nil, &OptionError{g.Name(), name, "no such option (options: " + strings.Join(known, ", ") + ")"}
		}
	}
	out := Options{}
	for _, s := range specs {
		v, ok := given[s.Name]
		if !ok || v == nil {
			out[s.Name] = s.Default
			continue
		}
		val, err := s.value(v)
		if err != nil {
			return nil, &OptionError{g.Name(), s.Name, err.Error()}
		}
		out[s.Name] = val
	}
	if v, ok := given["dealer"]; ok && v != nil {
		spec := OptionSpec{Name: "dealer", Min: 0, Max: out.Players() - 1}
		val, err := spec.value(v)
		if err != nil {
			return nil, &OptionError{g.Name(), "dealer", err.Error()}
		}
		out["dealer"] = val
	}
	if c, ok := g.(OptionChecker); ok {
		if err := c.CheckOptions(out, func(name string) bool {
			v, ok := given[name]
			return ok && v != nil
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s OptionSpec) value(v any) (any, error) {
	if len(s.Choices) > 0 {
		var text string
		switch x := v.(type) {
		case string:
			text = x
		case float64:
			text = strconv.FormatFloat(x, 'f', -1, 64)
		case int:
			text = strconv.Itoa(x)
		case json.Number:
			text = x.String()
		default:
			return nil, fmt.Errorf("%v is not one of %s", v, strings.Join(s.Choices, ", "))
		}
		if !slices.Contains(s.Choices, text) {
			return nil, fmt.Errorf("%q is not one of %s", text, strings.Join(s.Choices, ", "))
		}
		return text, nil
	}
	var n int
	switch x := v.(type) {
	case int:
		n = x
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1e9 {
			return nil, fmt.Errorf("%v is not a whole number", x)
		}
		n = int(x)
	case json.Number:
		i, err := strconv.Atoi(x.String())
		if err != nil {
			return nil, fmt.Errorf("%s is not a whole number", x)
		}
		n = i
	case string:
		i, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", x)
		}
		n = i
	default:
		return nil, fmt.Errorf("%v is not a whole number", v)
	}
	if n < s.Min || n > s.Max {
		return nil, fmt.Errorf("%d is out of range (%d to %d)", n, s.Min, s.Max)
	}
	return n, nil
}

// Describe returns the spec's range or choices and default, for help text.
func (s OptionSpec) Describe() string {
	if len(s.Choices) > 0 {
		return fmt.Sprintf("one of %s (default %v)", strings.Join(s.Choices, ", "), s.Default)
	}
	return fmt.Sprintf("%d to %d (default %v)", s.Min, s.Max, s.Default)
}
