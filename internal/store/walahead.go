package store

import (
	"cmp"
	"os"
)

// SQLite's writer overwrites its WAL in place: after a checkpoint has
// copied the whole log back, the next commit starts the log again at its
// first frame, and otherwise a commit adds frames after the last. A frame
// (a page and a 24-byte header) does not fill whole blocks of the file, so
// writing one over a block the kernel no longer holds in memory first reads
// the block from the disk, and the commit, and every move waiting for it,
// waits for that read, which queues behind the checkpoint's writes. A
// machine that reclaims cold file pages on its own (as a host's memory
// manager may, with memory to spare) makes such reads common: a log grown
// large under a burst of load keeps frames nobody has touched for a
// while. So after each checkpoint the checkpointer asks the kernel to
// bring back what it dropped of where the writer writes next (walAhead):
// the start of the log and what follows its last frame. (docs/perf/node.md
// has the runs.)

// walAheadBytes is how much of the WAL walAhead keeps in memory at each
// place the writer may write next: a few seconds of a busy node's frames.
const walAheadBytes = 64 << 20

// walAhead keeps the parts of a SQLite database's WAL file that its writer
// writes next in the kernel's page cache (see above). It holds the file
// open; SQLite locks the database and its -shm file, never the WAL, so
// closing it releases none of SQLite's locks.
type walAhead struct {
	path     string   // the WAL file's
	pageSize int64    // the database's page size
	bytes    int64    // how much at each place (0: walAheadBytes)
	f        *os.File // the WAL file, once it exists
}

// walFrameHeader and walHeader are the sizes of a WAL frame's header and
// of the file's own, in bytes (SQLite's file format).
const (
	walHeader      = 32
	walFrameHeader = 24
)

// ask tells the kernel that the WAL's first walAheadBytes and the
// walAheadBytes after frame number frames (the last in the log, as
// wal_checkpoint says) will be needed soon. It does nothing until the file
// exists, and nothing where the kernel takes no such advice. (Asking of
// pages the kernel holds costs it next to nothing.)
func (w *walAhead) ask(frames int64) {
	if w.f == nil {
		f, err := os.Open(w.path)
		if err != nil {
			return
		}
		w.f = f
	}
	n := cmp.Or(w.bytes, walAheadBytes)
	willNeed(w.f, 0, n)
	willNeed(w.f, walHeader+frames*(w.pageSize+walFrameHeader), n)
}

// close closes the WAL file, if open.
func (w *walAhead) close() {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
}
