package loadgen

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// exposition is a server's metrics with spanMetric holding counts
// (cumulative, at 1, 5, 10 ms and +Inf), among other lines.
func exposition(counts ...int) string {
	les := []string{"0.001", "0.005", "0.01", "+Inf"}
	var b strings.Builder
	b.WriteString("# HELP parlour_move_to_view_seconds Time from a person's move ...\n# TYPE parlour_move_to_view_seconds histogram\n")
	for i, c := range counts {
		b.WriteString(`parlour_move_to_view_seconds_bucket{le="` + les[i] + `"} ` + strconv.Itoa(c) + "\n")
	}
	b.WriteString("parlour_move_to_view_seconds_sum 1.5\nparlour_move_to_view_seconds_count " + strconv.Itoa(counts[len(counts)-1]) + "\n")
	b.WriteString(`parlour_store_commit_seconds_bucket{le="0.001"} 99` + "\n")
	return b.String()
}

// TestParseSpan checks that the span's buckets are read from a server's
// metrics, and that a missing or malformed histogram is refused.
func TestParseSpan(t *testing.T) {
	bounds, counts, ok := parseSpan(exposition(10, 50, 90, 100))
	if !ok || len(bounds) != 4 || bounds[1] != 0.005 || !math.IsInf(bounds[3], 1) || counts[3] != 100 {
		t.Fatalf("parseSpan = %v, %v, %v; want the four buckets", bounds, counts, ok)
	}
	for name, text := range map[string]string{
		"no histogram":   "parlour_moves_total 5\n",
		"no +Inf bucket": `parlour_move_to_view_seconds_bucket{le="0.001"} 3` + "\n",
		"a bad count":    strings.Replace(exposition(1, 2, 3, 4), `"0.005"} 2`, `"0.005"} two`, 1),
		"counts falling": exposition(10, 5, 90, 100),
	} {
		if _, _, ok := parseSpan(text); ok {
			t.Errorf("%s: parsed, want refused", name)
		}
	}
}

// TestSpanReport checks the quantiles of the span over a window, read
// between two readings as Prometheus's histogram_quantile reads them.
func TestSpanReport(t *testing.T) {
	read := func(counts ...int) spanReading {
		b, c, ok := parseSpan(exposition(counts...))
		return spanReading{bounds: b, counts: c, ok: ok}
	}
	var rep Report
	// 100 moves in the window: 40 under 1 ms, 40 more under 5 ms, 19 under
	// 10 ms and one over.
	read(5, 10, 20, 20).report(read(45, 90, 119, 120), &rep)
	if rep.ServerViews != 100 {
		t.Errorf("ServerViews %d, want 100", rep.ServerViews)
	}
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-9 }
	// p50: rank 50, in (1, 5] ms with 40 below: 1 + 4*10/40.
	// p90: rank 90, in (5, 10] ms with 80 below: 5 + 5*10/19.
	// p99: rank 99, in (5, 10] ms: 5 + 5*19/19.
	if !near(rep.ServerP50MS, 2) || !near(rep.ServerP90MS, 5+50.0/19) || !near(rep.ServerP99MS, 10) {
		t.Errorf("server p50 %v, p90 %v, p99 %v; want 2, %v, 10", rep.ServerP50MS, rep.ServerP90MS, rep.ServerP99MS, 5+50.0/19)
	}
	// A quantile in the +Inf bucket is the highest finite bound.
	rep = Report{}
	read(0, 0, 0, 0).report(read(0, 0, 1, 10), &rep)
	if rep.ServerP50MS != 10 || rep.ServerP99MS != 10 {
		t.Errorf("all but one over 10 ms: p50 %v, p99 %v; want 10 and 10", rep.ServerP50MS, rep.ServerP99MS)
	}
	// Nothing counted, or a reading missing: nothing reported.
	for _, pair := range [][2]spanReading{{read(1, 2, 3, 4), read(1, 2, 3, 4)}, {{}, read(1, 2, 3, 4)}, {read(1, 2, 3, 4), {}}} {
		rep = Report{}
		pair[0].report(pair[1], &rep)
		if rep.ServerViews != 0 || rep.ServerP99MS != 0 {
			t.Errorf("report(%v, %v) = %d moves, p99 %v; want none", pair[0], pair[1], rep.ServerViews, rep.ServerP99MS)
		}
	}
}
