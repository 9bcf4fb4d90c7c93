package client

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestParseInvite(t *testing.T) {
	want := Invite{Base: "http://127.0.0.1:8080", Table: "9f1c2a7b3d4e5f60"}
	for _, link := range []string{
		"http://127.0.0.1:8080/#/t/9f1c2a7b3d4e5f60",
		"http://127.0.0.1:8080/#/t/9f1c2a7b3d4e5f60/",
		"  http://127.0.0.1:8080/t/9f1c2a7b3d4e5f60 ",
		"ws://127.0.0.1:8080/ws/tables/9f1c2a7b3d4e5f60",
		"ws://127.0.0.1:8080/t/9f1c2a7b3d4e5f60",
		"HTTP://127.0.0.1:8080/#/t/9f1c2a7b3d4e5f60",
	} {
		got, err := ParseInvite(link)
		if err != nil || got != want {
			t.Errorf("ParseInvite(%q) = %+v, %v; want %+v", link, got, err, want)
		}
	}
	secure, err := ParseInvite("wss://parlour.example/ws/tables/abc")
	if err != nil || secure != (Invite{Base: "https://parlour.example", Table: "abc"}) || secure.socket() != "wss://parlour.example/ws/tables/abc" {
		t.Errorf("wss: %+v, %v", secure, err)
	}
	if got := want.Link(); got != "http://127.0.0.1:8080/#/t/9f1c2a7b3d4e5f60" {
		t.Errorf("Link() = %q", got)
	}
	if got := want.socket(); got != "ws://127.0.0.1:8080/ws/tables/9f1c2a7b3d4e5f60" {
		t.Errorf("socket() = %q", got)
	}
	for _, bad := range []string{
		"", "nonsense", "127.0.0.1:8080/#/t/abc", "ftp://h/#/t/abc", "http:///#/t/abc",
		"http://h/", "http://h/#/replay/abc", "http://h/#/t/", "http://h/#/t/a%20b", "http://h/#/t/abc/def",
		"http://user:pw@h/#/t/abc",
	} {
		if got, err := ParseInvite(bad); !errors.Is(err, ErrBadInvite) {
			t.Errorf("ParseInvite(%q) = %+v, %v; want ErrBadInvite", bad, got, err)
		}
	}
}

func TestStore(t *testing.T) {
	s := Store{Path: filepath.Join(t.TempDir(), "sub", "seats.json")}
	a := Invite{Base: "http://h:1", Table: "a"}
	b := Invite{Base: "http://h:2", Table: "a"}
	if _, ok, err := s.Get(a); ok || err != nil {
		t.Fatalf("an empty store holds a seat: %v %v", ok, err)
	}
	if err := s.Put(a, Seat{Seat: 2, Token: "t1", Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(b, Seat{Seat: 0, Token: "t2"}); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := s.Get(a); !ok || err != nil || got.Token != "t1" || got.Seat != 2 {
		t.Errorf("Get(a) = %+v %v %v", got, ok, err)
	}
	if got, _, _ := s.Get(b); got.Token != "t2" {
		t.Errorf("another server's table is another seat: %+v", got)
	}
	st, err := os.Stat(s.Path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the seats file: %v, %v; want mode 600", st.Mode().Perm(), err)
	}
	if err := s.Delete(a); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Get(a); ok {
		t.Error("Delete kept the seat")
	}
	if _, ok, _ := s.Get(b); !ok {
		t.Error("Delete dropped another seat")
	}
	os.WriteFile(s.Path, []byte("not json"), 0o600)
	if _, _, err := s.Get(a); err == nil {
		t.Error("a broken seats file reads without an error")
	}
}

// TestStoreSeveralSeats: a second player of the same user at one table is
// kept beside the first; All lists both, the first first; Remove forgets
// one by its token.
func TestStoreSeveralSeats(t *testing.T) {
	s := Store{Path: filepath.Join(t.TempDir(), "seats.json")}
	a := Invite{Base: "http://h:1", Table: "a"}
	other := Invite{Base: "http://h:1", Table: "ab"}
	if err := s.Add(a, Seat{Seat: 2, Token: "t2"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(a, Seat{Seat: 0, Token: "t0"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(other, Seat{Seat: 1, Token: "x"}); err != nil {
		t.Fatal(err)
	}
	all, err := s.All(a)
	if err != nil || len(all) != 2 || all[0].Token != "t2" || all[1].Token != "t0" {
		t.Fatalf("All = %+v, %v; want t2 then t0", all, err)
	}
	if got, ok, _ := s.Get(a); !ok || got.Token != "t2" {
		t.Errorf("Get = %+v, want the first seat kept", got)
	}
	if err := s.Remove(a, Seat{Token: "t2"}); err != nil {
		t.Fatal(err)
	}
	if all, _ := s.All(a); len(all) != 1 || all[0].Token != "t0" {
		t.Errorf("after Remove, All = %+v", all)
	}
	if all, _ := s.All(other); len(all) != 1 {
		t.Errorf("another table's seat went: %+v", all)
	}
}

// TestLockSeat: a seat's lock is held by one taker at a time, and free
// again once released.
func TestLockSeat(t *testing.T) {
	s := Store{Path: filepath.Join(t.TempDir(), "seats.json")}
	a := Invite{Base: "http://h:1", Table: "a"}
	release, ok, err := lockSeat(s, a, 0)
	if err != nil || !ok {
		t.Fatalf("the first lock: %v %v", ok, err)
	}
	if _, ok, err := lockSeat(s, a, 0); ok || err != nil {
		t.Fatalf("a second lock of a held seat: %v %v; want refused", ok, err)
	}
	r1, ok, err := lockSeat(s, a, 1)
	if !ok || err != nil {
		t.Fatalf("another seat's lock: %v %v", ok, err)
	}
	r1()
	release()
	r2, ok, err := lockSeat(s, a, 0)
	if !ok || err != nil {
		t.Fatalf("the lock once released: %v %v", ok, err)
	}
	r2()
}
