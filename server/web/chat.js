// Table chat and emoji reactions (the protocol's ``chat`` and ``react``): a panel at the
// table with the last lines (the snapshot's ``chat``, then each ``chat`` message), a box
// to type in and a row of reactions. A reaction floats for a moment over the sender's
// seat, or over the panel for someone watching. Every text is shown as text (the DOM's
// text nodes, never markup): a message is whatever its sender typed. The panel is one
// element per table, kept across the table's redraws (drawTable rebuilds the page at
// every event), so what is being typed and the keyboard's focus stay.

import { h } from "./dom.js";

export const REACTIONS = ["👍", "👏", "😂", "😮", "😢", "😡", "🔥", "🤝"];
const MAX_LENGTH = 200; // the server's limit (protocol.Chat)
const KEPT = 100; // lines kept on screen
const FLOAT_MS = 2200; // how long a reaction floats

let chat = null; // the panel of the table on screen: {table, el, list, input, note, lines}

/** The table's panel, made on first use (and again for another table). */
function panel(app, table) {
  if (chat && chat.table === table) return chat;
  const list = h("ol", { class: "chat-lines", "data-testid": "chat-lines", "aria-live": "polite", "aria-label": "chat" });
  const input = h("input", { type: "text", maxlength: MAX_LENGTH, placeholder: "Say something", autocomplete: "off",
    "aria-label": "chat message", "data-testid": "chat-input", enterkeyhint: "send" });
  const note = h("p", { class: "error chat-error", "data-testid": "chat-error", "aria-live": "polite" });
  const form = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); send(app, table); } },
    input, h("button", { type: "submit", "data-testid": "chat-send" }, "Send"));
  const reactions = h("div", { class: "reactions", role: "group", "aria-label": "reactions" },
    REACTIONS.map((emoji) => h("button", { type: "button", class: "reaction", "data-testid": "react", "data-emoji": emoji,
      title: `react ${emoji}`, "aria-label": `react ${emoji}`, onclick: () => react(app, table, emoji) }, emoji)));
  const el = h("section", { class: "chat", "data-testid": "chat", "aria-label": "table chat" },
    h("h3", {}, "Chat"), list, form, reactions, note);
  chat = { table, el, list, input, note, lines: [], bottom: true, scroll: 0 };
  // Where the list was scrolled: a redraw moves the panel, which forgets it.
  const c = chat;
  list.addEventListener("scroll", () => {
    if (!list.isConnected) return;
    c.scroll = list.scrollTop;
    c.bottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  });
  return chat;
}

function lineView(m) {
  const who = m.name || "?";
  const at = m.at ? new Date(m.at) : null;
  return h("li", { "data-name": who, title: at && !Number.isNaN(at.getTime()) ? at.toLocaleTimeString() : null },
    h("b", { class: m.seat === null || m.seat === undefined ? "watcher" : null }, who), " ", h("span", { class: "text", dir: "auto" }, m.text));
}

function say(c, text) { c.note.textContent = text || ""; }

async function send(app, table) {
  const c = panel(app, table);
  const text = c.input.value.trim();
  if (!text) return;
  try {
    await app.conn.request({ type: "chat", table, text });
    c.input.value = "";
    say(c, "");
  } catch (err) {
    say(c, refusal(err));
  }
}

async function react(app, table, emoji) {
  const c = panel(app, table);
  try {
    await app.conn.request({ type: "react", table, emoji });
    say(c, "");
  } catch (err) {
    say(c, refusal(err));
  }
}

/** The server's refusal, said for the person who typed. */
function refusal(err) {
  switch (err.code) {
    case "muted": return "The host has muted you at this table.";
    case "no_chat": return "Spectators do not chat at this table (its host decides).";
    case "too_fast": return "Slow down: at most 5 messages in 10 seconds.";
    case "not_watching": return "Watch the table or sit down to chat.";
    default: return err.message;
  }
}

function add(c, m) {
  c.lines.push(m);
  c.list.append(lineView(m));
  while (c.list.children.length > KEPT) c.list.firstElementChild.remove();
  if (c.bottom) c.list.scrollTop = c.list.scrollHeight;
}

/** A snapshot (spectate, resume, a seat taken): its last chat lines replace ours. */
export function chatSnapshot(app, table, snapshot) {
  if (!snapshot || !Array.isArray(snapshot.chat)) return;
  const c = panel(app, table);
  c.lines = [];
  c.list.replaceChildren();
  for (const m of snapshot.chat) add(c, m);
}

/** The server's ``chat`` and ``reaction`` for the table on screen; true when handled.
 * A host's mute of us is noted (the message goes on to host.js too). */
export function chatMessage(app, m) {
  const t = app.table;
  if (!t || m.table !== t.id) return false;
  if (m.type === "chat") {
    add(panel(app, t.id), m);
    return true;
  }
  if (m.type === "reaction") {
    float(m);
    return true;
  }
  if (m.type === "host_action" && (m.action === "mute" || m.action === "unmute") && m.player === app.conn.player?.name) {
    say(panel(app, t.id), m.action === "mute" ? "The host has muted you at this table." : "");
  }
  return false;
}

/** A reaction rises from the sender's seat (or the chat panel) and fades. */
function float(m) {
  const seat = m.seat !== null && m.seat !== undefined ? document.querySelector(`.room [data-testid="seat-${m.seat}"]`) : null;
  const anchor = seat || (chat && chat.el.isConnected ? chat.list : null);
  const el = h("span", { class: "reaction-float", "data-testid": "reaction", "data-name": m.name, "data-seat": m.seat ?? "",
    role: "img", "aria-label": `${m.name}: ${m.emoji}` }, m.emoji, h("small", {}, m.name));
  if (anchor) {
    const r = anchor.getBoundingClientRect();
    el.style.left = `${window.scrollX + r.left + r.width / 2}px`;
    el.style.top = `${window.scrollY + r.top + (seat ? 0 : r.height / 2)}px`;
  } else {
    el.classList.add("nowhere");
  }
  document.body.append(el);
  setTimeout(() => el.remove(), FLOAT_MS);
}

/** Put the panel in the table's side panel, before the hand log (after every redraw). */
export function drawChat(app, focused) {
  const t = app.table;
  const side = app.main.querySelector(".table-screen .panel");
  if (!t || !side) return;
  const c = panel(app, t.id);
  const log = side.querySelector(":scope > .log");
  if (log) side.insertBefore(c.el, log);
  else side.append(c.el);
  c.list.scrollTop = c.bottom ? c.list.scrollHeight : c.scroll;
  if (focused && c.el.contains(focused.el) && document.activeElement !== focused.el) {
    focused.el.focus();
    if (focused.el === c.input && focused.start !== null) c.input.setSelectionRange(focused.start, focused.end);
  }
}

/** Leaving the table: its panel goes. */
export function closeChat() {
  chat = null;
  for (const el of document.querySelectorAll(".reaction-float")) el.remove();
}
