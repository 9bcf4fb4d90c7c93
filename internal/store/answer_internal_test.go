package store

import (
	"fmt"
	"slices"
	"testing"
)

// TestAnswerPeopleFirst checks that a committed batch's requests are
// answered the people's moves first, each in the batch's order, and each
// with its own answer.
func TestAnswerPeopleFirst(t *testing.T) {
	by := []string{"bot", "", "clock", "", "bot", "standin", ""}
	batch := make([]appendReq, len(by))
	for i, b := range by {
		batch[i] = appendReq{id: fmt.Sprint("t", i), m: Move{N: i, By: b}, done: make(chan error, 1)}
	}
	var order []int
	answer(batch, func(i int) error {
		order = append(order, i)
		return fmt.Errorf("answer %d", i)
	})
	if want := []int{1, 3, 6, 0, 2, 4, 5}; !slices.Equal(order, want) {
		t.Errorf("answered in the order %v, want %v (people's moves first)", order, want)
	}
	for i, r := range batch {
		select {
		case err := <-r.done:
			if want := fmt.Sprint("answer ", i); err == nil || err.Error() != want {
				t.Errorf("request %d answered %v, want %q", i, err, want)
			}
		default:
			t.Errorf("request %d was not answered", i)
		}
		select {
		case err := <-r.done:
			t.Errorf("request %d answered twice (again with %v)", i, err)
		default:
		}
	}
}
