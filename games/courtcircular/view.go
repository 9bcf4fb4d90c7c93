package courtcircular

import (
	"parlour/card"
	"parlour/game"
)

// View is what one seat (or a spectator) sees of a Court Circular match.
// Card lists are in the game's order, lowest first (2 ... K A, S H D C).
type View struct {
	Seat    int    `json:"seat"` // -1 for a spectator
	Players int    `json:"players"`
	Edition string `json:"edition"`
	// Target is the 1860 game's target (0 in 1862).
	Target int    `json:"target,omitempty"`
	Deal   int    `json:"deal"` // 1-based
	Dealer int    `json:"dealer"`
	Phase  string `json:"phase"` // play, take, lead, over
	ToAct  []int  `json:"to_act"`
	// FirstHand is the trick's designated first-hand; Leader the seat that
	// played its first card (-1 before).
	FirstHand int `json:"first_hand"`
	Leader    int `json:"leader"`
	// Lead is the current Lead (while a trick's winner takes and chooses,
	// still the old one), null once the board is cleared or (1862) the old
	// Lead has been taken.
	Lead  card.Card `json:"lead"`
	Stock int       `json:"stock"`
	// Hand is this seat's hand (null for a spectator); HandSizes every
	// seat's number of cards.
	Hand      []card.Card `json:"hand"`
	HandSizes []int       `json:"hand_sizes"`
	// Played holds each seat's cards of this trick still on the table, in
	// the order played (in 1862 the cards the winner takes leave it); a
	// face-down No. 5 (1862) is null to everyone but its player.
	Played   [][]card.Card `json:"played"`
	Resigned []int         `json:"resigned"`
	// TrickWinner is the seat that won the trick being settled, or -1.
	TrickWinner int `json:"trick_winner"`
	// Lines names each seat's best line in the trick being settled.
	Lines []string `json:"lines"`
	// Take (1862) is how many cards the trick's winner takes.
	Take int `json:"take,omitempty"`
	// Shared are the three face-up cards of the 1862 last trick.
	Shared []card.Card `json:"shared,omitempty"`
	// WonUp and WonDown are the cards each seat has won this deal (1862:
	// all in WonUp); Marks their 1860 value.
	WonUp   [][]card.Card `json:"won_up"`
	WonDown [][]card.Card `json:"won_down"`
	Marks   []int         `json:"marks,omitempty"`
	// Tricks counts the tricks each seat has won this deal.
	Tricks []int `json:"tricks"`
	// SetAside (1862) are the cards put out of play this deal.
	SetAside []card.Card `json:"set_aside,omitempty"`
	// Hits (1862) counts each seat's Hits; two win the Rubber.
	Hits       []int   `json:"hits,omitempty"`
	DealScores [][]int `json:"deal_scores"`
	Totals     []int   `json:"totals"`
	Over       bool    `json:"over"`
	Winners    []int   `json:"winners"`
}

var phaseNames = [...]string{"play", "take", "lead", "over"}

// View returns what seat sees; game.Spectator for the public view.
func (s *State) View(seat int) any {
	r := s.Result()
	v := View{
		Seat: seat, Players: s.n, Edition: s.edition(), Target: s.cfg.target,
		Deal: r.Deal, Dealer: s.dealer, Phase: phaseNames[s.phase], ToAct: s.ToAct().List(),
		FirstHand: s.first, Leader: s.leader, Lead: s.shownLead(), Stock: s.nStock,
		TrickWinner: s.winner, Resigned: s.resigned.List(),
		DealScores: r.DealScores, Totals: r.Totals, Over: r.Over, Winners: r.Winners,
	}
	if seat >= 0 && seat < s.n {
		v.Hand = canonical(s.hands[seat])
	}
	for p := 0; p < s.n; p++ {
		v.HandSizes = append(v.HandSizes, s.hands[p].Len())
		played := make([]card.Card, 0, 3)
		for i, c := range s.played[p][:s.nPlayed[p]] {
			switch {
			case s.hidden && p == s.leader && i == 2 && seat != p:
				played = append(played, card.None)
			case s.table.Has(c):
				played = append(played, c)
			}
		}
		v.Played = append(v.Played, played)
		v.WonUp = append(v.WonUp, canonical(s.wonUp[p]))
		v.WonDown = append(v.WonDown, canonical(s.wonDown[p]))
		v.Tricks = append(v.Tricks, int(s.tricksWon[p]))
		if !s.cfg.e62 {
			v.Marks = append(v.Marks, Marks(s.wonUp[p], s.wonDown[p]))
		}
	}
	if s.phase == phaseTake || s.phase == phaseLead {
		for p := 0; p < s.n; p++ {
			switch {
			case s.resigned.Has(p):
				v.Lines = append(v.Lines, "resigned")
			case s.conceded:
				v.Lines = append(v.Lines, "won by resignation")
			case s.cfg.e62:
				v.Lines = append(v.Lines, s.keys[p].line62().Describe(Edition1862))
			default:
				v.Lines = append(v.Lines, s.keys[p].line60().Describe(Edition1860))
			}
		}
	}
	if s.cfg.e62 {
		if s.phase == phaseTake {
			v.Take = s.takeN
		}
		if s.shared[0] != card.None {
			v.Shared = append([]card.Card{}, s.shared[:]...)
		}
		v.SetAside = canonical(s.dead)
		v.Hits = append([]int{}, s.hits[:]...)
	}
	return v
}

func (s *State) edition() string {
	if s.cfg.e62 {
		return Edition1862
	}
	return Edition1860
}

// Hand returns seat's hand, for tests and tools that may see everything.
func (s *State) Hand(seat int) []card.Card { return canonical(s.hands[seat]) }

// Turn returns the seat to act.
func (s *State) Turn() int { return s.turn }

// Total returns seat's match total, Result().Totals[seat], without
// building the rest of the result.
func (s *State) Total(seat int) int { return s.totals[seat] }

// DealsPlayed returns the number of deals finished.
func (s *State) DealsPlayed() int { return len(s.scores) / s.n }

// Lead returns the current Lead (while a trick's winner takes and chooses,
// still the old one), or card.None.
func (s *State) Lead() card.Card { return s.lead }

// TrickLead returns the Lead the current (or, at a deal's end, the last)
// trick was played to, even once it has been taken.
func (s *State) TrickLead() card.Card { return s.trickLead }

// shownLead is the Lead as the views show it: while the next Lead is being
// chosen, still the old one, in 1862 too even once it has been taken; None
// once the board is cleared.
func (s *State) shownLead() card.Card {
	if s.phase == phaseLead {
		return s.trickLead
	}
	return s.lead
}

// Leader returns the seat that played the current trick's first card, or -1.
func (s *State) Leader() int { return s.leader }

// TrickWinner returns the seat that won the trick being settled, or -1
// while it is played.
func (s *State) TrickWinner() int { return s.winner }

// Resigned returns the seats that have resigned the current trick.
func (s *State) Resigned() game.Seats { return s.resigned }

// Played returns the cards seat has played in the current trick, in order,
// a face-down No. 5 (1862) included. It is for tests and tools that may
// see everything.
func (s *State) Played(seat int) []card.Card {
	return append([]card.Card{}, s.played[seat][:s.nPlayed[seat]]...)
}

// Won returns the cards seat has won this deal, face up and face down
// (1862: all face up).
func (s *State) Won(seat int) (up, down card.Set) { return s.wonUp[seat], s.wonDown[seat] }

// Hits returns seat's Hits (1862; 0 in 1860).
func (s *State) Hits(seat int) int {
	if seat > 1 {
		return 0
	}
	return s.hits[seat]
}

// Stock returns the number of cards left in the stock.
func (s *State) Stock() int { return s.nStock }
