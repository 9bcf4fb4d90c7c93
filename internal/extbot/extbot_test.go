package extbot_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/bot"
	"parlour/game"
	"parlour/games/golf"
	"parlour/internal/arena"
	"parlour/internal/extbot"
)

// gobot is the example Go bot, built once for the tests.
var gobot string

// patient is the answer time given where a test does not test the
// timeout: a loaded machine (CI runs the packages side by side) can take
// seconds to start an interpreter, and a well-behaved bot answers at once
// however long it is given.
const patient = 30 * time.Second

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "extbot")
	if err != nil {
		panic(err)
	}
	gobot = filepath.Join(dir, "gobot")
	if out, err := exec.Command("go", "build", "-o", gobot, "../../examples/bots/gobot").CombinedOutput(); err != nil {
		panic("building the example bot: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// logBuffer collects an engine's log.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// tournament plays matches of two-player, one-hole Golf between the
// engine running command and the random bot, and returns the report and
// the engine's log.
func tournament(t *testing.T, command string, matches int, timeout time.Duration) (arena.Report, string) {
	t.Helper()
	var log logBuffer
	e := extbot.New("ext", command, extbot.Config{Timeout: timeout, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	defer e.Close()
	opts, err := game.Resolve(golf.Game{}, map[string]any{"players": 2, "holes": 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := arena.Run(ctx, arena.Config{Game: golf.Game{}, Options: opts, Bots: []bot.Bot{e, bot.Random{}},
		Matches: matches, Seed: 1, Workers: 2})
	if err != nil {
		t.Fatalf("%s: %v\nlog:\n%s", command, err, log.String())
	}
	return rep, log.String()
}

func standing(rep arena.Report, name string) arena.Standing {
	for _, s := range rep.Bots {
		if s.Name == name {
			return s
		}
	}
	return arena.Standing{}
}

func TestWellBehavedBotHasNoFaults(t *testing.T) {
	rep, log := tournament(t, gobot, 6, patient)
	ext := standing(rep, "ext")
	if ext.Matches != 6 || ext.Faults != 0 || ext.Moves == 0 {
		t.Fatalf("the example bot: %+v\nlog:\n%s", ext, log)
	}
	if standing(rep, "random").Faults != 0 {
		t.Errorf("the random bot has faults")
	}
	if !strings.Contains(log, "gobot: match") {
		t.Errorf("the bot's standard error is not in the log:\n%s", log)
	}
}

func TestPythonExampleBot(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("python3 is needed for the Python example bot: %v", err)
	}
	rep, log := tournament(t, "python3 ../../examples/bots/python/bot.py", 4, patient)
	if ext := standing(rep, "ext"); ext.Faults != 0 || ext.Moves == 0 {
		t.Fatalf("the Python example bot: %+v\nlog:\n%s", ext, log)
	}
}

// TestFaultsDoNotStall runs misbehaving programs: each match still ends,
// every move the bot owed is a fault made by the random bot, and the log
// says why.
func TestFaultsDoNotStall(t *testing.T) {
	illegal := `while read l; do case "$l" in *'"start"'*) echo '{"type":"ready"}';; *'"act"'*) echo '{"type":"move","move":"fly"}';; esac; done`
	for _, c := range []struct {
		name, command, reason string
		timeout               time.Duration // short only where the wait is the fault
	}{
		{"hangs", "sleep 30", "no answer within", 300 * time.Millisecond},
		{"never starts", "/nonexistent/bot", "reason=\"start: ", patient},
		{"exits", "exit 3", "reason=\"start: ", patient},
		{"floods stdout", "yes", "not {\\\"type\\\":\\\"ready\\\"}", patient},
		{"a huge line", "head -c 3000000 /dev/zero | tr '\\0' a", "over 1048576 bytes", patient},
		{"illegal moves", illegal, "not among the legal moves", patient},
		{"not JSON", `read l; echo '{"type":"ready"}'; while read l; do echo '{oops'; done`, "not {\\\"type\\\":\\\"move\\\"", patient},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			rep, log := tournament(t, c.command, 2, c.timeout)
			ext := standing(rep, "ext")
			if ext.Matches != 2 || ext.Faults == 0 || int64(ext.Faults) != ext.Moves {
				t.Errorf("%+v: want every move a fault", ext)
			}
			if !strings.Contains(log, "bot fault") || !strings.Contains(log, c.reason) || !strings.Contains(log, "match=m2") {
				t.Errorf("the log does not say %q:\n%s", c.reason, log)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestStderrFloodDoesNotStall: a bot that writes 50 MB to standard error
// before it plays still plays without a fault.
func TestStderrFloodDoesNotStall(t *testing.T) {
	rep, log := tournament(t, "yes eeeeeeeeeeeeeeeeeeeeeeee | head -c 50000000 >&2; head -c 100000 /dev/zero >&2; exec "+gobot, 2, patient)
	if ext := standing(rep, "ext"); ext.Faults != 0 || ext.Moves == 0 {
		t.Fatalf("%+v\nlog:\n%s", ext, log[:min(len(log), 2000)])
	}
	if !strings.Contains(log, "more is dropped") {
		t.Errorf("the log does not say the rest of standard error was dropped")
	}
}

// TestRestartAfterExit: a bot that exits after each match is started again
// for the next: no faults.
func TestRestartAfterExit(t *testing.T) {
	once := `while read l; do case "$l" in *'"start"'*) echo '{"type":"ready"}';; *'"act"'*) printf '{"type":"move","move":"%s"}\n' "$(echo "$l" | sed 's/.*"legal":\["\([^"]*\)".*/\1/')";; *'"end"'*) exit 0;; esac; done`
	rep, log := tournament(t, once, 4, patient)
	if ext := standing(rep, "ext"); ext.Matches != 4 || ext.Faults != 0 {
		t.Fatalf("%+v\nlog:\n%s", ext, log)
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		spec, name, command, bad string
	}{
		{`mine=python3 bots/mine.py`, "mine", "python3 bots/mine.py", ""},
		{` b = ./b --fast=1`, "b", "./b --fast=1", ""},
		{`mine`, "", "", "NAME=COMMAND"},
		{`=cmd`, "", "", "NAME=COMMAND"},
		{`mine=`, "", "", "NAME=COMMAND"},
		{`a b=cmd`, "", "", "may not hold"},
		{`random=./x`, "", "", "built-in"},
		{`hard=./x`, "", "", "built-in"},
	} {
		name, command, err := extbot.Parse(c.spec)
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%q: error %v, want %q", c.spec, err, c.bad)
			}
			continue
		}
		if err != nil || name != c.name || command != c.command {
			t.Errorf("%q: %q %q %v", c.spec, name, command, err)
		}
	}
}

func TestObservationsWhenAsked(t *testing.T) {
	// The example bot asks for observations with -observe, and answers an
	// illegal move (a fault) when an act lacks them or they do not fit.
	rep, log := tournament(t, gobot+" -observe", 4, patient)
	ext := standing(rep, "ext")
	if ext.Faults != 0 || ext.Moves == 0 {
		t.Fatalf("a bot that wants observations: %+v\nlog:\n%s", ext, log)
	}
	// A bot that does not ask gets none: this one says on its standard
	// error whether an act had them.
	plain := `python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif m["type"] == "act":
        print("observation" in m and "has" or "lacks", "observation", file=sys.stderr, flush=True)
        print(json.dumps({"type": "move", "move": m["legal"][0]}), flush=True)
    elif m["type"] == "quit":
        break
'`
	rep, log = tournament(t, plain, 2, patient)
	if standing(rep, "ext").Faults != 0 || !strings.Contains(log, "lacks observation") || strings.Contains(log, "has observation") {
		t.Errorf("a bot that did not ask for observations: %+v\nlog:\n%s", standing(rep, "ext"), log)
	}
}
