package store

import "encoding/binary"

// packed is one table's moves in the SQLite writer's memory of its log,
// packed into bytes one after another: the number and the seat as
// uvarints, the text and the mover each as a uvarint length and its
// bytes, and the time as a varint of microseconds. A busy log holds some
// hundred thousand moves; packed, they take a fraction of the memory of
// Move values and hold no pointers, so the collector's marks need not
// look through them (docs/perf/node.md).
type packed struct {
	b    []byte
	n    int // how many moves b holds
	last int // the number (N) of the last of them
}

// add returns p with m packed after its moves.
func (p packed) add(m Move) packed {
	p.b = binary.AppendUvarint(p.b, uint64(m.N))
	p.b = binary.AppendUvarint(p.b, uint64(m.Seat))
	p.b = binary.AppendUvarint(p.b, uint64(len(m.Text)))
	p.b = append(p.b, m.Text...)
	p.b = binary.AppendUvarint(p.b, uint64(len(m.By)))
	p.b = append(p.b, m.By...)
	p.b = binary.AppendVarint(p.b, micros(m.At))
	p.n++
	p.last = m.N
	return p
}

// unpack appends p's moves to dst in order, their strings made by str
// from the packed bytes (str must copy them: the bytes are used again).
// It panics if p's bytes are not moves add packed, which would be a bug.
func (p packed) unpack(dst []Move, str func([]byte) string) []Move {
	b := p.b
	uvarint := func() uint64 {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			panic("store: a packed move is cut short")
		}
		b = b[k:]
		return v
	}
	bytes := func() []byte {
		n := uvarint()
		if n > uint64(len(b)) {
			panic("store: a packed move is cut short")
		}
		s := b[:n]
		b = b[n:]
		return s
	}
	for len(b) > 0 {
		m := Move{N: int(uvarint()), Seat: int(uvarint())}
		m.Text, m.By = str(bytes()), str(bytes())
		at, k := binary.Varint(b)
		if k <= 0 {
			panic("store: a packed move is cut short")
		}
		b = b[k:]
		m.At = fromMicros(at)
		dst = append(dst, m)
	}
	return dst
}

// copied returns b as a string of its own.
func copied(b []byte) string { return string(b) }

// words makes the strings of the moves the writer unpacks to fold them:
// the same few texts and movers come again and again, so each is made
// once and kept, up to maxBoxedWords of them (then it starts over).
type words map[string]string

// str returns b as a string, kept.
func (w *words) str(b []byte) string {
	if s, ok := (*w)[string(b)]; ok {
		return s
	}
	if *w == nil || len(*w) >= maxBoxedWords {
		*w = make(words)
	}
	s := string(b)
	(*w)[s] = s
	return s
}
