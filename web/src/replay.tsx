// The replay of a finished game: step through it move by move with every
// seat's cards shown. The link (#/replay/ID/K) opens it at step K.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, dealWord, sidesOf, Replay, ReplayStep, ReplayMove, seatName, shortName, Card } from "./api";
import { CardView } from "./cards";
import { RENDERERS, useGameInfo } from "./boards";
import { Scores, scoreWords } from "./table";
import { Words, isCard } from "./log";
import { seatColour } from "./board";
import { useAnalysis, AnalysisPanel, AnalysisStep, MoveLabel } from "./analysis";

// moveWords is a replayed move as the live log tells it: the game's words
// (a template: {N} a seat, [C] a card), or its notation with the seat.
function moveWords(m: ReplayMove): string {
  const text = m.text;
  const by = m.by === "standin" ? " (the stand-in played)" : m.by === "clock" ? " (time ran out)" : "";
  if (text) return text + by;
  return `{${m.seat}}: ` + m.move.split(" ").map((w) => (isCard(w) ? "[" + w + "]" : w)).join(" ") + by;
}

export function ReplayPage(p: { id: string; step?: number }) {
  const [rep, setRep] = useState<Replay | null>(null);
  const [k, setK] = useState(p.step ?? 0);
  const [step, setStep] = useState<ReplayStep | null>(null);
  const [error, setError] = useState("");
  const info = useGameInfo(rep ? rep.game : "");
  const an = useAnalysis(p.id);
  const listRef = useRef<HTMLOListElement>(null);
  // The move list follows the step: the current move is kept in view
  // (the list scrolls, not the page).
  useLayoutEffect(() => {
    const ol = listRef.current, li = ol?.querySelector<HTMLElement>("li.current");
    if (!ol || !li) return;
    const top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < ol.scrollTop) ol.scrollTop = top - 4;
    else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight + 4;
  }, [k, rep]);
  useEffect(() => { api<Replay>("GET", `/api/tables/${p.id}/replay`).then(setRep).catch((e) => setError(e.message)); }, [p.id]);
  useEffect(() => {
    let stop = false;
    api<ReplayStep>("GET", `/api/tables/${p.id}/replay/${k}`).then((s) => !stop && setStep(s)).catch((e) => !stop && setError(e.message));
    const want = `#/replay/${p.id}/${k}`;
    if (location.hash !== want) history.replaceState(null, "", want);
    return () => { stop = true; };
  }, [p.id, k]);
  useEffect(() => {
    const key = (e: KeyboardEvent) => {
      if (!rep) return;
      if (e.key === "ArrowRight") setK((x) => Math.min(x + 1, rep.moves.length));
      if (e.key === "ArrowLeft") setK((x) => Math.max(x - 1, 0));
    };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, [rep]);

  if (error) return <div><p class="error" role="alert">{error}</p><a href="#/">Back to the lobby</a></div>;
  if (!rep || !step) return <p class="muted">Loading…</p>;
  const n = rep.moves.length;
  const names = Array.from({ length: rep.players }, (_, i) => seatName(rep.seats, i));
  const short = Array.from({ length: rep.players }, (_, i) => shortName(rep.seats, i));
  const sides = sidesOf(info, rep.players);
  const colours = short.map((_, i) => seatColour(i, sides));
  const renderer = RENDERERS[rep.game] as (typeof RENDERERS)[string] | undefined;
  const Board = renderer && renderer.Board;
  const base = step.to_act.length ? step.views[step.to_act[0]] : step.last ? step.views[step.last.seat] : step.public;
  const hands: (Card[] | null)[] = step.views.map((v) => (v && v.hand) || null);
  const places = step.places || [];
  const faceDown = renderer && renderer.faceDown ? renderer.faceDown(base, places) : undefined;
  const unseen = places.filter((pl) => !pl.public && pl.cards.length && pl.name !== "face-down layout" && !/hand/i.test(pl.name));
  return (
    <div class="replay-page" data-replay={rep.id} data-step={step.k}>
      <h2>Replay: {rep.title} <span class="muted small">seed {rep.seed}</span></h2>
      <div class="replay-controls">
        <button type="button" data-step-to="first" onClick={() => setK(0)} disabled={k === 0}>« First</button>
        <button type="button" data-step-to="prev" onClick={() => setK(Math.max(0, k - 1))} disabled={k === 0}>◀ Back</button>
        <span class="step">move <b data-k>{k}</b> of {n}</span>
        <button type="button" data-step-to="next" onClick={() => setK(Math.min(n, k + 1))} disabled={k === n}>Next ▶</button>
        <button type="button" data-step-to="last" onClick={() => setK(n)} disabled={k === n}>Last »</button>
        <input type="range" min={0} max={n} value={k} aria-label="step" onInput={(e) => setK(Number((e.target as HTMLInputElement).value))} />
      </div>
      <AnalysisPanel a={an} names={names} moves={n} k={k} go={setK} />
      <p class="last-move" data-last-move>{step.last ? <>{step.last.n}. <Words text={moveWords(rep.moves[step.last.n - 1] || step.last)} names={short} me={-1} colours={colours} /></> : "The deal, before any move."}</p>
      <AnalysisStep a={an} k={step.k} game={rep.game} names={names} />
      {step.to_act.length ? <p class="turn">To act: {step.to_act.map((s) => names[s]).join(", ")}</p> : null}
      {Board ? <Board view={base} seat={-1} players={rep.players} sides={sides} legal={[]} act={() => {}} names={names} toAct={step.to_act} hands={hands} faceDown={faceDown} places={places} /> : null}
      {unseen.length ? (
        <details class="unseen" open>
          <summary>Cards out of sight</summary>
          {unseen.map((pl) => <div class="small" data-place={pl.name}>{pl.name} ({pl.cards.length}): {pl.cards.map((c) => <CardView card={c} small />)}</div>)}
        </details>
      ) : null}
      <Scores result={step.result} names={names} word={dealWord(info)} lowWins={!!info && info.low_wins} words={scoreWords(renderer, base, dealWord(info), !!info && info.low_wins)} />
      <details class="log" open>
        <summary>Moves</summary>
        <ol class="moves" ref={listRef} data-moves>
          {rep.moves.map((m) => <li class={m.n === k ? "current" : ""} data-n={m.n} aria-current={m.n === k ? "step" : undefined} style={{ "--seat": colours[m.seat] } as any}><a href={`#/replay/${rep.id}/${m.n}`} onClick={(e) => { e.preventDefault(); setK(m.n); }}><Words text={moveWords(m)} names={short} me={-1} colours={colours} /></a> <MoveLabel a={an} n={m.n} /></li>)}
        </ol>
      </details>
      <p>Share: <input readOnly class="share" value={`${location.origin}/#/replay/${rep.id}/${k}`} /> <a href="#/">Back to the lobby</a></p>
    </div>
  );
}
