//go:build !linux

package server

// lowerPriority does nothing where a thread's priority cannot be set on
// its own.
func lowerPriority() {}
