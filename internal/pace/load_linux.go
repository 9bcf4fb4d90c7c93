package pace

import "os"

// loadavg reads the machine's threads ready to run from /proc/loadavg,
// kept open and read again from its start each time.
type loadavg struct {
	f   *os.File
	buf [128]byte
}

// openLoadavg opens /proc/loadavg; nil if it cannot.
func openLoadavg() *loadavg {
	f, err := os.Open("/proc/loadavg")
	if err != nil {
		return nil
	}
	return &loadavg{f: f}
}

// runnable returns the threads of the machine ready to run, the caller's
// among them; false if the file did not read as expected.
func (l *loadavg) runnable() (int, bool) {
	n, err := l.f.ReadAt(l.buf[:], 0)
	if n == 0 && err != nil {
		return 0, false
	}
	return parseRunnable(l.buf[:n])
}

// close closes the file.
func (l *loadavg) close() { l.f.Close() }
