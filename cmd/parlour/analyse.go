package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"parlour/analysis"
	"parlour/games"
	"parlour/internal/script"
)

func runAnalyse(e *env, args []string) int {
	fs := newFlags(e, "analyse")
	think := fs.Duration("think", analysis.DefaultThink, "search time per decision analysed (1ms to 1m)")
	seatList := fs.String("seats", "", "the seats to analyse, comma-separated, e.g. 0,2 (default: all)")
	hindsight := fs.Bool("hindsight", false, "let the search see every card (the report's mode says \"hindsight\")")
	showProgress := fs.Bool("progress", false, "show progress on standard error")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "parlour analyse: "+format+"\n", a...)
		return 2
	}
	// Flags may come before or after the file.
	var files []string
	rest := args
	for {
		if code := parseFlags(e, fs, rest); code >= 0 {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(files) != 1 {
		return fail("give one script file, or - for standard input")
	}
	if *think < time.Millisecond || *think > maxThink {
		return fail("--think %v is out of range (1ms to %s): give the search time per decision, such as 200ms", *think, brief(maxThink))
	}
	var seats []int
	if *seatList != "" {
		for _, f := range strings.Split(*seatList, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 0 {
				return fail("--seats %q: %q is not a seat number (write the seats as 0,2)", *seatList, strings.TrimSpace(f))
			}
			seats = append(seats, n)
		}
	}
	var in io.Reader = e.stdin
	if name := files[0]; name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail("%v", err)
		}
		defer f.Close()
		in = f
	}
	s, seed, err := script.Parse(in)
	if err != nil {
		return fail("%v", err)
	}
	opt := analysis.Options{Think: *think, Seats: seats, Hindsight: *hindsight}
	if *showProgress {
		opt.Progress = decisionProgress(e)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := analysis.Analyse(ctx, games.Lookup, s, seed, opt)
	switch {
	case errors.Is(err, script.ErrUnusable), errors.Is(err, analysis.ErrBadOptions):
		return fail("%v", err)
	case err != nil:
		fmt.Fprintf(e.stderr, "parlour analyse: %v\n", err)
		return 1
	}
	out, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		fmt.Fprintf(e.stderr, "parlour analyse: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "%s\n", out)
	return 0
}

// decisionProgress returns the progress report of an analysis on stderr:
// on a terminal a line redrawn after each decision, otherwise a line every
// tenth of the decisions.
func decisionProgress(e *env) func(done, total int) {
	start := time.Now()
	term := isTerminal(e.stderr)
	return func(done, total int) {
		el := time.Since(start).Seconds()
		line := fmt.Sprintf("parlour analyse: %d/%d %s analysed, %.1fs", done, total, plural(total, "decision", "decisions"), el)
		if term {
			fmt.Fprintf(e.stderr, "\r%s ", line)
			if done == total {
				fmt.Fprintln(e.stderr)
			}
			return
		}
		if step := max(1, total/10); done%step == 0 || done == total {
			fmt.Fprintln(e.stderr, line)
		}
	}
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
