// Keyboard play: the arrow keys move the focus among what may be played
// now (cards, piles, buttons of the board), Enter or Space plays it (they
// are buttons). From nowhere, an arrow key starts at the playable element
// nearest to where the focus last was.
import { useEffect } from "preact/hooks";

const PLAYABLE = ".board button:not([disabled]), .uncovered button:not([disabled]), .pending-bar button";

function playable(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(PLAYABLE)).filter((el) => {
    if (el.classList.contains("ghost")) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  });
}

function centre(r: DOMRect) { return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; }

// next answers the element to go to from `from` in direction (dx, dy):
// the nearest one that way, the along-axis distance counting less than
// the across one; along a row, past the end wraps to the other end.
function next(items: HTMLElement[], from: HTMLElement, dx: number, dy: number): HTMLElement | null {
  const a = centre(from.getBoundingClientRect());
  let best: HTMLElement | null = null, score = Infinity;
  for (const el of items) {
    if (el === from) continue;
    const b = centre(el.getBoundingClientRect());
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    const across = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
    if (along <= 4) continue;
    const s = along + across * 2.5;
    if (s < score) { score = s; best = el; }
  }
  if (best || dy !== 0) return best;
  const i = items.indexOf(from);
  return items[(i + (dx > 0 ? 1 : -1) + items.length) % items.length] || null;
}

let lastAt: { x: number; y: number } | null = null;
let usingKeys = false; // the player plays with the keys (an arrow since the last pointer)

// nearest answers the item closest to where the focus last was.
function nearest(items: HTMLElement[]): HTMLElement {
  const at = lastAt;
  if (!at) return items[0];
  return items.reduce((b, x) => {
    const c = centre(x.getBoundingClientRect()), cb = centre(b.getBoundingClientRect());
    return Math.hypot(c.x - at.x, c.y - at.y) < Math.hypot(cb.x - at.x, cb.y - at.y) ? x : b;
  });
}

// refocus puts the focus back on the board when the player's turn comes,
// if they play with the keys and the focus is nowhere else.
export function refocus(root: HTMLElement | null) {
  if (!root || !usingKeys) return;
  const a = document.activeElement;
  if (a && a !== document.body && a.isConnected) return;
  const items = playable(root);
  if (items.length) nearest(items).focus();
}

// useBoardKeys handles the arrow keys on the table page.
export function useBoardKeys(root: { current: HTMLElement | null }) {
  useEffect(() => {
    const onFocus = (e: FocusEvent) => {
      const t = e.target as HTMLElement;
      if (t && t.matches && t.matches(PLAYABLE)) lastAt = centre(t.getBoundingClientRect());
    };
    const onKey = (e: KeyboardEvent) => {
      const dir: Record<string, [number, number]> = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
      const d = dir[e.key];
      if (!d || e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target as HTMLElement;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      const el = root.current;
      if (!el) return;
      const items = playable(el);
      if (!items.length) return;
      e.preventDefault();
      usingKeys = true;
      const cur = document.activeElement as HTMLElement | null;
      const go = cur && items.includes(cur) ? next(items, cur, d[0], d[1]) : nearest(items);
      if (go) {
        go.focus();
        go.scrollIntoView({ block: "nearest", inline: "nearest" });
      }
    };
    const onPointer = () => { usingKeys = false; };
    window.addEventListener("keydown", onKey);
    window.addEventListener("pointerdown", onPointer);
    document.addEventListener("focusin", onFocus);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("focusin", onFocus);
    };
  }, []);
}
