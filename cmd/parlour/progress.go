package main

import (
	"fmt"
	"strings"
	"time"
)

// progress returns the progress report of a long run of matches, on
// stderr: on a terminal a bar redrawn at most ten times a second, otherwise
// a log line every tenth of the matches, naming the command.
func progress(e *env, command string, total int) func(done, total int) {
	start := time.Now()
	if isTerminal(e.stderr) {
		var last time.Time
		return func(done, total int) {
			if done < total && time.Since(last) < 100*time.Millisecond {
				return
			}
			last = time.Now()
			const width = 30
			fill := done * width / total
			el := time.Since(start).Seconds()
			eta := el / float64(done) * float64(total-done)
			fmt.Fprintf(e.stderr, "\r[%s%s] %d/%d matches, %.1f matches/s, %.0fs left ",
				strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total, float64(done)/el, eta)
			if done == total {
				fmt.Fprintln(e.stderr)
			}
		}
	}
	step := max(1, total/10)
	return func(done, total int) {
		if done%step == 0 || done == total {
			el := time.Since(start).Seconds()
			fmt.Fprintf(e.stderr, "parlour %s: %d/%d matches, %.1fs, %.2f matches/s\n", command, done, total, el, float64(done)/el)
		}
	}
}
