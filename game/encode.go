package game

import "fmt"

// Encoder is implemented by a state that offers what learning programs
// want instead of JSON views (as OpenSpiel's observation tensors and
// distinct actions): a fixed-size vector of small numbers holding what a
// seat knows, and a fixed action space in which every move the game can
// ever make has an index.
//
// The encoding is a function of the seat's information alone: two states
// that a seat cannot tell apart (a state and any determinisation of it for
// that seat) encode the same for it, and no card the seat may not see
// changes it. The layout depends only on the game and its resolved
// options (the number of players among them), never on the position.
type Encoder interface {
	// Encoding describes the observation vector and the action space.
	Encoding() Encoding
	// Observe writes seat's observation into obs, which has
	// Encoding().Size entries, overwriting every one of them. It does not
	// allocate.
	Observe(seat int, obs []float32)
	// ActionID returns m's index in the action space, 0 <= id <
	// Encoding().Actions, for a move m that is legal for seat now. Distinct
	// legal moves of a seat have distinct indices.
	ActionID(seat int, m Move) int
}

// Encoding is the layout of a game's observation vector and the size of
// its action space.
type Encoding struct {
	// Size is the number of entries of the observation vector.
	Size int
	// Fields name the parts of the vector in order: they tile it, each
	// starting where the one before ends.
	Fields []Field
	// Actions is the number of indices in the action space.
	Actions int
	// ActionDoc says in a line how moves map to indices.
	ActionDoc string
}

// Field is a named part of an observation vector.
type Field struct {
	Name   string // e.g. "hand"
	Offset int    // its first entry
	Size   int    // its number of entries
	Doc    string // what the entries hold, in a line
}

// NewEncoding builds an Encoding's fields from names, sizes and docs given in
// order, setting each offset and the total size. Actions and ActionDoc are
// left to the caller.
func NewEncoding(fields ...Field) Encoding {
	e := Encoding{Fields: fields}
	for i := range e.Fields {
		e.Fields[i].Offset = e.Size
		e.Size += e.Fields[i].Size
	}
	return e
}

// Clone returns a copy of e whose Fields the caller may change: a game
// keeps its layouts and hands out clones of them.
func (e Encoding) Clone() Encoding {
	e.Fields = append([]Field(nil), e.Fields...)
	return e
}

// Field returns the field called name, and whether there is one.
func (e Encoding) Field(name string) (Field, bool) {
	for _, f := range e.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Check reports what is wrong with e's layout: fields that do not tile the
// vector, empty names, or no actions.
func (e Encoding) Check() error {
	at := 0
	seen := map[string]bool{}
	for _, f := range e.Fields {
		switch {
		case f.Name == "":
			return fmt.Errorf("encoding: a field at offset %d has no name", f.Offset)
		case seen[f.Name]:
			return fmt.Errorf("encoding: field %q is named twice", f.Name)
		case f.Offset != at:
			return fmt.Errorf("encoding: field %q starts at %d, not %d where the one before it ends", f.Name, f.Offset, at)
		case f.Size <= 0:
			return fmt.Errorf("encoding: field %q has size %d", f.Name, f.Size)
		}
		seen[f.Name] = true
		at += f.Size
	}
	if at != e.Size {
		return fmt.Errorf("encoding: the fields cover %d entries of %d", at, e.Size)
	}
	if e.Actions <= 0 {
		return fmt.Errorf("encoding: %d actions", e.Actions)
	}
	return nil
}

// LegalIDs appends the action indices of seat's legal moves to buf, in the
// order of legal, and returns it. s must implement Encoder.
func LegalIDs(s State, seat int, legal []Move, buf []int) []int {
	e := s.(Encoder)
	for _, m := range legal {
		buf = append(buf, e.ActionID(seat, m))
	}
	return buf
}
