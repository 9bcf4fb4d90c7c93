package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// willNeed advises the kernel that f's bytes [off, off+n) will be read or
// written soon, so that it reads in what it no longer holds (in the
// background: the call does not wait for the disk).
func willNeed(f *os.File, off, n int64) {
	unix.Fadvise(int(f.Fd()), off, n, unix.FADV_WILLNEED)
}
