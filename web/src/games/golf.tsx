// Golf: each seat's 2×3 grid of cards, the stock and the discard pile, the
// card in hand.
import { CardView, Pile, Empty } from "../cards";
import type { Card, PlaceInfo } from "../api";
import type { Hint } from "../animate";
import { BoardProps, Renderer, mover, othersFirst, SeatTag } from "../board";

const POS_NAMES = ["top left", "top middle", "top right", "bottom left", "bottom middle", "bottom right"];

export function GolfBoard(p: BoardProps) {
  const v = p.view;
  const m = mover(p);
  const holding = v.holding;
  const grid = (s: number) => {
    const mine = s === p.seat;
    const cells = [];
    for (let pos = 0; pos < 6; pos++) {
      const c = v.layouts[s][pos];
      let move: string | undefined;
      if (mine) {
        if (m.can("swap " + pos)) move = "swap " + pos;
        else if (m.can("reveal " + (pos % 3))) move = "reveal " + (pos % 3);
      }
      const chosen = mine && v.phase === "reveal" && v.my_reveal === pos % 3;
      const down = !c && p.faceDown && p.faceDown[s] ? p.faceDown[s]![pos] : null;
      const where = POS_NAMES[pos] + (mine ? "" : ", " + p.names[s]);
      cells.push(down ? <CardView card={down} dim label={"face down, " + where} slot={`g${s}-${pos}`} /> : <CardView card={c} move={move} onClick={move ? () => p.act(move!) : undefined} selected={chosen}
        label={where} slot={`g${s}-${pos}`} />);
    }
    return (
      <div class={"golf-seat" + (mine ? " mine" : "")} data-seat={s}>
        <SeatTag seat={s} names={p.names} toAct={p.toAct}>
          {v.phase === "reveal" && v.chosen[s] ? <span class="badge">column chosen</span> : null}
          {v.out === s ? <span class="badge">went out</span> : null}
        </SeatTag>
        <div class="golf-grid">{cells}</div>
      </div>
    );
  };
  const order = othersFirst(p);
  const others = order.filter((s) => s !== p.seat);
  const discardMove = holding ? "discard" : "draw discard";
  return (
    <div class="board golf">
      <div class="others">{others.map(grid)}</div>
      <div class="centre">
        <Pile count={v.stock} label="stock" move="draw stock" onClick={m.on("draw stock")} place="stock" />
        <div class="pile" data-place="discard">
          {v.discard ? (
            <CardView card={v.discard} move={discardMove} onClick={m.on(discardMove)} label="discard pile" />
          ) : (
            <Empty label="discard" move={discardMove} onClick={m.on(discardMove)} />
          )}
          <div class="pile-label">discards <b>{v.discards}</b></div>
        </div>
        {/* The drawn card's place is kept while no card is drawn, so that
            nothing moves when one is. */}
        <div class={"pile drawn" + (holding ? "" : " vacant")} data-place="drawn" aria-hidden={holding ? undefined : "true"}>
          {holding ? <CardView card={v.drawn} label="drawn card" /> : <div class="card empty" />}
          <div class="pile-label">{holding ? "drawn from the " + (v.drawn_from === "discard" ? "discards" : "stock") : "drawn card"}</div>
        </div>
        {m.can("stop") ? <button type="button" class="primary" data-move="stop" onClick={() => m.act("stop")}>Stop (draw no card)</button> : null}
      </div>
      {p.seat >= 0 ? <div class="me">{grid(p.seat)}</div> : null}
      <p class="muted small board-note">Hole {v.hole} of {v.holes}{v.target ? `; the match also ends once a total reaches ${v.target} points` : ""}. Lowest total wins.</p>
    </div>
  );
}

// golfPrompt tells the player to act what to do in this phase.
export function golfPrompt(p: BoardProps): string {
  const v = p.view, can = (m: string) => p.legal.includes(m);
  if (!p.legal.length) return "";
  if (v.phase === "reveal") return "Choose a column to turn face up: click one of its cards.";
  if (v.holding) {
    return v.drawn_from === "discard" || !can("discard")
      ? "Click one of your six cards to swap in the card you took (a card taken from the discards must be kept)."
      : "Click one of your six cards to swap the drawn card in, or the discard pile to throw it away.";
  }
  if (can("stop")) return "Your final turn: draw from the stock, or stop.";
  return "Draw a card: click the stock or the discard pile.";
}

// golf is Golf's renderer: the board; a move's place by its position
// (swap, reveal) or pile (discard, draw); where a swapped or drawn card
// came from; and, in a replay, each layout's face-down cards.
export const golf: Renderer = {
  Board: GolfBoard,
  prompt: golfPrompt,
  scores: () => ({ rows: "Points by hole", total: "Total", note: "Lowest total wins." }),
  targets(q, seat, verb, args) {
    const n = Number(args[0]);
    if (verb === "swap") return q(`[data-slot="g${seat}-${n}"]`);
    if (verb === "reveal") return q(`[data-slot="g${seat}-${n}"], [data-slot="g${seat}-${n + 3}"]`);
    if (verb === "discard") return q(`[data-place="discard"] .card`);
    if (verb === "draw") return q(`[data-place="drawn"] .card`);
    return [];
  },
  hints(seat, verb, arg): Hint[] {
    if (verb === "swap") {
      return [
        { to: `[data-slot="g${seat}-${arg}"]`, from: "place:drawn" },
        { to: `[data-place="discard"] .card`, from: `slot:g${seat}-${arg}` },
      ];
    }
    if (verb === "discard") return [{ to: `[data-place="discard"] .card`, from: "place:drawn" }];
    if (verb === "draw") return [{ to: `[data-place="drawn"] .card`, from: "place:" + arg }];
    return [];
  },
  // The face-down cards of each layout, in position order.
  faceDown(view: any, places: PlaceInfo[]): (Card[] | null)[] {
    const downs = places.filter((pl) => pl.name === "face-down layout");
    return view.layouts.map((lay: Card[], s: number) => {
      const cards = downs[s] ? [...downs[s].cards] : [];
      return lay.map((c) => (c ? null : cards.shift() || null));
    });
  },
};
