package server

import (
	"bufio"
	"context"
	"encoding/binary"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestSmallBuffers checks that a WebSocket connection accepted through
// smallBuffers gets the small buffers and reads what the client sent, the
// bytes sent along with the handshake (read ahead by net/http) first.
func TestSmallBuffers(t *testing.T) {
	got := make(chan []string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(smallBuffers{w}, r, nil)
		if err != nil {
			t.Error(err)
			got <- nil
			return
		}
		defer c.CloseNow()
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		var msgs []string
		for range 3 {
			_, b, err := c.Read(ctx)
			if err != nil {
				t.Error(err)
				break
			}
			msgs = append(msgs, string(b))
		}
		got <- msgs
	}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	long := strings.Repeat("a long message past the read buffer. ", 40)
	want := []string{"sent with the handshake", "after the answer", long}
	// The handshake and the first message in one write, so net/http reads
	// the message ahead.
	req := "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := conn.Write(append([]byte(req), clientFrame(want[0])...)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("the handshake's answer: %v %v", resp, err)
	}
	for _, m := range want[1:] {
		if _, err := conn.Write(clientFrame(m)); err != nil {
			t.Fatal(err)
		}
	}
	msgs := <-got
	if len(msgs) != len(want) {
		t.Fatalf("the server read %d messages, want %d", len(msgs), len(want))
	}
	for i := range want {
		if msgs[i] != want[i] {
			t.Errorf("message %d: %.40q, want %.40q", i, msgs[i], want[i])
		}
	}
	// The buffers themselves.
	sizes := make(chan [2]int, 1)
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, brw, err := smallBuffers{w}.Hijack()
		if err != nil {
			t.Error(err)
			sizes <- [2]int{}
			return
		}
		c.Close()
		sizes <- [2]int{brw.Reader.Size(), brw.Writer.Size()}
	}))
	defer srv2.Close()
	if resp, err := http.Get(srv2.URL); err == nil {
		resp.Body.Close()
	}
	if got := <-sizes; got != [2]int{connReadBuffer, connWriteBuffer} {
		t.Errorf("buffers of %v bytes, want %d and %d", got, connReadBuffer, connWriteBuffer)
	}
}

// clientFrame is text as a client's masked text frame.
func clientFrame(text string) []byte {
	key := [4]byte{1, 2, 3, 4}
	f := []byte{0x81}
	if n := len(text); n < 126 {
		f = append(f, 0x80|byte(n))
	} else {
		f = append(f, 0x80|126)
		f = binary.BigEndian.AppendUint16(f, uint16(n))
	}
	f = append(f, key[:]...)
	for i := range len(text) {
		f = append(f, text[i]^key[i%4])
	}
	return f
}
