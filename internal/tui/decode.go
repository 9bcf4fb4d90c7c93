package tui

import "encoding/json"

// decodeAs reads a view of type V: a renderer's decode.
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
	if r, ok := renderers[name]; ok {
		return r.decode(raw)
	}
	var v any
	err := json.Unmarshal(raw, &v)
	return v, err
}
