package courtcircular

import "parlour/card"

// Better reports whether card a beats card b in the edition's card order.
func Better(edition string, a, b card.Card) bool {
	if edition == Edition1862 {
		return strength62[a] > strength62[b]
	}
	return strength60[a] > strength60[b]
}
