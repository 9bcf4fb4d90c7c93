// Your turn, unmissable from another tab: the tab's title and icon change,
// and (when the setting is on) a short sound plays as the turn comes.
import { useEffect, useRef } from "preact/hooks";
import { settings } from "./settings";

const icon = (turn: boolean) => "data:image/svg+xml," + encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
  `<rect x="5" y="2" width="22" height="28" rx="4" fill="${turn ? "#f2c14e" : "#fbfaf5"}" stroke="#174a2e" stroke-width="2"/>` +
  `<path d="M16 8c3 4 7 6 7 9.5a3.5 3.5 0 0 1-6 2.4l1 4.1h-4l1-4.1a3.5 3.5 0 0 1-6-2.4C9 14 13 12 16 8z" fill="#1b1b1b"/>` +
  (turn ? `<circle cx="25" cy="7" r="6" fill="#c0262d" stroke="#fff" stroke-width="2"/>` : "") +
  `</svg>`);

// ICON and TURN_ICON are the page's favicons, as data URLs.
export const ICON = icon(false);
export const TURN_ICON = icon(true);

// setFavicon shows href as the tab's icon.
export function setFavicon(href: string) {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  if (link.href !== href) link.href = href;
  link.dataset.turn = href === TURN_ICON ? "1" : "0";
}

let audio: AudioContext | null = null;

// beep plays a short two-note chime (WebAudio, made here: no file).
export function beep() {
  try {
    const AC = window.AudioContext || (window as any).webkitAudioContext;
    if (!AC) return;
    audio = audio || new AC();
    if (audio.state === "suspended") audio.resume();
    const t = audio.currentTime;
    [660, 880].forEach((f, i) => {
      const o = audio!.createOscillator(), g = audio!.createGain();
      o.type = "sine";
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t + i * 0.12);
      g.gain.exponentialRampToValueAtTime(0.18, t + i * 0.12 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.12 + 0.2);
      o.connect(g).connect(audio!.destination);
      o.start(t + i * 0.12);
      o.stop(t + i * 0.12 + 0.22);
    });
  } catch { /* no sound, then */ }
}

// useTurnSignals keeps the title and icon true to whether it is the
// viewer's turn, and chimes once as the turn comes (sound on).
export function useTurnSignals(mine: boolean, title: string) {
  const was = useRef(false);
  useEffect(() => {
    document.title = mine ? "● Your turn — Parlour" : (title ? title + " — Parlour" : "Parlour");
    setFavicon(mine ? TURN_ICON : ICON);
    if (mine && !was.current && settings().sound) beep();
    was.current = mine;
  }, [mine, title]);
  useEffect(() => () => { document.title = "Parlour"; setFavicon(ICON); }, []);
}
