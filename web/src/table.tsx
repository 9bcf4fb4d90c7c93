// The table page: one game, played over the table protocol's WebSocket,
// with the live log and the chat beside it.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import {
  api, dealWord, sidesOf, heldSeat, holdSeat, myName, setMyName, seatName, shortName, Joined, StateMsg, TableInfo, SeatInfo, Result, Event, ChatMsg, ReplayStep, DealEnd,
} from "./api";
import { prettyMove } from "./cards";
import { RENDERERS, useGameInfo } from "./boards";
import { seatColour, BoardProps, ScoreWords, Renderer } from "./board";
import { go } from "./router";
import { snapshot, play, stop, Snapshot, Moment } from "./animate";
import { targets, hints } from "./lastmove";
import { LiveLog, Entry, entries, entry, Words } from "./log";
import { RulesPanel, RULES_EVENT } from "./rules";
import { Chat } from "./chat";
import { Summary } from "./summary";
import { useTurnSignals } from "./turn";
import { useBoardKeys, refocus } from "./keys";
import { DealEndPanel } from "./dealend";
import { settings, useSettings } from "./settings";

// Conn is the table's connection: "connecting" before the first state,
// "open" once the current socket's state has come, "reconnecting" from a
// drop until the next socket's state comes. Only "open" lets moves go.
type Conn = "connecting" | "open" | "reconnecting";

const CHAT_CODES = new Set(["bad_chat", "chat_flood"]);

// UNAVAILABLE is what the page says when the server could not store a move
// (error code "unavailable"): the move was not made, and may be sent again.
const UNAVAILABLE = "The server could not save your move; try again.";

// ANSWER_MS is how long the page waits for the server to answer (a
// welcome after connecting, any frame after a move) before it takes the
// connection for lost and connects again.
const ANSWER_MS = 10000;

// sentence starts a server's message with a capital, as a line of its own.
function sentence(s: string): string { return s.charAt(0).toUpperCase() + s.slice(1); }

// refusalText is the banner for a refused move.
function refusalText(msg: { code?: string; message?: string; move?: string }): string {
  if (msg.code === "unavailable") return UNAVAILABLE;
  return "Refused — " + (msg.move ? prettyMove(msg.move) + ": " : "") + (msg.message || msg.code || "");
}

export function TablePage(p: { id: string }) {
  const id = p.id;
  const [held, setHeld] = useState(heldSeat(id));
  const [info, setInfo] = useState<TableInfo | null>(null);
  const [game, setGame] = useState("");
  const [state, setState] = useState<StateMsg | null>(null);
  const [seats, setSeats] = useState<SeatInfo[]>([]);
  const [conn, setConn] = useState<Conn>("connecting");
  const [refusal, setRefusal] = useState("");
  const [error, setError] = useState("");
  const [log, setLog] = useState<Entry[]>([]);
  const [chat, setChat] = useState<ChatMsg[]>([]);
  const [chatRefusal, setChatRefusal] = useState("");
  const [lastMoves, setLastMoves] = useState<Record<number, Event>>({});
  const [rematch, setRematch] = useState("");
  const [name, setName] = useState(myName());
  const [pending, setPending] = useState("");
  const [rulesOpen, setRulesOpen] = useState(false);
  const [copied, setCopied] = useState("");
  const [ending, setEnding] = useState<ReplayStep | null>(null);
  // dealEnd is the end of the deal the last move ended, held on screen
  // until the player goes on (dealend.tsx); the next deal is in state.
  const [dealEnd, setDealEnd] = useState<DealEnd | null>(null);
  const [rematchInfo, setRematchInfo] = useState<TableInfo | null>(null);
  useSettings(); // draw again when the settings change
  const wsRef = useRef<WebSocket | null>(null);
  const awaitRef = useRef<() => void>(() => {});
  const seatsRef = useRef<SeatInfo[]>([]);
  seatsRef.current = seats;
  const pageRef = useRef<HTMLDivElement>(null);
  const boardRef = useRef<HTMLDivElement>(null);
  const snap = useRef<Snapshot | null>(null);
  const moment = useRef<Moment>({ skip: true });
  const lastSent = useRef("");
  const chatN = useRef(0);
  const gameRef = useRef("");
  gameRef.current = game || info?.game || "";

  // The table's info (title, seats, clock), read once: the socket keeps
  // the seats and the status true. Once the match is over it is read again
  // every few seconds, for a rematch someone else starts.
  const ended = state?.status === "over";
  useEffect(() => {
    let stop = false;
    const load = () => api<TableInfo>("GET", "/api/tables/" + id).then((t) => {
      if (stop) return;
      setInfo(t); if (t.rematch) setRematch(t.rematch);
      if (!seatsRef.current.length) setSeats(t.seats);
    }).catch((e) => !stop && setError(String(e.message || e)));
    load();
    const timer = ended ? setInterval(load, 4000) : 0;
    return () => { stop = true; clearInterval(timer); };
  }, [id, ended]);

  // The WebSocket, reconnecting by itself with a growing pause.
  useEffect(() => {
    let closed = false, retry = 0, timer = 0, answer = 0;
    const me = held ? held.seat : -1;
    // lost drops ws and connects again after a growing pause. A socket
    // whose server stopped answering is dropped as one that closed.
    const lost = (ws: WebSocket) => {
      ws.onclose = ws.onmessage = ws.onopen = null;
      clearTimeout(answer); answer = 0;
      if (wsRef.current === ws) wsRef.current = null;
      if (ws.readyState !== WebSocket.CLOSED) ws.close();
      if (closed) return;
      setConn("reconnecting");
      setPending("");
      retry = Math.min(retry + 1, 6);
      clearTimeout(timer);
      timer = window.setTimeout(connect, Math.min(250 * 2 ** retry, 5000));
    };
    // await_ wants a frame from ws within ANSWER_MS.
    const await_ = (ws: WebSocket) => {
      if (!answer) answer = window.setTimeout(() => lost(ws), ANSWER_MS);
    };
    const connect = () => {
      setConn((c) => (c === "reconnecting" ? c : "connecting"));
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${id}`);
      wsRef.current = ws;
      awaitRef.current = () => { if (wsRef.current === ws) await_(ws); };
      await_(ws);
      ws.onopen = () => {
        ws.send(JSON.stringify(held ? { v: 1, type: "hello", token: held.token } : { v: 1, type: "hello", spectate: true }));
      };
      ws.onmessage = (e) => {
        clearTimeout(answer); answer = 0;
        const msg = JSON.parse(e.data);
        switch (msg.type) {
          case "welcome":
            retry = 0;
            if (msg.game) setGame(msg.game);
            setChat([]); // the server sends the kept messages again
            break;
          case "state": {
            const evs = (msg.events || []) as Event[];
            const moves = evs.filter((ev) => ev.kind === "move");
            const mv = moves[moves.length - 1];
            const newDeal = evs.some((ev) => ev.kind === "deal" || ev.kind === "start");
            const g = gameRef.current;
            // Where the cards are now, before the new state is drawn.
            snap.current = snapshot(boardRef.current);
            moment.current = mv
              ? { mover: mv.seat, move: mv.hidden ? undefined : mv.move, skip: newDeal, hints: mv.hidden ? [] : hints(g, mv.seat ?? -1, mv.move) }
              : { skip: true };
            setState(msg as StateMsg); setSeats(msg.seats);
            // A deal's end shows before the next deal (at the end of the
            // match, the final table and its summary show instead).
            if (msg.deal_end) setDealEnd(msg.result && msg.result.over ? null : msg.deal_end as DealEnd);
            setConn("open"); // the table as it is now: play may go on
            if (moves.length) setRefusal("");
            if (moves.length || newDeal) {
              setLastMoves((old) => {
                const out = newDeal ? {} : { ...old };
                if (!newDeal) for (const ev of moves) if (ev.seat !== undefined) out[ev.seat] = ev;
                return out;
              });
            }
            lastResult = msg.result as Result;
            lastView = msg.view;
            addEvents(evs, lastResult);
            seen(msg.seats);
            break;
          }
          case "log": {
            // The table's recent past, once on connecting (after the state
            // and the kept chat): the same past told again after a
            // reconnect, so it replaces the log; live events follow it.
            const evs = (msg.events || []) as Event[];
            setLog(lines(evs, lastResult).slice(-200));
            // Each seat's last move since the deal began, marked on the
            // board as a live one is.
            let last: Record<number, Event> = {};
            for (const ev of evs) {
              if (ev.kind === "deal" || ev.kind === "start") last = {};
              else if (ev.kind === "move" && ev.seat !== undefined) last[ev.seat] = ev;
            }
            setLastMoves(last);
            break;
          }
          case "seats": setSeats(msg.seats); addEvents(msg.events, null); seen(msg.seats); break;
          case "rematch": setRematch(msg.rematch); break;
          case "chat": setChat((c) => [...c, msg as ChatMsg].slice(-100)); if (msg.seat === me && !msg.old) setChatRefusal(""); break;
          case "error":
            if (msg.code === "bad_token") { holdSeat(id, null); setHeld(null); }
            if (CHAT_CODES.has(msg.code) || (typeof msg.id === "string" && msg.id.startsWith("chat")) || (msg.code === "spectator" && !msg.id && lastSent.current === "chat")) {
              setChatRefusal(sentence(msg.message || msg.code));
              break;
            }
            setRefusal(refusalText(msg));
            break;
        }
      };
      ws.onclose = () => lost(ws);
    };
    // "back" is told only of a player seen here before: the first
    // connection after taking a seat is no return.
    const away = new Set<number>(), here = new Set<number>();
    const seen = (ss: SeatInfo[]) => { for (const x of ss || []) if (x.state === "here") here.add(x.seat); };
    // lastResult is the match's as the last state told it (for the line
    // that tells the end of the match).
    let lastResult: Result | null = null;
    let lastView: any = null;
    const addEvents = (evs: Event[], result: Result | null) => {
      if (!evs || !evs.length) return;
      const told = lines(evs, result);
      if (told.length) setLog((l) => [...l, ...told].slice(-200));
    };
    // lines tells events as log lines: live ones and those of the recent
    // past alike.
    const lines = (evs: Event[], result: Result | null): Entry[] => {
      const told = evs.filter((ev) => {
        if (ev.kind === "over") return false;
        if (ev.seat === undefined) return true;
        if (ev.kind === "away" || ev.kind === "standin") away.add(ev.seat);
        if (ev.kind === "join" || ev.kind === "leave") here.delete(ev.seat);
        if (ev.kind === "back") return away.delete(ev.seat) || here.has(ev.seat); // a first connection is no return
        return true;
      });
      const out = entries(told);
      if (result && evs.some((ev) => ev.kind === "over")) {
        // What decides the match where not the totals (1862's Hits).
        const fin = RENDERERS[gameRef.current]?.scores?.(lastView, "")?.final;
        out.push(entry("over", overText(result, me, fin?.values)));
      }
      return out;
    };
    connect();
    return () => { closed = true; clearTimeout(timer); clearTimeout(answer); wsRef.current?.close(1000, "leaving the page"); stop(); };
  }, [id, held && held.token]);

  const sendFrame = (frame: object): boolean => {
    const ws = wsRef.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify({ v: 1, ...frame }));
    return true;
  };
  const send = (move: string) => {
    setRefusal(""); setPending("");
    if (conn !== "open") return; // the board is not playable then
    lastSent.current = "move";
    if (!sendFrame({ type: "move", move })) { setRefusal("Not connected: the move was not sent."); return; }
    awaitRef.current();
  };
  // act is what the board calls: with move confirmation on, a first click
  // (or Enter) picks the move and a second one, or Confirm, sends it.
  const act = (move: string, sure?: boolean) => {
    if (settings().confirm && !sure && pending !== move) { setPending(move); return; }
    send(move);
  };
  const sendChat = (text: string): boolean => {
    setChatRefusal("");
    lastSent.current = "chat";
    if (!sendFrame({ type: "chat", text, id: "chat" + ++chatN.current })) { setChatRefusal("Not connected: the message was not sent."); return false; }
    return true;
  };

  const join = async (seat: number) => {
    setError("");
    try {
      const n = name.trim();
      setMyName(n);
      const j = await api<Joined>("POST", `/api/tables/${id}/join`, { seat, name: n || undefined });
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

  // A picked move waits for its confirmation as long as it stays legal.
  useEffect(() => { if (pending && !(conn === "open" && (state?.legal || []).includes(pending))) setPending(""); }, [state, conn]);

  const gameId = gameRef.current;
  const mySeat = held ? held.seat : -1;

  // While the connection is down the last state is out of date: nobody's
  // turn is told, and nothing may be played, until a fresh state comes.
  const live = conn === "open";
  const legal = live ? state?.legal || [] : [];
  const toAct = live && state?.status === "playing" ? state.to_act : [];

  // After each new state: the cards travel, and each seat's last move is
  // marked where it happened.
  useLayoutEffect(() => {
    const root = boardRef.current;
    const board = root?.querySelector<HTMLElement>(".board") || null;
    play(root, snap.current, moment.current);
    snap.current = null;
    if (!board) return;
    board.querySelectorAll<HTMLElement>("[data-last-seat]").forEach((el) => { el.removeAttribute("data-last-seat"); el.style.removeProperty("--last"); });
    for (const [s, ev] of Object.entries(lastMoves)) {
      for (const el of targets(board, gameId, Number(s), ev.hidden ? undefined : ev.move)) {
        el.dataset.lastSeat = s;
        el.style.setProperty("--last", colours[Number(s)] || seatColour(Number(s)));
      }
    }
    board.querySelectorAll(".pending").forEach((el) => el.classList.remove("pending"));
    if (pending) board.querySelectorAll(`[data-move="${CSS.escape(pending)}"]`).forEach((el) => el.classList.add("pending"));
  });

  // Legal moves the board offers no place for (there should be none) get
  // a button under it, so every legal move can be made without notation.
  const [uncovered, setUncovered] = useState<string[]>([]);
  useLayoutEffect(() => {
    const el = boardRef.current;
    let missing: string[] = [];
    if (el && legal.length && !dealEnd) { // a deal's end offers no moves
      const shown = new Set(Array.from(el.querySelectorAll<HTMLElement>(".board [data-move]")).map((x) => x.dataset.move));
      const multi = Array.from(el.querySelectorAll<HTMLElement>(".board [data-confirm]")).map((x) => (x.dataset.confirm || "").toLowerCase() + " ");
      missing = legal.filter((m) => !shown.has(m) && !multi.some((pre) => m.startsWith(pre)));
    }
    if (missing.join("|") !== uncovered.join("|")) setUncovered(missing);
  });

  useBoardKeys(pageRef);
  // The header's Rules link opens the rules beside the table.
  useEffect(() => {
    const open = () => setRulesOpen(true);
    window.addEventListener(RULES_EVENT, open);
    return () => window.removeEventListener(RULES_EVENT, open);
  }, []);

  const gameInfo = useGameInfo(gameId);
  const renderer = RENDERERS[gameId] as Renderer | undefined;
  const Board = renderer && renderer.Board;
  const players = state?.view?.players || info?.seats.length || 0;
  const names = Array.from({ length: players }, (_, i) => seatName(seats, i) + (i === mySeat ? " (you)" : ""));
  const short = Array.from({ length: players }, (_, i) => shortName(seats, i));
  const plain = short.map((n, i) => n + (i === mySeat ? " (you)" : "")); // for narrow tables: no bot levels
  const sides = sidesOf(gameInfo, players);
  const colours = Array.from({ length: players }, (_, i) => seatColour(i, sides));
  const status = state?.status || info?.status || "";
  const invite = location.origin + "/#/t/" + id;
  const openSeats = seats.filter((s) => s.state === "open").map((s) => s.seat);
  const mine = live && !!state && state.status === "playing" && mySeat >= 0 && state.to_act.includes(mySeat);
  const title = info?.title || "";
  useTurnSignals(mine, conn === "reconnecting" ? "Reconnecting…" + (title ? " " + title : "") : title);
  // With the keys, the focus comes back to the board as each turn comes.
  useEffect(() => { if (mine) refocus(boardRef.current); }, [mine, state?.seq]);
  useEffect(() => {
    if (!pending) return;
    const key = (e: KeyboardEvent) => { if (e.key === "Escape") setPending(""); };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, [pending]);
  const word = dealWord(gameInfo);
  const lowWins = !!gameInfo && gameInfo.low_wins;
  const over = state?.result?.over ? state.result : null;

  // At the end of the match every card may be seen: the finished game's
  // last step tells where each card lies (every hand, every pile).
  useEffect(() => {
    if (!over || !state) return;
    let stop = false;
    api<ReplayStep>("GET", `/api/tables/${id}/replay/${state.seq}`).then((st) => !stop && setEnding(st)).catch(() => {});
    return () => { stop = true; };
  }, [!!over, state?.seq]);

  // A rematch someone else started: who waits there, and whether this
  // page holds a seat of it already.
  useEffect(() => {
    if (!rematch) return;
    let stop = false;
    const load = () => api<TableInfo>("GET", "/api/tables/" + rematch).then((t) => !stop && setRematchInfo(t)).catch(() => {});
    load();
    const timer = setInterval(load, 4000);
    return () => { stop = true; clearInterval(timer); };
  }, [rematch]);
  const inRematch = !!rematch && !!heldSeat(rematch);
  const waiting = rematchInfo ? rematchInfo.seats.filter((x) => x.kind !== "bot" && x.state !== "open" && x.seat !== mySeat).map((x) => shortName(rematchInfo.seats, x.seat)) : [];

  const boardProps: BoardProps | null = state && state.view ? {
    view: state.view, seat: mySeat, players, sides, legal, act, names, toAct,
    ...(over && ending ? { hands: ending.views.map((v) => (v && v.hand) || null), places: ending.places } : {}),
  } : null;
  const prompt = mine && boardProps ? viewPrompt(state!.view) || (renderer?.prompt ? renderer.prompt(boardProps) : "") : "";
  const words = scoreWords(renderer, state?.view, word, lowWins);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invite);
      setCopied("Copied");
    } catch {
      // Without the clipboard (an insecure page, a refusal): the link is
      // selected for the player to copy.
      const el = pageRef.current?.querySelector<HTMLInputElement>(".invite input");
      el?.focus(); el?.select();
      setCopied(document.execCommand && document.execCommand("copy") ? "Copied" : "Press Ctrl+C to copy");
    }
    setTimeout(() => setCopied(""), 2500);
  };

  return (
    <div class="table-page" ref={pageRef} data-game={gameId} data-status={status} data-seq={state ? state.seq : -1} data-my-seat={mySeat}>
      <div class="table-head">
        <h2>{info?.title || "Table"} <span class="muted small table-id">table {id}</span></h2>
        <span class={"conn " + conn} data-conn={conn} role="status">{conn === "open" ? "connected" : conn === "connecting" ? "connecting…" : "reconnecting…"}</span>
      </div>
      <div class={"table-layout" + (rulesOpen ? " with-rules" : "")}>
        <div class="table-main">
          <SeatBar seats={seats} names={names} short={short} toAct={toAct} result={state?.result} colours={colours} totalWord={words.total || "cards held"}
            clocks={live ? state?.clocks || [] : []} clock={info?.clock || 0} last={lastMoves} me={mySeat}
            ended={dealEnd && !over ? dealEnd : null} scoresWord={words.deal || "Points"} />
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
          <TurnLine state={state} mySeat={mySeat} names={names} short={short} reconnecting={conn === "reconnecting"} prompt={prompt}
            held={dealEnd && !over ? { word, deal: dealEnd.deal } : null} />
          <div class={"board-wrap" + (live ? "" : " offline")} ref={boardRef} inert={!live} data-live={live ? "1" : "0"}>
            {refusal ? <div class="refusal" role="alert"><span data-refusal>{refusal}</span><button type="button" class="refusal-close" aria-label="dismiss" onClick={() => setRefusal("")}>✕</button></div> : null}
            {pending ? (
              <div class="pending-bar" role="alert" data-pending={pending}>
                <span>Play <b>{prettyMove(pending)}</b>?</span>
                <button type="button" class="primary" data-confirm-move onClick={() => send(pending)}>Confirm</button>
                <button type="button" data-cancel-move onClick={() => setPending("")}>Cancel</button>
              </div>
            ) : null}
            {dealEnd && renderer && boardProps && !over ? (
              <DealEndPanel end={dealEnd} gameId={gameId} word={word} renderer={renderer} board={boardProps} short={short} me={mySeat}
                scoresWord={words.deal || "Points"} totalWord={words.total || "Total"} goOn={() => { setDealEnd(null); refocus(boardRef.current); }} />
            ) : Board && boardProps ? (
              <>
                <Board {...boardProps} />
                {uncovered.length ? (
                  <div class="uncovered">Also: {uncovered.map((m) => <button type="button" data-extra-move={m} onClick={() => send(m)}>{prettyMove(m)}</button>)}</div>
                ) : null}
              </>
            ) : status === "waiting" ? (
              <p class="waiting">Waiting for players: {openSeats.length} seat{openSeats.length === 1 ? "" : "s"} open. Invite someone with the link below.</p>
            ) : <p class="muted">Loading…</p>}
          </div>
          {over && rematch && held && !inRematch ? (
            <div class="rematch-invite" role="alert" data-rematch-invite>
              <span>{waiting.length ? `${waiting.join(" and ")} started a rematch and ${waiting.length === 1 ? "is" : "are"} waiting for you.` : "A rematch has started, and your seat is kept for you."}</span>
              <button type="button" class="primary" data-join-rematch onClick={askRematch}>Take your seat in the rematch</button>
            </div>
          ) : null}
          {over ? (
            <Summary result={over} names={names} word={word} lowWins={lowWins} me={mySeat} colours={colours} final={words.final} unit={words.unit}
              order={renderer?.standings ? renderer.standings(state?.view, over) : undefined}
              rematch={held && !rematch ? askRematch : null} rematchLink={rematch && (inRematch || !held) ? "#/t/" + rematch : ""} replay={"#/replay/" + id}>
              <Scores result={over} names={plain} word={word} lowWins={lowWins} words={words} />
            </Summary>
          ) : rematch ? <p><a href={"#/t/" + rematch}>A rematch has started</a></p> : null}
          <div class="after-board">
            {state && !over ? <Scores result={state.result} names={plain} word={word} lowWins={lowWins} words={words} /> : null}
            {state && mySeat >= 0 ? <Fallback legal={legal} act={send} disabled={!live} /> : null}
            <div class="table-foot">
              <span class="invite">
                <label>Invite link <input readOnly value={invite} onFocus={(e) => (e.target as HTMLInputElement).select()} /></label>
                <button type="button" data-copy-invite onClick={copy}>{copied || "Copy"}</button>
              </span>
              {held && status !== "over" ? <button type="button" onClick={leave}>Leave the seat</button> : null}
              <a href="#/">Back to the lobby</a>
              {gameId ? <a href={"#/rules/" + gameId} data-open-rules onClick={(e) => { e.preventDefault(); setRulesOpen(!rulesOpen); }}>{rulesOpen ? "Hide the rules" : "Rules"}</a> : null}
            </div>
          </div>
        </div>
        <aside class="table-side">
          {rulesOpen && gameId ? <RulesPanel game={gameId} close={() => setRulesOpen(false)} /> : null}
          <LiveLog entries={log} names={short} me={mySeat} deal={word} colours={colours} scores={words.deal || "Points"} totals={words.final ? words.final.label : words.total || words.rows} over={over && !log.some((e) => e.kind === "over") ? overText(over, mySeat, words.final?.values) : undefined} />
          <Chat messages={chat} canWrite={mySeat >= 0} send={sendChat} refusal={chatRefusal} me={mySeat} />
        </aside>
      </div>
    </div>
  );
}

// viewPrompt is what the game's view tells the viewer to do now, when it
// says (its "prompt" field).
function viewPrompt(view: any): string {
  return view && typeof view.prompt === "string" ? view.prompt : "";
}

// scoreWords says what the score table counts: the game's own words, or
// points by deal and their total.
export function scoreWords(r: Renderer | undefined, view: any, word: string, lowWins: boolean): ScoreWords {
  const w = r?.scores ? r.scores(view, word) : { rows: "Points by " + word.toLowerCase(), total: "Total" };
  return lowWins && !w.note && w.total ? { ...w, note: "Lowest total wins." } : w;
}

// overText tells the end of a match as a log template.
function overText(r: Result, me: number, values?: number[]): string {
  const totals = (values && values.length === r.totals.length ? values : r.totals).map((t, i) => `{${i}} ${t}`).join(", ");
  let who: string;
  if (!r.winners.length) who = "Nobody won.";
  else if (r.winners.length === 1) who = r.winners[0] === me ? "You win!" : `{${r.winners[0]}} wins.`;
  else who = r.winners.map((w) => `{${w}}`).join(" and ") + " share the win.";
  return `The match is over. ${who} {totals}: ${totals}.`;
}

// lastWords is a seat's last move in a few words, the seat's own name left
// out: "drew from the stock".
function lastWords(ev: Event, seat: number): string {
  if (ev.text) return ev.text.replace(new RegExp("^\\{" + seat + "\\}\\s*"), "").replace(/\.$/, "");
  if (ev.hidden || !ev.move) return "moved";
  return ev.move.split(" ").map((w) => (/^(10|[2-9AJQK])[SHDC]$|^JK$/.test(w) ? "[" + w + "]" : w)).join(" ");
}

function SeatBar(p: {
  seats: SeatInfo[]; names: string[]; short: string[]; toAct: number[]; result?: Result; colours: string[]; totalWord: string;
  clocks: { seat: number; remaining_ms: number }[]; clock: number; last: Record<number, Event>; me: number;
  // ended is the deal whose end the player is looking at, if any: each
  // seat then shows its points in it, not its first move in the next.
  ended: DealEnd | null; scoresWord: string;
}) {
  // Turn clocks count down between states.
  const [since, setSince] = useState(Date.now());
  const [, tick] = useState(0);
  useEffect(() => setSince(Date.now()), [p.clocks]);
  useEffect(() => {
    if (!p.clocks.length) return;
    const t = setInterval(() => tick((x) => x + 1), 250);
    return () => clearInterval(t);
  }, [p.clocks]);
  const left = (ms: number) => Math.max(0, ms - (Date.now() - since));
  return (
    <ul class="seat-bar" aria-label="the seats">
      {p.names.map((n, i) => {
        const s = p.seats[i];
        const st = s ? s.state : "";
        const clock = p.clocks.find((c) => c.seat === i);
        const acting = p.toAct.includes(i);
        const ms = clock ? left(clock.remaining_ms) : 0;
        const frac = clock ? Math.min(1, ms / Math.max(1, (p.clock || 0) * 1000 || clock.remaining_ms)) : 0;
        const ev = p.last[i];
        const away = st === "away" ? "away" : st === "standin" ? "away — a stand-in plays" : st === "open" ? "open seat" : "";
        return (
          <li class={"seat-chip " + st + (acting ? " acting" : "") + (i === p.me ? " me" : "")} data-seat={i} data-state={st}
            style={{ "--seat": p.colours[i] } as any} aria-label={n + (acting ? ", to act" : "") + (away ? ", " + away : "")}>
            <span class="avatar" aria-hidden="true">
              {(p.short[i] || "?").slice(0, 1).toUpperCase()}
              {clock ? (
                <svg class="ring" viewBox="0 0 36 36" data-clock-ring>
                  <circle cx="18" cy="18" r="16" class="ring-bg" />
                  <circle cx="18" cy="18" r="16" class={"ring-fg" + (ms < 10000 ? " low" : "")} pathLength={100}
                    stroke-dasharray="100" stroke-dashoffset={String(100 - frac * 100)} />
                </svg>
              ) : null}
              {st === "here" || st === "away" || st === "standin" ? <span class={"presence " + st} /> : null}
            </span>
            <span class="seat-text">
              <span class="seat-name">
                <b>{p.short[i]}</b>{i === p.me ? <span class="level">you</span> : s && s.level ? <span class="level">{s.level}</span> : null}
                {away ? <span class="state" data-away>{away}</span> : null}
              </span>
              {p.ended ? <span class="last" data-deal-end-seat={i}>{p.scoresWord}: {p.ended.scores[i]}</span>
                : ev ? <span class="last" data-last-words={i}><Words text={lastWords(ev, i)} names={p.short} me={p.me} colours={p.colours} /></span>
                : acting ? <span class="last muted">to act…</span> : null}
            </span>
            {clock ? <span class="clock" title="time left to move" data-clock>{Math.ceil(ms / 1000)}s</span> : null}
            {p.result ? <span class="total" title={p.totalWord.toLowerCase()} aria-label={p.totalWord.toLowerCase() + " " + p.result.totals[i]}>{p.result.totals[i]}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

// TurnLine says whose turn it is and, on the viewer's, what to do. While
// a deal's end is held on screen (held: what the game calls a deal, and
// the deal that ended), the next deal has begun at the table: the line
// says so, and that the viewer's turn in it waits for them to go on,
// rather than prompting a move on a board the deal's end covers.
function TurnLine(p: { state: StateMsg | null; mySeat: number; names: string[]; short: string[]; reconnecting: boolean; prompt: string; held: { word: string; deal: number } | null }) {
  const s = p.state;
  if (!s) return null;
  if (p.reconnecting && s.status !== "over") {
    return (
      <p class="turn reconnecting" data-turn="reconnecting">
        The connection to the table was lost: reconnecting…{p.mySeat >= 0 ? " You can play again once it is back." : ""}
      </p>
    );
  }
  if (s.status === "waiting") return <p class="turn" data-turn="waiting">Waiting for every seat to be taken.</p>;
  if (s.status === "over") return null;
  const mine = p.mySeat >= 0 && s.to_act.includes(p.mySeat);
  const others = s.to_act.filter((x) => x !== p.mySeat).map((x) => p.names[x]);
  const h = p.held;
  const lead = h ? (
    mine ? <><b>{h.word} {h.deal + 1} has begun, and it is your turn.</b> Press Next {h.word.toLowerCase()} when you are done with {h.word.toLowerCase()} {h.deal}.</>
      : `${h.word} ${h.deal + 1} has begun. `
  ) : (
    <>
      {mine ? <b>Your turn.</b> : ""}
      {mine && p.prompt ? <span class="turn-prompt" data-prompt> <Words text={p.prompt.charAt(0).toUpperCase() + p.prompt.slice(1) + (/[.!?:]$/.test(p.prompt) ? "" : ".")} names={p.short} me={p.mySeat} /></span> : null}
    </>
  );
  return (
    <p class={"turn" + (mine ? " mine" : "")} data-turn={mine ? "mine" : "other"} data-turn-held={h ? h.deal : undefined} aria-live="polite">
      <span>
        {lead}
        {others.length ? (mine ? " Also to act: " : "To act: ") + others.join(", ") + "." : ""}
      </span>
    </p>
  );
}

// SCORE_ROWS is how many deals a score table shows before it folds the
// earlier ones away.
const SCORE_ROWS = 10;

// Scores is the score table: a row for each deal, labelled with what it
// counts, and the match's totals (or what the game keeps instead).
export function Scores(p: { result: Result; names: string[]; word: string; lowWins?: boolean; words?: ScoreWords }) {
  const r = p.result;
  if (!r) return null;
  const w = p.words || { rows: "Points by " + p.word.toLowerCase(), total: "Total", note: p.lowWins ? "Lowest total wins." : undefined };
  const rows = r.deal_scores || [];
  const [all, setAll] = useState(false);
  if (!rows.length && !w.total) return null; // nothing counted yet
  // A long match shows its latest deals, the rest a click away.
  const first = all || rows.length <= SCORE_ROWS ? 0 : rows.length - SCORE_ROWS + 2;
  return (
    <div class="scores" data-scores>
      <table>
        <caption class="small">{w.rows}</caption>
        <thead><tr><th scope="col">{p.word}</th>{p.names.map((n) => <th scope="col">{n}</th>)}</tr></thead>
        <tbody>
          {first ? (
            <tr class="more-rows"><td colSpan={p.names.length + 1}>
              <button type="button" class="link" data-all-rows onClick={() => setAll(true)}>Show {p.word.toLowerCase()}s 1 to {first} as well</button>
            </td></tr>
          ) : null}
          {rows.map((row, i) => i < first ? null : <tr data-deal-row={i + 1}><th scope="row">{p.word} {i + 1}</th>{row.map((x) => <td>{x}</td>)}</tr>)}
          {w.total ? <tr class="total-row" data-total-row><th scope="row">{w.total}</th>{r.totals.map((x, i) => <td class={r.winners.includes(i) && !w.final ? "winner" : ""}>{x}</td>)}</tr> : null}
          {(w.extra || []).map((e) => <tr class="total-row" data-extra-row={e.label}><th scope="row">{e.label}</th>{e.values.map((x, i) => <td class={r.winners.includes(i) && w.final ? "winner" : ""}>{x}</td>)}</tr>)}
        </tbody>
      </table>
      {w.note ? <p class="muted small">{w.note}</p> : null}
    </div>
  );
}

// Fallback offers every legal move as a button with its notation, and a
// box to type one.
function Fallback(p: { legal: string[]; act: (m: string) => void; disabled: boolean }) {
  const [text, setText] = useState("");
  return (
    <details class="fallback">
      <summary>Moves in notation</summary>
      <div class="legal-list">{p.legal.map((m) => <button type="button" data-notation={m} onClick={() => p.act(m)}>{m}</button>)}</div>
      <form onSubmit={(e) => { e.preventDefault(); if (!p.disabled && text.trim()) { p.act(text.trim()); setText(""); } }}>
        <fieldset disabled={p.disabled}>
          <input name="move" aria-label="a move in notation" placeholder="type a move, e.g. draw stock" value={text}
            onInput={(e) => setText((e.target as HTMLInputElement).value)} />
          <button type="submit">Send</button>
        </fieldset>
      </form>
    </details>
  );
}
