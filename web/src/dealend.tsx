// The end of a deal (hand, hole), held on screen until the player goes on:
// the table as the deal left it (the server's deal_end: every card the
// rules turn up, the last trick or parcel still in place), what the deal
// scored and how. The game itself has gone on at the server (bots do not
// wait); only this page's display holds.
import { useEffect, useState } from "preact/hooks";
import type { DealEnd } from "./api";
import type { BoardProps, Renderer } from "./board";
import { CardView } from "./cards";

// DEAL_END_SECONDS is how long a deal's end stays without a click (the
// count stops while the pointer rests on it).
export const DEAL_END_SECONDS = 10;

export interface DealEndProps {
  end: DealEnd;
  gameId: string;
  word: string;          // what the game calls a deal, capitalised: "Hole"
  renderer: Renderer;
  board: BoardProps;     // the table's board props; the view is replaced by the deal end's
  short: string[];       // seats' short names
  me: number;            // the viewer's seat, -1 for a spectator
  scoresWord: string;    // what a deal's row counts: "Points", "Tricks taken"
  totalWord: string;     // what the match totals count: "Total", "Games won"
  goOn: () => void;
}

// DealEndPanel shows a deal's end with a button to go on, and goes on by
// itself after DEAL_END_SECONDS.
export function DealEndPanel(p: DealEndProps) {
  const [left, setLeft] = useState(DEAL_END_SECONDS);
  const [resting, setResting] = useState(false);
  useEffect(() => { setLeft(DEAL_END_SECONDS); }, [p.end]);
  useEffect(() => {
    if (resting) return;
    const t = window.setInterval(() => setLeft((l) => l - 1), 1000);
    return () => clearInterval(t);
  }, [resting, p.end]);
  useEffect(() => { if (left <= 0) p.goOn(); }, [left]);
  const e = p.end;
  const name = (s: number) => (s === p.me ? "You" : p.short[s] || `Seat ${s + 1}`);
  const Board = p.renderer.Board;
  const how = dealHow(p.gameId, e, name);
  const lower = p.word.toLowerCase();
  return (
    <section class="deal-end" data-deal-end={e.deal} aria-labelledby="deal-end-title"
      onMouseEnter={() => setResting(true)} onMouseLeave={() => setResting(false)}>
      <div class="deal-end-head">
        <h3 id="deal-end-title">End of {lower} {e.deal}</h3>
        <button type="button" class="primary" data-next-deal onClick={p.goOn}>
          Next {lower}{resting ? "" : <span class="muted"> ({Math.max(0, left)})</span>}
        </button>
      </div>
      <p class="deal-end-scores" data-deal-end-scores>
        <b>{p.scoresWord}:</b> {e.scores.map((x, s) => <span class="deal-end-score" data-seat={s}>{name(s)} {x}</span>)}
        <span class="muted"> · {p.totalWord.toLowerCase()} {e.totals.map((x, s) => `${name(s)} ${x}`).join(", ")}</span>
      </p>
      {how.length ? <ul class="deal-end-how" data-deal-end-how>{how.map((l) => <li>{l}</li>)}</ul> : null}
      <div class="deal-end-board">
        <Board {...p.board} view={e.view} legal={[]} toAct={[]} act={() => {}} hands={undefined} places={undefined} />
      </div>
    </section>
  );
}

// plural says n things: "1 trick", "3 tricks".
function plural(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 || n === -1 ? one : many}`;
}

// dealHow says how a deal's scores were made, from its end's view: a line
// per seat in the game's own terms (and Parcellus's last parcel).
function dealHow(gameId: string, e: DealEnd, name: (s: number) => string): any[] {
  const v = e.view || {};
  switch (gameId) {
    case "golf":
      return (v.columns || []).map((c: number[], s: number) =>
        `${name(s)}: columns ${c.map((x) => (x < 0 ? `(${x})` : String(x))).join(" + ")} = ${e.scores[s]}`);
    case "parcellus": {
      const out: any[] = (v.points || []).map((pts: number, s: number) => {
        const bonus = e.scores[s] - pts;
        return `${name(s)}: ${plural(pts, "point")} in ${plural(v.parcel_counts[s], "parcel")}` + (bonus ? `, bonus ${bonus}` : ", no bonus") + ` = ${e.scores[s]}`;
      });
      const last = v.captured && v.captured[v.captured.length - 1];
      if (last) {
        out.push(<span data-last-parcel>Last parcel, captured by {name(last.seat)}: {last.cards.map((c: string) => <CardView card={c} small />)}</span>);
      }
      return out;
    }
    case "tractric":
      // A counter goes on the scorecard of each seat's tricks (Q for
      // none, A for one), unless another colour shares it.
      return (v.tricks || []).map((n: number, s: number) => `${name(s)} took ${plural(n, "trick")}: scorecard ${n === 0 ? "Q" : n === 1 ? "A" : n}`);
    case "court-circular": {
      const out: any[] = (v.tricks || []).map((n: number, s: number) => {
        const won = (v.won_up?.[s]?.length || 0) + (v.won_down?.[s]?.length || 0);
        const marks = v.marks ? `: ${plural(v.marks[s], "mark")}` : "";
        return `${name(s)} won ${plural(n, "trick")} and ${plural(won, "card")}${marks}`;
      });
      if (v.marks && v.marks.length) out.push(`Each scores the marks above the lowest (${Math.min(...v.marks)}).`);
      return out;
    }
  }
  return [];
}
