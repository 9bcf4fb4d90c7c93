// Tractric: the 3×3 score grid with counters in seat (or side) colours,
// the trump, the trick, the proposals and the hand.
import { CardView, Backs, pretty } from "../cards";
import { BoardProps, mover, othersFirst, SeatTag, Hand, SEAT_COLOURS } from "../board";

const SUIT_SYMBOL: Record<string, string> = { S: "♠ spades", H: "♥ hearts", D: "♦ diamonds", C: "♣ clubs", none: "no trump" };

export function TractricBoard(p: BoardProps) {
  const v = p.view;
  const m = mover(p);
  const colourOf = (c: number) => SEAT_COLOURS[c % 8]; // with 4 players colour 0 is seats 0 and 2, colour 1 seats 1 and 3
  const sideName = (c: number) => (v.players === 4 ? `${p.names[c]} & ${p.names[c + 2]}` : p.names[c]);
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
  const trickSlot = (s: number, c: string | null) => (
    <div class="slot" data-seat={s}>
      {c ? <CardView card={c} /> : <div class="card empty" />}
      <span>{p.names[s]}{s === v.leader ? " (led)" : ""}</span>
    </div>
  );
  return (
    <div class="board tractric">
      <div class="centre">
        {grid}
        <div>
          <div class="trump" data-trump={v.trump ?? ""}>
            Trump: <b class={v.trump === "H" || v.trump === "D" ? "red" : ""}>{trumpText}</b>
          </div>
          <div class="small">
            {v.reserve.map((n: number, c: number) => <div><span class="dot" style={{ background: colourOf(c) }} /> {sideName(c)}: {n} counters off the board</div>)}
          </div>
          <div class="small">Game {v.game}, hand {v.deal}. Games won: {v.games_won.map((g: number, s: number) => `${p.names[s]} ${g}`).join(", ")}</div>
        </div>
      </div>
      <div class="seats-row">
        {others.map((s) => (
          <div class="seat-box" data-seat={s}>
            <SeatTag seat={s} names={p.names} toAct={p.toAct}>{v.phase === "propose" && v.proposed[s] ? <span class="badge">proposed</span> : null}</SeatTag>
            {p.hands && p.hands[s] ? <div class="hand">{p.hands[s]!.map((c) => <CardView card={c} small />)}</div> : <Backs n={v.hand_sizes[s]} />}
            <div class="small">tricks {v.tricks[s]}{v.proposals[s] ? <> · proposes <CardView card={v.proposals[s]} small /></> : null}</div>
          </div>
        ))}
      </div>
      <div class="centre">
        <div class="trick" aria-label="the trick">{Array.from({ length: v.players }, (_, s) => trickSlot(s, v.trick[s]))}</div>
        {v.last_trick.some((c: string | null) => c) ? (
          <div class="small">Last trick{v.last_taker >= 0 ? " (taken by " + p.names[v.last_taker] + ")" : ""}: {v.last_trick.map((c: string | null) => (c ? pretty(c) + " " : ""))}</div>
        ) : null}
      </div>
      {v.phase === "give" && p.legal.length ? (
        <div class="confirm">
          <span>Give the trick to:</span>
          {p.legal.filter((x) => x.startsWith("give ")).map((x) => {
            const s = Number(x.slice(5));
            return <button type="button" class="primary" data-move={x} onClick={() => p.act(x)}>{p.names[s]}</button>;
          })}
        </div>
      ) : null}
      {v.phase === "propose" && p.legal.length ? <p class="prompt">Propose a trump: click a card.</p> : null}
      {v.phase === "play" && p.legal.length ? <p class="prompt">Play a card.</p> : null}
      {p.seat >= 0 ? (
        <div class="seat-box mine" data-seat={p.seat}>
          <SeatTag seat={p.seat} names={p.names} toAct={p.toAct}><span class="small">tricks {v.tricks[p.seat]}</span></SeatTag>
          {v.proposals[p.seat] ? <div class="small">Your proposal: <CardView card={v.proposals[p.seat]} small
            onClick={m.on("play " + v.proposals[p.seat])} move={"play " + v.proposals[p.seat]} /></div> : null}
          <Hand cards={v.hand || []} click={(c) => m.on(verb + c)} move={(c) => verb + c} label="your hand" />
        </div>
      ) : null}
    </div>
  );
}
