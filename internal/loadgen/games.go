package loadgen

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// TableReport is one table of a run of a fixed set of games
// (Config.Games): where it was made, whether its game was played to the
// end, and when each of its moves was seen, to measure from outside how
// long a table stood still (a server dying, another taking it over).
type TableReport struct {
	// ID is the table's id; Created the URL of the server that created
	// it, Joined of the one the seat was taken and first played through.
	ID      string `json:"id"`
	Created string `json:"created"`
	Joined  string `json:"joined"`
	// Finished says the game was seen over and its replay checked.
	Finished bool `json:"finished"`
	// Moves is the table's move count as last seen; Acked the number of
	// our moves shown in a view (and not lost since).
	Moves int `json:"moves"`
	Acked int `json:"acked"`
	// Drops counts the connections that dropped and were made again.
	Drops int `json:"drops"`
	// MaxGapMS is the longest time, in milliseconds, the table went
	// without one of our moves shown, from the seat taken to the game over
	// (or the end of the run).
	MaxGapMS float64 `json:"max_gap_ms"`
	// Start is when the seat was taken, Welcomed when a connection to the
	// table was first welcomed, End when the game was first seen over
	// (each zero if it never was).
	Start    time.Time `json:"-"`
	Welcomed time.Time `json:"-"`
	End      time.Time `json:"-"`
	// AckAt is when each of our moves was first shown in a view, in order;
	// MoveAt when each move of the table (bots' too) was first seen, by
	// number (MoveAt[0] is move 1).
	AckAt  []time.Time `json:"-"`
	MoveAt []time.Time `json:"-"`
}

// InPlay reports whether the table had its seat taken by at and its game
// not yet seen over.
func (t *TableReport) InPlay(at time.Time) bool {
	return !t.Start.IsZero() && !t.Start.After(at) && (t.End.IsZero() || t.End.After(at))
}

// ResumedAfter is how long after at the table next showed one of our
// moves, or its game was seen over, whichever came first; false when
// neither happened after at.
func (t *TableReport) ResumedAfter(at time.Time) (time.Duration, bool) {
	for _, a := range t.AckAt {
		if a.After(at) {
			if !t.End.IsZero() && t.End.After(at) && t.End.Before(a) {
				break
			}
			return a.Sub(at), true
		}
	}
	if !t.End.IsZero() && t.End.After(at) {
		return t.End.Sub(at), true
	}
	return 0, false
}

// AckedAfter counts our moves first shown after at.
func (t *TableReport) AckedAfter(at time.Time) int { return countAfter(t.AckAt, at) }

// MovesAfter counts the table's moves (bots' too) first seen after at.
func (t *TableReport) MovesAfter(at time.Time) int { return countAfter(t.MoveAt, at) }

// countAfter counts the times after at.
func countAfter(times []time.Time, at time.Time) int {
	n := 0
	for _, a := range times {
		if a.After(at) {
			n++
		}
	}
	return n
}

// maxGap is the longest time between the seat taken, our moves shown and
// the game over (or end, if it was not seen over).
func (t *TableReport) maxGap(end time.Time) time.Duration {
	if t.Start.IsZero() {
		return 0
	}
	if !t.End.IsZero() {
		end = t.End
	}
	var gap time.Duration
	last := t.Start
	for _, a := range t.AckAt {
		gap = max(gap, a.Sub(last))
		last = a
	}
	return max(gap, end.Sub(last))
}

// AckedAfter counts our moves, at every table, first shown after at.
func (r *Report) AckedAfter(at time.Time) int {
	n := 0
	for i := range r.PerTable {
		n += r.PerTable[i].AckedAfter(at)
	}
	return n
}

// MovesAfter counts the moves, at every table, first seen after at.
func (r *Report) MovesAfter(at time.Time) int {
	n := 0
	for i := range r.PerTable {
		n += r.PerTable[i].MovesAfter(at)
	}
	return n
}

// Resumed measures how the tables in play at at (a server stopped, say)
// went on: the longest time from at until such a table showed one of our
// moves or ended (ResumedAfter), which table that was, and the tables that
// did neither. Only the tables keep says yes to count (nil: all).
func (r *Report) Resumed(at time.Time, keep func(id string) bool) (worst time.Duration, slowest string, stuck []string) {
	for i := range r.PerTable {
		t := &r.PerTable[i]
		if !t.InPlay(at) || (keep != nil && !keep(t.ID)) {
			continue
		}
		d, ok := t.ResumedAfter(at)
		switch {
		case !ok:
			stuck = append(stuck, t.ID)
		case d > worst:
			worst, slowest = d, t.ID
		}
	}
	return worst, slowest, stuck
}

// MaxGap is the longest MaxGapMS of the tables, and which table it was.
func (r *Report) MaxGap() (time.Duration, string) {
	var gap time.Duration
	id := ""
	for i := range r.PerTable {
		if d := time.Duration(r.PerTable[i].MaxGapMS * float64(time.Millisecond)); d > gap {
			gap, id = d, r.PerTable[i].ID
		}
	}
	return gap, id
}

// playOne plays one game to its end (Games mode) and checks our moves
// against its replay.
func (s *slot) playOne(ctx context.Context) {
	r := s.r
	defer func() {
		if r.slotsDone.Add(1) == int64(r.cfg.Games) {
			close(r.allDone)
		}
	}()
	if !s.open(ctx) {
		return
	}
	for ctx.Err() == nil {
		s.play(ctx)
		s.mu.Lock()
		over := s.over
		s.mu.Unlock()
		if !over || !s.verify(ctx) {
			return
		}
		// The game is not over after all: play on.
	}
}

// replayMove is a move of a replay.
type replayMove struct {
	N    int    `json:"n"`
	Seat int    `json:"seat"`
	Move string `json:"move"`
	By   string `json:"by"`
}

// verify checks our moves shown in views against the finished game's
// replay: each must be there at its number, as our seat's own move, as
// shown; one that is not counts as lost. It reports true when the server
// says the game is not over after all (the client should play on).
func (s *slot) verify(ctx context.Context) (again bool) {
	r := s.r
	s.mu.Lock()
	id := s.table
	s.mu.Unlock()
	for fails := 0; ctx.Err() == nil; {
		s.mu.Lock()
		u := r.urls[s.url] + "/api/tables/" + url.PathEscape(id) + "/replay"
		s.mu.Unlock()
		var rp struct {
			Moves []replayMove `json:"moves"`
		}
		err := r.getJSON(ctx, u, &rp)
		var se *statusError
		switch {
		case ctx.Err() != nil:
			return false
		case err == nil:
			s.check(rp.Moves)
			return false
		case errors.As(err, &se) && se.status == http.StatusConflict:
			// A game seen over that its server no longer has over: the
			// moves that ended it were not kept.
			r.countErr("reopened")
			s.mu.Lock()
			s.over, s.tr.End = false, time.Time{}
			s.mu.Unlock()
			return true
		case errors.As(err, &se) && se.status == http.StatusNotFound:
			r.countErr("table_gone")
			s.loseBeyond(-1)
			return false
		}
		fails++
		if fails >= 10 {
			kind := "replay:net"
			if se != nil {
				kind = "replay:" + strconv.Itoa(se.status)
			}
			r.countErr(kind)
			return false
		}
		s.mu.Lock()
		s.url = (s.url + 1) % len(r.urls)
		s.mu.Unlock()
		if !s.backoff(ctx, fails) {
			return false
		}
	}
	return false
}

// check compares our moves shown with the replay's moves.
func (s *slot) check(moves []replayMove) {
	r := s.r
	byN := make(map[int]replayMove, len(moves))
	for _, m := range moves {
		byN[m.N] = m
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.acked[:0]
	for _, a := range s.acked {
		m, ok := byN[int(a.n)]
		if ok && m.Seat == s.seat && m.Move == a.move && m.By == "" {
			kept = append(kept, a)
			continue
		}
		r.lost.Add(1)
	}
	s.acked = kept
	r.verified.Add(int64(len(kept)))
	r.games.Add(1)
	s.tr.Finished = true
}

// report is the slot's line of the report, at end.
func (s *slot) report(end time.Time) TableReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	tr := s.tr
	tr.Moves = s.seq
	tr.Acked = len(s.acked)
	tr.MaxGapMS = float64(tr.maxGap(end)) / float64(time.Millisecond)
	return tr
}
