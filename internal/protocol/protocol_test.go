package protocol_test

import (
	"strings"
	"testing"

	"parlour/internal/protocol"
)

// TestCleanChat checks what a chat text becomes, and every refusal.
func TestCleanChat(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"hi", "hi"},
		{"  hi there \t\n", "hi there"},
		{"line one\r\nline two\rline three", "line one\nline two\nline three"},
		{"a\tb\nc", "a\tb\nc"},
		{"<b>bold</b> & \"quoted\"", "<b>bold</b> & \"quoted\""},
		{strings.Repeat("é", protocol.MaxChatText), strings.Repeat("é", protocol.MaxChatText)},
		{"  " + strings.Repeat("x", protocol.MaxChatText) + "  ", strings.Repeat("x", protocol.MaxChatText)},
		{"emoji 🂡 and 中文", "emoji 🂡 and 中文"},
	} {
		got, err := protocol.CleanChat(c.in)
		if err != nil || got != c.out {
			t.Errorf("CleanChat(%q) = %q, %v; want %q", c.in, got, err, c.out)
		}
	}
	for _, c := range []struct{ in, why string }{
		{"", "empty"},
		{" \t\r\n ", "empty"},
		{strings.Repeat("é", protocol.MaxChatText+1), "at most 500"},
		{"bell\a", "control"},
		{"nul\x00", "control"},
		{"esc\x1b[31mred", "control"},
		{"del\x7f", "control"},
		{"c1\u0085next line", "control"},
		{"evil\u202egnp.exe", "control"},
		{"isolate\u2067x", "control"},
		{"bad \xff utf-8", "UTF-8"},
	} {
		got, err := protocol.CleanChat(c.in)
		if err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("CleanChat(%q) = %q, %v; want a refusal saying %q", c.in, got, err, c.why)
		}
	}
}
