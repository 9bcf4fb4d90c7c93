package main

import (
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"parlour/bot"
	"parlour/internal/extbot"
)

// engines is the repeatable --engine NAME=COMMAND: external bots speaking
// the bot protocol (shared/spec/bot-protocol.md), usable in --bots.
type engines struct {
	e       *env
	timeout *time.Duration
	list    []*extbot.Engine
}

// addEngineFlags adds --engine and --engine-time to fs.
func addEngineFlags(e *env, fs *flag.FlagSet) *engines {
	en := &engines{e: e}
	fs.Var(en, "engine", "an external bot NAME=COMMAND speaking the bot protocol (repeatable); NAME can then be used in --bots")
	en.timeout = fs.Duration("engine-time", extbot.DefaultTimeout, "time an external bot has for each answer")
	return en
}

func (en *engines) String() string {
	names := make([]string, len(en.list))
	for i, x := range en.list {
		names[i] = x.Name()
	}
	return strings.Join(names, ",")
}

// Set reads one NAME=COMMAND; the engine starts its processes when it
// first plays.
func (en *engines) Set(v string) error {
	name, command, err := extbot.Parse(v)
	if err != nil {
		return err
	}
	for _, x := range en.list {
		if x.Name() == name {
			return fmt.Errorf("--engine %q: %q is named twice", v, name)
		}
	}
	en.list = append(en.list, extbot.New(name, command, extbot.Config{}))
	return nil
}

// start sets the engines' answer time and log (faults and the bots'
// standard error, on standard error), once the flags are read.
func (en *engines) start() {
	en.startWith(extbot.Config{Logger: slog.New(slog.NewTextHandler(en.e.stderr, nil))})
}

// startWith is start with more of the engines' configuration (the server's:
// a process per table seat, stopped when the table ends, and a limit).
func (en *engines) startWith(cfg extbot.Config) {
	cfg.Timeout = *en.timeout
	for i, x := range en.list {
		en.list[i] = extbot.New(x.Name(), x.Command(), cfg)
	}
}

// bot returns the bot called name: an engine, or a built-in bot.
func (en *engines) bot(name string) (bot.Bot, bool) {
	for _, x := range en.list {
		if x.Name() == name {
			return x, true
		}
	}
	return bot.ByName(name)
}

// names lists the bots --bots may name.
func (en *engines) names() string { return strings.Join(en.all(), ", ") }

// all returns the built-in bots' names and then the engines'.
func (en *engines) all() []string {
	all := bot.Names()
	for _, x := range en.list {
		all = append(all, x.Name())
	}
	return all
}

// close asks every engine's processes to quit.
func (en *engines) close() {
	for _, x := range en.list {
		x.Close()
	}
}
