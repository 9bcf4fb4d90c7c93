// Tractric: the 3×3 score grid with counters in seat (or side) colours,
// the trump, the trick laid out round the table (a partner opposite), the
// proposals and the hand.
import { CardView, Backs, rankOf, suitOf } from "../cards";
import { BoardProps, Renderer, mover, othersFirst, SeatTag, Hand, SEAT_COLOURS, seatColour } from "../board";

const SUIT_SYMBOL: Record<string, string> = { S: "♠ spades", H: "♥ hearts", D: "♦ diamonds", C: "♣ clubs", none: "no trump" };
const SUIT_WORD: Record<string, string> = { S: "spade", H: "heart", D: "diamond", C: "club" };
const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];

// sortHand orders a hand by suit, the colours alternating and the trump
// (once known) first, and within a suit from the Ace down.
export function sortHand(cards: string[], trump: string | null): string[] {
  let suits = ["S", "H", "C", "D"];
  const t = trump ? suits.indexOf(trump) : -1;
  if (t > 0) suits = [...suits.slice(t), ...suits.slice(0, t)];
  const key = (c: string) => suits.indexOf(suitOf(c)) * 20 + RANKS.indexOf(rankOf(c));
  return [...cards].sort((a, b) => key(a) - key(b));
}

// place is where seat s sits seen from the bottom seat: left, top
// (opposite: the partner with 4 players), right.
function place(s: number, bottom: number, n: number): string {
  const k = (s - bottom + n) % n;
  if (k === 0) return "bottom";
  if (n === 4) return ["", "left", "top", "right"][k];
  return ["", "left", "right"][k];
}

export function TractricBoard(p: BoardProps) {
  const v = p.view;
  const m = mover(p);
  const n = v.players;
  // A counter is its side's (p.sides, as the game tells them: a
  // partnership's, or a seat's own), in that side's colour, which is also
  // the colour of each of the side's seats.
  const colourOf = (c: number) => SEAT_COLOURS[c % 8];
  const sideName = (c: number) => p.names.filter((_, s) => p.sides[s] === c).join(" & ");
  const order = othersFirst(p);
  const bottom = order[order.length - 1];
  const others = order.filter((s) => s !== p.seat);
  const partnered = n === 4;
  const partnerOf = (s: number) => (s + 2) % 4;
  const verb = v.phase === "propose" ? "propose " : "play ";
  const trumpText = v.trump === null ? "not fixed yet" : SUIT_SYMBOL[v.trump];
  const grid = (
    <div class="score-grid" aria-label="score grid">
      {v.grid.map((val: string, i: number) => (
        <div class="cell" data-cell={i} data-side={v.board[i] ?? undefined} title={v.board[i] === null ? "empty" : "held by " + sideName(v.board[i])}>
          {v.board[i] !== null ? <span class="counter" style={{ background: colourOf(v.board[i]) }} /> : null}
          <span style={{ position: "relative" }}>{val}</span>
        </div>
      ))}
    </div>
  );
  // A finished trick stays on the table (dimmed) until the next card is
  // led; then it is gathered to whoever took it.
  const empty = v.trick.every((c: string | null) => !c);
  const showLast = empty && v.last_trick.some((c: string | null) => c) && v.phase !== "propose";
  const shown: (string | null)[] = showLast ? v.last_trick : v.trick;
  const short = (s: number) => p.names[s].replace(/ \((you|beginner|casual|easy|medium|hard)\)$/, "");
  const slotNote = (s: number) => {
    if (showLast) return s === v.last_taker ? "took it" : "";
    if (s !== v.leader || v.phase === "propose") return "";
    return v.trick[s] ? "led" : "to lead";
  };
  const trickSlot = (s: number) => {
    const note = slotNote(s);
    return (
      <div class={"slot slot-" + place(s, bottom, n) + (showLast ? " done" : "")} data-trick-seat={s} style={{ "--seat": seatColour(s, p.sides) } as any}>
        {shown[s] ? <CardView card={shown[s]} label={"played by " + p.names[s]} /> : <div class="card empty" />}
        <span class="slot-name">{s === p.seat ? "You" : short(s)}{note ? <span class="slot-note" data-slot-note={note}> · {note}</span> : null}</span>
      </div>
    );
  };
  const badges = (s: number) => {
    if (!partnered) return null;
    if (p.seat >= 0 && s !== p.seat && p.sides[s] === p.sides[p.seat]) return <span class="badge partner" data-partner>your partner</span>;
    if (p.seat < 0) return <span class="badge partner" data-partner>partner of {short(partnerOf(s))}</span>;
    return null;
  };
  const hand = sortHand(v.hand || [], v.trump === "none" ? null : v.trump);
  return (
    <div class={"board tractric players-" + n}>
      <div class="seats-row">
        {others.map((s) => (
          <div class={"seat-box at-" + place(s, bottom, n)} data-seat={s} data-gather={s === v.last_taker ? "1" : undefined}>
            <SeatTag seat={s} names={p.names} toAct={p.toAct} sides={p.sides}>{badges(s)}{v.phase === "propose" && v.proposed[s] ? <span class="badge">proposed</span> : null}</SeatTag>
            {p.hands && p.hands[s] ? <div class="hand">{p.hands[s]!.map((c) => <CardView card={c} small />)}</div> : <Backs n={v.hand_sizes[s]} />}
            <div class="small">tricks {v.tricks[s]}{v.proposals[s] ? <> · proposes <CardView card={v.proposals[s]} small /></> : null}</div>
          </div>
        ))}
      </div>
      <div class="centre tractric-middle">
        {grid}
        <div class="trick-area">
          <div class={"trick cross" + (showLast ? " done" : "")} aria-label={showLast ? "the last trick" : "the trick"}>
            {Array.from({ length: n }, (_, s) => trickSlot(s))}
          </div>
        </div>
        <div class="tractric-info">
          <div class="trump" data-trump={v.trump ?? ""}>
            Trump: <b class={v.trump === "H" || v.trump === "D" ? "red" : ""}>{trumpText}</b>
          </div>
          <div class="small">Counters off the board:</div>
          <div class="small">
            {v.reserve.map((k: number, c: number) => <div data-reserve={c}><span class="dot" style={{ background: colourOf(c) }} /> {sideName(c)}: {k}</div>)}
          </div>
          <div class="small">Game {v.game}, hand {v.deal}.</div>
        </div>
      </div>
      {v.phase === "give" && p.legal.length ? (
        <div class="confirm">
          <span>Give the trick to:</span>
          {p.legal.filter((x) => x.startsWith("give ")).map((x) => {
            const s = Number(x.slice(5));
            return <button type="button" class="primary" data-move={x} onClick={() => m.act(x)}>{p.names[s]}</button>;
          })}
        </div>
      ) : null}
      {p.seat >= 0 ? (
        <div class="seat-box mine" data-seat={p.seat} data-gather={p.seat === v.last_taker ? "1" : undefined}>
          <SeatTag seat={p.seat} names={p.names} toAct={p.toAct} sides={p.sides}>
            {partnered ? <span class="badge partner">partner: {short(partnerOf(p.seat))}</span> : null}
            <span class="small">tricks {v.tricks[p.seat]}</span>
          </SeatTag>
          {v.proposals[p.seat] ? <div class="small">Your proposal: <CardView card={v.proposals[p.seat]} small
            onClick={m.on("play " + v.proposals[p.seat])} move={"play " + v.proposals[p.seat]} /></div> : null}
          <Hand cards={hand} click={(c) => m.on(verb + c)} move={(c) => verb + c} label="your hand" />
        </div>
      ) : null}
    </div>
  );
}

// tractricPrompt tells the player to act what to do in this phase.
export function tractricPrompt(p: BoardProps): string {
  const v = p.view;
  if (!p.legal.length) return "";
  if (v.phase === "propose") return "Propose a trump: click a card of the suit you want (the card goes back to your hand).";
  if (v.phase === "give") return "You already have 8 tricks: give this trick to another player.";
  const led = v.leader >= 0 ? v.trick[v.leader] : null;
  if (!led) return "Lead a card to the trick.";
  const suit = suitOf(led);
  const plays = p.legal.filter((x) => x.startsWith("play "));
  if (plays.every((x) => suitOf(x.slice(5)) === suit)) return `Follow suit: play a ${SUIT_WORD[suit]}.`;
  return `You have no ${SUIT_WORD[suit]}: play any card.`;
}

// tractric is Tractric's renderer: the board, and a gift's place (the
// tag of the seat given the trick).
export const tractric: Renderer = {
  Board: TractricBoard,
  prompt: tractricPrompt,
  scores: () => ({ rows: "Tricks taken by hand", total: "Games won", deal: "Tricks taken", unit: ["game won", "games won"], note: "The first to win two games in a row, or three in all, wins the match." }),
  targets(q, _seat, verb, args) {
    return verb === "give" ? q(`.seat-box[data-seat="${args[0]}"] .seat-tag`) : [];
  },
};
