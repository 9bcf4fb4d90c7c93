package tractric_test

import (
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/tractric"
	"parlour/gametest"
)

// TestPrompts: each seat to act is told what the rules let it do: a
// trump proposal, a lead, following suit (naming the suit) exactly when
// it must, the gift of a trick beyond eight.
func TestPrompts(t *testing.T) {
	suits := map[string]string{"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
	for _, n := range []int{3, 4} {
		gametest.Prompts(t, tractric.Game{}, gametest.Config{Options: map[string]any{"players": n}, Matches: 8}, func(p string, legal []string) string {
			switch verb := strings.Fields(legal[0])[0]; verb {
			case "propose":
				if !strings.Contains(p, "proposal for trumps") {
					return "no word of the trump proposal"
				}
			case "give":
				if !strings.Contains(p, "give this trick") {
					return "no word of the gift"
				}
			case "play":
				suit := ""
				for _, m := range legal {
					c := game.CardWords(m)[0].String()
					s := c[len(c)-1:]
					if suit != "" && s != suit {
						suit = "several"
						break
					}
					suit = s
				}
				follow := strings.HasPrefix(p, "Follow suit")
				if follow && (suit == "several" || !strings.HasSuffix(p, suits[suit])) {
					return "the prompt asks to follow a suit the moves do not"
				}
				if !follow && !strings.Contains(p, "any card") {
					return "the prompt neither asks to follow suit nor lets any card be played"
				}
			}
			return ""
		})
	}
}
