// My hands and the hand viewer: the hands we played, a page at a time, and one stored
// hand of any game stepped through event by event, drawn with the table's own model and
// felt.

import { card, h } from "./dom.js";
import { POT_NAME, chips, gameName, stakes } from "./format.js";
import { TableModel } from "./model.js";
import { placeSeats } from "./layout.js";
import { felt, logView, results } from "./table.js";

export async function showHands(app) {
  const box = h("div", { "data-testid": "hands" }, "Loading your hands…");
  app.main.replaceChildren(h("section", {}, h("h2", {}, "Your recent hands"), box));
  if (!app.conn.player) { box.textContent = "Say who you are in the lobby to see your hands."; return; }
  const rows = h("tbody");
  const more = h("button", { "data-testid": "more-hands" }, "Older hands");
  const page = async (before) => {
    // One more than a page: whether there are older hands to offer.
    const r = await app.conn.request({ type: "hands", limit: app.handsPage + 1, ...(before ? { before } : {}) });
    const older = r.hands.length > app.handsPage;
    r.hands = r.hands.slice(0, app.handsPage);
    rows.append(...r.hands.map((x) => h("tr", { "data-hand": x.id },
      h("td", {}, `#${x.hand_number}`), h("td", {}, x.table), h("td", {}, new Date(x.started_at).toLocaleString()),
      h("td", {}, x.board.map((c) => card(c, "small"))), h("td", {}, chips(x.pot)),
      h("td", { class: x.net > 0 ? "won" : x.net < 0 ? "lost" : "" }, `${x.net > 0 ? "+" : ""}${chips(x.net)}`),
      h("td", {}, h("a", { class: "button", href: `#/hand/${x.id}`, "data-testid": "replay" }, "Replay")))));
    // Hands come newest first, ids falling.
    more.hidden = !older;
    more.onclick = () => page(r.hands[r.hands.length - 1].id).catch((err) => { more.textContent = err.message; });
    return r.hands.length;
  };
  try {
    if (!(await page(null))) { box.textContent = "No hands yet."; return; }
    box.replaceChildren(h("table", { class: "list" },
      h("thead", {}, h("tr", {}, ["Hand", "Table", "When", "Board", "Pot", "You", ""].map((x) => h("th", {}, x)))),
      rows), more);
  } catch (err) {
    box.textContent = `Cannot list your hands: ${err.message}`;
  }
}

export async function showViewer(app, id) {
  app.main.replaceChildren(h("p", {}, "Loading the hand…"));
  let hand;
  try {
    hand = await app.conn.request({ type: "hand", hand_id: id });
  } catch (err) {
    app.main.replaceChildren(h("p", { class: "error" }, `Cannot open hand ${id}: ${err.message}`));
    return;
  }
  app.viewer = { hand, step: 0, timer: null };
  drawViewer(app);
}

/** The hand after its first ``step`` events, drawn with the table's own code. */
function drawViewer(app) {
  const { hand, step } = app.viewer;
  const t = TableModel.replay(hand, step + 1);
  const total = hand.events.length;
  const go = (n) => { app.viewer.step = Math.max(0, Math.min(total - 1, n)); drawViewer(app); };
  const play = () => {
    if (app.viewer.timer) { clearInterval(app.viewer.timer); app.viewer.timer = null; drawViewer(app); return; }
    app.viewer.timer = setInterval(() => {
      if (!app.viewer || app.viewer.step >= total - 1) { clearInterval(app.viewer?.timer); if (app.viewer) { app.viewer.timer = null; drawViewer(app); } return; }
      go(app.viewer.step + 1);
    }, 700);
    drawViewer(app);
  };
  // A format with no words for the game (PokerStars deals no poker dice) has no text.
  const download = (format, text, ext) => !text ? null : h("button", { "data-testid": `download-${format}`, onclick: () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    h("a", { href: url, download: `pokerroom-hand-${hand.hand_id}.${ext}` }).click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } }, format === "phh" ? "Download PHH" : "Download PokerStars");
  const me = t.mySeat();
  app.main.replaceChildren(h("section", { class: "table-screen viewer", "data-testid": "viewer" },
    h("div", { class: "room" }, felt(t, me)),
    h("aside", { class: "panel" },
      h("h2", {}, `${hand.table} #${hand.hand_number}`, h("small", {}, ` ${new Date(hand.started_at).toLocaleString()}`)),
      hand.game ? h("p", { class: "game-line", "data-testid": "game" }, gameName(t.summary), h("span", { class: "muted" }, ` · ${stakes({ ...hand, game: t.game })}`)) : null,
      h("div", { class: "steps" },
        h("button", { "data-testid": "first", onclick: () => go(0) }, "« Start"),
        h("button", { "data-testid": "prev", onclick: () => go(step - 1), disabled: step === 0 }, "◀ Prev"),
        h("button", { "data-testid": "play", onclick: play }, app.viewer.timer ? "Pause" : "▶ Play"),
        h("button", { "data-testid": "next", onclick: () => go(step + 1), disabled: step >= total - 1 }, "Next ▶"),
        h("span", { "data-testid": "step" }, `${step + 1} / ${total}`)),
      h("div", { class: "chapters", "data-testid": "chapters" }, chapters(hand).map(([label, at, id]) =>
        h("button", { type: "button", "data-testid": `jump-${id}`, "aria-current": at === step ? "step" : null, onclick: () => go(at) }, label))),
      summary(t, hand),
      h("div", { class: "downloads" }, download("phh", hand.phh, "phh"), download("pokerstars", hand.pokerstars, "txt")),
      results(t), logView(t))));
  placeSeats(app.main.querySelector(".felt"));
}

const DEALS = new Set(["hole_cards_dealt", "up_cards_dealt", "board_dealt", "forced_bet_posted"]);
const title = (street) => `${street[0].toUpperCase()}${street.slice(1).replace(/_/g, " ")}`;

/** Where each street starts, to jump to: its cards dealt, before anyone acts (the first
 * street once every card is out; a draw with its first draw), and the result at the end:
 * ``[label, step, id]``. */
function chapters(hand) {
  const out = [], seen = new Set(), events = hand.events;
  events.forEach((e, i) => {
    if (!e.street || seen.has(e.street)) return;
    seen.add(e.street);
    let at = e.type === "action_taken" ? i - 1 : i;
    while (at + 1 < events.length && DEALS.has(events[at + 1].type) && events[at + 1].type !== "forced_bet_posted") at += 1;
    out.push([title(e.street), Math.max(0, at), e.street]);
  });
  const awarded = events.findIndex((e) => e.type === "pot_awarded");
  if (awarded >= 0) out.push(["Result", events.length - 1, "result"]);
  return out;
}

/** The hand in a line or two, whatever the step: who won which pot with what, and the
 * pot, so the end is known before stepping to it. */
function summary(t, hand) {
  const awards = hand.events.filter((e) => e.type === "pot_awarded");
  if (!awards.length) return null;
  const pot = awards.reduce((sum, e) => sum + e.amount, 0);
  const name = (seat) => (hand.players.find((p) => p.seat === seat) || { name: `seat ${seat + 1}` }).name;
  return h("div", { class: "viewer-summary", "data-testid": "viewer-summary" },
    h("b", {}, `Pot ${chips(pot)}`),
    awards.map((e) => h("div", {}, e.shares.map(([s, n]) => `${name(s)} wins ${chips(n)}`).join(", "),
      awards.length > 1 ? ` (${POT_NAME(e.pot)}${e.half ? `, ${e.half}` : ""})` : "",
      e.description ? ` with ${e.description}` : "")));
}
