// Table chat: seated players write, everyone at the table reads. Messages
// are text, drawn as text (never as markup).
import { useState } from "preact/hooks";
import type { ChatMsg } from "./api";
import { SEAT_COLOURS } from "./board";
import { useStickToEnd } from "./log";

// MAX_CHAT is the longest message, in characters (code points), as the
// server counts them after trimming.
export const MAX_CHAT = 500;

// chatLength is a message's length as the server counts it.
export function chatLength(text: string): number { return Array.from(text.trim()).length; }

function clock(at: string): string {
  const d = new Date(at);
  if (isNaN(d.getTime())) return "";
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// Chat is the chat panel: the messages, and a box to write for a seated
// player (send answers false when the message could not be sent).
export function Chat(p: { messages: ChatMsg[]; canWrite: boolean; send: (text: string) => boolean; refusal: string; me: number }) {
  const [text, setText] = useState("");
  const [local, setLocal] = useState("");
  const list = useStickToEnd<HTMLOListElement>([p.messages.length]);
  const n = chatLength(text);
  const tooLong = n > MAX_CHAT;
  const submit = (e: Event) => {
    e.preventDefault();
    if (n === 0) { setLocal("Write something first."); return; }
    if (tooLong) { setLocal(`Too long: ${n} characters, at most ${MAX_CHAT}.`); return; }
    setLocal("");
    if (p.send(text.trim())) setText("");
  };
  const reason = tooLong ? `Too long: ${n} characters, at most ${MAX_CHAT}.` : local || p.refusal;
  return (
    <section class="panel chat-panel" aria-labelledby="chat-title">
      <h3 id="chat-title">Chat</h3>
      <ol class="chat-list" ref={list} aria-live="polite" aria-label="chat messages" data-chat-log>
        {p.messages.length === 0 ? <li class="muted">No messages yet.</li> : null}
        {p.messages.map((m) => (
          <li class={"chat-msg" + (m.seat === p.me ? " mine" : "")} data-chat-seat={m.seat}>
            <b class="who" style={{ "--seat": SEAT_COLOURS[((m.seat % 8) + 8) % 8] } as any}>{m.name || "Seat " + (m.seat + 1)}</b>
            <time dateTime={m.at}>{clock(m.at)}</time>
            <span class="chat-text" data-chat-text>{m.text}</span>
          </li>
        ))}
      </ol>
      {p.canWrite ? (
        <form class="chat-form" onSubmit={submit} data-chat-form>
          <input name="chat" aria-label="a message to the table" placeholder="Say something…" value={text} autocomplete="off"
            aria-invalid={tooLong ? "true" : undefined} aria-describedby="chat-count"
            onInput={(e) => { setText((e.target as HTMLInputElement).value); setLocal(""); }} />
          <button type="submit" disabled={n === 0 || tooLong}>Send</button>
          <span id="chat-count" class={"chat-count" + (tooLong ? " over" : "")} data-chat-count>{n}/{MAX_CHAT}</span>
        </form>
      ) : <p class="muted small" data-chat-readonly>Spectators read the chat; take a seat to write.</p>}
      {reason ? <p class="chat-refusal" role="alert" data-chat-refusal>{reason}</p> : null}
    </section>
  );
}
