// Where a move happened on each game's board: the cards or places a move
// concerns, to mark each seat's last move there, and the hints the card
// animations need where identity alone cannot tell where a card came from.
// This reads move notation only (shared/spec/script.md); no rules here.
// What is particular to a game is in its renderer (boards.tsx).
import type { Hint } from "./animate";
import { RENDERERS } from "./boards";

const CARD = /^(10|[2-9AJQK])[SHDC]$|^JK$/;

// targets answers the elements of the board where seat's move happened:
// the places its game's renderer names, or else the cards the move names;
// the seat's tag when neither.
export function targets(board: HTMLElement, game: string, seat: number, move: string | undefined): HTMLElement[] {
  const q = (sel: string) => Array.from(board.querySelectorAll<HTMLElement>(sel));
  if (move) {
    const [verb, ...rest] = move.split(" ");
    const cards = rest.filter((w) => CARD.test(w));
    const r = RENDERERS[game];
    let out: HTMLElement[] = r && r.targets ? r.targets(q, seat, verb, rest) : [];
    if (!out.length && cards.length) {
      out = [];
      for (const c of cards) {
        const all = q(`.card[data-card="${c}"]`);
        if (all.length) out.push(all[all.length - 1]);
      }
    }
    if (out.length) return out;
  }
  return q(`[data-seat="${seat}"] .seat-tag`).slice(0, 1);
}

// hints answers where the cards a move shows came from, when a face-down
// card is involved (Golf's swaps and draws).
export function hints(game: string, seat: number, move: string | undefined): Hint[] {
  const r = RENDERERS[game];
  if (!move || !r || !r.hints) return [];
  const [verb, arg] = move.split(" ");
  return r.hints(seat, verb, arg);
}
