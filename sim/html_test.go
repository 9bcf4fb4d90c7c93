package sim

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"parlour/games/golf"
)

// abReport runs a small A/B comparison of Golf for the page tests.
func abReport(t *testing.T) *Report {
	g := golf.Game{}
	return run(t, Config{Game: g, A: variant(t, g, map[string]any{"holes": 3, "dealer": 0}, "random"),
		B: variant(t, g, map[string]any{"holes": 9, "target": 60, "dealer": 0}, "random"), Matches: 200, Seed: 2})
}

// TestPageIsSelfContained checks that the page needs nothing from the
// network: no scripts, no links, no fetched resources.
func TestPageIsSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTML(&b, abReport(t)); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script", " src=", " href=", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	// The only URL is the SVG namespace.
	urls := regexp.MustCompile(`https?://[^"' )]+`).FindAllString(page, -1)
	for _, u := range urls {
		if u != "http://www.w3.org/2000/svg" {
			t.Errorf("the page names %s", u)
		}
	}
	for _, want := range []string{`<svg class="chart seat-advantage"`, `<svg class="chart histogram"`, `id="ab-table"`, "Golf: what the rules do"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// chromium returns the path of Chromium, or skips the test in -short mode
// and when it is missing outside CI (in CI it must be there).
func chromium(t *testing.T) string {
	if testing.Short() {
		t.Skip("starts Chromium: skipped in -short mode; the full run covers it")
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium); CI runs this test")
	return ""
}

func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=1200,2000"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.Bytes())
	}
	return out
}

// TestPageRendersInChromium opens an A/B report in real (headless)
// Chromium: the rendered DOM holds the charts, their bars and the A/B
// table, and a screenshot of it is drawn.
func TestPageRendersInChromium(t *testing.T) {
	bin := chromium(t)
	rep := abReport(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(f, rep); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	url := "file://" + path
	dom := string(runChromium(t, bin, "--dump-dom", url))
	count := func(re string) int { return len(regexp.MustCompile(re).FindAllString(dom, -1)) }
	if n := count(`<svg class="chart seat-advantage"`); n != 1 {
		t.Errorf("%d seat-advantage charts in the DOM", n)
	}
	// Four seats, a bar each for A and B, each with its interval.
	if a, b := count(`<rect class="bar a"`), count(`<rect class="bar b"`); a < 4 || b < 4 {
		t.Errorf("bars: %d for A, %d for B", a, b)
	}
	if n := count(`<path class="ci"`); n < 8 {
		t.Errorf("%d interval whiskers", n)
	}
	// Score histograms per seat, and the length ones.
	if n := count(`<svg class="chart histogram"`); n < 4+3 {
		t.Errorf("%d histograms in the DOM", n)
	}
	if n := count(`<rect class="bin b"`); n == 0 {
		t.Error("no B bins in the histograms")
	}
	table := regexp.MustCompile(`(?s)<table id="ab-table">.*?</table>`).FindString(dom)
	if table == "" {
		t.Fatal("no A/B table in the DOM")
	}
	rows := strings.Count(table, "<tr")
	if rows < len(rep.Figures)/2 {
		t.Errorf("the A/B table has %d rows for %d figures", rows, len(rep.Figures))
	}
	for _, want := range []string{"wins, seat 0", "deals per match", "column pairs per player per hole", "A−B"} {
		if !strings.Contains(table, want) {
			t.Errorf("the A/B table lacks %q", want)
		}
	}
	// A deal count of 3 against a target: the difference is significant.
	if !regexp.MustCompile(`<tr class="sig"><td>Length</td><td>deals per match</td>`).MatchString(table) {
		t.Error("deals per match is not marked as a significant difference")
	}
	shot := filepath.Join(dir, "report.png")
	runChromium(t, bin, "--screenshot="+shot, url)
	png, err := os.ReadFile(shot)
	if err != nil || len(png) < 10000 || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
}
