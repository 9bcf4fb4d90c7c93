// Court Circular: the trick as Carroll's diagram, the Lead in the middle
// and each player's cards laid out from it; the hand; the stock.
import { CardView, Backs, Pile, prettyMove } from "../cards";
import { BoardProps, Renderer, mover, othersFirst, SeatTag, Hand, useChooser, Confirm } from "../board";

// Where each seat's arm of the diagram goes (row, column of a 3×3 grid),
// the viewer's at the bottom and the others round the table.
const SLOTS: Record<number, [number, number][]> = {
  1: [],
  2: [[1, 2]],
  3: [[1, 1], [1, 3]],
  4: [[2, 1], [1, 2], [2, 3]],
  5: [[2, 1], [1, 1], [1, 3], [2, 3]],
  6: [[2, 1], [1, 1], [1, 2], [1, 3], [2, 3]],
};

export function CourtBoard(p: BoardProps) {
  const v = p.view;
  const m = mover(p);
  const take = useChooser(p.legal, "take");
  const order = othersFirst(p); // the viewer (or the last seat) last
  const bottom = order[order.length - 1];
  const around = order.slice(0, -1);
  const slots = SLOTS[v.players] || [];
  const tableCard = (c: string | null, s: number) => {
    if (c && take.active && take.usable(c)) return <CardView card={c} pick onClick={() => take.toggle(c)} selected={take.picked.includes(c)} />;
    const lead = c ? "lead " + c : "";
    return <CardView card={c} label={p.names[s]} onClick={c ? m.on(lead) : undefined} move={c && m.can(lead) ? lead : undefined} />;
  };
  const arm = (s: number, pos: [number, number]) => (
    <div class="arm" data-seat={s} style={{ gridRow: pos[0], gridColumn: pos[1] }}>
      <SeatTag seat={s} names={p.names} toAct={p.toAct}>
        {s === v.first_hand ? <span class="badge">first hand</span> : null}
        {v.resigned.includes(s) ? <span class="badge">resigned</span> : null}
        {s === v.trick_winner ? <span class="badge">won the trick</span> : null}
      </SeatTag>
      <div class="cards">{v.played[s].length ? v.played[s].map((c: string | null) => tableCard(c, s)) : <span class="muted small">no card yet</span>}</div>
      {v.lines && v.lines[s] ? <span class="line">{v.lines[s]}</span> : null}
    </div>
  );
  const leadCard = v.lead;
  const playFor = p.legal.filter((x) => / for /.test(x));
  return (
    <div class="board court">
      <div class="court-table">
        <div class="diagram" aria-label="the trick, Carroll's diagram">
          {around.map((s, i) => arm(s, slots[i] || [1, 2]))}
          <div class="lead">
            {leadCard ? tableCard(leadCard, -1) : <div class="card empty">Lead</div>}
            <span class="small">the Lead</span>
          </div>
          {arm(bottom, [3, 2])}
        </div>
        <div class="court-side">
          <Pile count={v.stock} label="stock" place="stock" />
          {v.shared && v.shared.length ? <div class="pile"><div class="hand">{v.shared.map((c: string) => <CardView card={c} />)}</div><div class="pile-label">the shared cards</div></div> : null}
          {m.can("resign") ? <button type="button" data-move="resign" onClick={() => m.act("resign")}>Resign the trick</button> : null}
          <div class="seats-row">
            {order.filter((s) => s !== p.seat).map((s) => (
              <div class="seat-box" data-seat={s} data-gather={s === v.trick_winner ? "1" : undefined}>
                <SeatTag seat={s} names={p.names} />
                {p.hands && p.hands[s] ? <div class="hand">{p.hands[s]!.map((c) => <CardView card={c} small />)}</div> : <Backs n={v.hand_sizes[s]} />}
                <div class="small">tricks {v.tricks[s]}{v.marks ? ` · marks ${v.marks[s]}` : ""}{v.hits ? ` · hits ${v.hits[s]}` : ""}</div>
              </div>
            ))}
          </div>
        </div>
      </div>
      {playFor.length ? (
        <div class="confirm"><span>Take a shared card:</span>{playFor.map((x) => <button type="button" data-move={x} onClick={() => m.act(x)}>{prettyMove(x)}</button>)}</div>
      ) : null}
      {v.phase === "lead" && p.legal.length ? <p class="prompt">Choose the next Lead: click a card on the table.</p> : null}
      {v.phase === "take" && take.active ? <p class="prompt">Take {v.take || ""} cards: click them on the table, then confirm.</p> : null}
      <Confirm chooser={take} act={p.act} verb="Take" />
      {p.seat >= 0 ? (
        <div class="seat-box mine" data-seat={p.seat} data-gather={p.seat === v.trick_winner ? "1" : undefined}>
          <SeatTag seat={p.seat} names={p.names} toAct={p.toAct}>
            <span class="small">tricks {v.tricks[p.seat]}{v.marks ? ` · marks ${v.marks[p.seat]}` : ""}{v.hits ? ` · hits ${v.hits[p.seat]}` : ""}</span>
          </SeatTag>
          <Hand cards={v.hand || []} click={(c) => m.on("play " + c)} move={(c) => "play " + c} label="your hand" />
        </div>
      ) : null}
      <p class="muted small">Edition {v.edition}, deal {v.deal}{v.target ? `, first to ${v.target}` : ""}.</p>
    </div>
  );
}

// court is Court Circular's renderer: its moves name their cards.
export const court: Renderer = { Board: CourtBoard };
