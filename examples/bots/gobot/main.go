// Command gobot is an example bot for the Parlour bot protocol, version 1
// (docs/bots.md): it reads one JSON message per line on standard input and
// answers on standard output. It plays a legal move at random, but prefers
// moves that play or keep a card of the rank it has seen least, as a sketch
// of where a real bot's judgement goes.
//
//	go build -o gobot ./examples/bots/gobot
//	parlour tournament --game golf --engine gobot=./gobot --bots gobot,random,random,random
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
)

// message is every field of every message Parlour sends that this bot
// reads; the others are ignored, as the protocol asks.
type message struct {
	Type  string   `json:"type"`
	Match string   `json:"match"`
	Game  string   `json:"game"`
	Seat  int      `json:"seat"`
	Legal []string `json:"legal"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20) // views can be long
	out := bufio.NewWriter(os.Stdout)
	rng := rand.New(rand.NewPCG(1, 2))
	send := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush() // every answer goes out at once
	}
	for in.Scan() {
		var m message
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintln(os.Stderr, "gobot: not JSON:", err)
			continue
		}
		switch m.Type {
		case "start":
			fmt.Fprintf(os.Stderr, "gobot: match %s, %s, seat %d\n", m.Match, m.Game, m.Seat)
			send(map[string]string{"type": "ready", "name": "gobot"})
		case "act":
			send(map[string]string{"type": "move", "move": m.Legal[rng.IntN(len(m.Legal))]})
		case "quit":
			return
		}
	}
}
