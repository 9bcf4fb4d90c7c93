// Package courtcircular implements Court Circular, Lewis Carroll's card game
// of "Lines", in both of its printed versions:
//
//   - edition "1860" (the default), 2 to 6 players: Section I of the rules of
//     January 1860 for two players, Section II for three or more. A match is
//     one game to the option "target" (20 or 50, default 50).
//   - edition "1862", 2 players: the rules of April 1862, played to two Hits
//     (a Rubber).
//
// The rules as implemented, every ruling of shared/rules/court-circular.md
// included, are in rules.txt (Game.Rules).
//
// # Move notation
//
// Both editions:
//
//	play C          play card C from the hand (e.g. "play 10H")
//	lead C          choose C as the next Lead, from the cards on the table
//
// Edition 1860 only:
//
//	resign          give up the trick (Rule VII)
//
// Edition 1862 only:
//
//	play C for D    in the last trick, played with the three face-up shared
//	                cards: play the shared card C, putting hand card D in
//	                its place ("play 7S for 2H")
//	take C C ...    the trick's winner takes exactly the cards the line
//	                values allow, from the cards on the table, old Lead
//	                included ("take 4D 9S KC")
//
// First-hand's third card of an 1862 trick (No. 5) is played with "play C"
// like any other; the game lays it face down by itself and turns it up when
// No. 6 has been played. Cards of a "take" may be given in any order; the
// canonical form lists them lowest first in the order 2 3 ... 10 J Q K A,
// equal ranks in the order S H D C. Verbs and cards are read in any case,
// and cards also as T for 10 or with the symbols ♠ ♥ ♦ ♣.
//
// # Layouts
//
// A script's layout fixes a deal with the keys "hands" (6 cards for each
// seat, by seat; an entry may be null), "lead" (the card turned up as the
// Lead) and "stock" (the undealt cards, top first; it may be partial).
package courtcircular
