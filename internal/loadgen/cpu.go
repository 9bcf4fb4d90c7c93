package loadgen

import (
	"os"
	"strconv"
	"strings"
)

// clockTicks is how many clock ticks /proc counts processor time in a
// second (Linux's USER_HZ, which its ABI fixes at 100).
const clockTicks = 100

// cpuReading is the processor time used so far, read from /proc (Linux):
// by the servers (Config.PIDs), by the load generator itself, and by the
// whole machine, in clock ticks. A part that could not be read is marked
// not ok and left out of the report.
type cpuReading struct {
	servers, self                int64
	busy, total                  int64 // the machine's
	serversOK, selfOK, machineOK bool
}

// readCPU reads the processor time used so far by pids, by this process
// and by the machine.
func readCPU(pids []int) cpuReading {
	var c cpuReading
	c.self, c.selfOK = procTicks("self")
	if len(pids) > 0 {
		c.serversOK = true
		for _, pid := range pids {
			t, ok := procTicks(strconv.Itoa(pid))
			c.servers += t
			c.serversOK = c.serversOK && ok
		}
	}
	if data, err := os.ReadFile("/proc/stat"); err == nil {
		c.busy, c.total, c.machineOK = machineTicks(string(data))
	}
	return c
}

// procTicks returns the processor time process proc ("self" or a process
// id) has used, user and system, in clock ticks.
func procTicks(proc string) (int64, bool) {
	data, err := os.ReadFile("/proc/" + proc + "/stat")
	if err != nil {
		return 0, false
	}
	return statTicks(string(data))
}

// statTicks returns utime + stime from a /proc/PID/stat line. The
// command's name, in parentheses, may hold spaces and parentheses itself,
// so the fields are counted from the last ')'.
func statTicks(stat string) (int64, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	// After the name: state (field 3), ... utime (14), stime (15).
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return utime + stime, true
}

// machineTicks returns the busy and total time of every processor from
// /proc/stat's first line (user, nice, system, idle, iowait, irq, softirq,
// steal; the guests' time is in user's already): busy is all but idle and
// iowait.
func machineTicks(procStat string) (busy, total int64, ok bool) {
	line, _, _ := strings.Cut(procStat, "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0, false
	}
	for i, s := range f[1:9] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, 0, false
		}
		total += n
		if i != 3 && i != 4 { // idle, iowait
			busy += n
		}
	}
	return busy, total, true
}

// report fills rep's processor figures for the time from c to end, secs
// seconds in which rep.Moves moves were made.
func (c cpuReading) report(end cpuReading, secs float64, rep *Report) {
	if secs <= 0 {
		return
	}
	cores := func(from, to int64) float64 { return float64(to-from) / clockTicks / secs }
	if c.serversOK && end.serversOK {
		rep.ServerCores = cores(c.servers, end.servers)
		if rep.Moves > 0 {
			rep.ServerUSPerMove = rep.ServerCores * secs * 1e6 / float64(rep.Moves)
		}
	}
	if c.selfOK && end.selfOK {
		rep.LoadCores = cores(c.self, end.self)
	}
	if c.machineOK && end.machineOK && end.total > c.total {
		rep.MachineBusy = float64(end.busy-c.busy) / float64(end.total-c.total)
	}
}
