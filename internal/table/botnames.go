package table

import (
	"fmt"
	"strings"

	"parlour/internal/protocol"
	"parlour/internal/store"
)

// botNames are the friendly names bots go by at a table: the bot at seat
// s is botNames[s], unless a person at the table goes by that name.
var botNames = []string{"Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana",
	"Ivo", "Jude", "Kit", "Lena", "Milo", "Nell", "Otto", "Pia"}

// Level returns the level a bot is shown with (protocol.LevelBeginner,
// protocol.LevelCasual, "easy", "medium" or "hard") from its name as
// bot.ByName takes it; an external bot (--engine) is shown by its own name.
func Level(botName string) string {
	switch botName {
	case "random":
		return protocol.LevelBeginner
	case "heuristic":
		return protocol.LevelCasual
	}
	return botName // easy, medium, hard: the level's own name
}

// nameBots gives every bot seat of seats its friendly name, from nothing
// but the seats: the bot at seat s is called botNames[s] and keeps that
// name, unless a person at the table goes by it (compared regardless of
// case). A person may take any name: the bot whose name it is then goes
// by the first name of the list that no seat's default is and nobody at
// the table has (with eight seats at most, there is always one), and gets
// its own back once that person leaves. So names follow from who sits
// where: a table rebuilt from the store, or created before bots had
// names, names its bots just the same.
func nameBots(seats []store.Seat) {
	taken := make(map[string]bool, len(seats))
	for _, s := range seats {
		if s.Kind != store.KindBot && s.Name != "" {
			taken[strings.ToLower(s.Name)] = true
		}
	}
	for i := range seats {
		if seats[i].Kind != store.KindBot {
			continue
		}
		name := ""
		if i < len(botNames) && !taken[strings.ToLower(botNames[i])] {
			name = botNames[i]
		}
		for j := len(seats); name == "" && j < len(botNames); j++ {
			if !taken[strings.ToLower(botNames[j])] {
				name = botNames[j]
			}
		}
		for k := 1; name == ""; k++ {
			if c := fmt.Sprintf("Bot %d", i+k); !taken[strings.ToLower(c)] {
				name = c
			}
		}
		taken[strings.ToLower(name)] = true
		seats[i].Name = name
	}
}

// renameBots names the table's bots again (nameBots) after a person's
// name changed.
func (t *Table) renameBots() {
	seats := t.storeSeats()
	nameBots(seats)
	for i, s := range t.seats {
		if s.kind == store.KindBot {
			s.name = seats[i].Name
		}
	}
}

// storeSeats returns the seats as stored.
func (t *Table) storeSeats() []store.Seat {
	seats := make([]store.Seat, len(t.seats))
	for i, s := range t.seats {
		seats[i] = store.Seat{Kind: s.kind, Bot: s.botName, Name: s.name, TokenHash: s.token}
	}
	return seats
}
