// Tractric: the 3×3 score grid with counters in seat (or side) colours,
// the trump, the trick, the proposals and the hand.
import { CardView, Backs } from "../cards";
import { BoardProps, Renderer, mover, othersFirst, SeatTag, Hand, SEAT_COLOURS } from "../board";

const SUIT_SYMBOL: Record<string, string> = { S: "♠ spades", H: "♥ hearts", D: "♦ diamonds", C: "♣ clubs", none: "no trump" };

export function TractricBoard(p: BoardProps) {
  const v = p.view;
  const m = mover(p);
  // A counter is its side's (p.sides, as the game tells them: a
  // partnership's, or a seat's own), in that side's colour.
  const colourOf = (c: number) => SEAT_COLOURS[c % 8];
  const sideName = (c: number) => p.names.filter((_, s) => p.sides[s] === c).join(" & ");
  const others = othersFirst(p).filter((s) => s !== p.seat);
  const verb = v.phase === "propose" ? "propose " : "play ";
  const trumpText = v.trump === null ? "not fixed yet" : SUIT_SYMBOL[v.trump];
  const grid = (
    <div class="score-grid" aria-label="score grid">
      {v.grid.map((val: string, i: number) => (
        <div class="cell" data-cell={i} title={v.board[i] === null ? "empty" : "held by " + sideName(v.board[i])}>
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
  const trickSlot = (s: number, c: string | null) => (
    <div class={"slot" + (showLast ? " done" : "")} data-trick-seat={s}>
      {c ? <CardView card={c} label={"played by " + p.names[s]} /> : <div class="card empty" />}
      <span class="slot-name">{p.names[s]}{!showLast && s === v.leader ? " · led" : ""}{showLast && s === v.last_taker ? " · took it" : ""}</span>
    </div>
  );
  return (
    <div class="board tractric">
      <div class="seats-row">
        {others.map((s) => (
          <div class="seat-box" data-seat={s} data-gather={s === v.last_taker ? "1" : undefined}>
            <SeatTag seat={s} names={p.names} toAct={p.toAct}>{v.phase === "propose" && v.proposed[s] ? <span class="badge">proposed</span> : null}</SeatTag>
            {p.hands && p.hands[s] ? <div class="hand">{p.hands[s]!.map((c) => <CardView card={c} small />)}</div> : <Backs n={v.hand_sizes[s]} />}
            <div class="small">tricks {v.tricks[s]}{v.proposals[s] ? <> · proposes <CardView card={v.proposals[s]} small /></> : null}</div>
          </div>
        ))}
      </div>
      <div class="centre tractric-middle">
        {grid}
        <div class="trick-area">
          <div class={"trick" + (showLast ? " done" : "")} aria-label={showLast ? "the last trick" : "the trick"}>{Array.from({ length: v.players }, (_, s) => trickSlot(s, shown[s]))}</div>
          {showLast && v.last_taker >= 0 ? <div class="small trick-note">{p.names[v.last_taker]} took the trick.</div> : null}
        </div>
        <div class="tractric-info">
          <div class="trump" data-trump={v.trump ?? ""}>
            Trump: <b class={v.trump === "H" || v.trump === "D" ? "red" : ""}>{trumpText}</b>
          </div>
          <div class="small">Counters off the board:</div>
          <div class="small">
            {v.reserve.map((n: number, c: number) => <div><span class="dot" style={{ background: colourOf(c) }} /> {sideName(c)}: {n}</div>)}
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
      {v.phase === "propose" && p.legal.length ? <p class="prompt">Propose a trump: click a card.</p> : null}
      {v.phase === "play" && p.legal.length ? <p class="prompt">Play a card.</p> : null}
      {p.seat >= 0 ? (
        <div class="seat-box mine" data-seat={p.seat} data-gather={p.seat === v.last_taker ? "1" : undefined}>
          <SeatTag seat={p.seat} names={p.names} toAct={p.toAct}><span class="small">tricks {v.tricks[p.seat]}</span></SeatTag>
          {v.proposals[p.seat] ? <div class="small">Your proposal: <CardView card={v.proposals[p.seat]} small
            onClick={m.on("play " + v.proposals[p.seat])} move={"play " + v.proposals[p.seat]} /></div> : null}
          <Hand cards={v.hand || []} click={(c) => m.on(verb + c)} move={(c) => verb + c} label="your hand" />
        </div>
      ) : null}
    </div>
  );
}

// tractric is Tractric's renderer: the board, and a gift's place (the
// tag of the seat given the trick).
export const tractric: Renderer = {
  Board: TractricBoard,
  targets(q, _seat, verb, args) {
    return verb === "give" ? q(`.seat-box[data-seat="${args[0]}"] .seat-tag`) : [];
  },
};
