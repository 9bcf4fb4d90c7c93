// The live log: what each seat did, in the game's words as far as the
// viewer may know them, deal and match ends with their scores, and who
// came and went. The server's words are templates ({N} a seat, [C] a card:
// docs/protocol.md); without them, the move's notation is shown.
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { Event } from "./api";
import { CardText } from "./cards";
import { SEAT_COLOURS } from "./board";

// Entry is one line of the log, kept as a template so that names are
// written as they are when drawn.
export interface Entry { id: number; kind: string; text: string; seat?: number }

let nextId = 1;

// entries turns a message's events into log lines.
export function entries(evs: Event[] | undefined): Entry[] {
  const out: Entry[] = [];
  for (const ev of evs || []) {
    const t = eventText(ev);
    if (t) out.push({ id: nextId++, kind: ev.kind, text: t, seat: ev.seat });
  }
  return out;
}

// entry makes one line of the log from a template.
export function entry(kind: string, text: string, seat?: number): Entry { return { id: nextId++, kind, text, seat }; }

const BY: Record<string, string> = { standin: " (the stand-in played)", clock: " (time ran out)" };

function eventText(ev: Event): string {
  const s = ev.seat;
  switch (ev.kind) {
    case "move": {
      let t: string;
      if (ev.text) t = ev.text;
      else if (ev.hidden || !ev.move) t = `{${s}} moved.`;
      else t = `{${s}}: ` + ev.move.split(" ").map((w) => (isCard(w) ? "[" + w + "]" : w)).join(" ");
      return t + (ev.by && BY[ev.by] ? BY[ev.by] : "");
    }
    case "deal": {
      const scores = (ev.scores || []).map((x, i) => `{${i}} ${x}`).join(", ");
      return `{deal} ${ev.deal ?? ""} is over. ${scores ? "{scores}: " + scores + "." : ""}`;
    }
    case "start": return "The game starts.";
    case "over": return "The match is over.";
    case "join": return `{${s}} sat down.`;
    case "leave": return `{${s}} left the table.`;
    case "away": return `{${s}} is away.`;
    case "back": return `{${s}} is back.`;
    case "standin": return `A stand-in plays for {${s}}.`;
  }
  return "";
}

// isCard reports whether a word of a move is a card in notation ("7H", "JK").
export function isCard(w: string): boolean { return /^(10|[2-9AJQK])[SHDC]$|^JK$/.test(w); }

// Words draws a template: {N} is seat N's name ("you"/"You" for the
// viewer's own seat), [C] a card in text with its suit symbol and colour,
// {deal} what the game calls a deal (deal, "Deal" when not given),
// {scores} what a deal's scores count ("Points", "Tricks taken"), and
// {totals} what the match's totals count ("Total", "Games won").
// Everything else is text (never markup).
export function Words(p: { text: string; names: string[]; me: number; deal?: string; colours?: string[]; scores?: string; totals?: string }) {
  const out: ComponentChildren[] = [];
  const re = /\{(\d+|deal|scores|totals)\}|\[((?:10|[2-9AJQK])[SHDC]|JK)\]/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(p.text))) {
    if (m.index > last) out.push(p.text.slice(last, m.index));
    if (m[1] === "deal") {
      out.push(p.deal || "Deal");
    } else if (m[1] === "scores") {
      out.push(p.scores || "Scores");
    } else if (m[1] === "totals") {
      out.push(p.totals || "Totals");
    } else if (m[1] !== undefined) {
      const n = Number(m[1]);
      if (n === p.me) {
        const start = /(^|[.!?:]\s+)$/.test(p.text.slice(0, m.index));
        out.push(<b class="who you">{start ? "You" : "you"}</b>);
      } else {
        out.push(<b class="who" style={{ "--seat": (p.colours && p.colours[n]) || SEAT_COLOURS[n % 8] } as any}>{p.names[n] || "Seat " + (n + 1)}</b>);
      }
    } else {
      out.push(<CardText card={m[2]} />);
    }
    last = re.lastIndex;
  }
  if (last < p.text.length) out.push(p.text.slice(last));
  return <>{out}</>;
}

// LiveLog is the log beside the table, newest at the bottom, scrolled to
// the end as lines come; deal is what the game calls a deal ("Hole").
export function LiveLog(p: { entries: Entry[]; names: string[]; me: number; deal: string; over?: string; colours?: string[]; scores?: string; totals?: string }) {
  // The newest line's id, not the count: the log keeps its last lines
  // only, so once full its length no longer grows as lines come.
  const newest = p.entries.length ? p.entries[p.entries.length - 1].id : 0;
  const ref = useStickToEnd<HTMLOListElement>([newest, p.over]);
  const colour = (s: number) => (p.colours && p.colours[s]) || SEAT_COLOURS[s % 8];
  return (
    <section class="panel log-panel" aria-labelledby="log-title">
      <h3 id="log-title">Table log</h3>
      <ol class="live-log" role="log" aria-live="polite" aria-relevant="additions" ref={ref} data-live-log>
        {p.entries.length === 0 && !p.over ? <li class="muted">Moves will be told here as they are made.</li> : null}
        {p.entries.map((e) => (
          <li key={e.id} class={"log-" + e.kind} data-kind={e.kind} data-seat={e.seat}
            style={e.seat !== undefined && e.seat >= 0 ? ({ "--seat": colour(e.seat) } as any) : undefined}>
            <Words text={e.text} names={p.names} me={p.me} deal={p.deal} colours={p.colours} scores={p.scores} totals={p.totals} />
          </li>
        ))}
        {p.over ? <li class="log-over" data-kind="result"><Words text={p.over} names={p.names} me={p.me} colours={p.colours} scores={p.scores} totals={p.totals} /></li> : null}
      </ol>
    </section>
  );
}

// useStickToEnd keeps a scrolled list at its end as lines come and as it
// is resized, unless its reader scrolled up to read (scrolling back to the
// end sticks it again).
export function useStickToEnd<T extends HTMLElement>(deps: unknown[]) {
  const ref = useRef<T>(null);
  const stuck = useRef(true);
  const mark = useRef(0); // where the list was last scrolled to by us
  const toEnd = (el: HTMLElement) => { el.scrollTop = el.scrollHeight; mark.current = el.scrollTop; };
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stuck.current) toEnd(el);
  }, deps);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => {
      if (el.scrollHeight - el.clientHeight - el.scrollTop < 12) stuck.current = true;
      else if (el.scrollTop < mark.current - 2) stuck.current = false; // the reader went up
      else if (stuck.current) toEnd(el); // the lines grew (wrapped again) since
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    const ro = typeof ResizeObserver === "function" ? new ResizeObserver(() => { if (stuck.current) toEnd(el); }) : null;
    ro?.observe(el);
    return () => { el.removeEventListener("scroll", onScroll); ro?.disconnect(); };
  }, []);
  return ref;
}
