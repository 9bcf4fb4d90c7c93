package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyseExitCodes runs parlour analyse in-process: exit 0 with one
// JSON report on stdout; 1 for a refused move, naming it on stderr; 2
// with one line for an unusable script or a bad flag.
func TestAnalyseExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"game":"golf","options":{"players":2,"dealer":1,"holes":1},"seed":3,"moves":["0: reveal 0","1: reveal 2","0: draw stock"]}`)
	refused := write("refused.json", `{"game":"golf","options":{"players":2,"dealer":1,"holes":1},"seed":3,"moves":["0: reveal 0","1: reveal 2","1: draw stock"]}`)
	badMove := write("bad.json", `{"game":"golf","options":{"players":2,"dealer":1,"holes":1},"seed":3,"moves":["0: reveal 9"]}`)
	unusable := write("unusable.json", `{"game":"golf","options":{"holes":0},"moves":[]}`)
	notJSON := write("notjson.json", `{"game":`)
	for _, c := range []struct {
		args   []string
		exit   int
		stderr string
	}{
		{[]string{good, "--think", "2ms"}, 0, ""},
		{[]string{"--seats", "0", good, "--think", "2ms"}, 0, ""},
		{[]string{refused, "--think", "2ms"}, 1, `parlour analyse: move 3 "1: draw stock": `},
		{[]string{badMove}, 1, `parlour analyse: move 1 "0: reveal 9": `},
		{[]string{unusable}, 2, "holes"},
		{[]string{notJSON}, 2, "not a JSON object"},
		{[]string{filepath.Join(dir, "missing.json")}, 2, "missing.json"},
		{[]string{good, "--seats", "2"}, 2, "no seat 2"},
		{[]string{good, "--seats", "-1"}, 2, `"-1" is not a seat number`},
		{[]string{good, "--think", "2m"}, 2, "--think 2m0s is out of range"},
		{[]string{good, "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{good, good}, 2, "give one script file"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(&env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}, append([]string{"analyse"}, c.args...))
		if code != c.exit {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.exit, stderr.String())
			continue
		}
		if c.exit == 0 {
			var rep map[string]any
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep["game"] != "golf" {
				t.Errorf("%v: stdout is not a report: %v %q", c.args, err, stdout.String())
			}
			if stderr.Len() > 0 {
				t.Errorf("%v: stderr %q", c.args, stderr.String())
			}
			continue
		}
		if stdout.Len() > 0 {
			t.Errorf("%v: stdout %q, want nothing", c.args, stdout.String())
		}
		if !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("%v: stderr %q, want %q in it", c.args, stderr.String(), c.stderr)
		}
		if c.args[len(c.args)-1] != "--bogus" { // a bad flag also shows the usage
			if lines := strings.Count(strings.TrimRight(stderr.String(), "\n"), "\n"); lines > 0 {
				t.Errorf("%v: %d lines on stderr, want one: %q", c.args, lines+1, stderr.String())
			}
		}
	}
}
