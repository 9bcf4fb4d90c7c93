package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Analysis statuses: an analysis is queued, then running on a node, then
// done (its report is stored) or failed.
const (
	AnalysisQueued  = "queued"
	AnalysisRunning = "running"
	AnalysisDone    = "done"
	AnalysisFailed  = "failed"
)

// Errors of the analyses; match them with errors.Is.
var (
	// ErrQueueFull marks an analysis refused because as many as the
	// caller allows are already waiting. Nothing was stored.
	ErrQueueFull = errors.New("the analysis queue is full")
	// ErrNoAnalysis marks a table with no analysis asked for (with the
	// options named).
	ErrNoAnalysis = errors.New("no analysis was asked for")
)

// Analysis is the analysis of a finished game with one set of options, as
// stored with its table: a job until it is done.
type Analysis struct {
	ID    int64  // the analysis's id in the store
	Table string // the table analysed
	// Options are the options asked for, as the caller encodes them (a
	// canonical form: with Table, they name the analysis).
	Options  string
	Status   string  // AnalysisQueued, AnalysisRunning, AnalysisDone or AnalysisFailed
	Progress float64 // 0 to 1, as its node last wrote it
	// Report is the report (JSON) once done, nil before.
	Report json.RawMessage
	Error  string // why it failed
	// Node is the node that claimed it last, and Attempts how many times
	// it was claimed; with ID they fence the claim's writes.
	Node     string
	Attempts int
	// ClaimUntil is when the claim runs out unless renewed, by the
	// database's clock.
	ClaimUntil time.Time
	// AskedAt is when it was last asked for, QueuedAt when it was
	// (last) queued, StartedAt when it was last claimed and FinishedAt
	// when it was done or failed (zero times: not yet).
	AskedAt, QueuedAt, StartedAt, FinishedAt time.Time
}

// Analyses keeps the analyses of finished games with their tables (a
// table's analyses go with it), as jobs any node of a cluster may do: a
// node claims an analysis for a while, renews the claim as it writes its
// progress, and stores the report; a claim that runs out (its node died)
// is claimed again by any node. The claims' writes are fenced: once
// another node has claimed the analysis, or the claim was released, they
// fail with ErrLeaseLost. Every time is the database's clock.
//
// Both stores implement it.
type Analyses interface {
	// AskAnalysis asks for the analysis of table tableID with options.
	// An analysis already asked for (queued, running or done) is returned
	// as it is, with queued false, and is the one the table's last ask
	// names; a failed one is queued again. A new one is queued unless
	// limit or more analyses (of any table) are queued already, then
	// ErrQueueFull (limit 0 or less: no limit). ErrNotFound if the table
	// is not there.
	AskAnalysis(ctx context.Context, tableID, options string, limit int) (a Analysis, queued bool, err error)
	// Analysis returns table tableID's analysis with options, or with
	// options "" the one asked for last. ErrNotFound if the table is not
	// there, ErrNoAnalysis if it has no such analysis.
	Analysis(ctx context.Context, tableID, options string) (Analysis, error)
	// ClaimAnalysis gives node the analysis waiting longest, queued or
	// running under a claim that ran out, for ttl, and returns it as
	// claimed (running, Attempts one more, Progress 0); ok is false when
	// none waits. Two nodes never claim one analysis at once.
	ClaimAnalysis(ctx context.Context, node string, ttl time.Duration) (a Analysis, ok bool, err error)
	// AnalysisProgress records the progress (0 to 1) of the analysis a
	// claim (as ClaimAnalysis returned it) runs, and renews the claim
	// for ttl from now. ErrLeaseLost if the claim is no longer the
	// analysis's.
	AnalysisProgress(ctx context.Context, claim Analysis, progress float64, ttl time.Duration) error
	// FinishAnalysis stores the report of the analysis claim runs: it is
	// done. ErrLeaseLost if the claim is no longer the analysis's.
	FinishAnalysis(ctx context.Context, claim Analysis, report json.RawMessage) error
	// FailAnalysis marks the analysis claim runs as failed, for why.
	// ErrLeaseLost if the claim is no longer the analysis's.
	FailAnalysis(ctx context.Context, claim Analysis, why string) error
	// ReleaseAnalyses queues again the analyses node runs (it is
	// stopping), as they were before their claim, so that any node takes
	// them up at once.
	ReleaseAnalyses(ctx context.Context, node string) error
}

// analysisColumns are an analysis's columns as scanAnalysis reads them.
const analysisColumns = `id, table_id, options, status, progress, report, error, node, attempts, claim_until,
	asked_at, queued_at, started_at, finished_at`

func scanAnalysis(r scanner) (Analysis, error) {
	var (
		a                                     Analysis
		report                                string
		until, asked, queued, started, finish int64
	)
	err := r.Scan(&a.ID, &a.Table, &a.Options, &a.Status, &a.Progress, &report, &a.Error, &a.Node, &a.Attempts,
		&until, &asked, &queued, &started, &finish)
	if err != nil {
		return Analysis{}, err
	}
	if report != "" {
		a.Report = json.RawMessage(report)
	}
	at := func(us int64) time.Time {
		if us == 0 {
			return time.Time{}
		}
		return fromMicros(us)
	}
	a.ClaimUntil, a.AskedAt, a.QueuedAt, a.StartedAt, a.FinishedAt = at(until), at(asked), at(queued), at(started), at(finish)
	return a, nil
}

// queueRoom is the SQL condition that fewer than limit analyses are
// queued (limit 0 or less: always), with its two arguments.
func queueRoom(limit int) (string, []any) {
	return `(? <= 0 OR (SELECT COUNT(*) FROM analyses WHERE status = '` + AnalysisQueued + `') < ?)`, []any{limit, limit}
}

func (s *sqlStore) AskAnalysis(ctx context.Context, tableID, options string, limit int) (Analysis, bool, error) {
	room, roomArgs := queueRoom(limit)
	args := append([]any{tableID, options, AnalysisQueued, tableID}, roomArgs...)
	res, err := s.db.ExecContext(ctx, s.q(`INSERT INTO analyses (table_id, options, status, asked_at, queued_at)
		SELECT ?, ?, ?, `+s.now()+`, `+s.now()+`
		WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?) AND `+room+`
		ON CONFLICT (table_id, options) DO NOTHING`), args...)
	if err != nil {
		return Analysis{}, false, fmt.Errorf("store: asking for the analysis of %s: %w", tableID, sqliteFault(err))
	}
	if n, _ := res.RowsAffected(); n > 0 {
		a, err := s.Analysis(ctx, tableID, options)
		return a, true, err
	}
	// Not inserted: the analysis is there already, or the table is not,
	// or the queue is full.
	a, err := s.Analysis(ctx, tableID, options)
	switch {
	case errors.Is(err, ErrNoAnalysis):
		return Analysis{}, false, fmt.Errorf("store: analysis of %s: %w", tableID, ErrQueueFull)
	case err != nil:
		return Analysis{}, false, err
	case a.Status == AnalysisFailed:
		args := append([]any{AnalysisQueued, a.ID, AnalysisFailed}, roomArgs...)
		res, err := s.db.ExecContext(ctx, s.q(`UPDATE analyses SET status = ?, progress = 0, report = '', error = '',
			node = '', claim_until = 0, attempts = 0, started_at = 0, finished_at = 0,
			asked_at = `+s.now()+`, queued_at = `+s.now()+`
			WHERE id = ? AND status = ? AND `+room), args...)
		if err != nil {
			return Analysis{}, false, fmt.Errorf("store: asking for the analysis of %s again: %w", tableID, sqliteFault(err))
		}
		n, _ := res.RowsAffected()
		if a, err = s.Analysis(ctx, tableID, options); err != nil {
			return Analysis{}, false, err
		}
		if n == 0 && a.Status == AnalysisFailed {
			return Analysis{}, false, fmt.Errorf("store: analysis of %s: %w", tableID, ErrQueueFull)
		}
		return a, n > 0, nil
	}
	if _, err := s.db.ExecContext(ctx, s.q(`UPDATE analyses SET asked_at = `+s.now()+` WHERE id = ?`), a.ID); err != nil {
		return Analysis{}, false, fmt.Errorf("store: asking for the analysis of %s: %w", tableID, sqliteFault(err))
	}
	return a, false, nil
}

func (s *sqlStore) Analysis(ctx context.Context, tableID, options string) (Analysis, error) {
	query, args := `SELECT `+analysisColumns+` FROM analyses WHERE table_id = ? AND options = ?`, []any{tableID, options}
	if options == "" {
		query, args = `SELECT `+analysisColumns+` FROM analyses WHERE table_id = ? ORDER BY asked_at DESC, id DESC LIMIT 1`, []any{tableID}
	}
	a, err := scanAnalysis(s.db.QueryRowContext(ctx, s.q(query), args...))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if !s.exists(ctx, tableID) {
			return Analysis{}, fmt.Errorf("store: table %s: %w", tableID, ErrNotFound)
		}
		return Analysis{}, fmt.Errorf("store: table %s: %w", tableID, ErrNoAnalysis)
	case err != nil:
		return Analysis{}, fmt.Errorf("store: reading the analysis of %s: %w", tableID, err)
	}
	return a, nil
}

func (s *sqlStore) ClaimAnalysis(ctx context.Context, node string, ttl time.Duration) (Analysis, bool, error) {
	// One statement: the analysis waiting longest is taken, and only if
	// it still waits. PostgreSQL's nodes skip the rows another node is
	// claiming at the moment; SQLite's one writer claims one at a time.
	skip := ""
	if s.pg {
		skip = "FOR UPDATE SKIP LOCKED"
	}
	a, err := scanAnalysis(s.db.QueryRowContext(ctx, s.q(`UPDATE analyses SET status = ?, node = ?,
		claim_until = `+s.now()+` + ?, attempts = attempts + 1, progress = 0, started_at = `+s.now()+`
		WHERE id = (SELECT id FROM analyses
			WHERE status = ? OR (status = ? AND claim_until <= `+s.now()+`)
			ORDER BY queued_at, id LIMIT 1 `+skip+`)
		RETURNING `+analysisColumns),
		AnalysisRunning, node, ttl.Microseconds(), AnalysisQueued, AnalysisRunning))
	if errors.Is(err, sql.ErrNoRows) {
		return Analysis{}, false, nil
	}
	if err != nil {
		return Analysis{}, false, fmt.Errorf("store: claiming an analysis for node %s: %w", node, sqliteFault(err))
	}
	return a, true, nil
}

// claimed runs a write to the analysis claim runs, fenced by the claim,
// with set's columns and args; ErrLeaseLost if it changed nothing.
func (s *sqlStore) claimed(ctx context.Context, claim Analysis, doing, set string, args ...any) error {
	args = append(args, claim.ID, claim.Node, claim.Attempts, AnalysisRunning)
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE analyses SET `+set+`
		WHERE id = ? AND node = ? AND attempts = ? AND status = ?`), args...)
	if err != nil {
		return fmt.Errorf("store: %s of analysis %d: %w", doing, claim.ID, sqliteFault(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("store: %s of analysis %d: %w", doing, claim.ID, ErrLeaseLost)
	}
	return nil
}

func (s *sqlStore) AnalysisProgress(ctx context.Context, claim Analysis, progress float64, ttl time.Duration) error {
	progress = min(max(progress, 0), 1)
	return s.claimed(ctx, claim, "the progress", `progress = ?, claim_until = `+s.now()+` + ?`, progress, ttl.Microseconds())
}

func (s *sqlStore) FinishAnalysis(ctx context.Context, claim Analysis, report json.RawMessage) error {
	if !json.Valid(report) {
		return fmt.Errorf("store: the report of analysis %d is not JSON", claim.ID)
	}
	return s.claimed(ctx, claim, "the report", `status = ?, progress = 1, report = ?, claim_until = 0, finished_at = `+s.now(),
		AnalysisDone, string(report))
}

func (s *sqlStore) FailAnalysis(ctx context.Context, claim Analysis, why string) error {
	return s.claimed(ctx, claim, "the failure", `status = ?, error = ?, claim_until = 0, finished_at = `+s.now(),
		AnalysisFailed, why)
}

func (s *sqlStore) ReleaseAnalyses(ctx context.Context, node string) error {
	// The claim did not finish: it does not count as an attempt.
	_, err := s.db.ExecContext(ctx, s.q(`UPDATE analyses SET status = ?, node = '', claim_until = 0, progress = 0,
		attempts = attempts - 1, started_at = 0 WHERE node = ? AND status = ?`), AnalysisQueued, node, AnalysisRunning)
	if err != nil {
		return fmt.Errorf("store: releasing node %s's analyses: %w", node, sqliteFault(err))
	}
	return nil
}
