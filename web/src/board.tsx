// What every game's board is given, and small shared pieces.
import type { ComponentChildren, FunctionComponent } from "preact";
import { useState, useEffect } from "preact/hooks";
import type { Card, PlaceInfo, Result } from "./api";
import type { Hint } from "./animate";
import { CardView, prettyMove } from "./cards";

export interface BoardProps {
  view: any;
  seat: number;          // the viewer's seat, -1 for a spectator or a replay
  players: number;
  sides: number[];       // the side each seat plays for (GameInfo.sides; the seat itself where seats play alone)
  legal: string[];       // the viewer's legal moves now
  act: (move: string, sure?: boolean) => void; // sure: already confirmed (a multi-card choice)
  names: string[];       // seat names
  toAct: number[];
  hands?: (Card[] | null)[]; // replay: every seat's hand, from its own view
  faceDown?: (Card[] | null)[]; // replay (Golf): each seat's face-down cards, by position (null: face up)
  places?: PlaceInfo[];  // replay, or a finished match: where every card is (the game's own places)
}

// ScoreWords say what a game's score table counts: each row (a deal's
// scores) and the last row (the match's totals), with the extra rows the
// game keeps beside them (1862's Hits).
export interface ScoreWords {
  rows: string;   // heads the rows: "Points by hole", "Tricks taken"
  total: string;  // the last row: "Total", "Games won" ("": none, a match of one deal)
  deal?: string;  // a deal's scores in the log: "Points" (the default), "Tricks taken"
  final?: { label: string; one: string; values: number[] }; // what decides the match, where not the totals (1862's Hits; one: "Hit")
  unit?: [string, string]; // a total in words, one and more: ["point", "points"] (the default), ["game won", "games won"]
  extra?: { label: string; values: number[] }[];
  note?: string;  // a line under the table: "Lowest total wins."
}

// Renderer is how the page draws one game (boards.tsx holds each game's):
// its board, and where its moves happen when the cards a move names do
// not tell (lastmove.ts). What the game itself tells the page (the word
// for a deal, who wins, the sides) comes in GameInfo, not from here.
export interface Renderer {
  Board: FunctionComponent<BoardProps>;
  // targets: the elements of the board (q finds them) where seat's move
  // verb args happened; none to fall back on the cards the move names.
  targets?: (q: (sel: string) => HTMLElement[], seat: number, verb: string, args: string[]) => HTMLElement[];
  // hints: where the cards a move shows came from, when a face-down card
  // is involved.
  hints?: (seat: number, verb: string, arg: string) => Hint[];
  // faceDown: for a replay, each seat's face-down cards by position
  // (BoardProps.faceDown), from the spectator's view and every place.
  faceDown?: (view: any, places: PlaceInfo[]) => (Card[] | null)[];
  // prompt: what the viewer is to do now, in a few words, when the view
  // does not say it (its "prompt" field); "" when there is nothing to do.
  prompt?: (p: BoardProps) => string;
  // scores: what the score table's rows count (default: points by deal
  // and their total); view is the latest view, if any.
  scores?: (view: any, word: string) => ScoreWords;
  // standings: the seats from first place to last at the end of a match,
  // where the totals alone do not tell it.
  standings?: (view: any, result: Result) => number[];
}

// seatColour is seat s's colour: its side's, where seats play in
// partnerships (so a seat's colour is its side's counters' colour).
export function seatColour(s: number, sides?: number[]): string {
  const side = sides && sides[s] !== undefined ? sides[s] : s;
  return SEAT_COLOURS[side % 8];
}

// SEAT_COLOURS are the seats' colours, clear on the felt and on paper alike.
export const SEAT_COLOURS = ["#e0464b", "#3b82f6", "#e6a100", "#a25fd0", "#14b8a6", "#f07b1d", "#e0489a", "#8b9bb0"];

// can reports whether m is legal; onMove returns a click handler for m, or
// undefined when m is not legal (the element is then not clickable).
export function mover(p: BoardProps) {
  const set = new Set(p.legal);
  return {
    can: (m: string) => set.has(m),
    on: (m: string) => (set.has(m) ? () => p.act(m) : undefined),
    // act makes m at once (a move chosen by its own button).
    act: (m: string) => p.act(m),
  };
}

// order lists the seats with the viewer's own last (nearest the bottom of
// the screen), the others in turn order after it.
export function othersFirst(p: BoardProps): number[] {
  const me = p.seat >= 0 ? p.seat : -1;
  const out: number[] = [];
  for (let k = 1; k <= p.players; k++) {
    const s = ((me < 0 ? p.players - 1 : me) + k) % p.players;
    out.push(s);
  }
  return out;
}

export function SeatTag(p: { seat: number; names: string[]; toAct?: number[]; sides?: number[]; children?: ComponentChildren }) {
  const acting = p.toAct && p.toAct.includes(p.seat);
  return (
    <div class={"seat-tag" + (acting ? " acting" : "")} style={{ "--seat": seatColour(p.seat, p.sides) } as any}>
      <span class="dot" />
      <b>{p.names[p.seat] || "Seat " + (p.seat + 1)}</b>{acting ? <span class="to-act">to act</span> : null}
      {p.children}
    </div>
  );
}

// multiMoves lists the cards of the legal moves that start with prefix and
// name several cards ("pass C C C", "keep C C C C", "take C ...").
export function multiMoves(legal: string[], prefix: string, n?: number): { move: string; cards: string[] }[] {
  const out: { move: string; cards: string[] }[] = [];
  for (const m of legal) {
    if (!m.startsWith(prefix + " ")) continue;
    const cards = m.slice(prefix.length + 1).split(" ");
    if (n !== undefined && cards.length !== n) continue;
    out.push({ move: m, cards });
  }
  return out;
}

// Chooser is the select-then-confirm interaction for moves naming several
// cards: cards are picked by clicking, and the move is sent by a button once
// the picked cards make a legal move.
export function useChooser(legal: string[], prefix: string, n?: number) {
  const options = multiMoves(legal, prefix, n);
  const [picked, setPicked] = useState<string[]>([]);
  const key = legal.join("|");
  useEffect(() => setPicked([]), [key]);
  const usable = new Set<string>();
  for (const o of options) for (const c of o.cards) usable.add(c);
  const match = options.find((o) => o.cards.length === picked.length && picked.every((c) => o.cards.includes(c)));
  // full: as many cards picked as the move takes; another may be picked
  // only once one is put back.
  const most = n !== undefined ? n : Math.max(0, ...options.map((o) => o.cards.length));
  const full = options.length > 0 && picked.length >= most;
  return {
    active: options.length > 0,
    picked,
    full,
    usable: (c: string) => usable.has(c) && (!full || picked.includes(c)),
    toggle: (c: string) => {
      if (picked.includes(c)) setPicked(picked.filter((x) => x !== c));
      else if (!full) setPicked([...picked, c]);
    },
    match: match ? match.move : "",
    clear: () => setPicked([]),
  };
}

// Confirm sends a multi-card move once its cards are picked: verb is the
// move's first word ("keep"), label the button's words ("Pass to Ben").
export function Confirm(p: { chooser: ReturnType<typeof useChooser>; act: (m: string, sure?: boolean) => void; verb: string; label?: string; need?: number }) {
  const c = p.chooser;
  if (!c.active) return null;
  const count = c.picked.length;
  return (
    <div class="confirm">
      <span data-picked={count}>{p.need ? `Pick ${p.need} cards (${count} picked${c.full ? "; click one again to put it back" : ""})` : `Pick the cards (${count} picked)`}</span>{" "}
      <button type="button" class="primary" data-confirm={p.verb} data-need={p.need || 0} disabled={!c.match}
        onClick={() => { if (c.match) { p.act(c.match, true); c.clear(); } }}>
        {p.label || p.verb.charAt(0).toUpperCase() + p.verb.slice(1)}{c.match ? ": " + prettyMove(c.match.split(" ").slice(1).join(" ")) : ""}
      </button>{" "}
      {c.picked.length ? <button type="button" data-clear onClick={c.clear}>Clear</button> : null}
    </div>
  );
}

// Hand draws a row of face-up cards; each is clickable when click(c) is given.
export function Hand(p: { cards: Card[]; click?: (c: string) => (() => void) | undefined; move?: (c: string) => string; selected?: (c: string) => boolean; marked?: (i: number) => boolean; label?: string; chooser?: ReturnType<typeof useChooser> }) {
  const ch = p.chooser && p.chooser.active ? p.chooser : null;
  return (
    <div class={"hand" + (p.cards.length > 8 ? " many" : "")} role="group" aria-label={p.label || "hand"}>
      {p.cards.map((c, i) => (
        ch && c && ch.usable(c) ? (
          <CardView card={c} onClick={() => ch.toggle(c)} pick selected={ch.picked.includes(c)} extra={p.marked?.(i) ? "received" : undefined} />
        ) : (
          <CardView card={c} onClick={c && p.click ? p.click(c) : undefined} move={c && p.move ? p.move(c) : undefined}
            selected={c ? p.selected?.(c) : false} extra={p.marked?.(i) ? "received" : undefined} />
        )
      ))}
      {p.cards.length === 0 ? <span class="muted">no cards</span> : null}
    </div>
  );
}
