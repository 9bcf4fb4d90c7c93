// Command parlour plays, scripts, explains and measures Parlour's card games.
//
//	parlour serve [flags]         the web page, lobby and tables over the network
//	parlour play GAME [flags]     play in the terminal against bots
//	parlour script FILE|-         run a scripted game (shared/spec/script.md)
//	parlour analyse FILE|-        rate each decision of a scripted game (shared/spec/analysis.md)
//	parlour rules GAME            the rules as implemented
//	parlour games                 list the games
//	parlour tournament [flags]    bots against bots, with confidence intervals
//	parlour sim GAME [flags]      a designer's lab: a rule set over many matches, A/B
//	parlour bench [flags]         random-playout speed of the engine
//	parlour encode GAME [flags]   the observation vector and action space of a game
//
// Run "parlour help COMMAND" for a command's flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"parlour/games"
)

// command is one subcommand of parlour.
type command struct {
	usage string // the synopsis line
	short string // one line of help
	run   func(env *env, args []string) int
}

// env is where a command reads and writes, so tests can run it in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

var commands map[string]*command

func init() {
	commands = map[string]*command{
		"script":     {"parlour script FILE|-", "run a scripted game and print its report (JSON)", runScript},
		"analyse":    {"parlour analyse FILE|- [--think D] [--seats 0,2] [--hindsight] [--progress]", "rate each decision of a scripted game: the chance of winning after it, the best move and the loss (JSON)", runAnalyse},
		"rules":      {"parlour rules GAME", "print the rules of a game as Parlour plays them", runRules},
		"games":      {"parlour games", "list the games with their players and options", runGames},
		"play":       {"parlour play GAME [--players N] [--seed S] [--seat N] [--bots B,...] [--think D] [--set k=v] [--engine NAME=COMMAND] [--plain] | parlour play --join URL [--name NAME] [--plain]", "play a game in the terminal against bots, or at a server's table", runPlay},
		"bench":      {"parlour bench [--game GAME] [--players N] [--seconds S] [--json]", "measure random playouts per second on one core", runBench},
		"loadtest":   {"parlour loadtest [--url URL,...] [--tables N] [--duration D] [--ramp D] [--settle D] [--think D] [--game GAME|all] [--players N] [--bot B] [--set k=v] [--pid PID,...] [--seed S] [--json]", "measure a running table server from outside: live tables, one simulated person each", runLoadtest},
		"tournament": {"parlour tournament --game GAME [--players N] --bots B1,B2,... [--matches N] [--seed S] [--think D] [--engine NAME=COMMAND] [--analyse] [--json]", "play seeded matches between bots and compare them", runTournament},
		"serve":      {"parlour serve [--addr HOST:PORT] [--db sqlite:PATH | postgres://...] [--think D] [--engine NAME=COMMAND]", "serve tables to play over the network, with a lobby and a web page", runServe},
		"sim":        {"parlour sim GAME [--players N] [--bots B1,B2,...] [--matches N] [--seed S] [--think D] [--set k=v ...] [--vs k=v ...] [--report FILE.html] [--engine NAME=COMMAND] [--json]", "measure a rule set over many bot matches, and compare variants (A/B)", runSim},
		"encode":     {"parlour encode GAME [--players N] [--set k=v] [--json]", "show the layout of a game's observation vector and action space (for learning programs)", runEncode},
		"help":       {"parlour help [COMMAND]", "show help", runHelp},
	}
}

func main() {
	os.Exit(run(&env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:]))
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		usage(e.stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.stderr, "parlour: unknown command %q (commands: %s)\n", name, strings.Join(commandNames(), ", "))
		return 2
	}
	return c.run(e, args[1:])
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func usage(w io.Writer) {
	names := games.Registry.Names()
	fmt.Fprintf(w, "parlour: %s parlour card games (%s),\n", inWords(len(names)), strings.Join(names, ", "))
	fmt.Fprintln(w, "to play in the browser or the terminal, script, study and measure.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-11s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Start with: parlour serve (and open the page it prints), or parlour play golf")
	fmt.Fprintln(w, "Run \"parlour help COMMAND\" for a command's flags.")
}

// inWords spells n in words up to twelve.
func inWords(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

func runHelp(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "parlour help: unknown command %q\n", args[0])
		return 2
	}
	return c.run(e, []string{"-h"})
}

// newFlags returns a flag set for a command that prints its usage to e.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	c := commands[name]
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s\n\n%s\n", c.usage, c.short)
		var any bool
		fs.VisitAll(func(*flag.Flag) { any = true })
		if any {
			fmt.Fprintln(fs.Output(), "\nflags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses args; it returns -1 to go on, or the exit status.
func parseFlags(e *env, fs *flag.FlagSet, args []string) int {
	// Help asked for goes to standard output, once; the usage printed
	// after a bad flag goes to standard error.
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(e.stdout)
			fs.Usage()
			return 0
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	return -1
}
