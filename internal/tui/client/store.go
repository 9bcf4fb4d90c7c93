package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Store keeps the seats this user holds, by table, in a JSON file only the
// user may read (the tokens are the seats' secrets), so that joining the
// same table again takes the same seat back.
type Store struct {
	Path string
}

// DefaultStore is the store under the user's configuration directory:
// $XDG_CONFIG_HOME/parlour/seats.json on Linux.
func DefaultStore() (Store, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return Store{}, fmt.Errorf("no place to keep the seat's token: %w", err)
	}
	return Store{Path: filepath.Join(dir, "parlour", "seats.json")}, nil
}

// storeMu keeps this process's reads and writes of a store apart.
var storeMu sync.Mutex

func key(inv Invite) string { return inv.Base + "/t/" + inv.Table }

func (s Store) load() (map[string]Seat, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]Seat{}, nil
	}
	if err != nil {
		return nil, err
	}
	seats := map[string]Seat{}
	if err := json.Unmarshal(data, &seats); err != nil {
		return nil, fmt.Errorf("%s is not a seats file: %w", s.Path, err)
	}
	return seats, nil
}

// Get returns the seat held at the invite's table, if any.
func (s Store) Get(inv Invite) (Seat, bool, error) {
	storeMu.Lock()
	defer storeMu.Unlock()
	seats, err := s.load()
	if err != nil {
		return Seat{}, false, err
	}
	seat, ok := seats[key(inv)]
	return seat, ok, nil
}

// Put records the seat held at the invite's table.
func (s Store) Put(inv Invite, seat Seat) error {
	return s.change(func(seats map[string]Seat) { seats[key(inv)] = seat })
}

// Delete forgets the seat held at the invite's table.
func (s Store) Delete(inv Invite) error {
	return s.change(func(seats map[string]Seat) { delete(seats, key(inv)) })
}

// All returns every seat held at the invite's table: the one Get returns
// first, then those Add kept for more players of this user (two terminals
// at one table), by seat.
func (s Store) All(inv Invite) ([]Seat, error) {
	storeMu.Lock()
	defer storeMu.Unlock()
	seats, err := s.load()
	if err != nil {
		return nil, err
	}
	var out []Seat
	for k, seat := range seats {
		if strings.HasPrefix(k, key(inv)+"#") {
			out = append(out, seat)
		}
	}
	slices.SortFunc(out, func(a, b Seat) int { return a.Seat - b.Seat })
	if seat, ok := seats[key(inv)]; ok {
		out = append([]Seat{seat}, out...)
	}
	return out, nil
}

// Add records one more seat held at the invite's table: as the one Get
// returns if there is none, else beside it.
func (s Store) Add(inv Invite, seat Seat) error {
	return s.change(func(seats map[string]Seat) {
		if _, ok := seats[key(inv)]; ok {
			seats[key(inv)+"#"+strconv.Itoa(seat.Seat)] = seat
		} else {
			seats[key(inv)] = seat
		}
	})
}

// Remove forgets the seat held at the invite's table whose token is that
// of seat, wherever it is kept.
func (s Store) Remove(inv Invite, seat Seat) error {
	return s.change(func(seats map[string]Seat) {
		for k, x := range seats {
			if (k == key(inv) || strings.HasPrefix(k, key(inv)+"#")) && x.Token == seat.Token {
				delete(seats, k)
			}
		}
	})
}

func (s Store) change(f func(map[string]Seat)) error {
	storeMu.Lock()
	defer storeMu.Unlock()
	seats, err := s.load()
	if err != nil {
		return err
	}
	f(seats)
	data, err := json.MarshalIndent(seats, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), ".seats-*.json")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), s.Path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
