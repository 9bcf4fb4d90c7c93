// Command gobot is an example bot for the Parlour bot protocol, version 1
// (docs/bots.md): it reads one JSON message per line on standard input and
// answers on standard output. It plays a legal move at random: a starting
// point for a real bot's judgement.
//
// With -observe it asks at "ready" for the learning encoding ("want":
// ["observation"]), so each "act" also carries the seat's observation
// vector, the action index of each legal move and the size of the action
// space (see `parlour encode GAME`). It checks them, and says on standard
// error what is wrong if anything is.
//
//	go build -o gobot ./examples/bots/gobot
//	parlour tournament --game golf --engine gobot=./gobot --bots gobot,random,random,random
package main

import (
	"bufio"
	"encoding/json"
	"flag"
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
	// With "want":["observation"] only.
	Observation []float32 `json:"observation"`
	LegalIDs    []int     `json:"legal_ids"`
	Actions     int       `json:"actions"`
}

func main() {
	observe := flag.Bool("observe", false, "ask for the observation vector and legal action indices, and check them")
	flag.Parse()
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
			ready := map[string]any{"type": "ready", "name": "gobot"}
			if *observe {
				ready["want"] = []string{"observation"}
			}
			send(ready)
		case "act":
			if *observe {
				if problem := check(m); problem != "" {
					fmt.Fprintln(os.Stderr, "gobot: bad observation:", problem)
					send(map[string]string{"type": "move", "move": "bad observation: " + problem})
					continue
				}
			}
			send(map[string]string{"type": "move", "move": m.Legal[rng.IntN(len(m.Legal))]})
		case "quit":
			return
		}
	}
}

// check says what is wrong with an act's observation, or "".
func check(m message) string {
	switch {
	case len(m.Observation) == 0:
		return "no observation"
	case len(m.LegalIDs) != len(m.Legal):
		return fmt.Sprintf("%d legal_ids for %d legal moves", len(m.LegalIDs), len(m.Legal))
	}
	seen := map[int]bool{}
	for _, id := range m.LegalIDs {
		if id < 0 || id >= m.Actions || seen[id] {
			return fmt.Sprintf("legal_ids %v: out of 0-%d or repeated", m.LegalIDs, m.Actions-1)
		}
		seen[id] = true
	}
	return ""
}
