package client

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// lockSeat takes the lock of seat at the invite's table for this process:
// one parlour at a time plays a seat the store holds, so that a second
// --join of the same user (in another terminal) does not take the seat of
// the first, but joins as a new player. The lock is a file under the
// store's directory, held until release is called or the process ends (a
// crash frees it: the seat can then be taken back). ok is false when
// another process holds it.
func lockSeat(store Store, inv Invite, seat int) (release func(), ok bool, err error) {
	dir := filepath.Join(filepath.Dir(store.Path), "locks")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, fmt.Errorf("the lock of the seat: %w", err)
	}
	sum := sha256.Sum256([]byte(key(inv) + "#" + strconv.Itoa(seat)))
	path := filepath.Join(dir, hex.EncodeToString(sum[:12])+".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("the lock of the seat: %w", err)
	}
	ok, err = tryLock(f)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, false, fmt.Errorf("the lock of the seat: %w", err)
		}
		return nil, false, nil
	}
	return func() { f.Close() }, true, nil
}
