package loadgen

import (
	"math"
	"testing"
)

func TestStatTicks(t *testing.T) {
	// A command's name may hold spaces and parentheses: the fields are
	// counted from the last ')'.
	for _, tc := range []struct {
		stat string
		want int64
		ok   bool
	}{
		{"28218 (cat) R 28214 28214 6630 0 -1 4194304 126 0 1 0 7 5 0 0 20 0 1 0", 12, true},
		{"41 (a) b (c)) S 1 41 41 0 -1 4194560 900 0 0 0 250 31 0 0 20 0 4 0", 281, true},
		{"41 (short) S 1 41", 0, false},
		{"41 no name S 1 41 41 0 -1 4194560 900 0 0 0 250 31 0 0", 0, false},
		{"41 (x) S 1 41 41 0 -1 4194560 900 0 0 0 ab 31 0 0", 0, false},
	} {
		got, ok := statTicks(tc.stat)
		if got != tc.want || ok != tc.ok {
			t.Errorf("statTicks(%q) = %d, %v; want %d, %v", tc.stat, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMachineTicks(t *testing.T) {
	busy, total, ok := machineTicks("cpu  100 10 50 800 40 0 5 0 0 0\ncpu0 50 5 25 400 20 0 2 0 0 0\n")
	if !ok || busy != 165 || total != 1005 {
		t.Errorf("machineTicks = %d, %d, %v; want 165 busy of 1005", busy, total, ok)
	}
	if _, _, ok := machineTicks("intr 1 2 3\n"); ok {
		t.Errorf("machineTicks read a line that is not the processors'")
	}
}

func TestCPUReport(t *testing.T) {
	start := cpuReading{servers: 1000, self: 500, busy: 4000, total: 10000, serversOK: true, selfOK: true, machineOK: true}
	end := cpuReading{servers: 1000 + 600, self: 500 + 150, busy: 4000 + 450, total: 10000 + 600, serversOK: true, selfOK: true, machineOK: true}
	rep := Report{Moves: 30000}
	start.report(end, 3, &rep) // 3 s on two processors: 600 ticks in all
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-9 }
	if !near(rep.ServerCores, 2) || !near(rep.ServerUSPerMove, 200) || !near(rep.LoadCores, 0.5) || !near(rep.MachineBusy, 0.75) {
		t.Errorf("report: server %v cores, %v µs a move, load %v cores, machine %v busy; want 2, 200, 0.5, 0.75",
			rep.ServerCores, rep.ServerUSPerMove, rep.LoadCores, rep.MachineBusy)
	}
	// A part not read at either end is left out.
	rep = Report{Moves: 30000}
	end.serversOK, start.machineOK = false, false
	start.report(end, 3, &rep)
	if rep.ServerCores != 0 || rep.ServerUSPerMove != 0 || rep.MachineBusy != 0 || !near(rep.LoadCores, 0.5) {
		t.Errorf("report with the server and machine unread: %+v", rep)
	}
}
