package gametest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	rulingTest  = regexp.MustCompile(`Ruling(\d+)`)
	exampleTest = regexp.MustCompile(`\bT(\d{3})_(\d+)`)
	testFunc    = regexp.MustCompile(`(?m)^func (Test\w+)\(`)
)

// CheckRulings checks that every ruling and worked example a test in the
// current directory is named after is in rules, the game's rules text:
// a test TestRuling12_SharedWin needs "Ruling 12" there, and a test
// TestT004_1_SeedScoring (or one naming T004_1 after another example)
// needs "T004-1". So a failing test's name leads to its rule inside the
// repository.
func CheckRulings(t *testing.T, rules string) {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range testFunc.FindAllStringSubmatch(string(src), -1) {
			name := fn[1]
			for _, m := range rulingTest.FindAllStringSubmatch(name, -1) {
				checked++
				if !hasRef(rules, "Ruling "+m[1]) {
					t.Errorf("%s (%s): rules.txt does not mention \"Ruling %s\"", name, f, m[1])
				}
			}
			for _, m := range exampleTest.FindAllStringSubmatch(name, -1) {
				checked++
				ref := "T" + m[1] + "-" + m[2]
				if !hasRef(rules, ref) {
					t.Errorf("%s (%s): rules.txt does not mention %q", name, f, ref)
				}
			}
		}
	}
	if checked == 0 {
		t.Errorf("no test here is named after a ruling or a worked example")
	}
}

// hasRef reports whether ref stands in text as a whole reference ("Ruling 1"
// is not found in "Ruling 12").
func hasRef(text, ref string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], ref)
		if j < 0 {
			return false
		}
		end := i + j + len(ref)
		if end == len(text) || text[end] < '0' || text[end] > '9' {
			return true
		}
		i = end
	}
}
