// Cards drawn as cards: rank and suit symbol in the corners and the middle,
// red or black, and face-down backs.
import type { ComponentChildren } from "preact";
import type { Card } from "./api";

const SUITS: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES: Record<string, string> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES: Record<string, string> = {
  A: "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine", "10": "ten",
  J: "jack", Q: "queen", K: "king",
};

export function rankOf(c: string): string { return c === "JK" ? "JK" : c.slice(0, -1); }
export function suitOf(c: string): string { return c === "JK" ? "" : c.slice(-1); }
export function isRed(c: string): boolean { const s = suitOf(c); return s === "H" || s === "D"; }
// cardName is a card in words: "seven of hearts", "joker", "face-down card".
export function cardName(c: Card): string {
  if (!c) return "face-down card";
  if (c === "JK") return "joker";
  const r = rankOf(c);
  return (RANK_NAMES[r] || r) + " of " + SUIT_NAMES[suitOf(c)];
}
export function pretty(c: Card): string {
  if (!c) return "🂠";
  if (c === "JK") return "Joker";
  return rankOf(c) + SUITS[suitOf(c)];
}
// CardText is a card written in a line of text: rank and suit symbol in
// the suit's colour ("7♥"), named in words for screen readers.
export function CardText(p: { card: string }) {
  const c = p.card;
  const cls = "card-text " + (c === "JK" ? "joker" : (isRed(c) ? "red" : "black") + " suit-" + suitOf(c));
  return <span class={cls} aria-label={cardName(c)} data-card-text={c}>{pretty(c)}</span>;
}

// prettyMove writes the cards of a move in notation with suit symbols.
export function prettyMove(m: string): string {
  return m.split(" ").map((w) => (/^(10|[2-9AJQK])[SHDC]$/.test(w) ? pretty(w) : w === "JK" ? "Joker" : w)).join(" ");
}

export interface CardProps {
  card: Card;             // null: face down
  onClick?: () => void;   // clickable only when given
  move?: string;          // the move a click sends (data-move, for tests and titles)
  selected?: boolean;
  small?: boolean;
  dim?: boolean;
  label?: string;
  extra?: string;
  pick?: boolean;         // a card picked for a multi-card move (data-pick)
  slot?: string;          // where the card lies, when that place keeps its identity (animations)
}

export function CardView(p: CardProps) {
  const c = p.card;
  const cls = ["card"];
  if (!c) cls.push("back");
  else if (c === "JK") cls.push("joker");
  else cls.push(isRed(c) ? "red" : "black", "suit-" + suitOf(c));
  if (p.onClick) cls.push("legal");
  if (p.selected) cls.push("selected");
  if (p.small) cls.push("small");
  if (p.dim) cls.push("dim");
  if (p.extra) cls.push(p.extra);
  const title = (p.label ? p.label + ": " : "") + cardName(c) + (p.move ? " — " + prettyMove(p.move) : "");
  const name = cardName(c) + (p.label ? ", " + p.label : "");
  const face = !c ? null : c === "JK" ? (
    <>
      <span class="corner tl">JK</span><span class="pip">★</span><span class="corner br">JK</span>
    </>
  ) : (
    <>
      <span class="corner tl">{rankOf(c)}<br />{SUITS[suitOf(c)]}</span>
      <span class="pip">{SUITS[suitOf(c)]}</span>
      <span class="corner br">{rankOf(c)}<br />{SUITS[suitOf(c)]}</span>
    </>
  );
  if (p.onClick) {
    return (
      <button type="button" class={cls.join(" ")} data-card={c || ""} data-move={p.move || ""} data-pick={p.pick ? "1" : undefined} data-slot={p.slot}
        title={title} aria-label={name} aria-pressed={p.selected ? "true" : undefined} onClick={p.onClick}>{face}</button>
    );
  }
  return <div class={cls.join(" ")} data-card={c || ""} data-slot={p.slot} title={title} role="img" aria-label={name}>{face}</div>;
}

// Empty is an empty card place (a pile with no card).
export function Empty(p: { label?: string; onClick?: () => void; move?: string }) {
  if (p.onClick) {
    return <button type="button" class="card empty legal" data-move={p.move || ""} title={p.label} aria-label={"empty " + (p.label || "place")} onClick={p.onClick}>{p.label}</button>;
  }
  return <div class="card empty" title={p.label}>{p.label}</div>;
}

// Pile is a face-down stack with its count.
export function Pile(p: { count: number; label: string; onClick?: () => void; move?: string; top?: Card; place?: string }) {
  return (
    <div class="pile" data-place={p.place}>
      {p.count > 0 || p.top ? (
        <CardView card={p.top === undefined ? null : p.top} onClick={p.onClick} move={p.move} label={p.label} />
      ) : (
        <Empty label="empty" onClick={p.onClick} move={p.move} />
      )}
      <div class="pile-label">{p.label} <b>{p.count}</b></div>
    </div>
  );
}

// Backs draws n face-down cards, overlapping.
export function Backs(p: { n: number }) {
  const out: ComponentChildren[] = [];
  for (let i = 0; i < Math.min(p.n, 13); i++) out.push(<CardView card={null} small />);
  return <div class="fan backs" role="img" aria-label={p.n + (p.n === 1 ? " card" : " cards") + " in hand"}>{out}<span class="count" aria-hidden="true">{p.n}<span class="count-word">{p.n === 1 ? " card" : " cards"}</span></span></div>;
}
