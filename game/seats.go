package game

import (
	"math/bits"
	"strconv"
	"strings"
)

// Seats is a set of seat numbers (0 to 15) as a bit mask.
type Seats uint16

// SeatsOf returns the set of the given seats.
func SeatsOf(seats ...int) Seats {
	var s Seats
	for _, x := range seats {
		s |= 1 << x
	}
	return s
}

// AllSeats returns the set of seats 0 to n-1.
func AllSeats(n int) Seats { return Seats(1)<<n - 1 }

// Has reports whether seat is in the set.
func (s Seats) Has(seat int) bool { return seat >= 0 && seat < 16 && s&(1<<seat) != 0 }

// Add returns the set with seat added.
func (s Seats) Add(seat int) Seats { return s | 1<<seat }

// Remove returns the set without seat.
func (s Seats) Remove(seat int) Seats { return s &^ (1 << seat) }

// Len returns the number of seats in the set.
func (s Seats) Len() int { return bits.OnesCount16(uint16(s)) }

// First returns the lowest seat in the set, or -1 if it is empty.
func (s Seats) First() int {
	if s == 0 {
		return -1
	}
	return bits.TrailingZeros16(uint16(s))
}

// Nth returns the n-th lowest seat (from 0) of the set, or -1.
func (s Seats) Nth(n int) int {
	for ; s != 0; s &= s - 1 {
		if n == 0 {
			return bits.TrailingZeros16(uint16(s))
		}
		n--
	}
	return -1
}

// List returns the seats in ascending order.
func (s Seats) List() []int {
	return s.AppendList(make([]int, 0, s.Len()))
}

// AppendList appends the seats in increasing order to out and returns it.
func (s Seats) AppendList(out []int) []int {
	for ; s != 0; s &= s - 1 {
		out = append(out, bits.TrailingZeros16(uint16(s)))
	}
	return out
}

// String returns the seats as "{0 2}".
func (s Seats) String() string {
	parts := make([]string, 0, s.Len())
	for _, x := range s.List() {
		parts = append(parts, strconv.Itoa(x))
	}
	return "{" + strings.Join(parts, " ") + "}"
}
