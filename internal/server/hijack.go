package server

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
)

// The buffers of a WebSocket connection. A client's messages are small (a
// move, a sync, a line of chat), so a small read buffer holds them, and a
// longer one is read in a few pieces; the write buffer holds a state
// frame, header and all, for one write to the socket (a bigger frame goes
// in two). net/http's are 4 KiB each, and a connection keeps them for its
// life: 8 KiB a connection, against 2.5 KiB with these.
const (
	connReadBuffer  = 512
	connWriteBuffer = 2 << 10
)

// smallBuffers is an http.ResponseWriter whose Hijack (which
// websocket.Accept calls) hands over the connection with buffers of
// connReadBuffer and connWriteBuffer bytes instead of net/http's.
type smallBuffers struct {
	http.ResponseWriter
}

// Hijack hijacks the connection and gives it its small buffers. The bytes
// net/http had read ahead (a client may send before the handshake's
// answer) are in the new read buffer, first in line.
func (w smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	br := bufio.NewReaderSize(c, connReadBuffer)
	if n := brw.Reader.Buffered(); n > 0 {
		// In the new buffer, where the caller looks for them (Accept
		// peeks at what is buffered, then reads from c).
		ahead, _ := brw.Reader.Peek(n)
		br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(bytes.Clone(ahead)), c), max(n, connReadBuffer))
		if _, err := br.Peek(n); err != nil {
			c.Close()
			return nil, nil, err
		}
	}
	return c, bufio.NewReadWriter(br, bufio.NewWriterSize(c, connWriteBuffer)), nil
}
