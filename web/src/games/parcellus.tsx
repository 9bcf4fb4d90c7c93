// Parcellus: the parcel being built on the table, the common deck, the
// hands (received cards marked) and the pass of three cards.
import { CardView, Pile, Backs } from "../cards";
import { BoardProps, Renderer, mover, othersFirst, SeatTag, Hand, useChooser, Confirm } from "../board";

// passTarget is the seat that seat passes its three cards to this deal,
// and the seat it receives from.
function passPartners(v: any, seat: number): { to: number; from: number } {
  const step = v.pass_direction === "left" ? 1 : -1;
  return { to: (seat + step + v.players) % v.players, from: (seat - step + v.players) % v.players };
}

export function ParcellusBoard(p: BoardProps) {
  const v = p.view;
  const m = mover(p);
  const chooser = useChooser(p.legal, "pass", 3);
  const others = othersFirst(p).filter((s) => s !== p.seat);
  const { to: passTo, from: passFrom } = passPartners(v, Math.max(p.seat, 0));
  const taker = v.captured.length ? v.captured[v.captured.length - 1].seat : -1;
  // The base is turned only in the play (during the pass, the dealer is
  // to turn the first one).
  const based = v.phase === "play" && v.parcel.length > 0;
  const seatBox = (s: number) => (
    <div class="seat-box" data-seat={s} data-gather={s === taker ? "1" : undefined}>
      <SeatTag seat={s} names={p.names} toAct={p.toAct} sides={p.sides}>
        {v.phase === "pass" && v.chosen[s] ? <span class="badge">cards chosen</span> : null}
        {s === v.dealer ? <span class="badge">dealer</span> : null}
        {based && s === v.turner ? <span class="badge" data-badge="turner">turned the base</span> : null}
        {v.phase === "play" && s === v.contributor ? <span class="badge">last to add</span> : null}
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
        {m.can("pass") ? <button type="button" class="primary" data-move="pass" onClick={() => m.act("pass")}>Add no card</button> : null}
      </div>
      <Confirm chooser={chooser} act={p.act} verb="pass" label={"Pass to " + (p.names[passTo] || "your neighbour").replace(/ \(you\)$/, "")} need={3} />
      {p.seat >= 0 ? (
        <div class="seat-box mine" data-seat={p.seat} data-gather={p.seat === taker ? "1" : undefined}
          data-send-to={v.phase === "pass" ? "seat:" + passTo : undefined} data-came-from={v.phase !== "pass" ? "seat:" + passFrom : undefined}>
          <SeatTag seat={p.seat} names={p.names} toAct={p.toAct} sides={p.sides}>
            {p.seat === v.dealer ? <span class="badge">dealer</span> : null}
            {based && p.seat === v.turner ? <span class="badge" data-badge="turner">turned the base</span> : null}
            <span class="small">parcels {v.parcel_counts[p.seat]} · card points {v.points[p.seat]}</span>
          </SeatTag>
          <Hand cards={v.hand || []} chooser={chooser} click={(c) => m.on("play " + c)} move={(c) => "play " + c}
            marked={(i) => !!(v.received && v.received[i])} label="your hand" />
          {v.passed && v.passed.length ? (
            <div class="small">{v.phase === "pass" ? `You pass to ${p.names[passTo]}:` : `Passed to ${p.names[passTo]}, not yet played:`} {v.passed.map((c: string) => <CardView card={c} small />)}</div>
          ) : null}
        </div>
      ) : null}
      {v.captured.length ? (
        <details class="captured" data-no-anim><summary>Parcels captured this deal: {v.captured.length} of 6</summary>
          {v.captured.map((c: { seat: number; cards: string[] }) => <div class="small">{p.names[c.seat]}: {c.cards.map((x) => <CardView card={x} small />)}</div>)}
        </details>
      ) : null}
      <p class="muted small board-note">Deal {v.deal}. The match ends after a deal in which someone has {v.target} points or more and one player alone has the highest total.</p>
    </div>
  );
}

// parcellusPrompt tells the player to act what to do in this phase.
export function parcellusPrompt(p: BoardProps): string {
  const v = p.view;
  if (!p.legal.length) return "";
  if (v.phase === "pass") {
    const to = passPartners(v, p.seat).to;
    return `Choose three cards to pass to ${(p.names[to] || "your neighbour").replace(/ \(you\)$/, "")}, then confirm.`;
  }
  const plays = p.legal.filter((x) => x.startsWith("play "));
  if (!plays.length) return "No card of yours fits the parcel: add no card.";
  return "Add a card to the parcel (the next rank up, the same colour), or add no card.";
}

// parcellus is Parcellus's renderer: its moves name their cards.
export const parcellus: Renderer = {
  Board: ParcellusBoard,
  prompt: parcellusPrompt,
  scores: () => ({ rows: "Points by deal", total: "Total" }),
};
