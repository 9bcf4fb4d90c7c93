package bot_test

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used (Linux:
// getrusage RUSAGE_THREAD), so that benchmarks on a busy machine can tell
// their own work from waiting for a core.
func threadCPU() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
