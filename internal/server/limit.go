package server

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"parlour/internal/protocol"
	"parlour/internal/rate"
)

// Limits per client. One client must not take from everyone else what a
// node has: its tables, its seats, its connections, its tables' chat. Each
// client address has a token bucket for each thing it may do, and past
// one the request is refused with 429 and Retry-After (a chat message,
// with an error frame). A client is its address as the node sees it, or,
// behind a trusted proxy, the address the proxy forwarded for; IPv6
// addresses count by their /64, which one machine usually has whole.

// Limit is a token bucket: Burst at once, then Rate a second on average.
// The zero Limit (or one with no rate or no burst) is no limit.
type Limit struct {
	Rate  float64 // tokens added a second
	Burst int     // the most tokens the bucket holds
}

// off reports whether l limits nothing.
func (l Limit) off() bool { return l.Rate <= 0 || l.Burst <= 0 }

// ParseLimit reads a limit as the flags write it: "N/PERIOD", N at once
// and N each PERIOD (a Go duration: "30/1m" is 30 at once, then one every
// 2 seconds), or "0" or "off" for no limit.
func ParseLimit(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if s == "0" || s == "off" {
		return Limit{}, nil
	}
	n, per, ok := strings.Cut(s, "/")
	burst, err := strconv.Atoi(n)
	if !ok || err != nil || burst < 1 {
		return Limit{}, fmt.Errorf("limit %q is not N/PERIOD (such as 30/1m) or off", s)
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return Limit{}, fmt.Errorf("limit %q: the period %q is not a positive duration (such as 10s or 1m)", s, per)
	}
	return Limit{Rate: float64(burst) / d.Seconds(), Burst: burst}, nil
}

// String writes l as ParseLimit reads it.
func (l Limit) String() string {
	if l.off() {
		return "off"
	}
	d := time.Duration(float64(l.Burst) / l.Rate * float64(time.Second)).Round(time.Millisecond)
	per := d.String()
	for _, unit := range []string{"m0s", "h0m"} {
		if p, ok := strings.CutSuffix(per, unit); ok {
			per = p + unit[:1]
		}
	}
	return fmt.Sprintf("%d/%s", l.Burst, per)
}

// Set reads s into l (ParseLimit): a *Limit is a flag.Value.
func (l *Limit) Set(s string) error {
	v, err := ParseLimit(s)
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// Limits are what one client address may do on a node. The zero Limits
// is no limit; DefaultLimits are parlour serve's.
type Limits struct {
	// Create limits the tables a client creates (POST /api/tables).
	Create Limit
	// Join limits the seats a client takes (POST /api/tables/{id}/join).
	Join Limit
	// Connect limits the WebSocket connections a client opens.
	Connect Limit
	// Conns is the most WebSocket connections a client holds at once;
	// 0: no limit.
	Conns int
	// Chat limits the chat messages a client writes, over all its
	// connections (each seat has its own limit besides: chat_flood).
	Chat Limit
}

// DefaultLimits returns the limits parlour serve starts with: far above
// what a household or a club behind one address does (a table every 2
// seconds, 30 at once), far below the thousands of tables a looping
// script makes.
func DefaultLimits() Limits {
	return Limits{
		Create:  Limit{Rate: 30.0 / 60, Burst: 30},
		Join:    Limit{Rate: 60.0 / 60, Burst: 60},
		Connect: Limit{Rate: 120.0 / 60, Burst: 120},
		Conns:   200,
		Chat:    Limit{Rate: 120.0 / 60, Burst: 120},
	}
}

// ParsePrefixes reads a list of addresses as --trusted-proxy and
// --limit-exempt take it: comma-separated addresses and ranges
// ("10.0.0.5,10.1.0.0/16,::1"), each address a range of its own.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("%q is not an address or a range (CIDR)", f)
			}
			if p.Addr().Is4In6() {
				p = netip.PrefixFrom(p.Addr().Unmap(), max(p.Bits()-96, 0))
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address or a range (CIDR)", f)
		}
		a = a.Unmap().WithZone("")
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// trusted reports whether a is one of the proxies.
func trusted(a netip.Addr, proxies []netip.Prefix) bool {
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr returns the address of the client that made r: its peer's
// (r.RemoteAddr) unless the peer is a trusted proxy, or a node of the
// cluster relaying (node, which may be nil, says so). Then it is the
// right-most address of X-Forwarded-For that is not a trusted proxy
// (each proxy appends the address it was reached from; what is left of
// that, the client wrote itself). A hop that is not an address ends the
// walk at the trusted proxy before it. A forwarded header from any other
// peer is not read.
func clientAddr(r *http.Request, proxies []netip.Prefix, node func(peer netip.Addr) bool) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	addr := ap.Addr().Unmap().WithZone("")
	if !trusted(addr, proxies) && (node == nil || !node(addr)) {
		return addr
	}
	fwd := r.Header.Values("X-Forwarded-For")
	for i := len(fwd) - 1; i >= 0; i-- {
		hops := strings.Split(fwd[i], ",")
		for j := len(hops) - 1; j >= 0; j-- {
			hop, ok := parseHop(hops[j])
			if !ok {
				return addr
			}
			addr = hop
			if !trusted(hop, proxies) {
				return hop
			}
		}
	}
	return addr
}

// addrOf returns the address of the client that made r (clientAddr),
// with the cluster's nodes trusted when they relay.
func (s *Server) addrOf(r *http.Request) netip.Addr {
	return clientAddr(r, s.cfg.TrustedProxies, func(peer netip.Addr) bool { return s.fromNode(r, peer) })
}

// parseHop reads one address of X-Forwarded-For: an address, perhaps
// with a port, an IPv6 one perhaps in brackets.
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if err != nil {
		ap, err := netip.ParseAddrPort(s)
		if err != nil {
			return netip.Addr{}, false
		}
		a = ap.Addr()
	}
	return a.Unmap().WithZone(""), true
}

// limitKey is the key a client address's buckets are kept under: an IPv4
// address, or an IPv6 address's /64.
func limitKey(a netip.Addr) netip.Addr {
	if a.Is6() {
		if p, err := a.Prefix(64); err == nil {
			return p.Addr()
		}
	}
	return a
}

// action is a thing a client does that is limited.
type action int

const (
	actCreate action = iota
	actJoin
	actConnect
	actChat
	nActions
)

// what names an action's count in a refusal.
var what = [nActions]string{"tables created", "seats taken", "connections opened", "chat messages"}

// Limiter bookkeeping.
const (
	// sweepEvery is how often the buckets of idle clients are forgotten.
	sweepEvery = time.Minute
	// crowd is how many clients make a sweep come sooner (at most one a
	// second): the memory of clients stays bounded under a flood of
	// addresses.
	crowd = 1 << 16
)

// limiter keeps each client's buckets and open connections.
type limiter struct {
	limits  [nActions]Limit
	conns   int
	mu      sync.Mutex
	clients map[netip.Addr]*clientBuckets
	swept   time.Time
}

// clientBuckets is what the limiter knows of one client.
type clientBuckets struct {
	b     [nActions]rate.Bucket
	conns int
}

func newLimiter(l Limits) *limiter {
	return &limiter{limits: [nActions]Limit{l.Create, l.Join, l.Connect, l.Chat}, conns: l.Conns,
		clients: map[netip.Addr]*clientBuckets{}, swept: time.Now()}
}

// on reports whether action a is limited.
func (l *limiter) on(a action) bool { return !l.limits[a].off() }

// get returns the client's buckets, made if need be (under mu).
func (l *limiter) get(key netip.Addr, now time.Time) *clientBuckets {
	if now.Sub(l.swept) >= sweepEvery || (len(l.clients) >= crowd && now.Sub(l.swept) >= time.Second) {
		l.sweep(now)
	}
	c := l.clients[key]
	if c == nil {
		c = &clientBuckets{}
		for a, lim := range l.limits {
			c.b[a] = rate.Bucket{Rate: lim.Rate, Burst: float64(lim.Burst)}
		}
		l.clients[key] = c
	}
	return c
}

// allow takes a token of action a from the client's bucket. When there is
// none it takes nothing and says how long until there is one.
func (l *limiter) allow(a action, key netip.Addr, now time.Time) (bool, time.Duration) {
	if !l.on(a) {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.get(key, now).b[a].Take(now)
}

// open counts a connection more for the client, unless it holds its most.
func (l *limiter) open(key netip.Addr, now time.Time) bool {
	if l.conns <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.get(key, now)
	if c.conns >= l.conns {
		return false
	}
	c.conns++
	return true
}

// close counts a connection of the client's less (one open counted).
func (l *limiter) close(key netip.Addr) {
	if l.conns <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.clients[key]; c != nil && c.conns > 0 {
		c.conns--
	}
}

// sweep forgets the clients with no connection whose buckets are all full
// again: a full bucket is what a client never seen has (under mu).
func (l *limiter) sweep(now time.Time) {
	l.swept = now
	for key, c := range l.clients {
		if c.conns > 0 {
			continue
		}
		full := true
		for a := range nActions {
			if !l.limits[a].off() && c.b[a].Level(now) < c.b[a].Burst {
				full = false
				break
			}
		}
		if full {
			delete(l.clients, key)
		}
	}
}

// size is the number of clients remembered.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}

// client is a request's client as the limits see it, handed to the
// handler in the request's context.
type client struct {
	key netip.Addr // limitKey of its address
	// slot says the request holds one of the client's connections
	// (open): released when the handler returns, unless the handler
	// takes it (a WebSocket session that outlives it).
	slot bool
}

type clientCtxKey struct{}

// clientOf returns the request's client (nil if it was not limited).
func clientOf(ctx context.Context) *client {
	c, _ := ctx.Value(clientCtxKey{}).(*client)
	return c
}

// limited counts action a against the request's client before h serves
// it, and refuses the request with 429 and Retry-After past the client's
// limit (nothing is done, and nothing counted).
func (s *Server) limited(a action, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		addr := s.addrOf(r)
		if trusted(addr, s.cfg.LimitExempt) {
			h(w, r)
			return
		}
		c := &client{key: limitKey(addr)}
		now := time.Now()
		if a == actConnect {
			if !s.lim.open(c.key, now) {
				s.tooMany(w, connWait, fmt.Sprintf("your address holds its most connections (%d); close one first", s.lim.conns))
				return
			}
			c.slot = true
			defer func() {
				if c.slot {
					s.lim.close(c.key)
				}
			}()
		}
		if ok, wait := s.lim.allow(a, c.key, now); !ok {
			s.tooMany(w, wait, s.overLimit(a))
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), clientCtxKey{}, c)))
	}
}

// connWait is the Retry-After of a client holding its most connections:
// one of them has to close first.
const connWait = 5 * time.Second

// overLimit says what limit action a is over.
func (s *Server) overLimit(a action) string {
	l := s.lim.limits[a]
	return fmt.Sprintf("too many %s from your address (at most %s: %d at once, then %s a second)",
		what[a], l, l.Burst, strconv.FormatFloat(l.Rate, 'g', 3, 64))
}

// tooMany refuses a request over a client's limit: 429, code
// rate_limited, and Retry-After in whole seconds (at least 1).
func (s *Server) tooMany(w http.ResponseWriter, wait time.Duration, message string) {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	s.writeError(w, http.StatusTooManyRequests, protocol.CodeRateLimited, message+"; try again in "+strconv.Itoa(secs)+" s")
}

// chatMarker is in every chat message (and in few others): only those
// are read here to see whether they are chat.
var chatMarker = []byte(`"chat"`)

// chatOver reports whether a WebSocket message from c is a chat message
// past its address's limit, and the refusal to send (the message's id
// echoed).
func (s *Server) chatOver(c *client, data []byte, now time.Time) (bool, string) {
	if c == nil || !s.lim.on(actChat) || !bytes.Contains(data, chatMarker) {
		return false, ""
	}
	msg, perr := protocol.ParseClient(data)
	if perr != nil || msg.Type != protocol.TypeChat {
		return false, ""
	}
	if ok, _ := s.lim.allow(actChat, c.key, now); ok {
		return false, ""
	}
	return true, msg.ID
}

// Relays. A node relays the requests for a table another node runs,
// naming itself in relayHeader and the client in X-Forwarded-For; the
// node that runs the table believes that header from an address of the
// node named (as it advertises itself in the store), as it does a
// trusted proxy's, so a client's relayed requests count against the
// client and not against the node that relayed them.

// nodeTTL is how long a node's addresses are remembered.
const nodeTTL = time.Minute

// nodeAddrs remembers the addresses of the cluster's nodes.
type nodeAddrs struct {
	mu    sync.Mutex
	known map[string]nodeEntry
	// looked is when the last lookup began: one a second at most, so
	// requests naming made-up nodes cost the store little.
	looked time.Time
}

// nodeEntry is a node's addresses, as looked up at a time.
type nodeEntry struct {
	ips []netip.Addr
	at  time.Time
}

// addrs returns node id's addresses, looking up its advertised address
// with lookup (then its host name) when they are not known or are old.
// Between lookups it answers from memory, perhaps nothing.
func (n *nodeAddrs) addrs(ctx context.Context, id string, now time.Time, lookup func(ctx context.Context, id string) (string, error)) []netip.Addr {
	n.mu.Lock()
	e, ok := n.known[id]
	if (ok && now.Sub(e.at) < nodeTTL) || now.Sub(n.looked) < time.Second {
		n.mu.Unlock()
		return e.ips
	}
	n.looked = now
	n.mu.Unlock()

	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var ips []netip.Addr
	if adv, err := lookup(ctx, id); err == nil {
		ips = resolve(ctx, adv)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.known == nil || len(n.known) >= 1024 {
		n.known = map[string]nodeEntry{}
	}
	n.known[id] = nodeEntry{ips: ips, at: now}
	return ips
}

// resolve returns the addresses of an advertised node address
// ("http://host:port").
func resolve(ctx context.Context, adv string) []netip.Addr {
	u, err := url.Parse(adv)
	if err != nil || u.Hostname() == "" {
		return nil
	}
	if a, err := netip.ParseAddr(u.Hostname()); err == nil {
		return []netip.Addr{a.Unmap()}
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil {
		return nil
	}
	for i := range ips {
		ips[i] = ips[i].Unmap()
	}
	return ips
}

// fromNode reports whether r, from peer, was relayed by another node of
// the cluster: it names that node, and peer is one of the node's
// addresses.
func (s *Server) fromNode(r *http.Request, peer netip.Addr) bool {
	id := r.Header.Get(relayHeader)
	m := s.m.Load()
	if id == "" || m == nil || m.NodeID() == "" || id == m.NodeID() {
		return false
	}
	return slices.Contains(s.nodes.addrs(r.Context(), id, time.Now(), m.NodeAddr), peer)
}
