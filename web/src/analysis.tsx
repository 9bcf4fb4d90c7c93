// A finished game's analysis on the replay page (../shared/spec/analysis.md):
// the button that asks the server for it and follows its progress, each
// seat's chance of winning over the game as a chart, a label beside each
// move, and at the chosen step the move played, the better move the
// search found, and that move drawn on the board.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { AnalysisDecision, AnalysisReport, AnalysisStatus } from "./api";
import { SEAT_COLOURS } from "./board";
import { prettyMove } from "./cards";
import { targets } from "./lastmove";

// Analysis is what the page knows of a table's analysis: where the work
// is, the report once done, and how to ask for it.
export interface Analysis {
  phase: "idle" | "asking" | "queued" | "running" | "busy" | "done" | "failed";
  progress: number;          // 0 to 1, while running
  report: AnalysisReport | null;
  message: string;           // why it failed or cannot be made, or why it waits
  retryIn: number;           // busy: seconds until it asks again
  start: () => void;         // ask for it (POST)
  byMove: Map<number, AnalysisDecision>;
}

const POLL_MS = 1000;

// call makes one request of the analysis endpoints, answering the status,
// the body and the Retry-After header's seconds (0 when absent).
async function call(method: string, path: string): Promise<{ status: number; data: any; retry: number }> {
  const res = await fetch(path, { method, headers: method === "POST" ? { "Content-Type": "application/json" } : {}, body: method === "POST" ? "{}" : undefined });
  const data = await res.json().catch(() => ({}));
  const retry = Number(res.headers.get("Retry-After")) || 0;
  return { status: res.status, data, retry };
}

// reason is the server's reason in an answer, written as a sentence.
function reason(data: any, fallback: string): string {
  const e = data && data.error;
  const t: string = typeof e === "string" && e ? e : e && e.message ? e.message : fallback;
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}

// useAnalysis follows table id's analysis: what the server has on coming
// to the page (shown at once when done, followed while it runs), and the
// work asked for by start(). A link ending in /analyse (the end-of-match
// summary's) asks for it on coming.
export function useAnalysis(id: string): Analysis {
  const [auto] = useState(() => /\/analyse$/.test(location.hash));
  const [phase, setPhase] = useState<Analysis["phase"]>("idle");
  const [progress, setProgress] = useState(0);
  const [report, setReport] = useState<AnalysisReport | null>(null);
  const [message, setMessage] = useState("");
  const [retryIn, setRetryIn] = useState(0);
  const timer = useRef(0);
  const alive = useRef(true);
  const path = `/api/tables/${id}/analysis`;

  const later = (ms: number, f: () => void) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => { if (alive.current) f(); }, ms);
  };
  const fail = (text: string) => { setPhase("failed"); setMessage(text); };
  const done = (r: AnalysisReport) => { setReport(r); setPhase("done"); setProgress(1); setMessage(""); };

  // follow takes a GET answer: done, still at work (ask again soon), failed.
  const follow = (st: AnalysisStatus) => {
    if (st.status === "done" && st.report) return done(st.report);
    if (st.status === "failed") return fail(st.error ? "The analysis failed: " + reason(st, "").replace(/^./, (c) => c.toLowerCase()) : "The analysis failed.");
    setPhase(st.status === "running" ? "running" : "queued");
    setProgress(typeof st.progress === "number" ? st.progress : 0);
    later(POLL_MS, poll);
  };
  const poll = () => {
    call("GET", path).then((r) => {
      if (!alive.current) return;
      if (r.status === 200) follow(r.data as AnalysisStatus);
      else fail(reason(r.data, "The server could not say how the analysis goes (" + r.status + ")."));
    }).catch(() => { if (alive.current) later(POLL_MS * 3, poll); });
  };
  // wait counts down a busy server's Retry-After, then asks again.
  const wait = (secs: number) => {
    setPhase("busy");
    setRetryIn(secs);
    if (secs <= 0) return start();
    later(1000, () => wait(secs - 1));
  };
  const start = () => {
    setPhase("asking");
    setMessage("");
    setProgress(0);
    call("POST", path).then((r) => {
      if (!alive.current) return;
      if (r.status === 200) {
        const d = r.data;
        if (d && Array.isArray(d.decisions)) return done(d as AnalysisReport);
        return follow(d as AnalysisStatus);
      }
      if (r.status === 202) return follow({ status: "queued", progress: 0, ...r.data });
      if (r.status === 503) {
        setMessage(reason(r.data, "Every analyser is busy."));
        return wait(Math.max(1, r.retry || 5));
      }
      if (r.status === 409) return fail("The game is not over yet: it can be analysed once it ends.");
      fail(reason(r.data, "The analysis could not be asked for (" + r.status + ")."));
    }).catch((e) => { if (alive.current) fail("The server could not be reached: " + e.message); });
  };

  useEffect(() => {
    alive.current = true;
    call("GET", path).then((r) => {
      if (!alive.current) return;
      if (r.status === 200) follow(r.data as AnalysisStatus);
      else if (auto) start();
    }).catch(() => {});
    return () => { alive.current = false; window.clearTimeout(timer.current); };
  }, [id]);

  const byMove = new Map<number, AnalysisDecision>();
  if (report) for (const d of report.decisions) byMove.set(d.n, d);
  return { phase, progress, report, message, retryIn, start, byMove };
}

const pct = (c: number) => Math.round(c * 100) + "%";
const plural = (n: number, one: string, many = one + "s") => `${n} ${n === 1 ? one : many}`;

// modeWords says how the chances were made: from what each seat knew, or
// in hindsight with every card open.
export function modeWords(r: AnalysisReport): string {
  return r.mode === "hindsight"
    ? "Hindsight: the search saw every card, which no seat could."
    : "From what each seat knew when it moved (never the cards it could not see).";
}

// AnalysisPanel is the analysis above the board: the button and its
// progress until the report is there, then the chart of each seat's
// chance and each seat's sums.
export function AnalysisPanel(p: { a: Analysis; names: string[]; moves: number; k: number; go: (k: number) => void }) {
  const a = p.a;
  if (!a.report) {
    const working = a.phase === "asking" || a.phase === "queued" || a.phase === "running" || a.phase === "busy";
    return (
      <section class="analysis" data-analysis={a.phase} aria-live="polite">
        {!working ? (
          <button type="button" class="primary" data-analyse onClick={a.start}>{a.phase === "failed" ? "Try the analysis again" : "Analyse this game"}</button>
        ) : null}
        {working ? (
          <div class="analysis-progress">
            <progress max={1} value={a.phase === "running" ? a.progress : undefined} aria-label="analysis progress" data-progress={a.progress} />
            <span>{a.phase === "busy" ? `${a.message} Asking again in ${a.retryIn} second${a.retryIn === 1 ? "" : "s"}.`
              : a.phase === "running" ? `Analysing… ${pct(a.progress)}`
              : a.phase === "queued" ? "Waiting for a free analyser…" : "Asking for the analysis…"}</span>
          </div>
        ) : null}
        {a.phase === "failed" ? <p class="analysis-failed" role="alert">{a.message}</p> : null}
        {a.phase === "idle" ? <span class="muted small"> Where was it won and lost: each seat's chance of winning, move by move, and the better moves.</span> : null}
      </section>
    );
  }
  const r = a.report;
  return (
    <section class="analysis" data-analysis="done" data-mode={r.mode}>
      <WinChart report={r} names={p.names} moves={p.moves} k={p.k} go={p.go} />
      <details class="analysis-seats" open>
        <summary>Each seat's play{r.mode === "hindsight" ? " (in hindsight)" : ""}</summary>
        <ul>
          {r.seats.map((s) => (
            <li data-analysis-seat={s.seat}>
              <span class="dot" style={{ background: SEAT_COLOURS[s.seat % 8] }} /> <b>{p.names[s.seat]}</b>:{" "}
              {plural(s.decisions, "decision")}, a mean loss of {(s.mean_loss * 100).toFixed(1)} points;{" "}
              {plural(s.inaccuracies, "inaccuracy", "inaccuracies")}, {plural(s.mistakes, "mistake")}, {plural(s.blunders, "blunder")}.
            </li>
          ))}
        </ul>
        <p class="small muted">The loss of a move is how many points (of 100) lower the seat's chance of winning was after it than after the best move the search found ({r.think_ms} ms of search a decision). {modeWords(r)}</p>
      </details>
    </section>
  );
}

// WinChart draws each seat's chance of winning after each of its
// decisions, one line per seat, the move number along; the replay's step
// is marked, and a click goes to the step under it.
export function WinChart(p: { report: AnalysisReport; names: string[]; moves: number; k: number; go: (k: number) => void }) {
  const r = p.report;
  const n = Math.max(1, p.moves);
  // Drawn at the width it is shown at, so that its text keeps its size.
  const box = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(260, Math.round(el.clientWidth - 16)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const W = width, H = width < 500 ? 150 : 190, L = 36, R = 10, T = 10, B = 26;
  const x = (m: number) => L + (m / n) * (W - L - R);
  const y = (c: number) => T + (1 - c) * (H - T - B);
  const seats = Array.from({ length: r.players }, (_, s) => s);
  const points = seats.map((s) => r.decisions.filter((d) => d.seat === s && !d.forced && typeof d.chance === "number").sort((a, b) => a.n - b.n));
  const room = Math.max(2, Math.floor((W - L - R) / 55)); // x labels that fit
  const every = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].find((e) => n / e <= room) || 1000;
  const ticks: number[] = [];
  for (let m = 0; m <= n; m += every) ticks.push(m);
  const click = (e: MouseEvent) => {
    const svg = e.currentTarget as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    const vx = ((e.clientX - box.left) / box.width) * W;
    p.go(Math.max(0, Math.min(n, Math.round(((vx - L) / (W - L - R)) * n))));
  };
  const bad = (d: AnalysisDecision) => d.label === "mistake" || d.label === "blunder";
  const desc = seats.map((s) => {
    const pts = points[s];
    if (!pts.length) return `${p.names[s]}: not analysed`;
    return `${p.names[s]}: ${pct(pts[0].chance!)} after move ${pts[0].n}, ${pct(pts[pts.length - 1].chance!)} after move ${pts[pts.length - 1].n}`;
  }).join("; ");
  return (
    <figure class="win-chart" data-win-chart ref={box}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" onClick={click} data-chart-moves={n}
        aria-label={`Each seat's chance of winning over the game${r.mode === "hindsight" ? ", in hindsight" : ""}: ${desc}. Move ${p.k} is shown.`}>
        {[0, 0.25, 0.5, 0.75, 1].map((c) => (
          <g>
            <line x1={L} x2={W - R} y1={y(c)} y2={y(c)} class={c === 0.5 ? "mid" : "grid"} />
            <text x={L - 4} y={y(c) + 4} class="axis" text-anchor="end">{pct(c)}</text>
          </g>
        ))}
        {ticks.map((m) => <text x={x(m)} y={H - 8} class="axis" text-anchor="middle">{m}</text>)}
        <text x={W - R} y={H - 8} class="axis" text-anchor="end">{ticks[ticks.length - 1] === n ? "" : n}</text>
        {seats.map((s) => points[s].length ? (
          <g data-chart-seat={s} style={{ color: SEAT_COLOURS[s % 8] }}>
            <polyline points={points[s].map((d) => `${x(d.n)},${y(d.chance!)}`).join(" ")} class="line" />
            {points[s].map((d) => (
              <circle cx={x(d.n)} cy={y(d.chance!)} r={bad(d) ? 5 : d.n === p.k ? 4.5 : 2.5} class={"pt" + (bad(d) ? " bad mark-" + d.label : "")} data-chart-n={d.n}>
                <title>{`${p.names[s]}, move ${d.n}: ${prettyMove(d.move)}, ${pct(d.chance!)}${d.label ? " (" + d.label + ")" : ""}`}</title>
              </circle>
            ))}
          </g>
        ) : null)}
        <line x1={x(p.k)} x2={x(p.k)} y1={T - 4} y2={H - B + 4} class="now" data-chart-step={p.k} />
      </svg>
      <figcaption class="small">
        Chance of winning after each move{r.mode === "hindsight" ? <b class="hindsight-tag"> (hindsight: every card open)</b> : null}:{" "}
        {seats.map((s) => <span class="legend"><span class="dot" style={{ background: SEAT_COLOURS[s % 8] }} /> {p.names[s]} </span>)}
        <span class="muted">Rings mark mistakes (orange) and blunders (red). Click the chart to go to a move.</span>
      </figcaption>
    </figure>
  );
}

// MoveLabel is a decision's label beside its move in the list of moves.
export function MoveLabel(p: { a: Analysis; n: number }) {
  const d = p.a.byMove.get(p.n);
  if (!d) return null;
  if (d.forced) return <span class="an-label an-forced" data-label="forced" title="the only legal move">forced</span>;
  if (!d.label) return null;
  const hind = p.a.report && p.a.report.mode === "hindsight";
  const title = (d.best && d.best !== d.move ? `better: ${prettyMove(d.best)} (${pct(d.best_chance ?? 0)} against ${pct(d.chance ?? 0)})` : "the move the search rates highest") + (hind ? ", in hindsight (every card open)" : "");
  return <span class={"an-label an-" + d.label} data-label={d.label} title={title}>{d.label}{hind ? " in hindsight" : ""}</span>;
}

// betterTargets answers the board's elements a move not made concerns:
// the place it names (a pile to draw from), else where its game's
// renderer or the cards it names say.
function betterTargets(board: HTMLElement, game: string, seat: number, move: string): HTMLElement[] {
  const [, ...args] = move.split(" ");
  for (const w of args) {
    const place = board.querySelector<HTMLElement>(`[data-place="${CSS.escape(w)}"]`);
    if (place) return [place.querySelector<HTMLElement>(".card") || place];
  }
  return targets(board, game, seat, move);
}

// AnalysisStep tells, at step k, the decision that led to it: the move
// played with its chance and label, and the better move the search found
// with its chance; that move is drawn on the board.
export function AnalysisStep(p: { a: Analysis; k: number; game: string; names: string[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const r = p.a.report;
  const d = r ? p.a.byMove.get(p.k) : undefined;
  const better = d && !d.forced && d.best && d.best !== d.move ? d.best : "";
  useLayoutEffect(() => {
    const page = ref.current ? ref.current.closest<HTMLElement>(".replay-page") : null;
    const board = page ? page.querySelector<HTMLElement>(".board") : null;
    if (!board) return;
    board.querySelectorAll<HTMLElement>("[data-better-move]").forEach((el) => el.removeAttribute("data-better-move"));
    board.querySelectorAll<HTMLElement>("[data-played-move]").forEach((el) => el.removeAttribute("data-played-move"));
    if (!d || !better) return;
    const marked = betterTargets(board, p.game, d.seat, better);
    for (const el of marked) el.setAttribute("data-better-move", better);
    // Where the move played went, for the eye to compare (not the seat's
    // name, the fallback when the board has no place for it).
    for (const el of targets(board, p.game, d.seat, d.move)) {
      if (!el.classList.contains("seat-tag") && !marked.includes(el)) el.setAttribute("data-played-move", d.move);
    }
  });
  if (!r) return <div ref={ref} hidden />;
  if (!d) return <div ref={ref} class="analysis-step muted small" data-analysis-step="none">{p.k === 0 ? "Go to a move to see how it was rated." : "This move was not analysed."}</div>;
  const who = p.names[d.seat];
  const hind = r.mode === "hindsight" ? <b class="hindsight-tag">In hindsight (every card open): </b> : null;
  if (d.forced) return <div ref={ref} class="analysis-step" data-analysis-step={d.n}>{hind}{who} had only this move.</div>;
  const alts = d.alternatives || [];
  return (
    <div ref={ref} class="analysis-step" data-analysis-step={d.n} data-better={better}>
      <p>
        {hind}{who} played <b>{prettyMove(d.move)}</b> <span class={"an-label an-" + d.label} data-label={d.label}>{d.label}</span>:{" "}
        a {pct(d.chance ?? 0)} chance of winning after it.{" "}
        {better ? (
          <span class="better-move" data-better-text>Better: <b>{prettyMove(better)}</b>, {pct(d.best_chance ?? 0)} (marked on the board).</span>
        ) : <span>The search found nothing better.</span>}
      </p>
      {alts.length > 1 ? (
        <details class="alternatives">
          <summary>The moves the search weighed{d.iterations ? ` (${d.iterations.toLocaleString("en")} iterations)` : ""}</summary>
          <ol>
            {alts.map((x) => (
              <li class={x.move === d.move ? "played" : x.move === d.best ? "best" : ""}>
                {prettyMove(x.move)}: {pct(x.chance)}{x.move === d.move ? " (played)" : ""}{x.move === d.best ? " (best)" : ""}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </div>
  );
}
