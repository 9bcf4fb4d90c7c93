package game

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"parlour/card"
)

// Layout fixes the cards of one deal: named piles as JSON values, read by
// the game with the methods below. What keys a game takes is in its docs and
// in shared/spec/script.md.
type Layout map[string]json.RawMessage

// LayoutError names what is wrong with a layout.
type LayoutError struct{ Reason string }

func (e *LayoutError) Error() string { return e.Reason }

// Is makes errors.Is(err, ErrBadLayout) true.
func (e *LayoutError) Is(target error) bool { return target == ErrBadLayout }

// BadLayout returns a *LayoutError with a formatted reason.
func BadLayout(format string, args ...any) error {
	return &LayoutError{Reason: fmt.Sprintf(format, args...)}
}

// Keys checks that the layout holds only the given keys.
func (l Layout) Keys(allowed ...string) error {
	var unknown []string
	for k := range l {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return BadLayout("layout key %q is not used by this game (keys: %s)", unknown[0], strings.Join(allowed, ", "))
	}
	return nil
}

// Card reads a single card under key; ok is false when the key is absent or null.
func (l Layout) Card(key string) (c card.Card, ok bool, err error) {
	raw, ok := l[key]
	if !ok || string(raw) == "null" {
		return card.None, false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return card.None, false, BadLayout("layout %q must be one card like \"QD\"", key)
	}
	c, err = card.Parse(s)
	if err != nil {
		return card.None, false, BadLayout("layout %q: %v", key, err)
	}
	return c, true, nil
}

// Cards reads a list of cards under key.
func (l Layout) Cards(key string) (cs []card.Card, ok bool, err error) {
	raw, ok := l[key]
	if !ok || string(raw) == "null" {
		return nil, false, nil
	}
	var ss []string
	if err := json.Unmarshal(raw, &ss); err != nil {
		return nil, false, BadLayout("layout %q must be a list of cards", key)
	}
	cs, err = parseCards(key, ss)
	return cs, err == nil, err
}

// SeatCards reads one list of cards per seat under key; a seat's entry may
// be null (returned as nil). The list must have one entry per seat.
func (l Layout) SeatCards(key string, players int) (seats [][]card.Card, ok bool, err error) {
	raw, ok := l[key]
	if !ok || string(raw) == "null" {
		return nil, false, nil
	}
	var sss [][]string
	if err := json.Unmarshal(raw, &sss); err != nil {
		return nil, false, BadLayout("layout %q must be a list of card lists, one per seat", key)
	}
	if len(sss) != players {
		return nil, false, BadLayout("layout %q has %d entries for %d seats", key, len(sss), players)
	}
	seats = make([][]card.Card, players)
	for i, ss := range sss {
		if ss == nil {
			continue
		}
		if seats[i], err = parseCards(fmt.Sprintf("%s[%d]", key, i), ss); err != nil {
			return nil, false, err
		}
	}
	return seats, true, nil
}

// Strings reads a list of strings under key.
func (l Layout) Strings(key string) (ss []string, ok bool, err error) {
	raw, ok := l[key]
	if !ok || string(raw) == "null" {
		return nil, false, nil
	}
	if err := json.Unmarshal(raw, &ss); err != nil {
		return nil, false, BadLayout("layout %q must be a list of strings", key)
	}
	return ss, true, nil
}

func parseCards(key string, ss []string) ([]card.Card, error) {
	out := make([]card.Card, len(ss))
	for i, s := range ss {
		c, err := card.Parse(s)
		if err != nil {
			return nil, BadLayout("layout %q: %v", key, err)
		}
		out[i] = c
	}
	return out, nil
}

// Remaining checks that the placed cards all come from pack, none more often
// than the pack holds, and returns the pack's other cards in pack order.
func Remaining(pack card.Pack, placed ...[]card.Card) ([]card.Card, error) {
	have := card.Count(pack)
	used := card.Count(placed...)
	for c, n := range used {
		if n == 0 {
			continue
		}
		if have[c] == 0 {
			return nil, BadLayout("the pack has no %v", card.Card(c))
		}
		if n > have[c] {
			times := "once"
			if have[c] > 1 {
				times = fmt.Sprintf("%d times", have[c])
			}
			return nil, BadLayout("%v is placed %d times but the pack holds it %s", card.Card(c), n, times)
		}
	}
	rest := make([]card.Card, 0, len(pack))
	for _, c := range pack {
		if used[c] > 0 {
			used[c]--
			continue
		}
		rest = append(rest, c)
	}
	return rest, nil
}

// ParseDeals reads every fixed deal with parse (k is the 0-based deal
// number), before any move is made, and returns them in order, nil where a
// deal is left to the shuffle. When there are several deals, an error names
// the deal it is about.
func ParseDeals[T any](deals []Layout, parse func(k int, l Layout) (*T, error)) ([]*T, error) {
	out := make([]*T, len(deals))
	for k, l := range deals {
		if l == nil {
			continue
		}
		d, err := parse(k, l)
		if err != nil {
			if len(deals) > 1 {
				return nil, BadLayout("deal %d: %v", k+1, err)
			}
			return nil, err
		}
		out[k] = d
	}
	return out, nil
}
