// Court Circular: the trick as Carroll's diagram, the Lead in the middle
// and each player's cards laid out from it; the hand; the stock.
import { CardView, Backs, Pile, prettyMove, rankOf } from "../cards";
import { BoardProps, Renderer, mover, othersFirst, SeatTag, Hand, useChooser, Confirm } from "../board";

// tally is what a seat has won this deal, in the edition's terms: 1860
// tricks and marks; 1862 tricks, cards won and court cards won (Aces
// count as court cards in 1862's scoring), and Hits.
function tally(v: any, s: number): string {
  const parts = [`tricks ${v.tricks[s]}`];
  if (v.marks) parts.push(`marks ${v.marks[s]}`);
  if (v.edition === "1862") {
    const won: string[] = (v.won_up && v.won_up[s]) || [];
    const courts = won.filter((c) => ["K", "Q", "J", "A"].includes(rankOf(c))).length;
    parts.push(`cards won ${won.length}`, `court cards won ${courts}`);
    if (v.hits) parts.push(`Hits ${v.hits[s]}`);
  }
  return parts.join(" · ");
}

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
      <SeatTag seat={s} names={p.names} toAct={p.toAct} sides={p.sides}>
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
                <SeatTag seat={s} names={p.names} sides={p.sides} />
                {p.hands && p.hands[s] ? <div class="hand">{p.hands[s]!.map((c) => <CardView card={c} small />)}</div> : <Backs n={v.hand_sizes[s]} />}
                <div class="small" data-tally={s}>{tally(v, s)}</div>
              </div>
            ))}
          </div>
        </div>
      </div>
      {playFor.length ? (
        <div class="confirm"><span>Take a shared card:</span>{playFor.map((x) => <button type="button" data-move={x} onClick={() => m.act(x)}>{prettyMove(x)}</button>)}</div>
      ) : null}
      <Confirm chooser={take} act={p.act} verb="take" />
      {p.seat >= 0 ? (
        <div class="seat-box mine" data-seat={p.seat} data-gather={p.seat === v.trick_winner ? "1" : undefined}>
          <SeatTag seat={p.seat} names={p.names} toAct={p.toAct} sides={p.sides}>
            <span class="small" data-tally={p.seat}>{tally(v, p.seat)}</span>
          </SeatTag>
          <Hand cards={v.hand || []} click={(c) => m.on("play " + c)} move={(c) => "play " + c} label="your hand" />
        </div>
      ) : null}
      <p class="muted small board-note">{v.edition === "1862"
        ? `The 1862 rules, deal ${v.deal}. A deal scores 1 a trick beyond four, 2 for the most cards won, 1 for the most court cards won (Aces count); 5 points make a Hit, and two Hits win the Rubber.`
        : `The 1860 rules, deal ${v.deal}. The first to ${v.target} points wins.`}</p>
    </div>
  );
}

// courtPrompt tells the player to act what to do in this phase.
export function courtPrompt(p: BoardProps): string {
  const v = p.view;
  if (!p.legal.length) return "";
  if (v.phase === "lead") return "Choose the next Lead: click one of the cards on the table.";
  if (v.phase === "take") return `You won the trick: take ${v.take ? v.take + (v.take === 1 ? " card" : " cards") : "your cards"} from the table (click ${v.take === 1 ? "it" : "them"}), then Take.`;
  const mine = (v.played[p.seat] || []).length;
  const hidden = v.edition === "1862" && p.seat === v.first_hand && mine === 2;
  const shared = p.legal.some((x) => / for /.test(x));
  let say = `Play your ${["first", "second", "third"][Math.min(mine, 2)]} card to the trick`;
  if (hidden) say += " (it is laid face down until the last card is played)";
  if (shared) say += ", from your hand or the shared cards";
  if (p.legal.includes("resign")) say += ", or resign the trick";
  return say + ".";
}

// court is Court Circular's renderer: its moves name their cards.
export const court: Renderer = {
  Board: CourtBoard,
  prompt: courtPrompt,
  scores: (v) => v && v.edition === "1862"
    ? { rows: "Points by deal", total: "Points toward the next Hit", extra: v.hits ? [{ label: "Hits (two win the Rubber)", values: v.hits }] : [],
      final: v.hits ? { label: "Hits", one: "Hit", values: v.hits } : undefined,
      note: "5 points make a Hit; the points then start again from 0." }
    : { rows: "Points by deal", total: "Total", note: v && v.target ? `The first to ${v.target} points wins.` : undefined },
};
