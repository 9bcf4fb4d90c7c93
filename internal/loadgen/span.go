package loadgen

import (
	"context"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// spanMetric is the histogram a Parlour server keeps of its own part of a
// person's move: from the move received to the view with it queued to
// that person's connection. What the load generator measures beyond it is
// the network's, the client's and the server's own reading and writing.
const spanMetric = "parlour_move_to_view_seconds"

// spanReading is the servers' histogram of spanMetric so far, summed over
// the servers: the cumulative count at each bucket's upper bound, in
// seconds, ascending, +Inf last. ok is false when a server's metrics
// could not be read or held no such histogram.
type spanReading struct {
	bounds []float64
	counts []float64
	ok     bool
}

// spanTimeout bounds each read of a server's metrics.
const spanTimeout = 2 * time.Second

// readSpan reads spanMetric from each server's GET /metrics.
func readSpan(ctx context.Context, client *http.Client, urls []string) spanReading {
	var sum spanReading
	for i, u := range urls {
		bounds, counts, ok := fetchSpan(ctx, client, u+"/metrics")
		if !ok || (i > 0 && !slices.Equal(bounds, sum.bounds)) {
			return spanReading{}
		}
		if i == 0 {
			sum = spanReading{bounds: bounds, counts: counts, ok: true}
			continue
		}
		for j, c := range counts {
			sum.counts[j] += c
		}
	}
	return sum
}

// fetchSpan gets url (a server's metrics) and parses spanMetric from it.
func fetchSpan(ctx context.Context, client *http.Client, url string) (bounds, counts []float64, ok bool) {
	ctx, cancel := context.WithTimeout(ctx, spanTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, false
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, false
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, nil, false
	}
	return parseSpan(string(body))
}

// parseSpan returns spanMetric's buckets from a Prometheus text
// exposition: each bucket's upper bound and cumulative count, ascending,
// +Inf last. False if it has no such histogram, or a line of it is
// malformed.
func parseSpan(text string) (bounds, counts []float64, ok bool) {
	prefix := spanMetric + `_bucket{le="`
	for line := range strings.Lines(text) {
		rest, found := strings.CutPrefix(line, prefix)
		if !found {
			continue
		}
		le, value, found := strings.Cut(rest, `"} `)
		if !found {
			return nil, nil, false
		}
		b, err1 := strconv.ParseFloat(le, 64)
		c, err2 := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err1 != nil || err2 != nil {
			return nil, nil, false
		}
		bounds, counts = append(bounds, b), append(counts, c)
	}
	if len(bounds) == 0 || !math.IsInf(bounds[len(bounds)-1], 1) ||
		!slices.IsSorted(bounds) || !slices.IsSorted(counts) {
		return nil, nil, false
	}
	return bounds, counts, true
}

// report fills rep's figures of the servers' own span for the time from s
// to end: the moves in it and its quantiles.
func (s spanReading) report(end spanReading, rep *Report) {
	if !s.ok || !end.ok || !slices.Equal(s.bounds, end.bounds) {
		return
	}
	delta := make([]float64, len(end.counts))
	for i := range delta {
		delta[i] = end.counts[i] - s.counts[i]
	}
	total := delta[len(delta)-1]
	if total <= 0 {
		return
	}
	rep.ServerViews = int64(total)
	rep.ServerP50MS = 1000 * quantile(0.50, end.bounds, delta)
	rep.ServerP90MS = 1000 * quantile(0.90, end.bounds, delta)
	rep.ServerP99MS = 1000 * quantile(0.99, end.bounds, delta)
}

// quantile returns the q-quantile (0 < q <= 1) of a histogram
// (cumulative counts at ascending upper bounds, +Inf last, the last count
// above 0), interpolated linearly within its bucket, as Prometheus's
// histogram_quantile does: a quantile in the +Inf bucket is the highest
// finite bound, and one in the first bucket is read from 0 up. Its bucket
// i is the first whose count reaches the rank, so counts[i] is above the
// count below it.
func quantile(q float64, bounds, counts []float64) float64 {
	rank := q * counts[len(counts)-1]
	i, _ := slices.BinarySearch(counts, rank)
	if math.IsInf(bounds[i], 1) {
		if i == 0 {
			return 0
		}
		return bounds[i-1]
	}
	lower, below := 0.0, 0.0
	if i > 0 {
		lower, below = bounds[i-1], counts[i-1]
	}
	return lower + (bounds[i]-lower)*(rank-below)/(counts[i]-below)
}
