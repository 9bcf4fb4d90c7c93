// Card movement, FLIP style: before a new state is drawn, snapshot() notes
// where every card of the board is; after, play() sends each card from
// where it was to where it is now. A card is known by its identity (its
// notation, or its place while face down), so a card played from a hand
// travels to the trick, a card drawn from the stock comes from the stock,
// and cards that leave the board (a trick gathered) fly to where the board
// says they go. A new snapshot interrupts whatever still runs: the cards
// start again from where they are, towards where they now belong.
import { motionScale } from "./settings";

interface CardSnap {
  key: string; el: HTMLElement; rect: DOMRect; down: boolean; slot?: string; seat?: string; clone?: HTMLElement;
  sendTo?: string; // the area a card leaving from here goes to (data-send-to: a pass to a seat)
}

// Snapshot is the board as it was drawn: its cards by identity, and the
// places, slots and seats by name ("place:stock", "slot:g1-3", "seat:2").
export interface Snapshot { cards: Map<string, CardSnap>; areas: Map<string, DOMRect> }

// Hint says where a card came from when identity alone cannot tell (a
// face-down card swapped for one that is then shown): the cards under the
// selector `to` (in the new board) come from the area `from`.
export interface Hint { to: string; from: string }

const BASE_MS = 260;
const running = new Set<Animation>();
const ghosts = new Set<HTMLElement>();

declare global { interface Window { __parlourAnimations?: number } }

function count(n: number) { window.__parlourAnimations = (window.__parlourAnimations || 0) + n; }

// stop ends every running card animation at once: cards land where they
// belong and the ghosts of cards that left go.
export function stop() {
  running.forEach((a) => a.cancel());
  running.clear();
  ghosts.forEach((g) => g.remove());
  ghosts.clear();
}

function keyed(root: HTMLElement, withClones: boolean): Map<string, CardSnap> {
  const out = new Map<string, CardSnap>();
  const seen = new Map<string, number>();
  root.querySelectorAll<HTMLElement>(".card").forEach((el) => {
    if (el.classList.contains("empty") || el.closest("[data-no-anim]")) return;
    const c = el.dataset.card || "";
    const slot = el.dataset.slot;
    const seatEl = el.closest<HTMLElement>("[data-seat]");
    let base: string;
    if (c) base = c;
    else if (slot) base = "@" + slot;
    else {
      const pl = el.closest<HTMLElement>("[data-place],[data-seat]");
      base = "~" + (pl ? (pl.dataset.place ? "p:" + pl.dataset.place : "s:" + pl.dataset.seat) : "");
    }
    const n = seen.get(base) || 0;
    seen.set(base, n + 1);
    const key = base + "#" + n;
    out.set(key, {
      key, el, rect: el.getBoundingClientRect(), down: !c, slot, seat: seatEl?.dataset.seat,
      clone: withClones ? (el.cloneNode(true) as HTMLElement) : undefined,
      sendTo: el.closest<HTMLElement>("[data-send-to]")?.dataset.sendTo,
    });
  });
  return out;
}

// areas notes where the board's named places are: a place or slot by its
// (top) card when it has one, a seat by its whole area.
function areas(root: HTMLElement): Map<string, DOMRect> {
  const out = new Map<string, DOMRect>();
  root.querySelectorAll<HTMLElement>("[data-place],[data-slot],[data-seat]").forEach((el) => {
    const d = el.dataset;
    const card = el.classList.contains("card") ? el : el.querySelector<HTMLElement>(".card:not(.empty)");
    for (const k of [d.place && "place:" + d.place, d.slot && "slot:" + d.slot]) {
      if (k && !out.has(k)) out.set(k, (card || el).getBoundingClientRect());
    }
    if (d.seat && !out.has("seat:" + d.seat)) out.set("seat:" + d.seat, el.getBoundingClientRect());
  });
  return out;
}

// snapshot notes where the board's cards are now (as they are drawn this
// instant, mid-flight included) and stops what runs.
export function snapshot(root: HTMLElement | null): Snapshot | null {
  if (!root || !motionScale()) { stop(); return null; }
  const s = { cards: keyed(root, true), areas: areas(root) };
  stop();
  return s;
}

// Moment is what the new state did: the seat that moved and its move (when
// known), and whether to skip the animations (a new deal, a reconnect).
export interface Moment { mover?: number; move?: string; skip?: boolean; hints?: Hint[] }

// play animates the board from the snapshot to what it draws now.
export function play(root: HTMLElement | null, before: Snapshot | null, m: Moment) {
  const scale = motionScale();
  if (!root || !before || !scale || m.skip) return;
  const dur = BASE_MS * scale;
  const after = keyed(root, false);
  const done = new Set<string>(); // keys of the new board already animated

  // Hinted cards first.
  for (const h of m.hints || []) {
    const from = before.areas.get(h.from);
    if (!from) continue;
    root.querySelectorAll<HTMLElement>(h.to).forEach((el) => {
      const card = el.classList.contains("card") ? el : el.querySelector<HTMLElement>(".card");
      if (!card) return;
      for (const [k, a] of after) if (a.el === card) { done.add(k); fly(card, from, dur); }
    });
  }

  const gone = [...before.cards.values()].filter((b) => !after.has(b.key));
  const goneDown = gone.filter((b) => b.down);
  const fresh = [...after.values()].filter((a) => !before.cards.has(a.key) && !done.has(a.key));
  if (fresh.length > 16) return; // a new deal: cards are simply there

  // Cards that stayed on the board: from their old place to the new.
  for (const [k, a] of after) {
    const b = before.cards.get(k);
    if (b && !done.has(k)) fly(a.el, b.rect, dur);
  }

  // Cards newly shown: a face-down card turned over in its place, or one
  // that left a hand of backs (the mover's first) to land here.
  const take = (pred: (b: CardSnap) => boolean) => {
    const i = goneDown.findIndex(pred);
    return i < 0 ? null : goneDown.splice(i, 1)[0];
  };
  const moverSeat = m.mover !== undefined ? String(m.mover) : undefined;
  for (const a of fresh) {
    if (a.down) continue;
    if (a.slot) {
      const same = take((b) => b.slot === a.slot);
      if (same) { turn(a.el, dur); continue; }
    }
    const src = take((b) => b.seat === moverSeat && !b.slot) || take((b) => b.seat === moverSeat) || take(() => true);
    if (src) { fly(a.el, src.rect, dur); continue; }
    // Otherwise from the place the move names ("draw stock"), the place
    // the board says cards come from here (data-came-from: "seat:2",
    // "place:central"), or the mover's seat.
    const word = (m.move || "").split(" ").find((w) => before.areas.has("place:" + w));
    const cameFrom = a.el.closest<HTMLElement>("[data-came-from]")?.dataset.cameFrom;
    const area = word ? before.areas.get("place:" + word)
      : cameFrom && before.areas.has(cameFrom) ? before.areas.get(cameFrom)
      : moverSeat && a.seat !== moverSeat ? before.areas.get("seat:" + moverSeat) : undefined;
    if (area) fly(a.el, area, dur, true);
    else appear(a.el, dur);
  }

  // Cards that left the board go to a place where face-down cards
  // appeared (a hand that took them), or where the board gathers them (a
  // trick's winner); others simply go.
  const freshDown = fresh.filter((a) => a.down);
  const gather = root.querySelector<HTMLElement>("[data-gather]");
  const area = (name: string) => {
    const [kind, v] = name.split(":");
    return root.querySelector<HTMLElement>(`[data-${kind}="${CSS.escape(v || "")}"]`);
  };
  for (const b of gone) {
    if (b.down || !b.clone) continue;
    const sent = b.sendTo ? area(b.sendTo) : null;
    const to = sent ? null : freshDown.shift();
    if (sent) ghost(b, sent.getBoundingClientRect(), dur * 1.3);
    else if (to) ghost(b, to.el.getBoundingClientRect(), dur);
    else if (gather) ghost(b, gather.getBoundingClientRect(), dur * 1.3);
  }
}

function track(a: Animation, el?: HTMLElement) {
  running.add(a);
  count(1);
  if (el) el.classList.add("flying");
  const end = () => { running.delete(a); if (el) el.classList.remove("flying"); };
  a.addEventListener("finish", end);
  a.addEventListener("cancel", end);
}

// fly sends el from the rect it had (or an area it came from, centred and
// scaled to it when small) to where it is.
function fly(el: HTMLElement, from: DOMRect, dur: number, fromArea = false) {
  const to = el.getBoundingClientRect();
  if (!to.width || !to.height) return;
  let dx = from.left - to.left, dy = from.top - to.top, s = from.width / to.width;
  if (fromArea) { dx = from.left + from.width / 2 - (to.left + to.width / 2); dy = from.top + from.height / 2 - (to.top + to.height / 2); s = 0.7; }
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(s - 1) < 0.02) return;
  if (!isFinite(s) || s <= 0) s = 1;
  const origin = fromArea ? "50% 50%" : "0 0";
  const a = el.animate([
    { transformOrigin: origin, transform: `translate(${dx}px, ${dy}px) scale(${s})` },
    { transformOrigin: origin, transform: "none" },
  ], { duration: dur, easing: "cubic-bezier(.2,.7,.25,1)" });
  track(a, el);
}

// turn shows a card turned over in its place.
function turn(el: HTMLElement, dur: number) {
  track(el.animate([{ transform: "scaleX(0)" }, { transform: "scaleX(1)" }], { duration: dur * 0.7, easing: "ease-out" }), el);
}

function appear(el: HTMLElement, dur: number) {
  track(el.animate([{ opacity: 0, transform: "translateY(-8px)" }, { opacity: 1, transform: "none" }], { duration: dur * 0.8, easing: "ease-out" }), el);
}

// ghost draws a card that left the board where it was, and sends it to
// `to`, shrinking into it.
function ghost(b: CardSnap, to: DOMRect, dur: number) {
  const g = b.clone!;
  g.classList.add("ghost");
  g.removeAttribute("data-move");
  g.setAttribute("aria-hidden", "true");
  if (g instanceof HTMLButtonElement) g.tabIndex = -1;
  const r = b.rect;
  Object.assign(g.style, {
    position: "fixed", left: r.left + "px", top: r.top + "px", width: r.width + "px", height: r.height + "px",
    margin: "0", pointerEvents: "none", zIndex: "60",
  });
  g.style.setProperty("--card-w", r.width + "px");
  document.body.appendChild(g);
  ghosts.add(g);
  const dx = to.left + to.width / 2 - (r.left + r.width / 2), dy = to.top + to.height / 2 - (r.top + r.height / 2);
  const a = g.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.55)`, opacity: 0.2 }],
    { duration: dur, easing: "ease-in", fill: "forwards" });
  const end = () => { g.remove(); ghosts.delete(g); };
  a.addEventListener("finish", end);
  a.addEventListener("cancel", end);
  track(a);
}
