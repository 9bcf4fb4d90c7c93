package gametest

import "testing"

func TestHasRef(t *testing.T) {
	text := "Deal from the left (Ruling 1). Scores (Ruling 12, T004-1). See T004-10."
	for _, c := range []struct {
		ref  string
		want bool
	}{
		{"Ruling 1", true}, {"Ruling 12", true}, {"Ruling 2", false}, {"Ruling 120", false},
		{"T004-1", true}, {"T004-10", true}, {"T004-2", false},
	} {
		if got := hasRef(text, c.ref); got != c.want {
			t.Errorf("hasRef(%q) = %v, want %v", c.ref, got, c.want)
		}
	}
}
