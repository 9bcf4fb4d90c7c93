package server_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// get fetches url with the given request headers, without Go's own gzip
// handling, and returns the response with its body read.
func get(t *testing.T, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// TestPageCaching checks that the page's files are sent compressed to a
// browser that takes gzip, with validators, and that its assets are kept
// for good at the stamped addresses index.html names.
func TestPageCaching(t *testing.T) {
	e := newEnv(t, envConfig{})
	resp, index := get(t, e.url+"/", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-cache" || resp.Header.Get("ETag") == "" {
		t.Fatalf("GET /: %d, Cache-Control %q, ETag %q", resp.StatusCode, resp.Header.Get("Cache-Control"), resp.Header.Get("ETag"))
	}
	stamped := regexp.MustCompile(`"(/web/(app\.js|style\.css)\?v=[0-9a-f]+)"`).FindAllStringSubmatch(string(index), -1)
	if len(stamped) != 2 {
		t.Fatalf("index.html names %d stamped assets, want app.js and style.css:\n%s", len(stamped), index)
	}
	for _, m := range stamped {
		addr, bare := m[1], "/web/"+m[2]
		resp, raw := get(t, e.url+addr, nil)
		if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("GET %s: %d, Cache-Control %q; want it kept for good", addr, resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
		if resp.Header.Get("Content-Encoding") != "" {
			t.Errorf("GET %s without Accept-Encoding: sent as %q", addr, resp.Header.Get("Content-Encoding"))
		}
		resp, gz := get(t, e.url+addr, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
		if resp.Header.Get("Content-Encoding") != "gzip" || len(gz) >= len(raw)/2 {
			t.Errorf("GET %s taking gzip: encoding %q, %d bytes of %d", addr, resp.Header.Get("Content-Encoding"), len(gz), len(raw))
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatalf("GET %s: %v", addr, err)
		}
		if un, _ := io.ReadAll(zr); !bytes.Equal(un, raw) {
			t.Errorf("GET %s: the gzip body is not the file", addr)
		}
		etag := resp.Header.Get("ETag")
		resp, body := get(t, e.url+bare, map[string]string{"If-None-Match": etag})
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
			t.Errorf("GET %s with If-None-Match %s: %d and %d bytes, want 304 and none", bare, etag, resp.StatusCode, len(body))
		}
		if resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s (not stamped): Cache-Control %q, want no-cache", bare, resp.Header.Get("Cache-Control"))
		}
		if resp, _ := get(t, e.url+bare, map[string]string{"If-None-Match": `"0000"`}); resp.StatusCode != 200 {
			t.Errorf("GET %s with a stale ETag: %d, want 200", bare, resp.StatusCode)
		}
	}
	if resp, _ := get(t, e.url+"/web/nothing.js", nil); resp.StatusCode != 404 {
		t.Errorf("GET /web/nothing.js: %d, want 404", resp.StatusCode)
	}
}

// TestGamesWithoutRules checks GET /api/games?rules=0: every game, without
// its rules text, which GET /api/games and /api/games/{id} keep.
func TestGamesWithoutRules(t *testing.T) {
	e := newEnv(t, envConfig{})
	var full, lean []map[string]any
	e.do("GET", "/api/games", nil, &full)
	e.do("GET", "/api/games?rules=0", nil, &lean)
	if len(full) == 0 || len(lean) != len(full) {
		t.Fatalf("%d games, %d without rules", len(full), len(lean))
	}
	for i := range full {
		if r, _ := full[i]["rules"].(string); r == "" {
			t.Errorf("%v: no rules in GET /api/games", full[i]["id"])
		}
		if _, ok := lean[i]["rules"]; ok {
			t.Errorf("%v: rules in GET /api/games?rules=0", lean[i]["id"])
		}
		if lean[i]["id"] != full[i]["id"] || lean[i]["deal"] != full[i]["deal"] {
			t.Errorf("game %d: %v/%v against %v/%v", i, lean[i]["id"], lean[i]["deal"], full[i]["id"], full[i]["deal"])
		}
	}
	var one map[string]any
	e.do("GET", "/api/games/golf", nil, &one)
	if r, _ := one["rules"].(string); r == "" {
		t.Error("GET /api/games/golf: no rules")
	}
}

// TestLobbyEvents checks GET /api/lobby/events: the lists at once, and
// again when a table opens, without the page asking.
func TestLobbyEvents(t *testing.T) {
	e := newEnv(t, envConfig{})
	resp, err := http.Get(e.url + "/api/lobby/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	events := make(chan map[string][]map[string]any, 8)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		kind := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				kind = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && kind == "tables":
				var l map[string][]map[string]any
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &l); err != nil {
					t.Errorf("event data: %v: %s", err, line)
				}
				events <- l
			}
		}
		close(events)
	}()
	next := func() map[string][]map[string]any {
		select {
		case l, ok := <-events:
			if !ok {
				t.Fatal("the stream ended")
			}
			return l
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10s")
		}
		return nil
	}
	first := next()
	for _, k := range []string{"open", "live", "over"} {
		if _, ok := first[k]; !ok {
			t.Errorf("first event without %q: %v", k, first)
		}
	}
	if len(first["open"]) != 0 {
		t.Fatalf("open tables on a new server: %v", first["open"])
	}
	info := e.create(map[string]any{"game": "golf", "seats": []string{"open", "random"}})
	l := next()
	if len(l["open"]) != 1 || l["open"][0]["id"] != info.ID {
		t.Errorf("after opening %s, the open list is %v", info.ID, l["open"])
	}
}
