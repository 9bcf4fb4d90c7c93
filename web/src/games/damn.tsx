// Damn: the play pile, the central deck, each seat's hand, support and
// random piles (counts: nobody sees them), and a large pick-up to keep
// four of.
import { CardView, Pile, Backs, rankOf } from "../cards";
import type { PlaceInfo } from "../api";
import { BoardProps, Renderer, mover, othersFirst, SeatTag, Hand, useChooser, Confirm } from "../board";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_WORDS: Record<string, string> = { A: "an ace", "8": "an 8", J: "a jack", Q: "a queen", K: "a king" };
const rankWord = (r: string) => RANK_WORDS[r] || "a " + r;

// fits names the ranks that fit on card c: one step up or down, round
// the corner (on an A: a 2 or a K).
function fits(c: string): string[] {
  const i = RANKS.indexOf(rankOf(c));
  return [RANKS[(i + 12) % 13], RANKS[(i + 1) % 13]];
}

// piles returns seat s's support and random piles from a finished game's
// places (the game lists, seat by seat: hand, support pile, random pile).
function piles(places: PlaceInfo[] | undefined, s: number): { support: string[]; random: string[] } | null {
  const sup = places && places[3 * s + 1], rnd = places && places[3 * s + 2];
  if (!sup || !rnd || sup.name !== "support pile" || rnd.name !== "random pile") return null;
  return { support: sup.cards, random: rnd.cards };
}

export function DamnBoard(p: BoardProps) {
  const v = p.view;
  const m = mover(p);
  const chooser = useChooser(p.legal, "keep", 4);
  const others = othersFirst(p).filter((s) => s !== p.seat);
  const top = v.pile.length ? v.pile[v.pile.length - 1] : null;
  const shown = v.pile.slice(-6);
  const seatBox = (s: number, mine: boolean) => {
    const sv = v.seats[s];
    const outAt = v.out.indexOf(s);
    const open = v.over ? piles(p.places, s) : null; // the end: every card shown
    return (
      <div class={"seat-box" + (mine ? " mine" : "")} data-seat={s}>
        <SeatTag seat={s} names={p.names} toAct={p.toAct} sides={p.sides}>
          {sv.out ? <span class="badge">{outAt === 0 ? "out first" : "out"}</span> : null}
          {v.loser === s ? <span class="badge">lost</span> : null}
        </SeatTag>
        {open ? (
          // The end: every card the seat still holds, face up.
          sv.held === 0 ? <p class="small" data-open-piles={s}>No cards left.</p> : (
            <div class="open-piles small" data-open-piles={s}>
              {[["hand", p.hands && p.hands[s] ? p.hands[s]! : mine ? v.hand || [] : []], ["support pile", open.support], ["random pile", open.random]].map(([what, cards]) => (
                <div data-shown-hand={what === "hand" ? s : undefined}>{what} ({(cards as string[]).length}): {(cards as string[]).length ? (cards as string[]).map((c) => <CardView card={c} small />) : "none"}</div>
              ))}
              <div>holds {sv.held} card{sv.held === 1 ? "" : "s"}</div>
            </div>
          )
        ) : (
          <>
            {!mine ? (p.hands && p.hands[s] ? <div class="hand">{p.hands[s]!.map((c) => <CardView card={c} small />)}</div> : <Backs n={sv.hand} />) : null}
            <div class="centre">
              <Pile count={sv.support} label="support" move={mine ? "turn" : undefined} onClick={mine ? m.on("turn") : undefined} place="support" />
              <Pile count={sv.random} label="random" move={mine ? "random" : undefined} onClick={mine ? m.on("random") : undefined} place="random" />
              <span class="small">holds {sv.held}</span>
            </div>
          </>
        )}
      </div>
    );
  };
  return (
    <div class="board damn">
      <div class="seats-row">{others.map((s) => seatBox(s, false))}</div>
      <div class="centre">
        <Pile count={v.central} label="central deck" place="central" />
        <div class="pile" data-place="pile">
          {m.can("pickup") ? (
            <button type="button" class="card-button" data-move="pickup" onClick={() => m.act("pickup")} title="pick up the play pile">
              <div class="play-pile">{shown.map((c: string) => <CardView card={c} />)}</div>
            </button>
          ) : (
            <div class="play-pile">{shown.length ? shown.map((c: string) => <CardView card={c} />) : <span class="muted">empty: any card may go</span>}</div>
          )}
          <div class="pile-label">play pile <b>{v.pile.length}</b>{top ? "" : ""}</div>
        </div>
        {m.can("pickup") ? <button type="button" data-move="pickup" onClick={() => m.act("pickup")}>Pick up the pile</button> : null}
      </div>
      {v.picked_up && v.picked_up.length && p.seat >= 0 && chooser.active ? (
        <div class="picked">
          <p class="small">You picked up {v.picked_up.length} cards: keep four as your new hand; the rest go to your support pile.</p>
          <Hand cards={v.picked_up} chooser={chooser} label="picked up" />
          <Confirm chooser={chooser} act={p.act} verb="keep" need={4} />
        </div>
      ) : v.picked_up && v.picked_up.length ? (
        <p class="small">Picked up, four to keep: {v.picked_up.map((c: string) => <CardView card={c} small />)}</p>
      ) : null}
      {p.seat >= 0 ? (
        <div class="me">
          <div>
            {seatBox(p.seat, true)}
            {v.over && piles(p.places, p.seat) ? null : (
              <div data-came-from="place:central">
                <Hand cards={v.hand || []} click={(c) => m.on("play " + c)} move={(c) => "play " + c} label="your hand" />
              </div>
            )}
          </div>
        </div>
      ) : null}
      {v.unresolved ? <p data-unresolved>The game stopped at its limit of {v.max_turns} turns: nobody lost.</p> : null}
      <p class="muted small board-note">{v.over ? `The game took ${v.turns} turn${v.turns === 1 ? "" : "s"}.` : `Turn ${v.turns + 1}.`} {v.over ? "Went out, in order" : "Out so far"}: {v.out.length ? v.out.map((s: number) => p.names[s]).join(", ") : "nobody"}. The last player holding cards loses.</p>
    </div>
  );
}

// damnPrompt tells the player to act what to do now.
export function damnPrompt(p: BoardProps): string {
  const v = p.view, can = (x: string) => p.legal.includes(x);
  if (!p.legal.length) return "";
  if (p.legal.some((x) => x.startsWith("keep "))) return "Keep four of the cards you picked up: click four, then Keep.";
  if (can("random")) return "Turn the top card of your random pile: click it.";
  const top = v.pile.length ? v.pile[v.pile.length - 1] : null;
  const plays = p.legal.some((x) => x.startsWith("play "));
  const ways: string[] = [];
  if (plays) ways.push(top ? `play ${fits(top).map(rankWord).join(" or ")} on the ${rankOf(top)}` : "play any card from your hand");
  if (can("turn")) ways.push("turn your support card");
  if (can("pickup")) ways.push("pick up the pile");
  const say = ways.length > 1 ? ways.slice(0, -1).join(", ") + " or " + ways[ways.length - 1] : ways[0] || "";
  const head = !plays && top && v.hand && v.hand.length ? `No card of your hand fits the ${rankOf(top)}: ` : "";
  return head ? head + say + "." : say.charAt(0).toUpperCase() + say.slice(1) + ".";
}

// damn is Damn's renderer: the board, how to place the seats at the end
// (out first to last, then the loser), and a move's place for the moves
// that name no card (turn, random: the seat's pile).
export const damn: Renderer = {
  Board: DamnBoard,
  prompt: damnPrompt,
  scores: () => ({ rows: "Cards still held", total: "", deal: "Cards still held", unit: ["card left", "cards left"] }),
  standings(view, result) {
    const out: number[] = view && Array.isArray(view.out) ? view.out.filter((s: number) => s < result.totals.length) : [];
    const rest = result.totals.map((_, s) => s).filter((s) => !out.includes(s)).sort((a, b) => result.totals[a] - result.totals[b]);
    return [...out, ...rest];
  },
  targets(q, seat, verb) {
    if (verb === "turn") return q(`[data-seat="${seat}"] [data-place="support"] .card`);
    if (verb === "random") return q(`[data-seat="${seat}"] [data-place="random"] .card`);
    return [];
  },
};
