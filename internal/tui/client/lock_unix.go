//go:build unix

package client

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive lock of f without waiting: false when another
// process holds it. Closing f (or the process's end) releases it.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
