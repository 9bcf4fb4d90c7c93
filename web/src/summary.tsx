// The end of a match: the final standings, each deal's scores as a small
// chart, a rematch, the replay and its analysis.
import type { ComponentChildren } from "preact";
import type { Result } from "./api";
import { SEAT_COLOURS } from "./board";

// SummaryProps is what the end of a match shows: its result, the seats' names,
// what the game calls a deal, whether the lowest total wins, the viewer's
// seat, and the ways on (a rematch, the replay).
export interface SummaryProps {
  result: Result; names: string[]; word: string; lowWins: boolean; me: number;
  rematch: (() => void) | null; rematchLink: string; replay: string;
  colours?: string[]; // each seat's colour (a partnership's seats share one)
  order?: number[];   // the seats from first place to last, where the game tells it
  final?: { label: string; one: string; values: number[] }; // what decides the match, where not the totals
  unit?: [string, string]; // a total in words: ["point", "points"]
  children?: ComponentChildren; // the score table
}

// Summary is the end-of-match panel.
export function Summary(p: SummaryProps) {
  const r = p.result;
  const shown = p.final && p.final.values.length === r.totals.length ? p.final.values : r.totals;
  const ranked = p.final ? { ...r, totals: shown } : r;
  const order = (p.order && p.order.length === r.totals.length ? p.order : standings(ranked, p.lowWins && !p.final)).map((i) => ({ t: shown[i], i }));
  const colour = (s: number) => (p.colours && p.colours[s]) || SEAT_COLOURS[s % 8];
  const head = !r.winners.length ? "Nobody won." : r.winners.includes(p.me)
    ? (r.winners.length > 1 ? "You share the win!" : "You win!")
    : r.winners.map((w) => p.names[w]).join(" and ") + (r.winners.length > 1 ? " share the win." : " wins.");
  return (
    <section class="summary" data-over data-summary aria-labelledby="summary-title">
      <h3 id="summary-title">The match is over. {head}</h3>
      <div class="summary-body">
        <ol class="standings" aria-label="final standings">
          {order.map(({ t, i }, k) => (
            <li class={r.winners.includes(i) ? "winner" : ""} data-standing={i} style={{ "--seat": colour(i) } as any}>
              <span class="place">{k + 1}</span><span class="dot" /> <span class="name">{p.names[i]}</span> <b class="total">{t} <span class="unit">{p.final ? (t === 1 ? p.final.one : p.final.label) : (p.unit || ["point", "points"])[t === 1 || t === -1 ? 0 : 1]}</span></b>
              {r.winners.includes(i) ? <span class="crown" aria-label="winner">★</span> : null}
            </li>
          ))}
        </ol>
        <DealChart result={r} names={p.names} word={p.word} colours={p.colours} />
        {p.children}
      </div>
      <div class="summary-actions">
        {p.rematch ? <button type="button" class="primary" data-rematch onClick={p.rematch}>Rematch</button> : null}
        {p.rematchLink ? <a href={p.rematchLink}>Go to the rematch table</a> : null}
        <a href={p.replay} data-replay-link>Replay this game</a>
        <a href={p.replay + "/0/analyse"} data-analysis-link>Analyse this game</a>
      </div>
    </section>
  );
}

// standings orders the seats from first place to last: the winners
// first, then by total, the lowest first where the lowest total wins.
export function standings(r: Result, lowWins: boolean): number[] {
  const won = (s: number) => (r.winners.includes(s) ? 0 : 1);
  return r.totals.map((_, s) => s).sort((a, b) => won(a) - won(b) || (lowWins ? r.totals[a] - r.totals[b] : r.totals[b] - r.totals[a]) || a - b);
}

// DealChart draws each deal's scores: a group of bars per deal, one bar per
// seat in its colour, above or below the zero line.
export function DealChart(p: { result: Result; names: string[]; word: string; colours?: string[] }) {
  const colour = (s: number) => (p.colours && p.colours[s]) || SEAT_COLOURS[s % 8];
  const rows = p.result.deal_scores || [];
  if (rows.length < 2) return null; // one deal: the score table tells it all
  const seats = p.names.length;
  const all = rows.flat();
  const hi = Math.max(1, ...all), lo = Math.min(0, ...all);
  const bw = Math.max(4, Math.min(14, 60 / seats)), gap = 10, gw = seats * bw + gap;
  const W = 30 + rows.length * gw, H = 100, top = 8, bottom = 16;
  const y = (v: number) => top + ((hi - v) / (hi - lo)) * (H - top - bottom);
  return (
    <figure class="deal-chart" data-deal-chart>
      <svg viewBox={`0 0 ${W} ${H}`} width={W * 1.6} height={H * 1.6} role="img"
        aria-label={`each ${p.word.toLowerCase()}'s scores: ` + rows.map((row, d) => `${p.word} ${d + 1}: ` + row.map((v, s) => `${p.names[s]} ${v}`).join(", ")).join("; ")}>
        <line x1={26} x2={W} y1={y(0)} y2={y(0)} class="zero" />
        <text x={24} y={y(hi) + 4} class="axis" text-anchor="end">{hi}</text>
        {lo < 0 && y(lo) - y(0) > 9 ? <text x={24} y={y(lo) + 2} class="axis" text-anchor="end">{lo}</text> : null}
        <text x={24} y={y(0) + 3} class="axis" text-anchor="end">0</text>
        {rows.map((row, d) => (
          <g data-chart-deal={d + 1}>
            {row.map((v, s) => {
              const x = 30 + d * gw + s * bw;
              const y0 = y(Math.max(v, 0)), h = Math.max(1, Math.abs(y(v) - y(0)));
              return <rect x={x} y={y0} width={bw - 1} height={h} fill={colour(s)}><title>{`${p.names[s]}, ${p.word.toLowerCase()} ${d + 1}: ${v}`}</title></rect>;
            })}
            <text x={30 + d * gw + (seats * bw) / 2} y={H - 4} class="axis" text-anchor="middle">{d + 1}</text>
          </g>
        ))}
      </svg>
      <figcaption class="small">{p.word} by {p.word.toLowerCase()}: {p.names.map((n, s) => <span class="legend"><span class="dot" style={{ background: colour(s) }} /> {n} </span>)}</figcaption>
    </figure>
  );
}
