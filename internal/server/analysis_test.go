package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"parlour/analysis"
	"parlour/games"
	"parlour/internal/pgtest"
	"parlour/internal/protocol"
	"parlour/internal/script"
	"parlour/internal/server"
	"parlour/internal/store"
	"parlour/internal/table"
)

// testThink keeps the analyses of the tests fast.
const testThink = 5 * time.Millisecond

// analyst makes analyses with analysis.Analyse and counts them. With a
// gate, each analysis waits for it (or for its end) after half its
// decisions, so a test sees one running, with its progress.
type analyst struct {
	runs    atomic.Int64
	gate    chan struct{} // nil: no wait
	halfway chan struct{} // told, without blocking, when an analysis waits at the gate
}

func newAnalyst(gated bool) *analyst {
	a := &analyst{halfway: make(chan struct{}, 16)}
	if gated {
		a.gate = make(chan struct{})
	}
	return a
}

func (a *analyst) analyse(ctx context.Context, lookup script.Lookup, s *script.Script, seed uint64, opt analysis.Options) (*analysis.Report, error) {
	a.runs.Add(1)
	if a.gate != nil {
		inner, waited := opt.Progress, false
		opt.Progress = func(done, total int) {
			inner(done, total)
			if !waited && done >= total/2 {
				waited = true
				select {
				case a.halfway <- struct{}{}:
				default:
				}
				select {
				case <-a.gate:
				case <-ctx.Done():
				}
			}
		}
	}
	return analysis.Analyse(ctx, lookup, s, seed, opt)
}

// open lets the gated analyses go on.
func (a *analyst) open() { close(a.gate) }

// startAnalyses starts e's analyses on its store with a, a tiny think, a
// short poll and cfg's other settings.
func startAnalyses(e *env, a *analyst, cfg server.AnalysisConfig) {
	cfg.Store = e.st.(store.Analyses)
	cfg.Think = testThink
	if cfg.Poll == 0 {
		cfg.Poll = 20 * time.Millisecond
	}
	if cfg.ClaimTTL == 0 {
		cfg.ClaimTTL = 400 * time.Millisecond // progress written every 100ms
	}
	cfg.Analyse = a.analyse
	e.srv.StartAnalyses(cfg)
}

// analysisAnswer is POST's and GET's answer, decoded.
type analysisAnswer struct {
	Status    string          `json:"status"`
	Progress  float64         `json:"progress"`
	Seats     []int           `json:"seats"`
	Hindsight bool            `json:"hindsight"`
	Report    json.RawMessage `json:"report"`
	Error     string          `json:"error"`
}

// apiRefusal is a refusal's body.
type apiRefusal struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// analysisCall sends an analysis request (body nil: none) and returns the
// status, the answer or the refusal, and the Retry-After header.
func analysisCall(t *testing.T, base, method, id, query string, body any) (int, analysisAnswer, apiRefusal, string) {
	t.Helper()
	var r io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			r = bytes.NewReader([]byte(s))
		} else {
			b, _ := json.Marshal(body)
			r = bytes.NewReader(b)
		}
	}
	req, _ := http.NewRequest(method, base+"/api/tables/"+id+"/analysis"+query, r)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s analysis of %s: %v", method, id, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var ans analysisAnswer
	var ref apiRefusal
	if resp.StatusCode < 300 {
		if err := json.Unmarshal(data, &ans); err != nil {
			t.Fatalf("%s analysis of %s: %d %s: %v", method, id, resp.StatusCode, data, err)
		}
	} else if err := json.Unmarshal(data, &ref); err != nil || ref.Error.Code == "" || ref.Error.Message == "" {
		t.Fatalf("%s analysis of %s: %d %s: not a refusal", method, id, resp.StatusCode, data)
	}
	return resp.StatusCode, ans, ref, resp.Header.Get("Retry-After")
}

// finishedGolf has two random bots play a Golf hole at e and returns the
// table once the game is over.
func finishedGolf(t *testing.T, base string, seed int) string {
	t.Helper()
	var info protocol.TableInfo
	b, _ := json.Marshal(map[string]any{"game": "golf", "options": map[string]any{"holes": 1},
		"seats": []string{"random", "random"}, "seed": seed})
	resp, err := http.Post(base+"/api/tables", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("creating a table: %d", resp.StatusCode)
	}
	deadline := time.Now().Add(30 * time.Second)
	for info.Status != store.StatusOver {
		if time.Now().After(deadline) {
			t.Fatalf("table %s is still %s", info.ID, info.Status)
		}
		time.Sleep(20 * time.Millisecond)
		resp, err := http.Get(base + "/api/tables/" + info.ID)
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&info)
		resp.Body.Close()
	}
	return info.ID
}

// waitAnalysis polls GET (with query) until ok holds of the answer, and
// checks every answer on the way is well formed.
func waitAnalysis(t *testing.T, base, id, query, what string, ok func(analysisAnswer) bool) analysisAnswer {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		code, ans, ref, _ := analysisCall(t, base, "GET", id, query, nil)
		if code != http.StatusOK {
			t.Fatalf("GET the analysis of %s: %d %+v", id, code, ref)
		}
		if !slices.Contains([]string{"queued", "running", "done", "failed"}, ans.Status) || ans.Progress < 0 || ans.Progress > 1 ||
			(ans.Status == "done") != (len(ans.Report) > 0) {
			t.Fatalf("GET the analysis of %s: %+v", id, ans)
		}
		if ok(ans) {
			return ans
		}
		if ans.Status == "failed" || time.Now().After(deadline) {
			t.Fatalf("waiting for %s: the analysis of %s is %+v", what, id, ans)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func isDone(a analysisAnswer) bool { return a.Status == store.AnalysisDone }

// specReport is the report of shared/spec/analysis.md, decoded strictly.
type specReport struct {
	Game      string `json:"game"`
	Players   int    `json:"players"`
	Mode      string `json:"mode"`
	ThinkMS   int    `json:"think_ms"`
	Decisions []struct {
		N            int      `json:"n"`
		Seat         int      `json:"seat"`
		Move         string   `json:"move"`
		Forced       bool     `json:"forced"`
		Chance       *float64 `json:"chance"`
		Best         string   `json:"best"`
		BestChance   *float64 `json:"best_chance"`
		Loss         *float64 `json:"loss"`
		Label        string   `json:"label"`
		Iterations   int      `json:"iterations"`
		Alternatives []struct {
			Move   string  `json:"move"`
			Chance float64 `json:"chance"`
			Visits int     `json:"visits"`
		} `json:"alternatives"`
	} `json:"decisions"`
	Seats []struct {
		Seat         int      `json:"seat"`
		Decisions    int      `json:"decisions"`
		MeanLoss     *float64 `json:"mean_loss"`
		Inaccuracies int      `json:"inaccuracies"`
		Mistakes     int      `json:"mistakes"`
		Blunders     int      `json:"blunders"`
	} `json:"seats"`
}

// checkReport checks raw is a report of table id's game in the spec's
// shape, of the decisions of seats, against the game's replay.
func checkReport(t *testing.T, base, id string, raw json.RawMessage, seats []int, mode string) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var rep specReport
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("the report is not the spec's: %v\n%s", err, raw)
	}
	var replay protocol.Replay
	resp, err := http.Get(base + "/api/tables/" + id + "/replay")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&replay)
	resp.Body.Close()
	if rep.Game != "golf" || rep.Players != 2 || rep.Mode != mode || rep.ThinkMS != int(testThink/time.Millisecond) {
		t.Errorf("report: game %q, %d players, mode %q, think %d ms", rep.Game, rep.Players, rep.Mode, rep.ThinkMS)
	}
	want := 0
	for _, mv := range replay.Moves {
		if slices.Contains(seats, mv.Seat) {
			want++
		}
	}
	if len(rep.Decisions) != want || want == 0 {
		t.Fatalf("%d decisions in the report, want %d (the moves of seats %v)", len(rep.Decisions), want, seats)
	}
	searched := map[int]int{}
	for i, d := range rep.Decisions {
		if d.N < 1 || d.N > len(replay.Moves) || (i > 0 && d.N <= rep.Decisions[i-1].N) {
			t.Fatalf("decision %d: n %d out of order or range", i, d.N)
		}
		mv := replay.Moves[d.N-1]
		if d.Seat != mv.Seat || d.Move != mv.Move || !slices.Contains(seats, d.Seat) {
			t.Errorf("decision n %d: seat %d %q, but the game's move %d is seat %d %q", d.N, d.Seat, d.Move, d.N, mv.Seat, mv.Move)
		}
		if d.Forced {
			if d.Chance != nil || d.Label != "" || d.Alternatives != nil {
				t.Errorf("forced decision n %d has the search's figures", d.N)
			}
			continue
		}
		searched[d.Seat]++
		if d.Chance == nil || d.BestChance == nil || d.Loss == nil || *d.Chance < 0 || *d.Chance > 1 || *d.BestChance < 0 ||
			*d.BestChance > 1 || *d.Loss < 0 || d.Best == "" || d.Iterations <= 0 || len(d.Alternatives) == 0 || len(d.Alternatives) > 8 ||
			!slices.Contains([]string{"best", "good", "inaccuracy", "mistake", "blunder"}, d.Label) {
			t.Errorf("decision n %d: %+v", d.N, d)
		}
	}
	if len(rep.Seats) != len(seats) {
		t.Fatalf("%d seats summed, want %d", len(rep.Seats), len(seats))
	}
	for i, s := range rep.Seats {
		if s.Seat != seats[i] || s.Decisions != searched[s.Seat] || s.MeanLoss == nil || *s.MeanLoss < 0 {
			t.Errorf("seat summary %d: %+v; want seat %d with %d decisions", i, s, seats[i], searched[seats[i]])
		}
	}
}

// TestAnalysis asks for the analysis of a game over HTTP: refused before
// the end (409 not_over) and for bad options (400), queued (202), done
// with a report in the spec's shape, and answered from then on (200)
// without being made again; other options are another analysis.
func TestAnalysis(t *testing.T) {
	e := newEnv(t, envConfig{})
	an := newAnalyst(false)
	startAnalyses(e, an, server.AnalysisConfig{Workers: 1})

	waiting := e.create(map[string]any{"game": "golf", "options": map[string]any{"holes": 1}, "seats": []string{"open", "random"}})
	code, _, ref, _ := analysisCall(t, e.url, "POST", waiting.ID, "", nil)
	if code != http.StatusConflict || ref.Error.Code != "not_over" {
		t.Errorf("POST before the end: %d %+v; want 409 not_over", code, ref)
	}
	if code, _, ref, _ := analysisCall(t, e.url, "GET", waiting.ID, "", nil); code != http.StatusNotFound || ref.Error.Code != "no_analysis" {
		t.Errorf("GET before any was asked for: %d %+v; want 404 no_analysis", code, ref)
	}
	for _, method := range []string{"POST", "GET"} {
		if code, _, ref, _ := analysisCall(t, e.url, method, "nosuchtable", "", nil); code != http.StatusNotFound || ref.Error.Code != "not_found" {
			t.Errorf("%s for an unknown table: %d %+v; want 404 not_found", method, code, ref)
		}
	}

	id := finishedGolf(t, e.url, 7)
	for _, bad := range []any{`{"seats":[2]}`, `{"seats":[-1]}`, `{"seats":[]}`, `{"seats":[0.5]}`, `{"hindsight":"yes"}`,
		`{"think":5}`, `{"seats":[0]} {}`} {
		if code, _, ref, _ := analysisCall(t, e.url, "POST", id, "", bad); code != http.StatusBadRequest || ref.Error.Code != "bad_request" {
			t.Errorf("POST %s: %d %+v; want 400 bad_request", bad, code, ref)
		}
	}
	if code, _, ref, _ := analysisCall(t, e.url, "GET", id, "", nil); code != http.StatusNotFound || ref.Error.Code != "no_analysis" {
		t.Errorf("GET after the refusals: %d %+v; want 404 no_analysis", code, ref)
	}

	code, ans, ref, _ := analysisCall(t, e.url, "POST", id, "", nil)
	if code != http.StatusAccepted || ans.Status != "queued" || len(ans.Report) > 0 || !slices.Equal(ans.Seats, []int{0, 1}) {
		t.Fatalf("POST: %d %+v %+v; want 202 queued", code, ans, ref)
	}
	done := waitAnalysis(t, e.url, id, "", "the report", isDone)
	if done.Progress != 1 || done.Hindsight {
		t.Errorf("done: %+v", done)
	}
	checkReport(t, e.url, id, done.Report, []int{0, 1}, "information")

	// Asked for again, with the same options in other words: answered.
	for _, body := range []any{nil, `{}`, `{"seats":[1,0,1],"hindsight":false}`, `{"seats":null}`} {
		code, again, _, _ := analysisCall(t, e.url, "POST", id, "", body)
		if code != http.StatusOK || again.Status != "done" || !bytes.Equal(again.Report, done.Report) {
			t.Errorf("POST %v again: %d %+v; want 200 with the report", body, code, again.Status)
		}
	}
	if n := an.runs.Load(); n != 1 {
		t.Errorf("%d analyses made, want 1", n)
	}

	// Other options are another analysis; GET answers the last asked for,
	// or the one its query names.
	if code, ans, _, _ := analysisCall(t, e.url, "POST", id, "", map[string]any{"seats": []int{1}, "hindsight": true}); code != http.StatusAccepted ||
		ans.Status != "queued" || !slices.Equal(ans.Seats, []int{1}) || !ans.Hindsight {
		t.Fatalf("POST for seat 1 in hindsight: %d %+v", code, ans)
	}
	other := waitAnalysis(t, e.url, id, "", "the second report", isDone)
	if !slices.Equal(other.Seats, []int{1}) || !other.Hindsight {
		t.Errorf("GET answers %+v, want the analysis asked for last", other)
	}
	checkReport(t, e.url, id, other.Report, []int{1}, "hindsight")
	for _, q := range []string{"?seats=0,1", "?hindsight=false", "?seats=1,0&hindsight=false"} {
		if code, first, _, _ := analysisCall(t, e.url, "GET", id, q, nil); code != http.StatusOK || !bytes.Equal(first.Report, done.Report) {
			t.Errorf("GET %s: %d %+v; want the first report", q, code, first.Status)
		}
	}
	if code, _, ref, _ := analysisCall(t, e.url, "GET", id, "?seats=0", nil); code != http.StatusNotFound || ref.Error.Code != "no_analysis" {
		t.Errorf("GET ?seats=0, never asked for: %d %+v; want 404 no_analysis", code, ref)
	}
	if code, _, ref, _ := analysisCall(t, e.url, "GET", id, "?seats=x", nil); code != http.StatusBadRequest {
		t.Errorf("GET ?seats=x: %d %+v; want 400", code, ref)
	}
	if n := an.runs.Load(); n != 2 {
		t.Errorf("%d analyses made, want 2", n)
	}
}

// TestAnalysisQueue checks the bound on the work: with one worker busy
// and two analyses queued (the limit), another is refused with 503 and
// Retry-After, while asking again for one already queued or running
// answers how it stands and queues nothing; GET shows the running one's
// progress. Once the queue drains, every one is done, each made once.
func TestAnalysisQueue(t *testing.T) {
	e := newEnv(t, envConfig{})
	an := newAnalyst(true)
	startAnalyses(e, an, server.AnalysisConfig{Workers: 1, Queue: 2})
	id := finishedGolf(t, e.url, 11)

	if code, ans, _, _ := analysisCall(t, e.url, "POST", id, "", nil); code != http.StatusAccepted || ans.Status != "queued" {
		t.Fatalf("POST: %d %+v", code, ans)
	}
	select {
	case <-an.halfway:
	case <-time.After(30 * time.Second):
		t.Fatal("the analysis did not reach half way")
	}
	// The progress written before the analysis reached half way may be
	// read first: the test waits for half way's.
	running := waitAnalysis(t, e.url, id, "", "its progress", func(a analysisAnswer) bool { return a.Progress >= 0.4 })
	if running.Status != "running" || running.Progress > 0.6 {
		t.Errorf("half way: %+v; want it running at about 0.5", running)
	}
	for _, seats := range [][]int{{0}, {1}} {
		if code, ans, _, _ := analysisCall(t, e.url, "POST", id, "", map[string]any{"seats": seats}); code != http.StatusAccepted || ans.Status != "queued" {
			t.Fatalf("POST seats %v: %d %+v; want 202 queued", seats, code, ans)
		}
	}
	code, _, ref, retry := analysisCall(t, e.url, "POST", id, "", map[string]any{"hindsight": true})
	if n, err := strconv.Atoi(retry); code != http.StatusServiceUnavailable || ref.Error.Code != "full" || err != nil || n < 1 {
		t.Errorf("POST past the queue: %d %+v, Retry-After %q; want 503 full with Retry-After", code, ref, retry)
	}
	if code, ans, _, _ := analysisCall(t, e.url, "POST", id, "", nil); code != http.StatusAccepted || ans.Status != "running" || ans.Progress <= 0 {
		t.Errorf("POST again for the running one: %d %+v; want 202 running with its progress", code, ans)
	}
	if code, ans, _, _ := analysisCall(t, e.url, "POST", id, "", `{"seats":[0]}`); code != http.StatusAccepted || ans.Status != "queued" {
		t.Errorf("POST again for a queued one: %d %+v; want 202 queued", code, ans)
	}
	if n := an.runs.Load(); n != 1 {
		t.Errorf("%d analyses started with one worker, want 1", n)
	}
	an.open()
	for _, q := range []string{"?seats=0,1", "?seats=0", "?seats=1"} {
		waitAnalysis(t, e.url, id, q, "the report "+q, isDone)
	}
	if code, ans, _, _ := analysisCall(t, e.url, "POST", id, "", map[string]any{"hindsight": true}); code != http.StatusAccepted || ans.Status != "queued" {
		t.Errorf("POST once the queue drained: %d %+v; want 202 queued", code, ans)
	}
	waitAnalysis(t, e.url, id, "?hindsight=true", "the hindsight report", isDone)
	if n := an.runs.Load(); n != 4 {
		t.Errorf("%d analyses made, want 4", n)
	}
}

// TestAnalysisSurvivesRestart checks that analyses are kept with their
// tables: one running when the server stops is taken up again when it
// starts, one claimed by a node that died is taken over once the claim
// runs out, and a report is answered after a restart without being made
// again.
func TestAnalysisSurvivesRestart(t *testing.T) {
	e := newEnv(t, envConfig{})
	first := newAnalyst(true)
	startAnalyses(e, first, server.AnalysisConfig{Workers: 1})
	id := finishedGolf(t, e.url, 3)
	if code, _, _, _ := analysisCall(t, e.url, "POST", id, "", nil); code != http.StatusAccepted {
		t.Fatalf("POST: %d", code)
	}
	<-first.halfway
	waitAnalysis(t, e.url, id, "", "running", func(a analysisAnswer) bool { return a.Status == "running" })

	e.restart() // the analysis stops half way, and is queued again
	if got, err := e.st.(store.Analyses).Analysis(context.Background(), id, ""); err != nil || got.Status != store.AnalysisQueued {
		t.Fatalf("after the stop: %+v, %v; want it queued", got, err)
	}
	// A node that died claimed it, for a while.
	ctx := context.Background()
	if _, ok, err := e.st.(store.Analyses).ClaimAnalysis(ctx, "dead-node", 1500*time.Millisecond); !ok || err != nil {
		t.Fatalf("the dead node's claim: %v %v", ok, err)
	}
	second := newAnalyst(false)
	startAnalyses(e, second, server.AnalysisConfig{Workers: 1})
	if code, ans, _, _ := analysisCall(t, e.url, "POST", id, "", nil); code != http.StatusAccepted || ans.Status != "running" {
		t.Errorf("POST while the dead node's claim lasts: %d %+v; want 202 running", code, ans)
	}
	done := waitAnalysis(t, e.url, id, "", "the report", isDone)
	checkReport(t, e.url, id, done.Report, []int{0, 1}, "information")
	if n := second.runs.Load(); n != 1 {
		t.Errorf("%d analyses made after the restart, want 1", n)
	}

	e.restart()
	third := newAnalyst(false)
	startAnalyses(e, third, server.AnalysisConfig{Workers: 1})
	code, again, _, _ := analysisCall(t, e.url, "POST", id, "", nil)
	if code != http.StatusOK || !bytes.Equal(again.Report, done.Report) {
		t.Errorf("POST after another restart: %d %s; want 200 with the report", code, again.Status)
	}
	if n := third.runs.Load(); n != 0 {
		t.Errorf("%d analyses made of a game analysed before the restart", n)
	}
}

// TestAnalysisCluster has two nodes share one PostgreSQL database: an
// analysis asked for at one node is made by whichever node is free, any
// node answers for any analysis, and the analysis a node was making when
// it stopped is made by the other.
func TestAnalysisCluster(t *testing.T) {
	dsn := pgtest.Database(t, "parlour_analysis")
	type node struct {
		st  store.Store
		m   *table.Manager
		srv *server.Server
		url string
	}
	ctx := context.Background()
	start := func(an *analyst) *node {
		st, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		n := &node{st: st}
		n.m = table.NewManager(table.Config{Store: st, Games: games.Registry, StandIn: "random"})
		n.srv = server.New(server.Config{Games: games.Registry, RateLimit: 1e6, Burst: 1e6})
		n.srv.Ready(n.m)
		hs := httptest.NewServer(n.srv)
		t.Cleanup(hs.Close)
		n.url = hs.URL
		n.srv.StartAnalyses(server.AnalysisConfig{Store: st.(store.Analyses), Workers: 1, Think: testThink,
			Poll: 20 * time.Millisecond, ClaimTTL: 400 * time.Millisecond, Analyse: an.analyse})
		return n
	}
	var stopOnce sync.Once
	stop := func(n *node) {
		n.m.Close()
		n.srv.Close()
		n.st.Close()
	}
	busy := newAnalyst(true)
	a := start(busy)
	defer stopOnce.Do(func() { stop(a) })
	id := finishedGolf(t, a.url, 5)
	if code, _, _, _ := analysisCall(t, a.url, "POST", id, "", nil); code != http.StatusAccepted {
		t.Fatalf("POST at a: %d", code)
	}
	<-busy.halfway // a makes it, and holds

	free := newAnalyst(false)
	b := start(free)
	defer stop(b)
	if code, ans, _, _ := analysisCall(t, b.url, "GET", id, "", nil); code != http.StatusOK || ans.Status != "running" {
		t.Errorf("GET at b of a's analysis: %d %+v; want it running", code, ans)
	}
	if code, _, _, _ := analysisCall(t, a.url, "POST", id, "", `{"seats":[1]}`); code != http.StatusAccepted {
		t.Fatalf("POST seats [1] at a: %d", code)
	}
	done := waitAnalysis(t, a.url, id, "?seats=1", "b's report, at a", isDone)
	checkReport(t, b.url, id, done.Report, []int{1}, "information")
	if n := free.runs.Load(); n != 1 {
		t.Errorf("b made %d analyses, want 1 (a's worker was busy)", n)
	}

	stopOnce.Do(func() { stop(a) }) // a stops half way: b takes its analysis up
	done = waitAnalysis(t, b.url, id, "?seats=0,1", "a's analysis, made by b", isDone)
	checkReport(t, b.url, id, done.Report, []int{0, 1}, "information")
	if n, m := busy.runs.Load(), free.runs.Load(); n != 1 || m != 2 {
		t.Errorf("a made %d analyses and b %d, want 1 (stopped) and 2", n, m)
	}
}
