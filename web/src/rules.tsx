// A game's rules for players: the text of `parlour rules GAME` read as a
// page, with headings, paragraphs and lists, cards drawn as cards, and
// without the parts written for the engine (the moves' notation, scripts,
// the rulings' index). As a page of its own (#/rules/GAME), or as a panel
// beside a table.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, games, GameInfo } from "./api";
import { CardText } from "./cards";

// RULES_EVENT asks the table page to show its game's rules beside it (the
// page header's Rules link, at a table).
export const RULES_EVENT = "parlour-rules";

// Block is one piece of a rules text: a heading, a paragraph, a list, or
// indented lines (each with its depth).
export type Block =
  | { kind: "h"; text: string }
  | { kind: "p"; text: string }
  | { kind: "ul"; items: string[] }
  | { kind: "lines"; lines: { text: string; depth: number }[]; raw?: string[] }
  | { kind: "figure"; lines: string[] };

// ENGINE_SECTIONS are the sections written for the engine and its tools,
// not for players: they are left out.
const ENGINE_SECTIONS = new Set(["SCORES", "MOVES", "SCRIPTS", "RULINGS AND WORKED EXAMPLES", "RULINGS"]);

const HEADING = /^([A-Z0-9][A-Z0-9 ,.'’&-]*[A-Z0-9])(?:\s+\((.*)\))?$/;
const VERBS = "draw|swap|reveal|discard|stop|play|turn|pickup|random|keep|give|propose|pass|take|lead|resign";

// tidy takes a move's notation out of a sentence of the rules: "(move:
// play C)", "(draw stock)", "(keep C C C C, in the same turn)".
export function tidy(t: string): string {
  return t
    .replace(/\s*\(moves?: [^()]*(?:\([^()]*\)[^()]*)*\)/g, "")
    .replace(new RegExp(`\\s*\\([^()]*"(?:${VERBS}) [^"]*"[^()]*\\)`, "g"), "")
    .replace(new RegExp(`\\((?:${VERBS})(?: (?:[A-Z]|stock|discard|for|\\.\\.\\.))*, `, "g"), "(")
    .replace(new RegExp(`\\s*\\((?:${VERBS})(?: (?:[A-Z]|stock|discard|for|\\.\\.\\.))*\\)`, "g"), "")
    .replace(/\s+([.,;:])/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim();
}

// sentenceCase writes a heading in capitals as a heading in words: "THE
// FINAL PLAY" is "The final play"; Roman numerals stay.
function sentenceCase(t: string): string {
  const words = t.toLowerCase().split(" ").map((w) => (/^(i|ii|iii|iv|v|vi|vii|viii)$/.test(w) ? w.toUpperCase() : w));
  const s = words.join(" ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// parseRules reads a game's rules text as blocks for players.
export function parseRules(text: string): Block[] {
  const out: Block[] = [];
  let cur: Block | null = null;
  let skipping = false;
  let start = 0; // the indent of the line that began the current indented line
  const flush = () => { if (cur) out.push(cur); cur = null; };
  const lines = text.replace(/\r/g, "").split("\n");
  let prevBlank = true;
  for (let i = 1; i < lines.length; i++) { // the first line is the title
    const raw = lines[i];
    if (/^=+$/.test(raw.trim())) { flush(); prevBlank = true; continue; }
    if (!raw.trim()) { flush(); prevBlank = true; continue; }
    const h = raw.match(HEADING);
    if (h && prevBlank && /[A-Z]{2}/.test(h[1])) {
      flush();
      prevBlank = false;
      skipping = ENGINE_SECTIONS.has(h[1]);
      if (!skipping) {
        const aside = h[2] && !/^moves?:/.test(h[2]) ? " (" + h[2] + ")" : "";
        out.push({ kind: "h", text: sentenceCase(h[1]) + aside });
      }
      continue;
    }
    prevBlank = false;
    if (skipping) continue;
    if (/^\s*Moves?:/.test(raw)) continue; // a move's notation, told apart
    const indent = raw.length - raw.trimStart().length;
    const t = raw.trim();
    const c = cur as Block | null;
    if (indent === 0) {
      if (c && c.kind === "p") c.text += " " + t;
      else { flush(); cur = { kind: "p", text: t }; }
      continue;
    }
    if (t.startsWith("- ")) {
      if (c && c.kind === "ul") c.items.push(t.slice(2));
      else { flush(); cur = { kind: "ul", items: [t.slice(2)] }; }
    } else if (c && c.kind === "ul" && indent >= 4) {
      c.items[c.items.length - 1] += " " + t;
    } else if (c && c.kind === "lines") {
      c.raw!.push(raw);
      // A deeper line goes on the line above, unless that one ends
      // with a colon: then it is the first of the lines it announces.
      const last = c.lines[c.lines.length - 1];
      if (indent > start && !/:$/.test(last.text)) last.text += " " + t;
      else { c.lines.push({ text: t, depth: indent > 2 ? 1 : 0 }); start = indent; }
    } else {
      flush();
      cur = { kind: "lines", lines: [{ text: t, depth: 0 }], raw: [raw] };
      start = indent;
    }
  }
  flush();
  return out.map((b): Block => {
    switch (b.kind) {
      case "p": return { kind: "p", text: tidy(b.text) };
      case "ul": return { kind: "ul", items: b.items.map(tidy) };
      case "lines": {
        // Short, deeply indented lines are a figure (1862's diagram of a
        // trick): drawn as they stand.
        const raw = b.raw || [];
        if (raw.every((r) => r.trim().length <= 24 && /^ {6}/.test(r))) {
          const cut = Math.min(...raw.map((r) => r.length - r.trimStart().length));
          return { kind: "figure", lines: raw.map((r) => r.slice(cut).trimEnd()) };
        }
        return { kind: "lines", lines: b.lines.map((l) => ({ ...l, text: tidy(l.text) })) };
      }
    }
    return b;
  }).filter((b) => b.kind !== "p" || b.text);
}

// Prose draws a sentence of the rules, its cards in notation ("7S") drawn
// as cards.
function Prose(p: { text: string }) {
  const out: ComponentChildren[] = [];
  const re = /\b((?:10|[2-9AJQK])[SHDC])\b/g;
  let last = 0, m: RegExpExecArray | null;
  while ((m = re.exec(p.text))) {
    if (m.index > last) out.push(p.text.slice(last, m.index));
    out.push(<CardText card={m[1]} />);
    last = re.lastIndex;
  }
  if (last < p.text.length) out.push(p.text.slice(last));
  return <>{out}</>;
}

// RulesText draws a rules text as blocks.
export function RulesText(p: { text: string; game: string }) {
  const blocks = parseRules(p.text);
  return (
    <div class="rules-text" data-rules={p.game}>
      {blocks.map((b) => {
        switch (b.kind) {
          case "h": return <h3>{b.text}</h3>;
          case "p": return <p><Prose text={b.text} /></p>;
          case "ul": return <ul>{b.items.map((x) => <li><Prose text={x} /></li>)}</ul>;
          case "figure": return <pre class="rules-figure" aria-label="diagram">{b.lines.join("\n")}</pre>;
          case "lines": return <div class="rules-lines">{b.lines.map((l) => <div class={"rl d" + l.depth}><Prose text={l.text} /></div>)}</div>;
        }
      })}
    </div>
  );
}

// useRules loads game id's summary and rules text.
function useRules(id: string): { g: GameInfo | null; error: string } {
  const [g, setG] = useState<GameInfo | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let stop = false;
    setG(null); setError("");
    api<GameInfo>("GET", "/api/games/" + encodeURIComponent(id)).then((x) => !stop && setG(x)).catch((e) => !stop && setError(e.message || "no game " + id));
    return () => { stop = true; };
  }, [id]);
  return { g, error };
}

// RulesPage is #/rules/GAME: the rules of one game, with the others a
// click away.
export function RulesPage(p: { game: string }) {
  const [all, setAll] = useState<GameInfo[]>([]);
  const { g, error } = useRules(p.game);
  useEffect(() => { games().then(setAll).catch(() => {}); }, []);
  return (
    <div class="rules-page">
      <nav class="rules-nav" aria-label="the games">{all.map((x) => <a href={"#/rules/" + x.id} class={x.id === p.game ? "chosen" : ""}>{x.name}</a>)}</nav>
      {error ? <p class="error">{error}</p> : null}
      {g ? (<article class="rules-article"><h2>{g.name}</h2><p class="rules-summary">{g.summary}</p><RulesText text={g.rules || ""} game={g.id} /></article>) : null}
      <p><a href="#/">Back to the lobby</a></p>
    </div>
  );
}

// RulesPanel is the rules of a game beside its table: a panel that leaves
// the table where it is, closed by its button or Escape.
export function RulesPanel(p: { game: string; close: () => void }) {
  const { g, error } = useRules(p.game);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus();
    const key = (e: KeyboardEvent) => { if (e.key === "Escape") p.close(); };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, []);
  return (
    <section class="panel rules-panel" ref={ref} tabIndex={-1} role="dialog" aria-labelledby="rules-panel-title" data-rules-panel>
      <div class="rules-panel-head">
        <h3 id="rules-panel-title">Rules{g ? ": " + g.name : ""}</h3>
        <button type="button" onClick={p.close} data-close-rules aria-label="close the rules">Close ✕</button>
      </div>
      <div class="rules-panel-body">
        {error ? <p class="error">{error}</p> : null}
        {g ? <><p class="rules-summary">{g.summary}</p><RulesText text={g.rules || ""} game={g.id} /></> : <p class="muted">Loading…</p>}
      </div>
    </section>
  );
}
