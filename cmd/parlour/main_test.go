package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"parlour/games"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"parlour": func() { os.Exit(run(&env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])) },
	})
}

// TestScripts runs testdata/script/*.txtar through the real command. Besides
// the usual testscript commands, "expect SCRIPT EXPECT" runs
// "parlour script SCRIPT" and checks its exit status and report against
// EXPECT, in the format of shared/spec/examples.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"expect": cmdExpect,
		},
	})
}

func cmdExpect(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: expect SCRIPT.json EXPECT.json")
	}
	exit := 0
	if err := ts.Exec("parlour", "script", args[0]); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("running parlour script: %v", err)
		}
		exit = ee.ExitCode()
	}
	err := checkExpect([]byte(ts.ReadFile(args[1])), exit, []byte(ts.ReadFile("stdout")))
	if neg {
		if err == nil {
			ts.Fatalf("report matches %s, want a mismatch", args[1])
		}
		return
	}
	if err != nil {
		ts.Fatalf("%s: %v", args[1], err)
	}
}

// TestSpecExamples runs the sample checks in ../shared/spec/examples for
// every game the registry holds, through the real command.
func TestSpecExamples(t *testing.T) {
	dirs, err := filepath.Glob("../../../shared/spec/examples/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no spec examples found beside the repository (../shared/spec/examples): %v", err)
	}
	ran := 0
	for _, dir := range dirs {
		if !slices.Contains(games.Registry.Names(), filepath.Base(dir)) {
			continue // a game not implemented yet
		}
		expects, _ := filepath.Glob(filepath.Join(dir, "*.expect.json"))
		for _, exp := range expects {
			scr := exp[:len(exp)-len(".expect.json")] + ".json"
			t.Run(filepath.Base(scr), func(t *testing.T) {
				cmd := exec.Command("parlour", "script", scr) // on PATH, set up by testscript.Main
				out, err := cmd.Output()
				exit := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					exit = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(exp)
				if err != nil {
					t.Fatal(err)
				}
				if err := checkExpect(want, exit, out); err != nil {
					t.Errorf("%s: %v", filepath.Base(scr), err)
				}
			})
			ran++
		}
	}
	if ran == 0 {
		t.Fatal("no spec example ran")
	}
}

// TestRaiseProcs checks the Ps of a SQLite node: raised to minProcs on a
// machine of fewer CPUs that it has whole, left alone when a limit made
// them fewer than the CPUs.
func TestRaiseProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	cpus := runtime.NumCPU()
	runtime.GOMAXPROCS(cpus)
	raiseProcs()
	if got, want := runtime.GOMAXPROCS(0), max(cpus, minProcs); got != want {
		t.Errorf("on a whole machine of %d CPUs: %d Ps, want %d", cpus, got, want)
	}
	if cpus > 1 {
		runtime.GOMAXPROCS(1) // as a CPU limit of 1 would
		raiseProcs()
		if got := runtime.GOMAXPROCS(0); got != 1 {
			t.Errorf("under a limit of 1 CPU of %d: %d Ps, want 1", cpus, got)
		}
	}
}
