package tui

import (
	"encoding/json"

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
	tractric.Game{}.Name():      decodeAs[tractric.View],
}

func decodeAs[V any](raw json.RawMessage) (any, error) {
	var v V
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
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
