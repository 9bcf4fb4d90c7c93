package server_test

import (
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/internal/metrics"
)

// TestLoadShedding checks --max-tables and --max-connections: past them a
// node refuses new tables and connections with 503, code "full" and
// Retry-After, while the tables and connections it has play on; the
// refusals are counted in /metrics.
func TestLoadShedding(t *testing.T) {
	mx := metrics.New()
	e := newEnv(t, envConfig{maxTables: 1, maxConns: 1, metrics: mx})
	info := e.create(map[string]any{"game": "golf", "seats": []string{"open", "random"}, "options": map[string]any{"holes": 1}})
	j := e.join(info.ID, 0, "Ann")

	var refusal struct {
		Error struct{ Code string } `json:"error"`
	}
	if code := e.do("POST", "/api/tables", map[string]any{"game": "golf"}, &refusal); code != http.StatusServiceUnavailable || refusal.Error.Code != "full" {
		t.Fatalf("a table past --max-tables: %d %q, want 503 full", code, refusal.Error.Code)
	}
	resp, err := http.Post(e.url+"/api/tables", "application/json", strings.NewReader(`{"game":"golf"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Retry-After") == "" {
		t.Error("a shed table request has no Retry-After")
	}

	ann := e.dial(info.ID, j.Token, "Ann")
	ann.waitFor("a state", 5*time.Second, func(m msg) bool { return m.Type == "state" })
	_, resp, err = dialRaw(t, e.url, info.ID, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("a connection past --max-connections: err %v, status %d; want 503 with Retry-After", err, status)
	}

	// The table already playing plays on.
	seq := -1
	ann.play(rand.New(rand.NewPCG(1, 2)), 30*time.Second, func(s int) bool { seq = s; return s >= 4 })
	if seq < 4 {
		t.Fatalf("the table stopped at move %d while the node shed load", seq)
	}

	scrape, err := http.Get(e.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(scrape.Body)
	scrape.Body.Close()
	for _, want := range []string{`parlour_shed_total{what="table"} 2`, `parlour_shed_total{what="connection"} 1`, "parlour_connections 1", `parlour_refusals_total{code="full"} 3`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}
