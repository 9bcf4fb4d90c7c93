package metrics_test

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/games"
	"parlour/internal/metrics"
)

// scrape is one scrape of the text exposition.
type scrape struct {
	help    map[string]string  // family -> HELP text
	typ     map[string]string  // family -> TYPE
	samples map[string]float64 // series as written (name{labels}) -> value
}

func get(t *testing.T, h http.Handler) scrape {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /metrics: %s: %s", resp.Status, b)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("Content-Type = %q, want the text format", ct)
	}
	s := scrape{help: map[string]string{}, typ: map[string]string{}, samples: map[string]float64{}}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
		case strings.HasPrefix(line, "# HELP "):
			name, help, _ := strings.Cut(strings.TrimPrefix(line, "# HELP "), " ")
			s.help[name] = help
		case strings.HasPrefix(line, "# TYPE "):
			name, typ, _ := strings.Cut(strings.TrimPrefix(line, "# TYPE "), " ")
			s.typ[name] = typ
		case strings.HasPrefix(line, "#"):
		default:
			i := strings.LastIndexByte(line, ' ')
			if i < 0 {
				t.Fatalf("bad sample line %q", line)
			}
			v, err := strconv.ParseFloat(line[i+1:], 64)
			if err != nil {
				t.Fatalf("bad sample line %q: %v", line, err)
			}
			s.samples[line[:i]] = v
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s scrape) value(t *testing.T, series string) float64 {
	t.Helper()
	v, ok := s.samples[series]
	if !ok {
		t.Fatalf("no series %s in the scrape", series)
	}
	return v
}

func TestFamiliesMatchDescribe(t *testing.T) {
	s := get(t, metrics.New().Handler())
	docs := metrics.Describe()
	if len(docs) == 0 {
		t.Fatal("Describe lists nothing")
	}
	listed := map[string]bool{}
	for _, d := range docs {
		listed[d.Name] = true
		if !strings.HasPrefix(d.Name, "parlour_") {
			t.Errorf("%s: not under parlour_", d.Name)
		}
		if got := s.typ[d.Name]; got != d.Type {
			t.Errorf("%s: TYPE %q in the scrape, Describe says %q", d.Name, got, d.Type)
		}
		if got := s.help[d.Name]; got != d.Help {
			t.Errorf("%s: HELP %q in the scrape, Describe says %q", d.Name, got, d.Help)
		}
	}
	for name := range s.typ {
		switch {
		case strings.HasPrefix(name, "parlour_"):
			if !listed[name] {
				t.Errorf("%s is scraped but not in Describe", name)
			}
		case strings.HasPrefix(name, "go_"), strings.HasPrefix(name, "process_"):
		default:
			t.Errorf("%s: a family from no known collector", name)
		}
	}
	if _, ok := s.typ["go_goroutines"]; !ok {
		t.Error("no go_goroutines: the Go collector is not registered")
	}
	if runtime.GOOS == "linux" {
		if _, ok := s.typ["process_resident_memory_bytes"]; !ok {
			t.Error("no process_resident_memory_bytes: the process collector is not registered")
		}
	}
}

func TestPreregisteredSeries(t *testing.T) {
	s := get(t, metrics.New().Handler())
	for _, g := range games.Registry.Names() {
		if v := s.value(t, `parlour_moves_total{game="`+g+`"}`); v != 0 {
			t.Errorf("moves of %s = %v at start", g, v)
		}
	}
	for _, c := range append(metrics.RefusalCodes(), "other") {
		if v := s.value(t, `parlour_refusals_total{code="`+c+`"}`); v != 0 {
			t.Errorf("refusals %s = %v at start", c, v)
		}
	}
	for _, w := range []string{"table", "connection", "other"} {
		s.value(t, `parlour_shed_total{what="`+w+`"}`)
	}
	for _, name := range []string{"parlour_tables_live", "parlour_connections", "parlour_leases_held",
		"parlour_takeovers_total", "parlour_relayed_connections",
		"parlour_move_to_view_seconds_count", "parlour_store_commit_seconds_count",
		"parlour_inbox_queued", "parlour_inbox_max", "parlour_actors_ready", "parlour_chat_queued",
		"parlour_search_queued", "parlour_search_busy", "parlour_search_workers", "parlour_search_fallbacks_total"} {
		if v := s.value(t, name); v != 0 {
			t.Errorf("%s = %v at start", name, v)
		}
	}
}

// protocolCodes reads the refusal codes from the protocol's two error tables
// (docs/protocol.md) and from the sources of internal/protocol, internal/table
// and internal/server.
func protocolCodes(t *testing.T) []string {
	t.Helper()
	var codes []string
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	tick := regexp.MustCompile("`([a-z_]+)`")
	col := -1 // the column of codes in the table being read, -1 outside one
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		switch {
		case !strings.HasPrefix(line, "|"):
			col = -1
		case strings.HasPrefix(line, "|---"):
		case col < 0:
			for i, c := range cells {
				if strings.TrimSpace(c) == "code" {
					col = i
				}
			}
		case col < len(cells):
			for _, m := range tick.FindAllStringSubmatch(cells[col], -1) {
				codes = append(codes, m[1])
			}
		}
	}
	// The Go sources: Code constants, and codes written next to an HTTP status.
	var files []string
	for _, dir := range []string{"../protocol", "../table", "../server"} {
		fs, _ := filepath.Glob(dir + "/*.go")
		for _, f := range fs {
			if !strings.HasSuffix(f, "_test.go") {
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		t.Fatal("no sources found in internal/protocol, internal/table, internal/server")
	}
	constant := regexp.MustCompile(`(?m)^\s*Code\w+\s*=\s*"([a-z_]+)"`)
	status := regexp.MustCompile(`http\.Status\w+,\s*"([a-z_]+)"`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, re := range []*regexp.Regexp{constant, status} {
			for _, m := range re.FindAllStringSubmatch(string(src), -1) {
				codes = append(codes, m[1])
			}
		}
	}
	slices.Sort(codes)
	return slices.Compact(codes)
}

func TestRefusalCodesCoverProtocol(t *testing.T) {
	codes := protocolCodes(t)
	if len(codes) < 15 {
		t.Fatalf("found only %d codes in docs/protocol.md and the sources: %v", len(codes), codes)
	}
	known := metrics.RefusalCodes()
	for _, code := range codes {
		if !slices.Contains(known, code) {
			t.Errorf("refusal code %q (docs/protocol.md or the sources) is not counted by name: add it to refusalCodes", code)
		}
	}
}

func TestCounting(t *testing.T) {
	m := metrics.New()
	m.TableOpened()
	m.TableOpened()
	m.TableClosed()
	m.ConnOpened()
	m.ConnOpened()
	m.ConnOpened()
	m.ConnClosed()
	m.Move("golf")
	m.Move("golf")
	m.Move("damn")
	m.Move("newgame")
	m.MoveToView(300 * time.Microsecond)
	m.MoveToView(2 * time.Millisecond)
	m.StoreCommit(7 * time.Millisecond)
	m.SetLeases(5)
	m.SetLeases(3)
	m.Takeover()
	m.Refusal("not_your_turn")
	m.Refusal("illegal_move")
	m.Refusal("illegal_move")
	m.Refusal("made_up_code")
	m.Refusal("")
	m.Shed("table")
	m.Shed("connection")
	m.Shed("connection")
	m.Shed("cpu")
	m.Relay(1)
	m.Relay(1)
	m.Relay(-1)
	m.SearchFallback()
	m.SearchFallback()
	m.SearchThink(300 * time.Millisecond)
	m.SearchPaced(250 * time.Millisecond)
	m.SearchPaced(0)
	m.SearchPaced(500 * time.Millisecond)
	m.Refusal("busy")
	m.Refusal("chat_backlog")
	inbox := 3
	m.Depth("inbox", func() int { return inbox })
	m.Depth("inbox_max", func() int { return 99 })
	m.Depth("inbox_max", func() int { return 2 }) // a later reader replaces the first
	m.Depth("actors_ready", func() int { return 4 })
	m.Depth("chat", func() int { return 5 })
	m.Depth("search_queued", func() int { return 6 })
	m.Depth("search_busy", func() int { return 7 })
	m.Depth("search_workers", func() int { return 8 })
	m.Depth("no_such_queue", func() int { return 100 })
	inbox = 11 // read at the scrape, not when given

	s := get(t, m.Handler())
	want := map[string]float64{
		"parlour_tables_live":                               1,
		"parlour_connections":                               2,
		`parlour_moves_total{game="golf"}`:                  2,
		`parlour_moves_total{game="damn"}`:                  1,
		`parlour_moves_total{game="tractric"}`:              0,
		`parlour_moves_total{game="newgame"}`:               1,
		"parlour_move_to_view_seconds_count":                2,
		`parlour_move_to_view_seconds_bucket{le="0.00025"}`: 0,
		`parlour_move_to_view_seconds_bucket{le="0.0005"}`:  1,
		`parlour_move_to_view_seconds_bucket{le="0.0025"}`:  2,
		`parlour_move_to_view_seconds_bucket{le="+Inf"}`:    2,
		"parlour_store_commit_seconds_count":                1,
		"parlour_store_commit_seconds_sum":                  0.007,
		"parlour_leases_held":                               3,
		"parlour_takeovers_total":                           1,
		`parlour_refusals_total{code="not_your_turn"}`:      1,
		`parlour_refusals_total{code="illegal_move"}`:       2,
		`parlour_refusals_total{code="other"}`:              2,
		`parlour_refusals_total{code="bad_move"}`:           0,
		`parlour_shed_total{what="table"}`:                  1,
		`parlour_shed_total{what="connection"}`:             2,
		`parlour_shed_total{what="other"}`:                  1,
		"parlour_relayed_connections":                       1,
		"parlour_search_fallbacks_total":                    2,
		"parlour_search_think_seconds_count":                1,
		`parlour_search_think_seconds_bucket{le="0.25"}`:    0,
		`parlour_search_think_seconds_bucket{le="0.5"}`:     1,
		"parlour_search_paced_seconds_total":                0.75,
		`parlour_refusals_total{code="busy"}`:               1,
		`parlour_refusals_total{code="chat_backlog"}`:       1,
		"parlour_inbox_queued":                              11,
		"parlour_inbox_max":                                 2,
		"parlour_actors_ready":                              4,
		"parlour_chat_queued":                               5,
		"parlour_search_queued":                             6,
		"parlour_search_busy":                               7,
		"parlour_search_workers":                            8,
	}
	for series, w := range want {
		if got := s.value(t, series); got != w {
			t.Errorf("%s = %v, want %v", series, got, w)
		}
	}
	for series, v := range s.samples {
		if (strings.HasPrefix(series, "parlour_") && v == 100) || strings.Contains(series, "no_such_queue") {
			t.Errorf("a depth of an unknown queue was scraped: %s %v", series, v)
		}
		if strings.Contains(series, "made_up_code") || strings.Contains(series, `what="cpu"`) {
			t.Errorf("an unknown label value made a series of its own: %s", series)
		}
	}
}

func TestNilIsSafe(t *testing.T) {
	var m *metrics.Metrics
	m.TableOpened()
	m.TableClosed()
	m.ConnOpened()
	m.ConnClosed()
	m.Move("golf")
	m.MoveToView(time.Millisecond)
	m.StoreCommit(time.Millisecond)
	m.SetLeases(2)
	m.Takeover()
	m.Refusal("illegal_move")
	m.Shed("table")
	m.Relay(1)
	m.SearchFallback()
	m.SearchThink(time.Second)
	m.SearchPaced(time.Second)
	m.Depth("inbox", func() int { return 1 })
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("a nil Metrics' handler answers %d, want 404", rec.Code)
	}
}

func TestConcurrent(t *testing.T) {
	m := metrics.New()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 1000 {
				m.Move("golf")
				m.MoveToView(time.Millisecond)
				m.Refusal("over")
				m.ConnOpened()
				m.ConnClosed()
			}
		})
	}
	wg.Wait()
	s := get(t, m.Handler())
	if got := s.value(t, `parlour_moves_total{game="golf"}`); got != 8000 {
		t.Errorf("golf moves = %v, want 8000", got)
	}
	if got := s.value(t, "parlour_connections"); got != 0 {
		t.Errorf("connections = %v, want 0", got)
	}
}

func TestHotPathsDoNotAllocate(t *testing.T) {
	m := metrics.New()
	var nilM *metrics.Metrics
	for name, f := range map[string]func(){
		"Move(golf)":           func() { m.Move("golf") },
		"MoveToView":           func() { m.MoveToView(1500 * time.Microsecond) },
		"StoreCommit":          func() { m.StoreCommit(3 * time.Millisecond) },
		"Refusal(illegal)":     func() { m.Refusal("illegal_move") },
		"Refusal(unknown)":     func() { m.Refusal("no_such_code") },
		"Shed":                 func() { m.Shed("connection") },
		"Conn":                 func() { m.ConnOpened(); m.ConnClosed() },
		"Table":                func() { m.TableOpened(); m.TableClosed() },
		"Relay":                func() { m.Relay(1); m.Relay(-1) },
		"SetLeases + Takeover": func() { m.SetLeases(4); m.Takeover() },
		"SearchFallback":       func() { m.SearchFallback() },
		"SearchThink":          func() { m.SearchThink(time.Second) },
		"SearchPaced":          func() { m.SearchPaced(time.Millisecond) },
		"nil Move":             func() { nilM.Move("golf") },
		"nil MoveToView":       func() { nilM.MoveToView(time.Millisecond) },
	} {
		if a := testing.AllocsPerRun(1000, f); a != 0 {
			t.Errorf("%s: %v allocations a call, want 0", name, a)
		}
	}
}

func TestDeployDocListsMetrics(t *testing.T) {
	doc, err := os.ReadFile("../../docs/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range metrics.Describe() {
		if !strings.Contains(string(doc), "`"+d.Name+"`") {
			t.Errorf("docs/deploy.md does not list %s", d.Name)
		}
	}
}

func BenchmarkMove(b *testing.B) {
	m := metrics.New()
	b.ReportAllocs()
	for b.Loop() {
		m.Move("golf")
	}
}

func BenchmarkMoveToView(b *testing.B) {
	m := metrics.New()
	b.ReportAllocs()
	for b.Loop() {
		m.MoveToView(1500 * time.Microsecond)
	}
}
