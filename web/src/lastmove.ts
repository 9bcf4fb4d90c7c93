// Where a move happened on each game's board: the cards or places a move
// concerns, to mark each seat's last move there, and the hints the card
// animations need where identity alone cannot tell where a card came from.
// This reads move notation only (shared/spec/script.md); no rules here.
import type { Hint } from "./animate";

const CARD = /^(10|[2-9AJQK])[SHDC]$|^JK$/;

// targets answers the elements of the board where seat's move happened:
// the cards it names, or the place it used; the seat's tag when neither.
export function targets(board: HTMLElement, game: string, seat: number, move: string | undefined): HTMLElement[] {
  const q = (sel: string) => Array.from(board.querySelectorAll<HTMLElement>(sel));
  const area = `[data-seat="${seat}"]`;
  if (move) {
    const [verb, ...rest] = move.split(" ");
    const cards = rest.filter((w) => CARD.test(w));
    let out: HTMLElement[] = [];
    if (game === "golf") {
      const n = Number(rest[0]);
      if (verb === "swap") out = q(`[data-slot="g${seat}-${n}"]`);
      else if (verb === "reveal") out = q(`[data-slot="g${seat}-${n}"], [data-slot="g${seat}-${n + 3}"]`);
      else if (verb === "discard") out = q(`[data-place="discard"] .card`);
      else if (verb === "draw") out = q(`[data-place="drawn"] .card`);
    } else if (game === "damn") {
      if (verb === "turn") out = q(`${area} [data-place="support"] .card`);
      else if (verb === "random") out = q(`${area} [data-place="random"] .card`);
    } else if (game === "tractric" && verb === "give") {
      out = q(`.seat-box[data-seat="${rest[0]}"] .seat-tag`);
    }
    if (!out.length && cards.length) {
      for (const c of cards) {
        const all = q(`.card[data-card="${c}"]`);
        if (all.length) out.push(all[all.length - 1]);
      }
    }
    if (out.length) return out;
  }
  return q(`${area} .seat-tag`).slice(0, 1);
}

// hints answers where the cards a move shows came from, when a face-down
// card is involved (Golf's swaps and draws).
export function hints(game: string, seat: number, move: string | undefined): Hint[] {
  if (!move) return [];
  const [verb, arg] = move.split(" ");
  if (game === "golf") {
    if (verb === "swap") {
      return [
        { to: `[data-slot="g${seat}-${arg}"]`, from: "place:drawn" },
        { to: `[data-place="discard"] .card`, from: `slot:g${seat}-${arg}` },
      ];
    }
    if (verb === "discard") return [{ to: `[data-place="discard"] .card`, from: "place:drawn" }];
    if (verb === "draw") return [{ to: `[data-place="drawn"] .card`, from: "place:" + arg }];
  }
  return [];
}
