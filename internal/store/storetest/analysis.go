package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"parlour/internal/store"
)

// RunAnalyses runs the contract of store.Analyses (the analyses of
// finished games, as jobs the nodes claim) against the databases newDB
// makes, as Run does.
func RunAnalyses(t *testing.T, newDB func(t *testing.T) Opener) {
	tests := []struct {
		name string
		run  func(t *testing.T, db Opener)
	}{
		{"AskOnce", testAskOnce},
		{"QueueLimit", testQueueLimit},
		{"ClaimAndFinish", testClaimFinish},
		{"FencedClaims", testFencedClaims},
		{"StaleClaimTakenOver", testStaleClaim},
		{"Release", testReleaseAnalyses},
		{"FailedAskedAgain", testFailedAgain},
		{"ClaimedOnceAcrossNodes", testClaimRace},
		{"SurvivesReopenGoesWithTable", testAnalysisReopen},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newDB(t)) })
	}
}

func analyses(t *testing.T, s store.Store) store.Analyses {
	t.Helper()
	a, ok := s.(store.Analyses)
	if !ok {
		t.Fatalf("%T is not a store.Analyses", s)
	}
	return a
}

// overTables creates finished tables ids in s.
func overTables(t *testing.T, s store.Store, ids ...string) {
	t.Helper()
	for _, id := range ids {
		tb := sample(id)
		tb.Status = store.StatusOver
		tb.Result = json.RawMessage(`{"over":true}`)
		if err := s.CreateTable(context.Background(), tb); err != nil {
			t.Fatal(err)
		}
	}
}

const (
	allSeats = `{"seats":[0,1,2],"hindsight":false}`
	seatOne  = `{"seats":[1],"hindsight":true}`
)

func ask(t *testing.T, a store.Analyses, id, opts string, limit int) (store.Analysis, bool) {
	t.Helper()
	got, queued, err := a.AskAnalysis(context.Background(), id, opts, limit)
	if err != nil {
		t.Fatalf("asking for %s %s: %v", id, opts, err)
	}
	if got.Table != id || got.Options != opts || got.ID == 0 {
		t.Fatalf("asking for %s %s gave %+v", id, opts, got)
	}
	return got, queued
}

func claim(t *testing.T, a store.Analyses, node string, ttl time.Duration) (store.Analysis, bool) {
	t.Helper()
	got, ok, err := a.ClaimAnalysis(context.Background(), node, ttl)
	if err != nil {
		t.Fatalf("%s claiming: %v", node, err)
	}
	return got, ok
}

func testAskOnce(t *testing.T, db Opener) {
	s := db.open(t)
	a := analyses(t, s)
	ctx := context.Background()
	if _, _, err := a.AskAnalysis(ctx, "nope", allSeats, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("asking for a missing table's analysis: %v, want ErrNotFound", err)
	}
	if _, err := a.Analysis(ctx, "nope", ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("reading a missing table's analysis: %v, want ErrNotFound", err)
	}
	overTables(t, s, "t1")
	if _, err := a.Analysis(ctx, "t1", ""); !errors.Is(err, store.ErrNoAnalysis) || errors.Is(err, store.ErrNotFound) {
		t.Errorf("reading an analysis never asked for: %v, want ErrNoAnalysis", err)
	}
	first, queued := ask(t, a, "t1", allSeats, 0)
	if !queued || first.Status != store.AnalysisQueued || first.Progress != 0 || first.Report != nil || first.Attempts != 0 {
		t.Errorf("a new analysis: queued %v, %+v", queued, first)
	}
	if first.AskedAt.IsZero() || first.QueuedAt.IsZero() || !first.StartedAt.IsZero() {
		t.Errorf("a new analysis's times: %+v", first)
	}
	again, queued := ask(t, a, "t1", allSeats, 0)
	if queued || again.ID != first.ID || again.Status != store.AnalysisQueued {
		t.Errorf("asking again: queued %v, %+v; want the same analysis, not queued again", queued, again)
	}
	other, queued := ask(t, a, "t1", seatOne, 0)
	if !queued || other.ID == first.ID {
		t.Errorf("other options: queued %v, id %d (first %d); want a second analysis", queued, other.ID, first.ID)
	}
	if got, err := a.Analysis(ctx, "t1", ""); err != nil || got.ID != other.ID {
		t.Errorf("the last asked for: %+v, %v; want %d", got, err, other.ID)
	}
	time.Sleep(2 * time.Millisecond) // the asks' times differ
	ask(t, a, "t1", allSeats, 0)
	if got, err := a.Analysis(ctx, "t1", ""); err != nil || got.ID != first.ID {
		t.Errorf("the last asked for after asking the first again: %+v, %v; want %d", got, err, first.ID)
	}
	if got, err := a.Analysis(ctx, "t1", seatOne); err != nil || got.ID != other.ID || got.Options != seatOne {
		t.Errorf("by its options: %+v, %v", got, err)
	}
	if _, err := a.Analysis(ctx, "t1", `{"seats":[2],"hindsight":false}`); !errors.Is(err, store.ErrNoAnalysis) {
		t.Errorf("options never asked for: %v, want ErrNoAnalysis", err)
	}
}

func testQueueLimit(t *testing.T, db Opener) {
	s := db.open(t)
	a := analyses(t, s)
	ctx := context.Background()
	overTables(t, s, "t1", "t2", "t3")
	ask(t, a, "t1", allSeats, 2)
	ask(t, a, "t2", allSeats, 2)
	if _, _, err := a.AskAnalysis(ctx, "t3", allSeats, 2); !errors.Is(err, store.ErrQueueFull) {
		t.Fatalf("a third with room for two: %v, want ErrQueueFull", err)
	}
	if _, err := a.Analysis(ctx, "t3", ""); !errors.Is(err, store.ErrNoAnalysis) {
		t.Errorf("the refused analysis was stored: %v", err)
	}
	if got, queued := ask(t, a, "t1", allSeats, 2); queued || got.Status != store.AnalysisQueued {
		t.Errorf("asking again for one queued while the queue is full: queued %v, %+v", queued, got)
	}
	if _, ok := claim(t, a, "n1", time.Minute); !ok {
		t.Fatal("nothing to claim")
	}
	if _, queued := ask(t, a, "t3", allSeats, 2); !queued {
		t.Error("a running analysis still counts against the queue")
	}
	ask(t, a, "t3", seatOne, 0) // no limit
}

func testClaimFinish(t *testing.T, db Opener) {
	s := db.open(t)
	a := analyses(t, s)
	ctx := context.Background()
	if _, ok := claim(t, a, "n1", time.Minute); ok {
		t.Fatal("claimed an analysis from an empty store")
	}
	overTables(t, s, "t1", "t2")
	first, _ := ask(t, a, "t1", allSeats, 0)
	time.Sleep(2 * time.Millisecond)
	second, _ := ask(t, a, "t2", allSeats, 0)
	c1, ok := claim(t, a, "n1", time.Minute)
	if !ok || c1.ID != first.ID || c1.Status != store.AnalysisRunning || c1.Node != "n1" || c1.Attempts != 1 {
		t.Fatalf("the first claim: %v %+v; want the analysis asked for first, running on n1", ok, c1)
	}
	if c1.StartedAt.IsZero() || !c1.ClaimUntil.After(c1.StartedAt) {
		t.Errorf("the claim's times: started %v, until %v", c1.StartedAt, c1.ClaimUntil)
	}
	c2, ok := claim(t, a, "n1", time.Minute)
	if !ok || c2.ID != second.ID {
		t.Fatalf("the second claim: %v %+v; want the second analysis", ok, c2)
	}
	if _, ok := claim(t, a, "n2", time.Minute); ok {
		t.Fatal("claimed an analysis that is running under a live claim")
	}
	if err := a.AnalysisProgress(ctx, c1, 0.25, time.Minute); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Analysis(ctx, "t1", allSeats); err != nil || got.Progress != 0.25 || got.Status != store.AnalysisRunning || got.Node != "n1" {
		t.Errorf("after the progress: %+v, %v", got, err)
	}
	report := json.RawMessage(`{"game":"golf","decisions":[{"n":1,"seat":0,"move":"reveal 1","forced":true}],"seats":[]}`)
	if err := a.FinishAnalysis(ctx, c1, json.RawMessage(`{"game":`)); err == nil {
		t.Error("a report that is not JSON was stored")
	}
	if err := a.FinishAnalysis(ctx, c1, report); err != nil {
		t.Fatal(err)
	}
	got, err := a.Analysis(ctx, "t1", allSeats)
	if err != nil || got.Status != store.AnalysisDone || got.Progress != 1 || compact(t, got.Report) != compact(t, report) ||
		got.FinishedAt.IsZero() {
		t.Errorf("after the report: %+v, %v", got, err)
	}
	if _, queued := ask(t, a, "t1", allSeats, 0); queued {
		t.Error("an analysis done was queued again")
	}
	if err := a.FailAnalysis(ctx, c2, "the script's move 3 was refused"); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Analysis(ctx, "t2", ""); err != nil || got.Status != store.AnalysisFailed || got.Error != "the script's move 3 was refused" {
		t.Errorf("after the failure: %+v, %v", got, err)
	}
	if _, ok := claim(t, a, "n2", time.Minute); ok {
		t.Error("claimed an analysis done or failed")
	}
}

func testFencedClaims(t *testing.T, db Opener) {
	s := db.open(t)
	a := analyses(t, s)
	ctx := context.Background()
	overTables(t, s, "t1")
	ask(t, a, "t1", allSeats, 0)
	c, _ := claim(t, a, "n1", time.Minute)
	for _, bad := range []store.Analysis{
		{ID: c.ID, Node: "n2", Attempts: c.Attempts},
		{ID: c.ID, Node: c.Node, Attempts: c.Attempts + 1},
		{ID: c.ID + 1000, Node: c.Node, Attempts: c.Attempts},
	} {
		if err := a.AnalysisProgress(ctx, bad, 0.5, time.Minute); !errors.Is(err, store.ErrLeaseLost) {
			t.Errorf("progress under claim %+v: %v, want ErrLeaseLost", bad, err)
		}
		if err := a.FinishAnalysis(ctx, bad, json.RawMessage(`{}`)); !errors.Is(err, store.ErrLeaseLost) {
			t.Errorf("a report under claim %+v: %v, want ErrLeaseLost", bad, err)
		}
		if err := a.FailAnalysis(ctx, bad, "no"); !errors.Is(err, store.ErrLeaseLost) {
			t.Errorf("a failure under claim %+v: %v, want ErrLeaseLost", bad, err)
		}
	}
	if got, err := a.Analysis(ctx, "t1", ""); err != nil || got.Status != store.AnalysisRunning || got.Progress != 0 {
		t.Errorf("after the fenced writes: %+v, %v; want it running as claimed", got, err)
	}
	if err := a.FinishAnalysis(ctx, c, json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := a.AnalysisProgress(ctx, c, 0.5, time.Minute); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("progress after the report: %v, want ErrLeaseLost", err)
	}
}

func testStaleClaim(t *testing.T, db Opener) {
	s := db.open(t)
	a := analyses(t, s)
	ctx := context.Background()
	overTables(t, s, "t1")
	ask(t, a, "t1", allSeats, 0)
	dead, _ := claim(t, a, "n1", 50*time.Millisecond)
	if err := a.AnalysisProgress(ctx, dead, 0.5, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, ok := claim(t, a, "n2", time.Minute); ok {
		t.Fatal("took over a live claim")
	}
	time.Sleep(100 * time.Millisecond) // n1 died: its claim runs out
	c, ok := claim(t, a, "n2", time.Minute)
	if !ok || c.Node != "n2" || c.Attempts != 2 || c.Progress != 0 || c.Status != store.AnalysisRunning {
		t.Fatalf("taking over a stale claim: %v %+v", ok, c)
	}
	if err := a.AnalysisProgress(ctx, dead, 0.9, time.Minute); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("the dead claim's progress: %v, want ErrLeaseLost", err)
	}
	if err := a.FinishAnalysis(ctx, dead, json.RawMessage(`{}`)); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("the dead claim's report: %v, want ErrLeaseLost", err)
	}
	if err := a.FinishAnalysis(ctx, c, json.RawMessage(`{"by":"n2"}`)); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Analysis(ctx, "t1", ""); compact(t, got.Report) != `{"by":"n2"}` {
		t.Errorf("report %s, want n2's", got.Report)
	}
}

func testReleaseAnalyses(t *testing.T, db Opener) {
	s := db.open(t)
	a := analyses(t, s)
	ctx := context.Background()
	overTables(t, s, "t1", "t2")
	ask(t, a, "t1", allSeats, 0)
	ask(t, a, "t2", allSeats, 0)
	c1, _ := claim(t, a, "n1", time.Hour)
	c2, _ := claim(t, a, "n2", time.Hour)
	if err := a.AnalysisProgress(ctx, c1, 0.5, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := a.ReleaseAnalyses(ctx, "n1"); err != nil {
		t.Fatal(err)
	}
	got, err := a.Analysis(ctx, c1.Table, "")
	if err != nil || got.Status != store.AnalysisQueued || got.Node != "" || got.Progress != 0 || got.Attempts != 0 {
		t.Errorf("a released analysis: %+v, %v; want it queued as before its claim", got, err)
	}
	if got, _ := a.Analysis(ctx, c2.Table, ""); got.Status != store.AnalysisRunning || got.Node != "n2" {
		t.Errorf("another node's analysis after n1's release: %+v", got)
	}
	if err := a.AnalysisProgress(ctx, c1, 0.6, time.Hour); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("progress after the release: %v, want ErrLeaseLost", err)
	}
	again, ok := claim(t, a, "n3", time.Hour)
	if !ok || again.ID != c1.ID || again.Attempts != 1 {
		t.Errorf("claiming the released analysis at once: %v %+v", ok, again)
	}
}

func testFailedAgain(t *testing.T, db Opener) {
	s := db.open(t)
	a := analyses(t, s)
	ctx := context.Background()
	overTables(t, s, "t1", "t2")
	ask(t, a, "t1", allSeats, 0)
	c, _ := claim(t, a, "n1", time.Hour)
	if err := a.FailAnalysis(ctx, c, "the node ran out of memory"); err != nil {
		t.Fatal(err)
	}
	ask(t, a, "t2", allSeats, 0)
	if _, _, err := a.AskAnalysis(ctx, "t1", allSeats, 1); !errors.Is(err, store.ErrQueueFull) {
		t.Errorf("asking again for a failed analysis with the queue full: %v, want ErrQueueFull", err)
	}
	if got, _ := a.Analysis(ctx, "t1", ""); got.Status != store.AnalysisFailed {
		t.Errorf("refused, it is %+v; want it failed as it was", got)
	}
	got, queued := ask(t, a, "t1", allSeats, 2)
	if !queued || got.ID != c.ID || got.Status != store.AnalysisQueued || got.Error != "" || got.Attempts != 0 {
		t.Errorf("asking again for a failed analysis: queued %v, %+v; want it queued afresh", queued, got)
	}
}

// testClaimRace has two stores on one database (two nodes) claim from
// many goroutines at once: every analysis is claimed exactly once.
func testClaimRace(t *testing.T, db Opener) {
	s1, s2 := db.open(t), db.open(t)
	ctx := context.Background()
	const n = 24
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("t%02d", i)
	}
	overTables(t, s1, ids...)
	for _, id := range ids {
		ask(t, analyses(t, s1), id, allSeats, 0)
	}
	var mu sync.Mutex
	claims := map[int64][]string{}
	var wg sync.WaitGroup
	for w := range 8 {
		a := analyses(t, []store.Store{s1, s2}[w%2])
		node := fmt.Sprintf("n%d", w)
		wg.Go(func() {
			for {
				c, ok, err := a.ClaimAnalysis(ctx, node, time.Hour)
				if err != nil {
					t.Errorf("%s claiming: %v", node, err)
					return
				}
				if !ok {
					return
				}
				mu.Lock()
				claims[c.ID] = append(claims[c.ID], node)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(claims) != n {
		t.Errorf("%d analyses claimed, want %d", len(claims), n)
	}
	for id, nodes := range claims {
		if len(nodes) != 1 {
			t.Errorf("analysis %d claimed by %v", id, nodes)
		}
	}
}

func testAnalysisReopen(t *testing.T, db Opener) {
	ctx := context.Background()
	s := db(t)
	a := analyses(t, s)
	overTables(t, s, "done", "queued")
	ask(t, a, "done", allSeats, 0)
	c, _ := claim(t, a, "n1", time.Hour)
	report := json.RawMessage(`{"game":"golf","mode":"information"}`)
	if err := a.FinishAnalysis(ctx, c, report); err != nil {
		t.Fatal(err)
	}
	ask(t, a, "queued", seatOne, 0)
	waiting := sample("waiting") // a waiting table's analysis goes with it
	if err := s.CreateTable(ctx, waiting); err != nil {
		t.Fatal(err)
	}
	ask(t, a, "waiting", allSeats, 0)
	if err := s.DeleteTable(ctx, waiting); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Analysis(ctx, "waiting", ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the analysis of a deleted table: %v, want ErrNotFound", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = db.open(t)
	a = analyses(t, s)
	got, err := a.Analysis(ctx, "done", "")
	if err != nil || got.Status != store.AnalysisDone || compact(t, got.Report) != compact(t, report) {
		t.Errorf("a report after a reopen: %+v, %v", got, err)
	}
	if got, err := a.Analysis(ctx, "queued", ""); err != nil || got.Status != store.AnalysisQueued || got.Options != seatOne {
		t.Errorf("a queued analysis after a reopen: %+v, %v", got, err)
	}
	if c, ok := claim(t, a, "n2", time.Hour); !ok || c.Table != "queued" {
		t.Errorf("claiming after a reopen: %v %+v; want the queued analysis", ok, c)
	}
	// Nothing of the deleted table's analysis is left to claim.
	if _, ok := claim(t, a, "n2", time.Hour); ok {
		t.Error("claimed a second analysis; the deleted table's is still there")
	}
}
