// Player statistics at a table (the protocol's ``stats``, docs/statistics.md): a card with
// one player's figures at this game (a mixed table's game being played), opened from their
// name plate; the Stats panel, every player seated, tonight (the last 12 hours) and all
// time at this table; and the HUD, a tooltip of four figures on a name plate hovered or
// focused. The card and the panel show in a modal dialog kept outside the table's
// drawing, which redraws at every event. The server limits ``stats`` per address
// (too_many_stats): requests go one at a time, and the HUD's answers are kept, asked again
// at most once a hand.

import { h } from "./dom.js";
import { chips, nameOf } from "./format.js";
import { invited } from "./host.js";

const LAST = 1000; // hands counted: each player's newest of this game
const ALL = 5000; // the most one request counts (the server's MAX_HANDS)
export const TONIGHT_HOURS = 12;

/** "Tonight": the moment 12 hours ago, in ISO with its zone (Z), for ``since``. */
export const tonight = () => new Date(Date.now() - TONIGHT_HOURS * 3600_000).toISOString();

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

/** Close the dialog on screen (leaving the table closes it too), and the HUD. */
export function closeStats() {
  if (open) open.dialog.close();
  hideHud();
}

/** A modal dialog with ``title`` and ``body``, closed by its button, Escape, or a click
 * outside it; focus goes back to the button that opened it (a selector: the button may
 * be redrawn meanwhile). ``testid`` and ``kind``: the dialog's test id and class (the
 * settle-up dialog's, settle.js). */
export function openDialog(t, title, body, opener, { testid = "stats-card", kind = "stats-card" } = {}) {
  closeStats();
  const close = h("button", { type: "button", class: "close", "aria-label": "close", "data-testid": `${testid === "stats-card" ? "stats" : testid}-close` }, "×");
  const heading = h("h2", { id: "stats-title" }, title);
  const dialog = h("dialog", { class: kind, "aria-labelledby": "stats-title", "data-testid": testid },
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

const show = openDialog;

let queue = Promise.resolve(); // stats requests, one at a time (the server's limit per address)

/** Ask the server for ``stats``, after the requests before it. Refused as too many at
 * once or the server busy (another tab, the HUD), it waits and asks again, twice. */
export function askStats(app, message) {
  const run = async () => {
    for (let wait = 1000; ; wait *= 2) {
      try {
        return await app.conn.request({ type: "stats", ...message });
      } catch (err) {
        if (err.code !== "too_many_stats" || /a minute/.test(err.message) || wait > 2000) throw err;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  };
  const answer = queue.then(run, run);
  queue = answer.catch(() => {});
  return answer;
}

/** Ask the server, then fill ``box`` with ``draw(reply)``; the error if it refuses. */
async function fill(app, box, message, draw) {
  box.replaceChildren(h("p", { class: "muted", "data-testid": "stats-loading" }, "Counting…"));
  try {
    const r = await askStats(app, { last: LAST, ...message });
    if (box.isConnected) box.replaceChildren(draw(r));
  } catch (err) {
    if (box.isConnected) box.replaceChildren(h("p", { class: "error", "data-testid": "stats-error" }, `Cannot count: ${err.message}`));
  }
}

/** The card of one player, from their seat's name plate: their figures at this game; at
 * a private table, at this table (the server counts a private table's hands only when
 * asked for that table, by those at it: docs/statistics.md). */
export function openPlayerStats(app, t, name, seat) {
  const key = gameKey(t);
  const box = h("div", { class: "stats-body" });
  show(t, name, box, `[data-testid="name-${seat}"]`);
  const here = invited(t.id) ? { table: t.id } : {};
  fill(app, box, { players: [name], game: key, ...here }, (r) => playerCard(r.players[0], key, here.table ? "at this table" : "here"));
}

function playerCard(p, key, where) {
  const won = rate(p.bb_per_100), adjusted = rate(p.adjusted_bb_per_100);
  return h("div", {},
    h("p", { class: "stats-over", "data-testid": "stats-over" }, h("b", { "data-stat": "hands" }, chips(p.hands)),
      ` hand${p.hands === 1 ? "" : "s"} of ${nameOf(key)}`, h("span", { class: "muted" }, ` (the last ${chips(LAST)} ${where} at most)`)),
    h("dl", { class: "figures" },
      FIGURES.map(([k, label, text, title]) => h("div", {},
        h("dt", {}, h("abbr", { title }, label)), h("dd", { "data-stat": k }, text(p[k]))))),
    h("div", { class: "winrate" },
      h("div", {}, h("span", { class: "label" }, "bb/100"), h("b", { "data-stat": "bb_per_100" }, won.rate),
        h("small", { "data-stat": "bb_interval" }, won.interval)),
      h("div", {}, h("span", { class: "label", title: "Each all-in before the last card counted at its equity, not its run-out" }, "all-in adjusted bb/100"),
        h("b", { "data-stat": "adjusted_bb_per_100" }, adjusted.rate), h("small", {}, adjusted.interval))));
}

/** The figures of the Stats panel: the card's, then the chips won. */
const NET = [
  ["net", "Net", (x) => signedChips(x), "Chips won minus chips put in"],
  ["adjusted_net", "Adj. net", (x) => signedChips(x), "Net with each all-in before the last card counted at its equity, not its run-out"],
];

/** +1,250 or −300 (chips; an adjusted net rounded). */
export function signedChips(x) {
  if (x === null || x === undefined) return "–";
  const n = Math.round(x);
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${chips(Math.abs(n))}`;
}

/** The Stats panel: every player seated, one row each, tonight (the last 12 hours) and
 * all time at this table. */
export function openTableStats(app, t) {
  const names = t.view ? t.view.seats.map((s) => s.name).filter(Boolean) : [];
  const tonightBox = h("div", { class: "stats-part", "data-testid": "stats-tonight" });
  const allBox = h("div", { class: "stats-part", "data-testid": "stats-all-time" });
  const body = h("div", { class: "stats-body" },
    h("h3", {}, "Tonight ", h("span", { class: "muted" }, `(the last ${TONIGHT_HOURS} hours)`)), tonightBox,
    h("h3", {}, "All time at this table ", h("span", { class: "muted" }, `(the last ${chips(ALL)} hands at most)`)), allBox);
  show(t, "Player stats", body, '[data-testid="table-stats"]');
  if (!names.length) { body.replaceChildren(h("p", { class: "muted" }, "Nobody is seated.")); return; }
  const table = t.id;
  fill(app, tonightBox, { players: names, table, last: ALL, since: tonight() }, (r) => statsTable(names, r));
  fill(app, allBox, { players: names, table, last: ALL }, (r) => {
    keepForHud(table, t.view ? t.view.hand_number : 0, r);
    return statsTable(names, r);
  });
}

function statsTable(names, r) {
  const byName = new Map(r.players.map((p) => [p.name, p]));
  const columns = [["hands", "Hands", chips, "Hands dealt in"], ...FIGURES, ...NET];
  return h("div", { class: "stats-scroll" }, h("table", { class: "list stats-table", "data-testid": "stats-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"),
      columns.map(([, label, , title]) => h("th", { scope: "col" }, h("abbr", { title }, label))))),
    h("tbody", {}, names.map((name) => {
      const p = byName.get(name);
      // Each cell's label too: a phone shows each row as a card of labelled figures.
      return h("tr", { "data-player": name }, h("th", { scope: "row" }, name),
        columns.map(([k, label, text]) => {
          const value = p ? p[k] : k === "hands" ? 0 : null;
          const sign = (k === "net" || k === "adjusted_net") && value ? (value > 0 ? "won" : "lost") : null;
          return h("td", { "data-stat": k, "data-label": label, class: sign }, text(value));
        }));
    }))));
}

// -- the HUD: four figures on a name plate ---------------------------------------------------

const HUD_FIGURES = [["hands", "Hands", chips], ["vpip", "VPIP", pct], ["pfr", "PFR", pct], ["aggression", "AF", FIGURES[3][2]]];
const hudKept = new Map(); // "table\nname" -> {hand, line}: all time at the table, as of that hand
let hudAsking = null; // the table whose figures are being asked
let hudFailed = null; // when the last request was refused (ms): no new one for a while
let hud = null; // {el, plate} on screen
let dismissed = null; // the plate whose HUD Escape hid, while it is still hovered or focused

function keepForHud(table, hand, r) {
  for (const p of r.players) hudKept.set(`${table}\n${p.name}`, { hand, line: p });
}

function hideHud() {
  if (!hud) return;
  hud.plate.removeAttribute("aria-describedby");
  hud.el.remove();
  hud = null;
}

/** The tooltip under ``plate`` (a seat's name plate) for player ``name``. */
function drawHud(app, plate, name) {
  const t = app.table;
  if (!t || !plate.isConnected) return;
  const kept = hudKept.get(`${t.id}\n${name}`);
  const el = hud && hud.plate === plate ? hud.el : h("div", { class: "hud", role: "tooltip", id: "hud", "data-testid": "hud" });
  if (!hud || hud.plate !== plate) { hideHud(); document.body.append(el); hud = { el, plate }; }
  el.dataset.player = name;
  const line = kept ? kept.line : null;
  el.replaceChildren(h("b", {}, name),
    line ? h("span", { class: "hud-figures" }, HUD_FIGURES.map(([k, label, text]) =>
      h("span", {}, h("small", {}, label), " ", h("span", { "data-stat": k }, text(line[k])))))
      : h("span", { class: "muted" }, kept && !kept.line ? "no hands here yet" : hudFailed !== null ? "busy: try again shortly" : "counting…"));
  plate.setAttribute("aria-describedby", "hud");
  placeHud();
}

/** Under its plate, which moves as its seat grows and shrinks (called after a redraw);
 * gone with the plate (its player left). */
export function placeHud() {
  if (!hud) return;
  if (!hud.plate.isConnected) { hideHud(); return; }
  const r = hud.plate.getBoundingClientRect();
  hud.el.style.left = `${window.scrollX + r.left + r.width / 2}px`;
  hud.el.style.top = `${window.scrollY + r.bottom + 4}px`;
}

/** Everyone seated's all-time figures at the table, once a hand: one request for every
 * player whose figures are older than this hand. */
async function askHud(app) {
  const t = app.table;
  if (!t || !t.view || hudAsking === t.id || (hudFailed !== null && performance.now() - hudFailed < 5000)) return;
  const hand = t.view.hand_number || 0;
  const names = t.view.seats.map((s) => s.name).filter((n) => n && (hudKept.get(`${t.id}\n${n}`)?.hand ?? -1) !== hand);
  if (!names.length) return;
  hudAsking = t.id;
  try {
    const r = await askStats(app, { players: names.slice(0, 10), table: t.id, last: ALL });
    keepForHud(t.id, hand, r);
    for (const n of names) if (!r.players.some((p) => p.name === n)) hudKept.set(`${t.id}\n${n}`, { hand, line: null });
    hudFailed = null;
  } catch {
    hudFailed = performance.now();
  } finally {
    hudAsking = null;
  }
  if (hud && hud.plate.isConnected) drawHud(app, hud.plate, hud.plate.dataset.name);
}

/** Hovering or focusing a seat's name plate shows its player's HUD; leaving it, or
 * Escape, hides it. Listened for once, on the document: the plates come and go. */
export function listenForHud(app) {
  const plateOf = (e) => (e.target instanceof Element ? e.target.closest(".room button.name[data-name]") : null);
  const enter = (e) => {
    const plate = plateOf(e);
    // Already shown: the pointer "enters" again each time the table redraws under it, and
    // a focused plate is focused again; one hidden with Escape stays hidden until left.
    if (!plate || (hud && hud.plate === plate) || plate === dismissed) return;
    dismissed = null;
    drawHud(app, plate, plate.dataset.name);
    askHud(app);
  };
  const leave = (e) => {
    const plate = plateOf(e);
    if (plate && plate === dismissed && e.relatedTarget && !plate.contains(e.relatedTarget)) dismissed = null;
    if (plate && hud && hud.plate === plate && !plate.contains(e.relatedTarget)) hideHud();
  };
  document.addEventListener("mouseover", enter);
  document.addEventListener("focusin", enter);
  document.addEventListener("mouseout", leave);
  document.addEventListener("focusout", leave);
  // The table redraws under a still pointer, so a plate's mouseout can be missed: the
  // pointer moving off the plate (and the plate not focused) hides it too.
  document.addEventListener("mousemove", (e) => {
    if (hud && !hud.plate.contains(e.target) && document.activeElement !== hud.plate) hideHud();
    if (dismissed && !dismissed.contains(e.target) && document.activeElement !== dismissed) dismissed = null;
  }, { passive: true });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !hud) return;
    dismissed = hud.plate;
    hideHud();
  });
}
