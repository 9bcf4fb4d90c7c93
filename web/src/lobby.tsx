// The lobby: the games, a new table, open and running tables, finished games.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, games as loadGames, GameInfo, OptionInfo, TableInfo, LobbyTables, Joined, holdSeat, myName, setMyName, seatName } from "./api";
import { go } from "./router";

// BOT_LEVELS is the level each bot is shown with at a table.
const BOT_LEVELS: Record<string, string> = { random: "beginner", heuristic: "casual", easy: "easy", medium: "medium", hard: "hard" };

export function Lobby() {
  const [games, setGames] = useState<GameInfo[]>([]);
  const [bots, setBots] = useState<string[]>([]);
  const [open, setOpen] = useState<TableInfo[]>([]);
  const [live, setLive] = useState<TableInfo[]>([]);
  const [over, setOver] = useState<TableInfo[]>([]);
  const [error, setError] = useState("");
  const [gameId, setGameId] = useState("golf");
  const [asked, setAsked] = useState(0); // "New table" clicks: each brings the form into view

  useEffect(() => {
    loadGames().then(setGames).catch((e) => setError(e.message));
    api<string[]>("GET", "/api/bots").then(setBots).catch((e) => setError(e.message));
    // The server pushes the three lists as they change (GET
    // /api/lobby/events); a browser without EventSource polls them.
    let stop = false;
    const show = (l: LobbyTables) => { setOpen(l.open); setLive(l.live); setOver(l.over.slice(0, 20)); };
    if (typeof EventSource !== "undefined") {
      const es = new EventSource("/api/lobby/events");
      es.addEventListener("tables", (ev) => { if (!stop) show(JSON.parse((ev as MessageEvent).data)); });
      return () => { stop = true; es.close(); };
    }
    const refresh = () => {
      api<TableInfo[]>("GET", "/api/tables?status=open").then((t) => !stop && setOpen(t)).catch(() => {});
      api<TableInfo[]>("GET", "/api/tables?status=live").then((t) => !stop && setLive(t)).catch(() => {});
      api<TableInfo[]>("GET", "/api/tables?status=over").then((t) => !stop && setOver(t.slice(0, 20))).catch(() => {});
    };
    refresh();
    const timer = setInterval(refresh, 3000);
    return () => { stop = true; clearInterval(timer); };
  }, []);

  const g = games.find((x) => x.id === gameId);
  return (
    <div class="lobby">
      <section class="games">
        <h2>The games</h2>
        <div class="game-list">
          {games.map((x) => (
            <article class={"game-card" + (x.id === gameId ? " chosen" : "")} data-game={x.id}>
              <h3>{x.name}</h3>
              <p>{x.summary}</p>
              <p class="muted small">{x.min_players === x.max_players ? x.min_players : x.min_players + "–" + x.max_players} players</p>
              <button type="button" data-new-table={x.id} onClick={() => { setGameId(x.id); setAsked((n) => n + 1); }}>New table</button> <a href={"#/rules/" + x.id}>Rules</a>
            </article>
          ))}
        </div>
      </section>
      {g ? <CreateForm game={g} bots={bots} onError={setError} asked={asked} /> : null}
      {error ? <p class="error" role="alert">{error}</p> : null}
      <section>
        <h2>Open tables</h2>
        <TableList tables={open} games={games} kind="open" />
      </section>
      <section>
        <h2>Being played</h2>
        <TableList tables={live.filter((t) => !t.open.length)} games={games} kind="live" />
      </section>
      <section>
        <h2>Finished</h2>
        <TableList tables={over} games={games} kind="over" />
      </section>
    </div>
  );
}

function TableList(p: { tables: TableInfo[]; games: GameInfo[]; kind: string }) {
  if (!p.tables.length) return <p class="muted">None.</p>;
  return (
    <ul class="tables" data-list={p.kind}>
      {p.tables.map((t) => (
        <li data-table={t.id}>
          <b>{t.title}</b> <span class="muted small">{t.seats.map((_, i) => seatName(t.seats, i)).join(", ")} · {t.moves} {t.moves === 1 ? "move" : "moves"}</span>{" "}
          {p.kind === "over" ? <a href={"#/replay/" + t.id}>Replay</a> : <a href={"#/t/" + t.id}>{p.kind === "open" ? "Join or watch" : "Watch"}</a>}
        </li>
      ))}
    </ul>
  );
}

// EDITION_ONLY and EDITION_PLAYERS read an option's doc for the editions
// it belongs to: "(1860 edition only; ...)", "(the 1862 edition takes 2)".
const EDITION_ONLY = /\b(\d{4}) edition only\b/;
const EDITION_PLAYERS = /\bthe (\d{4}) edition takes (\d+)\b/;

// applies reports whether option o is one the chosen edition takes.
function applies(o: OptionInfo, edition: string | undefined): boolean {
  const m = o.doc.match(EDITION_ONLY);
  return !m || !edition || m[1] === edition;
}

function CreateForm(p: { game: GameInfo; bots: string[]; onError: (e: string) => void; asked: number }) {
  const g = p.game;
  const ref = useRef<HTMLElement>(null);
  const [values, setValues] = useState<Record<string, any>>({});
  const editionOpt = g.options.find((o) => o.name === "edition");
  const edition: string | undefined = editionOpt ? String(values.edition ?? editionOpt.default) : undefined;
  // Only the options the chosen edition takes are shown and sent.
  const opts = g.options.filter((o) => o.name !== "dealer" && applies(o, edition));
  const fixed = g.options.find((o) => o.name === "players")?.doc.match(EDITION_PLAYERS);
  const fixedPlayers = fixed && fixed[1] === edition ? Number(fixed[2]) : 0;
  // "New table" brings the form into view (on a phone it lies below the
  // games) with the focus on its first field.
  useEffect(() => {
    if (!p.asked || !ref.current) return;
    ref.current.scrollIntoView({ block: "start", behavior: "auto" });
    ref.current.querySelector<HTMLElement>("select, input")?.focus({ preventScroll: true });
  }, [p.asked, g.id]);
  const [seats, setSeats] = useState<string[]>([]);
  const [clock, setClock] = useState(0);
  const [name, setName] = useState(myName());
  const [busy, setBusy] = useState(false);
  useEffect(() => { setValues({}); setSeats([]); }, [g.id]);
  const playersOpt = g.options.find((o) => o.name === "players");
  const players = fixedPlayers || Number(values.players ?? playersOpt?.default ?? g.min_players);
  const bot0 = p.bots.includes("heuristic") ? "heuristic" : p.bots[0] || "random";
  const seatKinds = Array.from({ length: players }, (_, i) => seats[i] ?? (i === 0 ? "open" : bot0));

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true); p.onError("");
    try {
      setMyName(name);
      const options: Record<string, any> = {};
      for (const o of opts) if (values[o.name] !== undefined && values[o.name] !== "") options[o.name] = o.choices ? values[o.name] : Number(values[o.name]);
      options.players = players;
      const t = await api<TableInfo>("POST", "/api/tables", { game: g.id, options, seats: seatKinds, clock: Number(clock) || 0 });
      if (t.open.length) {
        const j = await api<Joined>("POST", `/api/tables/${t.id}/join`, { seat: t.open[0], name: name || undefined });
        holdSeat(t.id, { token: j.token, seat: j.seat });
      }
      go("/t/" + t.id);
    } catch (err: any) { p.onError(err.message); }
    setBusy(false);
  };

  return (
    <section class="create" ref={ref}>
      <h2>New table: {g.name}</h2>
      <form onSubmit={submit} data-create={g.id}>
        {opts.filter((o) => !(o.name === "players" && fixedPlayers)).map((o) => (
          <label>
            <span>{o.name.charAt(0).toUpperCase() + o.name.slice(1).replace(/_/g, " ")} <span class="muted small opt-doc">{o.doc}</span></span>
            {o.choices ? (
              <select name={o.name} value={values[o.name] ?? o.default} onChange={(e) => setValues({ ...values, [o.name]: (e.target as HTMLSelectElement).value })}>
                {o.choices.map((c) => <option value={c}>{c}</option>)}
              </select>
            ) : (
              <input name={o.name} type="number" min={o.min} max={o.max} value={values[o.name] ?? o.default ?? ""}
                onInput={(e) => setValues({ ...values, [o.name]: (e.target as HTMLInputElement).value })} />
            )}
          </label>
        ))}
        <fieldset>
          <legend>Seats</legend>
          {seatKinds.map((k, i) => (
            <label>
              <span>Seat {i + 1}</span>
              <select name={"seat" + i} value={k} onChange={(e) => { const s = [...seatKinds]; s[i] = (e.target as HTMLSelectElement).value; setSeats(s); }}>
                <option value="open">open (a person)</option>
                {p.bots.map((b) => <option value={b}>{BOT_LEVELS[b] && BOT_LEVELS[b] !== b ? `bot: ${BOT_LEVELS[b]} (${b})` : `bot: ${b}`}</option>)}
              </select>
            </label>
          ))}
        </fieldset>
        <label><span>Clock <span class="muted small">(seconds per move, 0: none)</span></span>
          <input name="clock" type="number" min={0} value={clock} onInput={(e) => setClock(Number((e.target as HTMLInputElement).value))} /></label>
        <label><span>Your name</span>
          <input name="name" maxLength={32} placeholder="Player" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
        <button type="submit" class="primary" disabled={busy}>Create the table{seatKinds.includes("open") ? " and sit down" : " and watch"}</button>
      </form>
    </section>
  );
}
