package server

import (
	"cmp"
	"errors"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"time"

	"parlour/internal/table"
)

// relayHeader marks a request one node relayed to another, naming the
// node that relayed it (limit.go). A node never relays a relayed request
// again: when the owner it was sent to no longer has the table, the
// client is asked to retry, and the cluster settles.
const relayHeader = "X-Parlour-Relayed"

// retryAfter is the Retry-After of refusals that pass soon: a table
// changing hands, a node full for the moment.
const retryAfter = 1 * time.Second

// owned serves a request about table {id} where the table runs: here, or
// by relaying it (a WebSocket too) to the node that owns it in a cluster.
func (s *Server) owned(h func(w http.ResponseWriter, r *http.Request, m *table.Manager)) http.HandlerFunc {
	return s.ready(func(w http.ResponseWriter, r *http.Request, m *table.Manager) {
		if m.NodeID() == "" {
			h(w, r, m)
			return
		}
		_, err := m.Get(r.Context(), r.PathValue("id"))
		var away *table.ElsewhereError
		if !errors.As(err, &away) {
			h(w, r, m) // here, or an error the handler reports
			return
		}
		if r.Header.Get(relayHeader) != "" {
			s.fail(w, err)
			return
		}
		s.relay(w, r, away.Addr)
	})
}

// relay passes the request to the node at addr and its answer back; a
// WebSocket is relayed frame for frame until either side closes, so when
// the owner dies the client's connection closes and it reconnects.
func (s *Server) relay(w http.ResponseWriter, r *http.Request, addr string) {
	target, err := url.Parse(addr)
	if err != nil || target.Host == "" {
		s.writeError(w, http.StatusServiceUnavailable, "unavailable", "the table's node has a bad address: "+addr)
		return
	}
	if r.Header.Get("Upgrade") != "" {
		s.cfg.Metrics.Relay(1)
		defer s.cfg.Metrics.Relay(-1)
	}
	p := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host // the owner checks origins against the client's host
			pr.SetXForwarded()
			// The client as this node sees it (through its trusted
			// proxies), and this node, whose address vouches for it.
			if a := s.addrOf(pr.In); a.IsValid() {
				pr.Out.Header.Set("X-Forwarded-For", a.String())
			}
			pr.Out.Header.Set(relayHeader, cmp.Or(s.nodeID(), "1"))
		},
		Transport: s.relayTransport,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			s.log.Warn("relaying to a node", "node", addr, "err", err)
			s.unavailable(w, "unavailable", "the table's node did not answer; try again")
		},
	}
	p.ServeHTTP(w, r)
}

// nodeID is this node's id in its cluster ("" alone, or before Ready).
func (s *Server) nodeID() string {
	if m := s.m.Load(); m != nil {
		return m.NodeID()
	}
	return ""
}

// unavailable refuses a request for now, with Retry-After.
func (s *Server) unavailable(w http.ResponseWriter, code, message string) {
	w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
	s.writeError(w, http.StatusServiceUnavailable, code, message)
}
