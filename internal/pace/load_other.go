//go:build !linux

package pace

// loadavg would read the machine's threads ready to run; only Linux has
// them here (pace_linux.go).
type loadavg struct{}

// openLoadavg returns nil: the pace looks at the process's goroutines only.
func openLoadavg() *loadavg { return nil }

// runnable is never called: openLoadavg returns nil.
func (l *loadavg) runnable() (int, bool) { return 0, false }

// close does nothing.
func (l *loadavg) close() {}
