// Player statistics at a table (the protocol's ``stats``, docs/statistics.md): a card with
// one player's figures, opened from their name plate, and the Stats view, every player
// seated, side by side. Both count this table's game (a mixed table's game being played),
// over each player's last hands of it on this server, and show in a modal dialog kept
// outside the table's drawing, which redraws at every event.

import { h } from "./dom.js";
import { chips, nameOf } from "./format.js";

const LAST = 1000; // hands counted: each player's newest of this game

/** The figures in order: the key in a ``stats`` line, the label, how it reads, and what
 * it means (the label's title, for people who do not know the abbreviations). */
const FIGURES = [
  ["vpip", "VPIP", pct, "Voluntarily put money in the pot: called or raised on the first betting round"],
  ["pfr", "PFR", pct, "Raised on the first betting round"],
  ["three_bet", "3-bet", pct, "Re-raised a first raise, when they had the chance"],
  ["aggression", "AF", (x) => (x === null ? "–" : x.toFixed(2)), "Aggression factor: bets and raises per call, after the first betting round"],
  ["wtsd", "WTSD", pct, "Went to showdown, of the hands that saw the flop (the second betting round)"],
  ["wsd", "W$SD", pct, "Won money at showdown, of the showdowns"],
];

function pct(x) { return x === null ? "–" : `${(100 * x).toFixed(1)}%`; }

const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`;

/** "+12.3" and "95%: −40.1 to +64.7", or a dash with why. */
function rate(i) {
  if (!i) return { rate: "–", interval: "needs two hands" };
  return { rate: signed(i.rate), interval: `95%: ${signed(i.low)} to ${signed(i.high)}` };
}

/** The key of the game the table plays now (a mixed table's current game). */
function gameKey(t) {
  const s = t.summary;
  if (!s) return "nlhe";
  if (s.mix && s.mix.game) return s.mix.game;
  return s.game && s.game.key ? s.game.key : "nlhe";
}

let open = null; // the dialog on screen: {dialog, table}

/** Close the statistics (leaving the table closes them too). */
export function closeStats() {
  if (open) open.dialog.close();
}

/** A modal dialog with ``title`` and ``body``, closed by its button, Escape, or a click
 * outside it; focus goes back to the button that opened it, redrawn or not. */
function show(t, title, body, opener) {
  closeStats();
  const close = h("button", { type: "button", class: "close", "aria-label": "close", "data-testid": "stats-close" }, "×");
  const heading = h("h2", { id: "stats-title" }, title);
  const dialog = h("dialog", { class: "stats-card", "aria-labelledby": "stats-title", "data-testid": "stats-card" },
    h("div", { class: "stats-head" }, heading, close), body);
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); }); // the backdrop
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (open && open.dialog === dialog) open = null;
    const again = opener && document.querySelector(opener);
    if (again) again.focus();
  });
  document.body.append(dialog);
  open = { dialog, table: t.id };
  dialog.showModal();
  close.focus();
  return dialog;
}

/** Ask the server, then fill ``box`` with ``draw(reply)``; the error if it refuses. */
async function fill(app, box, message, draw) {
  box.replaceChildren(h("p", { class: "muted", "data-testid": "stats-loading" }, "Counting…"));
  try {
    const r = await app.conn.request({ type: "stats", last: LAST, ...message });
    if (box.isConnected) box.replaceChildren(draw(r));
  } catch (err) {
    if (box.isConnected) box.replaceChildren(h("p", { class: "error", "data-testid": "stats-error" }, `Cannot count: ${err.message}`));
  }
}

/** The card of one player, from their seat's name plate: their figures at this game. */
export function openPlayerStats(app, t, name, seat) {
  const key = gameKey(t);
  const box = h("div", { class: "stats-body" });
  show(t, name, box, `[data-testid="name-${seat}"]`);
  fill(app, box, { players: [name], game: key }, (r) => playerCard(r.players[0], key));
}

function playerCard(p, key) {
  const won = rate(p.bb_per_100), adjusted = rate(p.adjusted_bb_per_100);
  return h("div", {},
    h("p", { class: "stats-over", "data-testid": "stats-over" }, h("b", { "data-stat": "hands" }, chips(p.hands)),
      ` hand${p.hands === 1 ? "" : "s"} of ${nameOf(key)}`, h("span", { class: "muted" }, ` (the last ${chips(LAST)} here at most)`)),
    h("dl", { class: "figures" },
      FIGURES.map(([k, label, text, title]) => h("div", {},
        h("dt", {}, h("abbr", { title }, label)), h("dd", { "data-stat": k }, text(p[k]))))),
    h("div", { class: "winrate" },
      h("div", {}, h("span", { class: "label" }, "bb/100"), h("b", { "data-stat": "bb_per_100" }, won.rate),
        h("small", { "data-stat": "bb_interval" }, won.interval)),
      h("div", {}, h("span", { class: "label", title: "Each all-in before the last card counted at its equity, not its run-out" }, "all-in adjusted bb/100"),
        h("b", { "data-stat": "adjusted_bb_per_100" }, adjusted.rate), h("small", {}, adjusted.interval))));
}

/** The Stats view: every player seated, one row each, at this table's game. */
export function openTableStats(app, t) {
  const key = gameKey(t);
  const names = t.view ? t.view.seats.map((s) => s.name).filter(Boolean) : [];
  const box = h("div", { class: "stats-body" });
  show(t, "Player stats", box, '[data-testid="table-stats"]');
  if (!names.length) { box.replaceChildren(h("p", { class: "muted" }, "Nobody is seated.")); return; }
  fill(app, box, { players: names, game: key }, (r) => h("div", {},
    h("p", { class: "muted stats-over" }, `${nameOf(key)}: each player's last ${chips(LAST)} hands here at most`),
    h("div", { class: "stats-scroll" }, h("table", { class: "list stats-table", "data-testid": "stats-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Hands"),
        FIGURES.map(([, label, , title]) => h("th", { scope: "col" }, h("abbr", { title }, label))),
        h("th", { scope: "col" }, "bb/100 (95%)"))),
      h("tbody", {}, r.players.map((p) => {
        const won = rate(p.bb_per_100);
        // Each cell's label too: a phone shows each row as a card of labelled figures.
        return h("tr", { "data-player": p.name }, h("th", { scope: "row" }, p.name),
          h("td", { "data-stat": "hands", "data-label": "Hands" }, chips(p.hands)),
          FIGURES.map(([k, label, text]) => h("td", { "data-stat": k, "data-label": label }, text(p[k]))),
          h("td", { "data-stat": "bb_per_100", "data-label": "bb/100" }, won.rate, h("small", {}, won.interval)));
      }))))));
}
