// The page's settings, kept in localStorage: animation speed, sound, card
// size, four-colour suits, theme, move confirmation; and the panel that
// changes them (with the player's name).
import { useEffect, useState } from "preact/hooks";
import { myName, setMyName } from "./api";

// Settings are the page's settings, as kept in localStorage.
export interface Settings {
  speed: "off" | "fast" | "normal" | "slow"; // card animations
  sound: boolean;                            // a short sound when it becomes your turn
  size: "small" | "medium" | "large";        // card size
  fourColour: boolean;                       // diamonds blue, clubs green
  theme: "system" | "light" | "dark";
  confirm: boolean;                          // a move is sent only once confirmed
}

const DEFAULTS: Settings = { speed: "normal", sound: false, size: "medium", fourColour: false, theme: "system", confirm: false };
const KEY = "parlour.settings";

function load(): Settings {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || "{}");
    const out = { ...DEFAULTS };
    if (["off", "fast", "normal", "slow"].includes(s.speed)) out.speed = s.speed;
    if (typeof s.sound === "boolean") out.sound = s.sound;
    if (["small", "medium", "large"].includes(s.size)) out.size = s.size;
    if (typeof s.fourColour === "boolean") out.fourColour = s.fourColour;
    if (["system", "light", "dark"].includes(s.theme)) out.theme = s.theme;
    if (typeof s.confirm === "boolean") out.confirm = s.confirm;
    return out;
  } catch {
    return { ...DEFAULTS };
  }
}

let current = load();
const listeners = new Set<(s: Settings) => void>();

// apply shows the settings on the document: its theme, card size and
// suit colours are CSS (style.css reads these attributes).
function apply(s: Settings) {
  const d = document.documentElement.dataset;
  if (s.theme === "system") delete d.theme; else d.theme = s.theme;
  d.size = s.size;
  if (s.fourColour) d.fourColour = "1"; else delete d.fourColour;
  d.motion = s.speed;
}
apply(current);

// settings answers the settings now.
export function settings(): Settings { return current; }

// updateSettings changes some settings, keeps them and tells every user.
export function updateSettings(change: Partial<Settings>) {
  current = { ...current, ...change };
  try { localStorage.setItem(KEY, JSON.stringify(current)); } catch { /* private mode: kept for this page only */ }
  apply(current);
  listeners.forEach((f) => f(current));
}

// useSettings is the settings as a hook: the component draws again when
// they change.
export function useSettings(): Settings {
  const [s, set] = useState(current);
  useEffect(() => {
    listeners.add(set);
    return () => { listeners.delete(set); };
  }, []);
  return s;
}

const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

// motionScale is how long card animations take relative to the normal
// speed: 0 when they are off (the setting, or the system's reduced motion).
export function motionScale(): number {
  if (reduced && reduced.matches) return 0;
  return { off: 0, fast: 0.6, normal: 1, slow: 1.8 }[current.speed];
}

// SettingsButton opens the settings panel.
export function SettingsButton() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    const key = (e: KeyboardEvent) => { if (e.key === "Escape") setOpen(false); };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, [open]);
  return (
    <div class="settings-wrap">
      <button type="button" class="settings-button" aria-expanded={open ? "true" : "false"} aria-controls="settings-panel"
        data-settings-button onClick={() => setOpen(!open)} title="Settings">
        <span aria-hidden="true">⚙</span> Settings
      </button>
      {open ? <SettingsPanel close={() => setOpen(false)} /> : null}
    </div>
  );
}

function SettingsPanel(p: { close: () => void }) {
  const s = useSettings();
  const [name, setName] = useState(myName());
  const radio = <K extends keyof Settings>(key: K, values: [Settings[K], string][], legend: string) => (
    <fieldset>
      <legend>{legend}</legend>
      {values.map(([v, label]) => (
        <label class="choice">
          <input type="radio" name={key} value={String(v)} checked={s[key] === v} data-setting={key + "=" + v}
            onChange={() => updateSettings({ [key]: v } as Partial<Settings>)} />
          {label}
        </label>
      ))}
    </fieldset>
  );
  const check = (key: "sound" | "fourColour" | "confirm", label: string) => (
    <label class="choice">
      <input type="checkbox" checked={s[key]} data-setting={key} onChange={(e) => updateSettings({ [key]: (e.target as HTMLInputElement).checked })} />
      {label}
    </label>
  );
  return (
    <div class="settings-panel" id="settings-panel" role="dialog" aria-label="Settings">
      <div class="settings-head"><h2>Settings</h2><button type="button" onClick={p.close} aria-label="Close the settings">✕</button></div>
      <label class="name-setting">Your name
        <input value={name} maxLength={32} placeholder="Player" data-setting="name"
          onInput={(e) => { const v = (e.target as HTMLInputElement).value; setName(v); setMyName(v.trim()); }} />
      </label>
      {radio("speed", [["off", "off"], ["fast", "fast"], ["normal", "normal"], ["slow", "slow"]], "Card animations")}
      {radio("size", [["small", "small"], ["medium", "medium"], ["large", "large"]], "Card size")}
      {radio("theme", [["system", "as the system"], ["light", "light"], ["dark", "dark"]], "Theme")}
      <fieldset>
        <legend>Play</legend>
        {check("fourColour", "Four-colour suits (♦ blue, ♣ green)")}
        {check("confirm", "Confirm each move before it is sent")}
        {check("sound", "A short sound when it is your turn")}
      </fieldset>
      <p class="muted small">Animations are off whenever the system asks for reduced motion.</p>
    </div>
  );
}
