package tui

import (
	"encoding/json"
	"fmt"

	"parlour/card"
	"parlour/games/courtcircular"
	"parlour/games/damn"
	"parlour/games/golf"
	"parlour/games/parcellus"
	"parlour/games/tractric"
)

// decoders read a view a server sent (JSON) back into the game's own view
// type, so a table at a server is drawn as a table here is; by game name.
var decoders = map[string]func(json.RawMessage) (any, error){
	courtcircular.Game{}.Name(): decodeAs[courtcircular.View],
	damn.Game{}.Name():          decodeAs[damn.View],
	golf.Game{}.Name():          decodeAs[golf.View],
	parcellus.Game{}.Name():     decodeAs[parcellus.View],
	tractric.Game{}.Name():      decodeTractric,
}

func decodeAs[V any](raw json.RawMessage) (any, error) {
	var v V
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeTractric reads a Tractric view: its trump and board cells are
// written as notation and null, which the view's own types only write.
func decodeTractric(raw json.RawMessage) (any, error) {
	var w struct {
		tractric.View
		Trump *string  `json:"trump"`
		Board [9]*int8 `json:"board"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	v := w.View
	v.Trump = tractric.Unset
	if w.Trump != nil {
		switch *w.Trump {
		case "none":
			v.Trump = tractric.NoTrump
		default:
			s, err := card.Parse("2" + *w.Trump)
			if err != nil {
				return nil, fmt.Errorf("trump %q: %w", *w.Trump, err)
			}
			v.Trump = tractric.Trump(s.Suit())
		}
	}
	for i, c := range w.Board {
		v.Board[i] = -1
		if c != nil {
			v.Board[i] = tractric.Cell(*c)
		}
	}
	return v, nil
}

// decodeView reads a server's view of game name: the game's view type
// when this package knows the game, a generic JSON value otherwise.
func decodeView(name string, raw json.RawMessage) (any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if d, ok := decoders[name]; ok {
		return d(raw)
	}
	var v any
	err := json.Unmarshal(raw, &v)
	return v, err
}
