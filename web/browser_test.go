package web_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBrowser runs the browser tests (tests/run.mjs) in real Chromium
// against a `parlour serve` built from this tree, on a loopback port with a
// temporary database. It skips in -short mode, and locally when
// node_modules or chromium is missing; under CI (CI set), which runs
// without -short, it never skips.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser tests are skipped in -short mode; the full run covers them")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	var missing []string
	if _, err := os.Stat("node_modules/playwright-core"); err != nil {
		missing = append(missing, "web/node_modules (cd web && npm ci)")
	}
	if _, err := os.Stat(chromium); err != nil {
		missing = append(missing, chromium+" (apt-get install chromium)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node")
	}
	if len(missing) > 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("the browser tests need %s", strings.Join(missing, ", "))
		}
		t.Skipf("the browser tests need %s", strings.Join(missing, ", "))
	}

	dir := t.TempDir()
	bin := filepath.Join(dir, "parlour")
	build := exec.Command("go", "build", "-o", bin, "../cmd/parlour")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--db", "sqlite:"+filepath.Join(dir, "parlour.db"),
		"--bot-delay", "20ms")
	srv.Stderr = os.Stderr
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			srv.Process.Kill()
			<-done
		}
	}()
	url := ""
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		line := lines.Text()
		if u, ok := strings.CutPrefix(line, "parlour: serving on "); ok {
			url, _, _ = strings.Cut(u, " ")
		}
		if strings.HasPrefix(line, "parlour: ready") {
			break
		}
	}
	if url == "" {
		t.Fatal("the server did not say where it serves")
	}
	go func() {
		for lines.Scan() {
		}
	}()

	shots, _ := filepath.Abs("test-results")
	run := exec.CommandContext(ctx, node, "tests/run.mjs")
	run.Env = append(os.Environ(), "PARLOUR_URL="+url, "PARLOUR_SHOTS="+shots, "CHROMIUM="+chromium)
	start := time.Now()
	out, err := run.CombinedOutput()
	t.Logf("browser tests (%s), screenshots in %s:\n%s", time.Since(start).Round(time.Millisecond), shots, out)
	if err != nil {
		t.Fatalf("the browser tests failed: %v", err)
	}
}
