// The replay of a finished game: step through it move by move with every
// seat's cards shown. The link (#/replay/ID/K) opens it at step K.
import { useEffect, useState } from "preact/hooks";
import { api, dealWord, sidesOf, Replay, ReplayStep, seatName, Card } from "./api";
import { prettyMove, CardView } from "./cards";
import { RENDERERS, useGameInfo } from "./boards";
import { Scores } from "./table";

export function ReplayPage(p: { id: string; step?: number }) {
  const [rep, setRep] = useState<Replay | null>(null);
  const [k, setK] = useState(p.step ?? 0);
  const [step, setStep] = useState<ReplayStep | null>(null);
  const [error, setError] = useState("");
  const info = useGameInfo(rep ? rep.game : "");
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
      <p class="last-move" data-last-move>{step.last ? `${step.last.n}. ${names[step.last.seat]}: ${prettyMove(step.last.move)}${step.last.by ? " (" + step.last.by + ")" : ""}` : "The deal, before any move."}</p>
      {step.to_act.length ? <p class="turn">To act: {step.to_act.map((s) => names[s]).join(", ")}</p> : null}
      {Board ? <Board view={base} seat={-1} players={rep.players} sides={sidesOf(info, rep.players)} legal={[]} act={() => {}} names={names} toAct={step.to_act} hands={hands} faceDown={faceDown} /> : null}
      {unseen.length ? (
        <details class="unseen" open>
          <summary>Cards out of sight</summary>
          {unseen.map((pl) => <div class="small" data-place={pl.name}>{pl.name} ({pl.cards.length}): {pl.cards.map((c) => <CardView card={c} small />)}</div>)}
        </details>
      ) : null}
      <Scores result={step.result} names={names} word={dealWord(info)} lowWins={!!info && info.low_wins} />
      <details class="log" open>
        <summary>Moves</summary>
        <ol class="moves">
          {rep.moves.map((m) => <li class={m.n === k ? "current" : ""}><a href={`#/replay/${rep.id}/${m.n}`} onClick={(e) => { e.preventDefault(); setK(m.n); }}>{names[m.seat]}: {prettyMove(m.move)}</a></li>)}
        </ol>
      </details>
      <p>Share: <input readOnly class="share" value={`${location.origin}/#/replay/${rep.id}/${k}`} /> <a href="#/">Back to the lobby</a></p>
    </div>
  );
}
