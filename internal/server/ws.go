package server

import (
	"fmt"
	"net/http"

	"github.com/coder/websocket"

	"parlour/internal/table"
)

// websocket serves GET /ws/tables/{id}: the table protocol.
func (s *Server) websocket(w http.ResponseWriter, r *http.Request, m *table.Manager) {
	id := r.PathValue("id")
	if _, err := m.Info(r.Context(), id); err != nil {
		s.fail(w, err)
		return
	}
	if n := s.open.Add(1); s.cfg.MaxConns > 0 && n > int64(s.cfg.MaxConns) {
		s.open.Add(-1)
		s.cfg.Metrics.Shed("connection")
		s.unavailable(w, "full", fmt.Sprintf("this server holds its most connections (%d); try again shortly", s.cfg.MaxConns))
		return
	}
	c, err := websocket.Accept(smallBuffers{w}, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns})
	if err != nil {
		s.open.Add(-1)
		return // Accept has answered (403 for a foreign origin)
	}
	// The connection is the server's now (hijacked): its reader (conn)
	// runs on a goroutine of its own, and the HTTP handler's, with the
	// deep stack of the handshake, ends here. A live connection costs one
	// small stack.
	s.connMu.Lock()
	if s.closed {
		s.connMu.Unlock()
		s.open.Add(-1)
		c.Close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	s.conns.Add(1)
	s.connMu.Unlock()
	// The conn holds the client's connection slot (limit.go) from here.
	cl := clientOf(r.Context())
	held := cl != nil && cl.slot
	if held {
		cl.slot = false
	}
	go (&conn{s: s, ws: c, id: id, m: m, cl: cl, held: held}).run()
}
