// The table page: one game, played over the table protocol's WebSocket.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, heldSeat, holdSeat, myName, setMyName, seatName, Joined, StateMsg, TableInfo, SeatInfo, Result, Event } from "./api";
import { prettyMove } from "./cards";
import { BOARDS, DEAL_WORD } from "./boards";
import { SEAT_COLOURS } from "./board";
import { go } from "./router";

type Conn = "connecting" | "open" | "closed";

export function TablePage(p: { id: string }) {
  const id = p.id;
  const [held, setHeld] = useState(heldSeat(id));
  const [info, setInfo] = useState<TableInfo | null>(null);
  const [state, setState] = useState<StateMsg | null>(null);
  const [seats, setSeats] = useState<SeatInfo[]>([]);
  const [conn, setConn] = useState<Conn>("connecting");
  const [refusal, setRefusal] = useState("");
  const [error, setError] = useState("");
  const [log, setLog] = useState<string[]>([]);
  const [rematch, setRematch] = useState("");
  const [name, setName] = useState(myName());
  const wsRef = useRef<WebSocket | null>(null);
  const seatsRef = useRef<SeatInfo[]>([]);
  seatsRef.current = seats;

  // The table's info (title, seats open, rematch link), refreshed while
  // nobody holds a seat here so the join buttons stay true.
  useEffect(() => {
    let stop = false;
    const load = () => api<TableInfo>("GET", "/api/tables/" + id).then((t) => {
      if (stop) return;
      setInfo(t); if (t.rematch) setRematch(t.rematch);
      if (!seatsRef.current.length) setSeats(t.seats);
    }).catch((e) => !stop && setError(String(e.message || e)));
    load();
    const timer = setInterval(load, 4000);
    return () => { stop = true; clearInterval(timer); };
  }, [id]);

  // The WebSocket, reconnecting by itself with a growing pause.
  useEffect(() => {
    let closed = false, retry = 0, timer = 0;
    const connect = () => {
      setConn("connecting");
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${id}`);
      wsRef.current = ws;
      ws.onopen = () => {
        ws.send(JSON.stringify(held ? { v: 1, type: "hello", token: held.token } : { v: 1, type: "hello", spectate: true }));
      };
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        switch (msg.type) {
          case "welcome": retry = 0; setConn("open"); break;
          case "state":
            setState(msg as StateMsg); setSeats(msg.seats);
            if ((msg.events as Event[]).some((ev) => ev.kind === "move")) setRefusal("");
            addEvents(msg.events, msg.seats);
            break;
          case "seats": setSeats(msg.seats); addEvents(msg.events, msg.seats); break;
          case "rematch": setRematch(msg.rematch); break;
          case "error":
            if (msg.code === "bad_token") { holdSeat(id, null); setHeld(null); }
            setRefusal((msg.move ? prettyMove(msg.move) + ": " : "") + msg.message);
            break;
        }
      };
      ws.onclose = () => {
        if (wsRef.current === ws) wsRef.current = null;
        if (closed) return;
        setConn("closed");
        retry = Math.min(retry + 1, 6);
        timer = window.setTimeout(connect, Math.min(250 * 2 ** retry, 5000));
      };
    };
    const addEvents = (evs: Event[], ss: SeatInfo[]) => {
      if (!evs || !evs.length) return;
      const lines = evs.map((ev) => describe(ev, ss)).filter((x) => x);
      if (lines.length) setLog((l) => [...lines.reverse(), ...l].slice(0, 60));
    };
    connect();
    return () => { closed = true; clearTimeout(timer); wsRef.current?.close(1000, "leaving the page"); };
  }, [id, held && held.token]);

  const send = (move: string) => {
    setRefusal("");
    const ws = wsRef.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) { setRefusal("not connected: the move was not sent"); return; }
    ws.send(JSON.stringify({ v: 1, type: "move", move }));
  };

  const join = async (seat: number) => {
    setError("");
    try {
      setMyName(name);
      const j = await api<Joined>("POST", `/api/tables/${id}/join`, { seat, name: name || undefined });
      holdSeat(id, { token: j.token, seat: j.seat }); setHeld({ token: j.token, seat: j.seat });
    } catch (e: any) { setError(e.message); }
  };
  const leave = async () => {
    if (!held) return;
    try { await api("POST", `/api/tables/${id}/leave`, { token: held.token }); } catch (e: any) { setError(e.message); }
    holdSeat(id, null); setHeld(null);
  };
  const askRematch = async () => {
    if (!held) return;
    try {
      const j = await api<Joined>("POST", `/api/tables/${id}/rematch`, { token: held.token, name: name || undefined });
      holdSeat(j.table, { token: j.token, seat: j.seat });
      go("/t/" + j.table);
    } catch (e: any) { setError(e.message); }
  };

  // Legal moves the board offers no place for (there should be none) get
  // a button under it, so every legal move can be made without notation.
  const boardRef = useRef<HTMLDivElement>(null);
  const [uncovered, setUncovered] = useState<string[]>([]);
  useLayoutEffect(() => {
    const el = boardRef.current;
    const legal = state?.legal || [];
    let missing: string[] = [];
    if (el && legal.length) {
      const shown = new Set(Array.from(el.querySelectorAll<HTMLElement>(".board [data-move]")).map((x) => x.dataset.move));
      const multi = Array.from(el.querySelectorAll<HTMLElement>(".board [data-confirm]")).map((x) => (x.dataset.confirm || "").toLowerCase() + " ");
      missing = legal.filter((m) => !shown.has(m) && !multi.some((pre) => m.startsWith(pre)));
    }
    if (missing.join("|") !== uncovered.join("|")) setUncovered(missing);
  });

  const gameId = info?.game || "";
  const Board = BOARDS[gameId] as (typeof BOARDS)[string] | undefined;
  const players = state?.view?.players || info?.seats.length || 0;
  const names = Array.from({ length: players }, (_, i) => seatName(seats, i) + (held && held.seat === i ? " (you)" : ""));
  const mySeat = held ? held.seat : -1;
  const status = state?.status || info?.status || "";
  const invite = location.origin + "/#/t/" + id;
  const openSeats = seats.filter((s) => s.state === "open").map((s) => s.seat);

  return (
    <div class="table-page" data-game={gameId} data-status={status} data-seq={state ? state.seq : -1} data-my-seat={mySeat}>
      <div class="table-head">
        <h2>{info?.title || "Table"} <span class="muted small">table {id}</span></h2>
        <span class={"conn " + conn} data-conn={conn}>{conn === "open" ? "connected" : conn === "connecting" ? "connecting…" : "reconnecting…"}</span>
      </div>
      <SeatBar seats={seats} names={names} toAct={state?.to_act || []} result={state?.result} clocks={state?.clocks || []} />
      {error ? <p class="error" role="alert">{error}</p> : null}
      {!held && status !== "over" ? (
        <div class="join-box">
          {openSeats.length ? (
            <>
              <label>Your name <input value={name} maxLength={32} placeholder="Player" onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
              {openSeats.map((s) => <button type="button" class="primary" data-join={s} onClick={() => join(s)}>Take seat {s + 1}</button>)}
            </>
          ) : null}
          <span class="muted">You are watching.</span>
        </div>
      ) : null}
      <TurnLine state={state} mySeat={mySeat} names={names} />
      {refusal ? <p class="refusal" role="alert" data-refusal>Refused — {refusal}</p> : null}
      {state && Board && state.view ? (
        <div ref={boardRef}>
          <Board view={state.view} seat={mySeat} players={players} legal={state.legal || []} act={send} names={names} toAct={state.to_act} />
          {uncovered.length ? (
            <div class="uncovered">Also: {uncovered.map((m) => <button type="button" data-extra-move={m} onClick={() => send(m)}>{prettyMove(m)}</button>)}</div>
          ) : null}
        </div>
      ) : status === "waiting" ? (
        <p class="waiting">Waiting for players: {openSeats.length} seat{openSeats.length === 1 ? "" : "s"} open. Invite someone with the link below.</p>
      ) : <p class="muted">Loading…</p>}
      {state?.result?.over ? (
        <div class="match-over" data-over>
          <h3>The match is over. {winnersText(state.result, names)}</h3>
          {held ? <button type="button" class="primary" data-rematch onClick={askRematch}>Rematch</button> : null}
          {rematch ? <a href={"#/t/" + rematch}>Go to the rematch table</a> : null}{" "}
          <a href={"#/replay/" + id} data-replay-link>Replay this game</a>
        </div>
      ) : rematch ? <p><a href={"#/t/" + rematch}>A rematch has started</a></p> : null}
      {state ? <Scores result={state.result} names={names} word={DEAL_WORD[gameId] || "Deal"} lowWins={gameId === "golf"} /> : null}
      {state && mySeat >= 0 ? <Fallback legal={state.legal || []} act={send} /> : null}
      <div class="table-foot">
        <label class="invite">Invite link <input readOnly value={invite} onFocus={(e) => (e.target as HTMLInputElement).select()} /></label>
        {held && status !== "over" ? <button type="button" onClick={leave}>Leave the seat</button> : null}
        <a href="#/">Back to the lobby</a> {gameId ? <a href={"#/rules/" + gameId}>Rules</a> : null}
      </div>
      <details class="log"><summary>What happened</summary><ol>{log.map((l) => <li>{l}</li>)}</ol></details>
    </div>
  );
}

function describe(ev: Event, seats: SeatInfo[]): string {
  const who = ev.seat !== undefined ? seatName(seats, ev.seat) : "";
  switch (ev.kind) {
    case "move": return `${who}: ${ev.hidden ? "moved" : prettyMove(ev.move || "")}${ev.by && ev.by !== "bot" ? " (" + ev.by + ")" : ""}`;
    case "start": return "The game starts.";
    case "over": return "The game is over.";
    case "join": return `${who} sat down.`;
    case "leave": return `${who} left.`;
    case "away": return `${who} is away.`;
    case "back": return `${who} is back.`;
    case "standin": return `A stand-in plays for ${who}.`;
  }
  return "";
}

function winnersText(r: Result, names: string[]): string {
  if (!r.winners.length) return "Nobody won (unresolved).";
  return r.winners.map((w) => names[w]).join(" and ") + (r.winners.length > 1 ? " share the win." : " wins.");
}

function SeatBar(p: { seats: SeatInfo[]; names: string[]; toAct: number[]; result?: Result; clocks: { seat: number; remaining_ms: number }[] }) {
  // Turn clocks count down between states.
  const [since, setSince] = useState(Date.now());
  const [, tick] = useState(0);
  useEffect(() => setSince(Date.now()), [p.clocks]);
  useEffect(() => {
    if (!p.clocks.length) return;
    const t = setInterval(() => tick((x) => x + 1), 1000);
    return () => clearInterval(t);
  }, [p.clocks]);
  const left = (ms: number) => Math.max(0, Math.ceil((ms - (Date.now() - since)) / 1000));
  return (
    <ul class="seat-bar">
      {p.names.map((n, i) => {
        const s = p.seats[i];
        const st = s ? s.state : "";
        const clock = p.clocks.find((c) => c.seat === i);
        return (
          <li class={"seat-chip " + st + (p.toAct.includes(i) ? " acting" : "")} data-seat={i} data-state={st} style={{ borderColor: SEAT_COLOURS[i % 8] }}>
            <span class="dot" style={{ background: SEAT_COLOURS[i % 8] }} />
            <b>{n}</b>
            <span class="state">{st === "away" ? "away" : st === "standin" ? "away — stand-in plays" : st === "open" ? "open" : st === "bot" ? "" : ""}</span>
            {p.result ? <span class="total">{p.result.totals[i]}</span> : null}
            {clock ? <span class="clock" title="time left to move">⏱ {left(clock.remaining_ms)}s</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

function TurnLine(p: { state: StateMsg | null; mySeat: number; names: string[] }) {
  const s = p.state;
  if (!s) return null;
  if (s.status === "waiting") return <p class="turn" data-turn="waiting">Waiting for every seat to be taken.</p>;
  if (s.status === "over") return null;
  const mine = p.mySeat >= 0 && s.to_act.includes(p.mySeat);
  const others = s.to_act.filter((x) => x !== p.mySeat).map((x) => p.names[x]);
  return (
    <p class={"turn" + (mine ? " mine" : "")} data-turn={mine ? "mine" : "other"}>
      {mine ? "Your turn." : ""}{others.length ? (mine ? " Also to act: " : "To act: ") + others.join(", ") + "." : ""}
    </p>
  );
}

export function Scores(p: { result: Result; names: string[]; word: string; lowWins?: boolean }) {
  const r = p.result;
  if (!r) return null;
  return (
    <div class="scores">
      <table>
        <thead><tr><th>{p.word}</th>{p.names.map((n) => <th>{n}</th>)}</tr></thead>
        <tbody>
          {r.deal_scores.map((row, i) => <tr data-deal-row={i + 1}><td>{i + 1}</td>{row.map((x) => <td>{x}</td>)}</tr>)}
          <tr class="total-row"><td>Total</td>{r.totals.map((x, i) => <td class={r.winners.includes(i) ? "winner" : ""}>{x}</td>)}</tr>
        </tbody>
      </table>
      {p.lowWins ? <p class="muted small">Lowest total wins.</p> : null}
    </div>
  );
}

// Fallback offers every legal move as a button with its notation, and a
// box to type one.
function Fallback(p: { legal: string[]; act: (m: string) => void }) {
  const [text, setText] = useState("");
  return (
    <details class="fallback">
      <summary>Moves in notation</summary>
      <div class="legal-list">{p.legal.map((m) => <button type="button" data-notation={m} onClick={() => p.act(m)}>{m}</button>)}</div>
      <form onSubmit={(e) => { e.preventDefault(); if (text.trim()) { p.act(text.trim()); setText(""); } }}>
        <input name="move" aria-label="a move in notation" placeholder="type a move, e.g. draw stock" value={text}
          onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        <button type="submit">Send</button>
      </form>
    </details>
  );
}
