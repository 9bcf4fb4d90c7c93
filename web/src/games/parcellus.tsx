// Parcellus: the parcel being built on the table, the common deck, the
// hands (received cards marked) and the pass of three cards.
import { CardView, Pile, Backs } from "../cards";
import { BoardProps, Renderer, mover, othersFirst, SeatTag, Hand, useChooser, Confirm } from "../board";

export function ParcellusBoard(p: BoardProps) {
  const v = p.view;
  const m = mover(p);
  const chooser = useChooser(p.legal, "pass", 3);
  const others = othersFirst(p).filter((s) => s !== p.seat);
  const dir = v.pass_direction === "left" ? "to the left (the next seat)" : "to the right";
  // Whom this seat passes to and receives from.
  const step = v.pass_direction === "left" ? 1 : -1;
  const passTo = (p.seat + step + v.players) % v.players, passFrom = (p.seat - step + v.players) % v.players;
  const taker = v.captured.length ? v.captured[v.captured.length - 1].seat : -1;
  const seatBox = (s: number) => (
    <div class="seat-box" data-seat={s} data-gather={s === taker ? "1" : undefined}>
      <SeatTag seat={s} names={p.names} toAct={p.toAct}>
        {v.phase === "pass" && v.chosen[s] ? <span class="badge">passed</span> : null}
        {s === v.dealer ? <span class="badge">dealer</span> : null}
        {s === v.turner ? <span class="badge">turned the base</span> : null}
        {s === v.contributor ? <span class="badge">last to add</span> : null}
      </SeatTag>
      {p.hands && p.hands[s] ? <div class="hand">{p.hands[s]!.map((c) => <CardView card={c} small />)}</div> : <Backs n={v.hand_sizes[s]} />}
      <div class="small">parcels {v.parcel_counts[s]} · card points {v.points[s]}</div>
    </div>
  );
  return (
    <div class="board parcellus">
      <div class="seats-row">{others.map(seatBox)}</div>
      <div class="centre">
        <Pile count={v.common} label="common deck" place="common" />
        <div class="pile" data-place="parcel">
          <div class="parcel" aria-label="the parcel">
            {v.parcel.length ? v.parcel.map((c: string, i: number) => <CardView card={c} label={i === 0 ? "base card" : "parcel"} />) : <span class="muted">no parcel yet</span>}
          </div>
          <div class="pile-label">the parcel{v.parcel.length ? ` (${v.parcel.length} card${v.parcel.length === 1 ? "" : "s"}, base first)` : ""}</div>
        </div>
        {m.can("pass") ? <button type="button" class="primary" data-move="pass" onClick={() => m.act("pass")}>Pass (add no card)</button> : null}
      </div>
      {v.phase === "pass" ? <p class="prompt">The pass: three cards {dir}.{chooser.active ? " Click three cards of your hand, then confirm." : ""}</p> : null}
      {v.phase === "play" && p.legal.length ? <p class="prompt">Add a card to the parcel: click it{m.can("pass") ? ", or pass" : ""}.</p> : null}
      <Confirm chooser={chooser} act={p.act} verb="Pass" need={3} />
      {p.seat >= 0 ? (
        <div class="seat-box mine" data-seat={p.seat} data-gather={p.seat === taker ? "1" : undefined}
          data-send-to={v.phase === "pass" ? "seat:" + passTo : undefined} data-came-from={v.phase !== "pass" ? "seat:" + passFrom : undefined}>
          <SeatTag seat={p.seat} names={p.names} toAct={p.toAct}>
            <span class="small">parcels {v.parcel_counts[p.seat]} · card points {v.points[p.seat]}</span>
          </SeatTag>
          <Hand cards={v.hand || []} chooser={chooser} click={(c) => m.on("play " + c)} move={(c) => "play " + c}
            marked={(i) => !!(v.received && v.received[i])} label="your hand" />
          {v.passed && v.passed.length ? (
            <div class="small">{v.phase === "pass" ? "You pass:" : "You passed, still in their hand:"} {v.passed.map((c: string) => <CardView card={c} small />)}</div>
          ) : null}
        </div>
      ) : null}
      {v.captured.length ? (
        <details class="captured" data-no-anim><summary>Parcels captured this deal: {v.captured.length}</summary>
          {v.captured.map((c: { seat: number; cards: string[] }) => <div class="small">{p.names[c.seat]}: {c.cards.map((x) => <CardView card={x} small />)}</div>)}
        </details>
      ) : null}
      <p class="muted small">Deal {v.deal}; first past {v.target} points wins.</p>
    </div>
  );
}

// parcellus is Parcellus's renderer: its moves name their cards.
export const parcellus: Renderer = { Board: ParcellusBoard };
