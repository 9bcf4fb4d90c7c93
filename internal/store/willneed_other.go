//go:build !linux

package store

import "os"

// willNeed does nothing where the kernel takes no advice on a file's pages
// (see willneed_linux.go).
func willNeed(f *os.File, off, n int64) {}
