package tractric

// BestLine returns the highest total of scorecard values over the lines of
// the board held wholly by colour, or -1 if it holds no line. board holds a
// colour or -1 per cell; grid the scorecard values.
func BestLine(board, grid [9]int8, colour int8) int {
	var cells uint16
	for i, b := range board {
		if b == colour {
			cells |= 1 << i
		}
	}
	return bestLine(cells, &grid)
}
