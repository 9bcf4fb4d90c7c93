// Damn: the play pile, the central deck, each seat's hand, support and
// random piles (counts: nobody sees them), and a large pick-up to keep
// four of.
import { CardView, Pile, Backs } from "../cards";
import { BoardProps, Renderer, mover, othersFirst, SeatTag, Hand, useChooser, Confirm } from "../board";

export function DamnBoard(p: BoardProps) {
  const v = p.view;
  const m = mover(p);
  const chooser = useChooser(p.legal, "keep", 4);
  const others = othersFirst(p).filter((s) => s !== p.seat);
  const top = v.pile.length ? v.pile[v.pile.length - 1] : null;
  const shown = v.pile.slice(-6);
  const seatBox = (s: number, mine: boolean) => {
    const sv = v.seats[s];
    return (
      <div class={"seat-box" + (mine ? " mine" : "")} data-seat={s}>
        <SeatTag seat={s} names={p.names} toAct={p.toAct}>
          {sv.out ? <span class="badge">out</span> : null}
          {v.loser === s ? <span class="badge">lost</span> : null}
        </SeatTag>
        {!mine ? (p.hands && p.hands[s] ? <div class="hand">{p.hands[s]!.map((c) => <CardView card={c} small />)}</div> : <Backs n={sv.hand} />) : null}
        <div class="centre">
          <Pile count={sv.support} label="support" move={mine ? "turn" : undefined} onClick={mine ? m.on("turn") : undefined} place="support" />
          <Pile count={sv.random} label="random" move={mine ? "random" : undefined} onClick={mine ? m.on("random") : undefined} place="random" />
          <span class="small">holds {sv.held}</span>
        </div>
      </div>
    );
  };
  return (
    <div class="board damn">
      <div class="seats-row">{others.map((s) => seatBox(s, false))}</div>
      <div class="centre">
        <Pile count={v.central} label="central deck" place="central" />
        <div class="pile" data-place="pile">
          {m.can("pickup") ? (
            <button type="button" class="card-button" data-move="pickup" onClick={() => m.act("pickup")} title="pick up the play pile">
              <div class="play-pile">{shown.map((c: string) => <CardView card={c} />)}</div>
            </button>
          ) : (
            <div class="play-pile">{shown.length ? shown.map((c: string) => <CardView card={c} />) : <span class="muted">empty: any card may go</span>}</div>
          )}
          <div class="pile-label">play pile <b>{v.pile.length}</b>{top ? "" : ""}</div>
        </div>
        {m.can("pickup") ? <button type="button" data-move="pickup" onClick={() => m.act("pickup")}>Pick up the pile</button> : null}
      </div>
      {v.picked_up && v.picked_up.length && p.seat >= 0 && chooser.active ? (
        <div class="picked">
          <p class="prompt">You picked up {v.picked_up.length} cards: keep four.</p>
          <Hand cards={v.picked_up} chooser={chooser} label="picked up" />
          <Confirm chooser={chooser} act={p.act} verb="Keep" need={4} />
        </div>
      ) : v.picked_up && v.picked_up.length ? (
        <p class="small">Picked up, four to keep: {v.picked_up.map((c: string) => <CardView card={c} small />)}</p>
      ) : null}
      {p.seat >= 0 ? (
        <div class="me">
          <div>
            {seatBox(p.seat, true)}
            <div data-came-from="place:central">
              <Hand cards={v.hand || []} click={(c) => m.on("play " + c)} move={(c) => "play " + c} label="your hand" />
            </div>
          </div>
        </div>
      ) : null}
      {v.unresolved ? <p>{v.unresolved}</p> : null}
      <p class="muted small">Turn {v.turns + 1} (cap {v.max_turns}). Out so far: {v.out.length ? v.out.map((s: number) => p.names[s]).join(", ") : "nobody"}.</p>
    </div>
  );
}

// damn is Damn's renderer: the board, and a move's place for the moves
// that name no card (turn, random: the seat's pile).
export const damn: Renderer = {
  Board: DamnBoard,
  targets(q, seat, verb) {
    if (verb === "turn") return q(`[data-seat="${seat}"] [data-place="support"] .card`);
    if (verb === "random") return q(`[data-seat="${seat}"] [data-place="random"] .card`);
    return [];
  },
};
