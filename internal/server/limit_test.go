package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"parlour/games"
	"parlour/internal/protocol"
)

func TestParseLimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Limit
		out  string
	}{
		{"30/1m", Limit{Rate: 0.5, Burst: 30}, "30/1m"},
		{"5/10s", Limit{Rate: 0.5, Burst: 5}, "5/10s"},
		{"120/1h", Limit{Rate: 120.0 / 3600, Burst: 120}, "120/1h"},
		{"3/1m30s", Limit{Rate: 3.0 / 90, Burst: 3}, "3/1m30s"},
		{"off", Limit{}, "off"},
		{"0", Limit{}, "off"},
	} {
		got, err := ParseLimit(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseLimit(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			continue
		}
		if s := got.String(); s != c.out {
			t.Errorf("ParseLimit(%q).String() = %q, want %q", c.in, s, c.out)
		}
	}
	for _, in := range []string{"", "30", "x/1m", "0/1m", "-3/1m", "3/0s", "3/-1m", "3/soon"} {
		if l, err := ParseLimit(in); err == nil {
			t.Errorf("ParseLimit(%q) = %+v, want an error", in, l)
		}
	}
	for _, l := range []Limit{DefaultLimits().Create, DefaultLimits().Join, DefaultLimits().Connect, DefaultLimits().Chat} {
		if back, err := ParseLimit(l.String()); err != nil || back != l {
			t.Errorf("a default limit %+v writes as %q, which reads as %+v, %v", l, l.String(), back, err)
		}
	}
}

func TestLimiterBucket(t *testing.T) {
	l := newLimiter(Limits{Create: Limit{Rate: 0.5, Burst: 3}})
	a, b := netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2")
	now := time.Now()
	for i := range 3 {
		if ok, _ := l.allow(actCreate, a, now); !ok {
			t.Fatalf("request %d of a burst of 3 refused", i+1)
		}
	}
	ok, wait := l.allow(actCreate, a, now)
	if ok || wait != 2*time.Second {
		t.Fatalf("the 4th at once: %v, wait %v; want refused, 2s", ok, wait)
	}
	if ok, _ := l.allow(actCreate, b, now); !ok {
		t.Fatal("another address was refused")
	}
	if ok, wait := l.allow(actCreate, a, now.Add(1500*time.Millisecond)); ok || wait != 500*time.Millisecond {
		t.Fatalf("1.5 s later: %v, wait %v; want refused, 0.5s (a refusal takes nothing)", ok, wait)
	}
	if ok, _ := l.allow(actCreate, a, now.Add(2*time.Second)); !ok {
		t.Fatal("refused once a token was back")
	}
	for i := range 100 {
		if ok, _ := l.allow(actJoin, a, now); !ok {
			t.Fatalf("join %d refused with no join limit", i+1)
		}
	}
}

func TestLimiterConns(t *testing.T) {
	l := newLimiter(Limits{Conns: 2})
	a := netip.MustParseAddr("192.0.2.1")
	now := time.Now()
	if !l.open(a, now) || !l.open(a, now) {
		t.Fatal("a connection under the limit was refused")
	}
	if l.open(a, now) {
		t.Fatal("a third connection was let in")
	}
	if !l.open(netip.MustParseAddr("192.0.2.2"), now) {
		t.Fatal("another address was refused")
	}
	l.close(a)
	if !l.open(a, now) {
		t.Fatal("refused after a connection closed")
	}
}

// TestLimiterForgets checks that the memory of clients is bounded: once a
// client's buckets are full again and it holds no connection, it is
// forgotten at the next sweep.
func TestLimiterForgets(t *testing.T) {
	l := newLimiter(Limits{Create: Limit{Rate: 1, Burst: 5}, Conns: 4})
	now := time.Now()
	for i := range 100 {
		l.allow(actCreate, netip.AddrFrom4([4]byte{192, 0, 2, byte(i)}), now)
	}
	held := netip.MustParseAddr("198.51.100.1")
	l.open(held, now)
	if n := l.size(); n != 101 {
		t.Fatalf("%d clients remembered, want 101", n)
	}
	// Four seconds on, no bucket is full yet; after the sweep period,
	// all are, and only the client with a connection is kept.
	l.allow(actCreate, held, now.Add(4*time.Second))
	if n := l.size(); n != 101 {
		t.Fatalf("%d clients remembered before the sweep, want 101", n)
	}
	l.allow(actCreate, held, now.Add(sweepEvery+time.Second))
	if n := l.size(); n != 1 {
		t.Fatalf("%d clients remembered after the sweep, want 1 (the one with a connection)", n)
	}
}

func TestParsePrefixes(t *testing.T) {
	got, err := ParsePrefixes(" 10.0.0.5, 10.1.2.3/16,::1,::ffff:192.0.2.0/120 ,")
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.5/32"), netip.MustParsePrefix("10.1.0.0/16"),
		netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("192.0.2.0/24")}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("proxy %d: %v, want %v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"nginx", "10.0.0.0/33", "10.0.0.1:80"} {
		if _, err := ParsePrefixes(bad); err == nil {
			t.Errorf("ParsePrefixes(%q) took it", bad)
		}
	}
}

// TestClientAddr checks whose address a request counts against: its
// peer's, unless the peer is a trusted proxy; then the right-most
// forwarded address that is not a trusted proxy. What an untrusted peer
// forwards, and what a client wrote before the first trusted proxy, is
// never believed.
func TestClientAddr(t *testing.T) {
	proxies, err := ParsePrefixes("10.0.0.0/8,2001:db8:1::1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		remote string
		xff    []string
		want   string
	}{
		{"no proxy", "192.0.2.7:5000", nil, "192.0.2.7"},
		{"spoofed by a client", "192.0.2.7:5000", []string{"203.0.113.9"}, "192.0.2.7"},
		{"through a proxy", "10.0.0.1:5000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"a client's spoof before the proxy", "10.0.0.1:5000", []string{"198.51.100.1, 203.0.113.9"}, "203.0.113.9"},
		{"two proxies", "10.0.0.1:5000", []string{"198.51.100.1, 203.0.113.9, 10.0.0.2"}, "203.0.113.9"},
		{"several header lines", "10.0.0.1:5000", []string{"198.51.100.1", "203.0.113.9", "10.0.0.2"}, "203.0.113.9"},
		{"only proxies", "10.0.0.1:5000", []string{"10.0.0.3, 10.0.0.2"}, "10.0.0.3"},
		{"the proxy's own request", "10.0.0.1:5000", nil, "10.0.0.1"},
		{"not an address", "10.0.0.1:5000", []string{"203.0.113.9, unknown, 10.0.0.2"}, "10.0.0.2"},
		{"ports and brackets", "[2001:db8:1::1]:443", []string{"[2001:db8:2::5]:1234"}, "2001:db8:2::5"},
		{"an address with a port", "10.0.0.1:5000", []string{"203.0.113.9:4711"}, "203.0.113.9"},
		{"IPv4 in IPv6", "[::ffff:10.0.0.1]:5000", []string{"::ffff:203.0.113.9"}, "203.0.113.9"},
		{"an IPv6 client not trusted", "[2001:db8:1::2]:443", []string{"203.0.113.9"}, "2001:db8:1::2"},
	} {
		r := httptest.NewRequest("GET", "/api/tables", nil)
		r.RemoteAddr = c.remote
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := clientAddr(r, proxies, nil); got != netip.MustParseAddr(c.want) {
			t.Errorf("%s: %v, want %s", c.name, got, c.want)
		}
		// With no proxy trusted, the peer counts, whatever it says.
		if got := clientAddr(r, nil, nil); got.String() != netip.MustParseAddrPort(c.remote).Addr().Unmap().String() {
			t.Errorf("%s, no proxy trusted: %v, want the peer %s", c.name, got, c.remote)
		}
	}
}

// TestRelayedByNode checks a relay from another node of the cluster: the
// client it forwards for counts when the node vouches for the relay (the
// request comes from one of the node's addresses), and the peer counts
// otherwise, whatever the request says.
func TestRelayedByNode(t *testing.T) {
	var n nodeAddrs
	lookups := 0
	lookup := func(ctx context.Context, id string) (string, error) {
		lookups++
		if id == "b" {
			return "http://10.1.0.2:8080", nil
		}
		return "", errors.New("no such node")
	}
	now := time.Now()
	node := func(r *http.Request) func(netip.Addr) bool {
		return func(peer netip.Addr) bool {
			return slices.Contains(n.addrs(context.Background(), r.Header.Get(relayHeader), now, lookup), peer)
		}
	}
	for _, c := range []struct {
		name, remote, relayedBy, want string
	}{
		{"the node, from its address", "10.1.0.2:4000", "b", "203.0.113.9"},
		{"the node's name, from elsewhere", "10.1.0.3:4000", "b", "10.1.0.3"},
		{"a node not in the cluster", "10.1.0.2:4000", "x", "10.1.0.2"},
	} {
		r := httptest.NewRequest("GET", "/ws/tables/t", nil)
		r.RemoteAddr = c.remote
		r.Header.Set(relayHeader, c.relayedBy)
		r.Header.Set("X-Forwarded-For", "203.0.113.9")
		if got := clientAddr(r, nil, node(r)); got != netip.MustParseAddr(c.want) {
			t.Errorf("%s: %v, want %s", c.name, got, c.want)
		}
	}
	// One lookup a second at most, and a node's addresses are kept.
	if lookups != 1 {
		t.Errorf("%d lookups within a second, want 1", lookups)
	}
	now = now.Add(2 * time.Second)
	if got := n.addrs(context.Background(), "b", now, lookup); len(got) != 1 || lookups != 1 {
		t.Errorf("node b's addresses %v after %d lookups; want them kept, 1 lookup", got, lookups)
	}
	if got := n.addrs(context.Background(), "x", now, lookup); len(got) != 0 || lookups != 2 {
		t.Errorf("node x's addresses %v after %d lookups; want none, 2 lookups", got, lookups)
	}
}

func TestLimitKey(t *testing.T) {
	a, b := netip.MustParseAddr("2001:db8:1:2::1"), netip.MustParseAddr("2001:db8:1:2:ffff::9")
	if limitKey(a) != limitKey(b) {
		t.Errorf("two addresses of one /64 count apart: %v, %v", limitKey(a), limitKey(b))
	}
	if limitKey(a) == limitKey(netip.MustParseAddr("2001:db8:1:3::1")) {
		t.Error("two /64s count together")
	}
	if v4 := netip.MustParseAddr("192.0.2.1"); limitKey(v4) != v4 {
		t.Errorf("an IPv4 address keys as %v", limitKey(v4))
	}
}

// post sends POST /api/tables to s from remote, with X-Forwarded-For xff
// if not empty.
func post(s *Server, remote, xff string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/api/tables", strings.NewReader(`{"game":"golf"}`))
	r.RemoteAddr = remote
	if xff != "" {
		r.Header.Set("X-Forwarded-For", xff)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// TestLimitedRequests checks the refusal past a limit: 429, Retry-After
// in seconds, the API's error body with code rate_limited; an address
// counts apart from another, a forwarded address apart from another only
// behind a trusted proxy, an exempt address not at all, and a refusal is
// made before anything else (the server here has no tables: what passes
// is answered 503 starting).
func TestLimitedRequests(t *testing.T) {
	proxies, _ := ParsePrefixes("10.0.0.1")
	exempt, _ := ParsePrefixes("127.0.0.0/8")
	s := New(Config{Games: games.Registry, TrustedProxies: proxies, LimitExempt: exempt, Limits: Limits{Create: Limit{Rate: 1.0 / 30, Burst: 2}}})
	defer s.Close()
	for i := range 2 {
		if w := post(s, "192.0.2.1:1000", ""); w.Code != http.StatusServiceUnavailable {
			t.Fatalf("request %d: %d, want it let through (503 starting)", i+1, w.Code)
		}
	}
	w := post(s, "192.0.2.1:1001", "198.51.100.1")
	if w.Code != http.StatusTooManyRequests {
		t.Fatalf("the 3rd request (another port, a spoofed header): %d, want 429", w.Code)
	}
	if ra, err := strconv.Atoi(w.Header().Get("Retry-After")); err != nil || ra < 1 || ra > 30 {
		t.Errorf("Retry-After %q, want 1 to 30 seconds", w.Header().Get("Retry-After"))
	}
	var body protocol.APIError
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Code != protocol.CodeRateLimited || body.Error.Message == "" {
		t.Errorf("the body %s (%v), want the API's error with code rate_limited and a message", w.Body, err)
	}
	if w := post(s, "192.0.2.2:1000", ""); w.Code != http.StatusServiceUnavailable {
		t.Errorf("another address: %d, want it let through", w.Code)
	}
	// Behind the proxy, each forwarded client has its own bucket.
	for i := range 2 {
		if w := post(s, "10.0.0.1:2000", "203.0.113.1"); w.Code != http.StatusServiceUnavailable {
			t.Fatalf("forwarded request %d: %d, want it let through", i+1, w.Code)
		}
	}
	if w := post(s, "10.0.0.1:2000", "203.0.113.1"); w.Code != http.StatusTooManyRequests {
		t.Errorf("the forwarded client's 3rd: %d, want 429", w.Code)
	}
	if w := post(s, "10.0.0.1:2000", "203.0.113.2"); w.Code != http.StatusServiceUnavailable {
		t.Errorf("another forwarded client: %d, want it let through", w.Code)
	}
	// An exempt address is not limited.
	for i := range 5 {
		if w := post(s, "127.0.0.1:3000", ""); w.Code != http.StatusServiceUnavailable {
			t.Fatalf("exempt request %d: %d, want it let through", i+1, w.Code)
		}
	}
}

// TestChatOver checks the chat limit per address: chat messages past it
// are refused (their id echoed), other messages are not counted, and an
// unlimited server counts nothing.
func TestChatOver(t *testing.T) {
	s := New(Config{Games: games.Registry, Limits: Limits{Chat: Limit{Rate: 1.0 / 60, Burst: 2}}})
	defer s.Close()
	c := &client{key: netip.MustParseAddr("192.0.2.1")}
	now := time.Now()
	move := []byte(`{"v":1,"type":"move","move":"draw","id":"m1"}`)
	for range 5 {
		if over, _ := s.chatOver(c, move, now); over {
			t.Fatal("a move counted as chat")
		}
	}
	chat := []byte(`{"v":1,"type":"chat","text":"hello","id":"c9"}`)
	for i := range 2 {
		if over, _ := s.chatOver(c, chat, now); over {
			t.Fatalf("chat message %d refused", i+1)
		}
	}
	if over, id := s.chatOver(c, chat, now); !over || id != "c9" {
		t.Fatalf("the 3rd chat message: over %v, id %q; want refused with id c9", over, id)
	}
	if over, _ := s.chatOver(&client{key: netip.MustParseAddr("192.0.2.2")}, chat, now); over {
		t.Error("another address's chat was refused")
	}
	free := New(Config{Games: games.Registry})
	defer free.Close()
	for range 10 {
		if over, _ := free.chatOver(c, chat, now); over {
			t.Fatal("chat refused with no limit")
		}
	}
}
