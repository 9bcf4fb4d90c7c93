package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestWALAhead checks that walAhead brings back into memory the start of a
// WAL whose pages the kernel dropped, and the part after the frame it is
// given, and nothing else. (Where the file system keeps every page in
// memory, nothing is dropped and the test shows little.)
func TestWALAhead(t *testing.T) {
	const (
		mib      = 1 << 20
		pageSize = 4096
		size     = 8 * mib
		frames   = 1200 // about 4.7 MiB in
	)
	path, f := walFile(t, size, os.O_RDONLY)
	dropPages(t, f, size)
	mem, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	osPage := int64(os.Getpagesize())
	resident := func(from, to int64) (in, all int) {
		from, to = from/osPage*osPage, (to+osPage-1)/osPage*osPage
		vec := make([]byte, (to-from)/osPage)
		b := mem[from:to]
		if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
			t.Fatal(errno)
		}
		for _, v := range vec {
			in += int(v & 1)
		}
		return in, len(vec)
	}
	left, _ := resident(0, size) // pages the drop left in memory

	w := &walAhead{path: path, pageSize: pageSize, bytes: mib}
	defer w.close()
	w.ask(frames)
	at := int64(walHeader + frames*(pageSize+walFrameHeader))
	for deadline := time.Now().Add(5 * time.Second); ; {
		start, startAll := resident(0, mib)
		next, nextAll := resident(at, at+mib)
		if start == startAll && next == nextAll {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after ask(%d): %d of the first %d pages and %d of the %d after frame %d in memory, want all",
				frames, start, startAll, next, nextAll, frames)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if left == 0 {
		// Every page was dropped, so only what ask asked for came back.
		if in, all := resident(2*mib, 4*mib); in > all/4 {
			t.Errorf("%d of the %d pages between the two places came back too", in, all)
		}
	}
}

// BenchmarkWALFrames writes a MiB of WAL frames (a page and its header
// each, not aligned to the file's blocks) over a part of a file whose
// pages the kernel dropped: as it is ("cold"), and once walAhead has
// asked for it back and the disk has had 100 ms to answer ("ahead").
// docs/perf/node.md has what a node's stores gain.
func BenchmarkWALFrames(b *testing.B) {
	const (
		pageSize = 4096
		frame    = pageSize + walFrameHeader
		frames   = 256
		size     = 4 << 20
	)
	for _, ahead := range []bool{false, true} {
		name := map[bool]string{false: "cold", true: "ahead"}[ahead]
		b.Run(name, func(b *testing.B) {
			path, f := walFile(b, size, os.O_RDWR)
			w := &walAhead{path: path, pageSize: pageSize, bytes: frames * frame}
			defer w.close()
			buf := make([]byte, frame)
			b.SetBytes(frames * frame)
			for b.Loop() {
				b.StopTimer()
				dropPages(b, f, size)
				if ahead {
					w.ask(0)
					time.Sleep(100 * time.Millisecond)
				}
				b.StartTimer()
				for i := range frames {
					if _, err := f.WriteAt(buf, walHeader+int64(i)*frame); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// walFile makes a file of size zero bytes in a directory of tb's, opened
// with flag (closed when tb ends), and returns its path and the file.
func walFile(tb testing.TB, size int64, flag int) (string, *os.File) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "x.db-wal")
	if err := os.WriteFile(path, make([]byte, size), 0o600); err != nil {
		tb.Fatal(err)
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	return path, f
}

// dropPages writes f's first size bytes to the disk and has the kernel
// drop them from memory.
func dropPages(tb testing.TB, f *os.File, size int64) {
	tb.Helper()
	if err := unix.Fdatasync(int(f.Fd())); err != nil {
		tb.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, size, unix.FADV_DONTNEED); err != nil {
		tb.Fatal(err)
	}
}
