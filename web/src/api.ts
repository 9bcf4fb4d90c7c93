// The lobby API and table protocol (version 1) of docs/protocol.md.

export type Card = string | null;

export interface OptionInfo {
  name: string; doc: string; default: any; min?: number; max?: number; choices?: string[];
}
export interface GameInfo {
  id: string; name: string; summary: string; min_players: number; max_players: number;
  deal: string; deals: string;    // what the game calls a deal: "hole", "holes"
  low_wins: boolean;              // the lowest total wins
  one_deal: boolean;              // a match is one deal
  sides: Record<string, number[]>; // by number of players: each seat's side, where seats play in partnerships
  options: OptionInfo[];
  rules?: string;                 // left out of GET /api/games?rules=0
}
export interface SeatInfo {
  seat: number; kind: string; name?: string; bot?: string; state: string;
  level?: string; // a bot's level: beginner, casual, easy, medium, hard
}
export interface Result {
  deal: number; deal_scores: number[][]; totals: number[]; over: boolean; winners: number[];
}
export interface TableInfo {
  id: string; game: string; title: string; options: Record<string, any>; status: string;
  seats: SeatInfo[]; open: number[]; moves: number; spectators: number;
  result?: Result;                // once over
  rematch_of?: string; rematch?: string; created_at: string;
  clock: number;                  // seconds per decision; 0: no clock
  grace: number;                  // seconds a dropped player's seat waits for them
  standin: string;                // the stand-in bot
  think: number;                  // milliseconds a search bot thinks per move; 0: its level's own
}

// LobbyTables is a tables event of GET /api/lobby/events: the lists GET
// /api/tables answers, by status.
export interface LobbyTables { open: TableInfo[]; live: TableInfo[]; over: TableInfo[] }
export interface Joined { table: string; seat: number; token: string }
export interface Event {
  kind: string; n?: number; seat: number; move?: string; by?: string; hidden?: boolean; at: string;
  text?: string;     // a move in the game's words: a template with {N} seats and [C] cards
  deal?: number;     // kind "deal": the deal that ended and each seat's score for it
  scores?: number[];
}
// ChatMsg is a table chat message as the server relays it.
export interface ChatMsg { v: number; type: "chat"; seat: number; name: string; text: string; at: string; old?: boolean }
// Clock is a turn clock running.
export interface Clock { seat: number; remaining_ms: number }
export interface StateMsg {
  v: number; type: "state"; table: string; seat: number; seq: number; status: string; to_act: number[];
  legal: string[]; view: any; result: Result; seats: SeatInfo[];
  clocks: Clock[]; events: Event[];
  deal_end?: DealEnd;  // after a move that ended a deal: that deal's end as this seat sees it
}
// DealEnd is a deal's end as one seat sees it: the deal's last position
// (view, shaped as StateMsg.view, every card the rules turn up face up)
// and what it scored; the state's own view already shows the next deal.
export interface DealEnd { deal: number; scores: number[]; totals: number[]; view: any }
export interface ReplayMove {
  n: number; seat: number; move: string; by?: string; at: string;
  text?: string; // the move in the game's words, a template as Event.text
}
export interface Replay {
  id: string; game: string; title: string; options: Record<string, any>; seed: string; players: number;
  seats: SeatInfo[]; moves: ReplayMove[]; result: Result;
}
export interface PlaceInfo { name: string; cards: string[]; seats: number[]; public: boolean }
export interface ReplayStep {
  table: string; k: number; moves: number; to_act: number[]; legal: Record<string, string[]>;
  public: any; views: any[]; result: Result; last: ReplayMove | null;
  places: PlaceInfo[]; // where every card is (face-down and unseen cards included)
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body !== undefined ? { "Content-Type": "application/json" } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error((data && data.error && data.error.message) || res.statusText);
  return data as T;
}

// dealWord is what a game calls a deal, capitalised as in a heading
// ("Hole"); "Deal" while the game is not known.
export function dealWord(g: GameInfo | undefined): string {
  const w = (g && g.deal) || "deal";
  return w.charAt(0).toUpperCase() + w.slice(1);
}

// sidesOf returns the side each seat plays for at a table of players: its
// partnership's number, or the seat itself where seats play alone.
export function sidesOf(g: GameInfo | undefined, players: number): number[] {
  const s = g && g.sides && g.sides[String(players)];
  return s && s.length === players ? s : Array.from({ length: players }, (_, i) => i);
}

let gamesCache: Promise<GameInfo[]> | null = null;
export function games(): Promise<GameInfo[]> {
  // The rules texts are most of the list and are shown only on the rules
  // page, which asks for its one game.
  if (!gamesCache) gamesCache = api<GameInfo[]>("GET", "/api/games?rules=0").catch((e) => { gamesCache = null; throw e; });
  return gamesCache;
}

// Seat tokens are kept in localStorage, one per table, so a reload or a
// return to the page takes the seat back.
export interface Held { token: string; seat: number }
export function heldSeat(table: string): Held | null {
  try {
    const s = localStorage.getItem("parlour.seat." + table);
    return s ? (JSON.parse(s) as Held) : null;
  } catch { return null; }
}
export function holdSeat(table: string, h: Held | null) {
  if (h) localStorage.setItem("parlour.seat." + table, JSON.stringify(h));
  else localStorage.removeItem("parlour.seat." + table);
}
export function myName(): string { return localStorage.getItem("parlour.name") || ""; }
export function setMyName(n: string) { localStorage.setItem("parlour.name", n); }

// seatName is how a seat is shown: a person's name, a bot's friendly name
// with its level ("Ada (hard)"), or what the seat is.
export function seatName(seats: SeatInfo[] | undefined, i: number): string {
  const s = seats && seats[i];
  if (s && s.kind === "bot" && s.level) return shortName(seats, i) + " (" + s.level + ")";
  return shortName(seats, i);
}

// shortName is a seat's name without a bot's level: "Ada", for the log.
export function shortName(seats: SeatInfo[] | undefined, i: number): string {
  const s = seats && seats[i];
  if (!s) return "Seat " + (i + 1);
  if (s.kind === "bot") return s.level ? s.name || s.bot || "Bot" : (s.bot || s.name || "bot") + " bot";
  return s.name || (s.state === "open" ? "open seat" : "Player " + (i + 1));
}

// The analysis of a finished game (../shared/spec/analysis.md): each
// decision of the seats analysed, the chance of winning the seat had
// after it as the search saw it, the best move found and its chance.
export type AnalysisLabel = "best" | "good" | "inaccuracy" | "mistake" | "blunder";
export interface AnalysisAlternative { move: string; chance: number; visits: number }
export interface AnalysisDecision {
  n: number; seat: number; move: string;
  forced?: boolean;   // one legal move: not searched, no figures
  chance?: number; best?: string; best_chance?: number; loss?: number; label?: AnalysisLabel;
  iterations?: number; alternatives?: AnalysisAlternative[];
}
export interface AnalysisSeat { seat: number; decisions: number; mean_loss: number; inaccuracies: number; mistakes: number; blunders: number }
export interface AnalysisReport {
  game: string; players: number; mode: "information" | "hindsight"; think_ms: number;
  decisions: AnalysisDecision[]; seats: AnalysisSeat[];
}
// AnalysisStatus is GET /api/tables/{id}/analysis: how far the work is,
// and the report once done.
export interface AnalysisStatus {
  status: "queued" | "running" | "done" | "failed"; progress: number;
  seats: number[]; hindsight: boolean;  // the options it was asked with
  report?: AnalysisReport;               // once done
  error?: string;                        // once failed: why
}
