// Home games (docs/home-games.md): hosting a private table (and its options: straddles,
// bomb pots, run it twice, the 7-2 bounty, the pause to show cards), its invite link,
// asking for a seat with it, the host's panel at the table, and the seat token that
// brings a player back to their seat after a reload. The app calls in at a few places
// (app.js: its constructor, connected, message, route and draw; lobby.js: the lobby's
// form). The table's own option messages (straddle, bomb_pot_votes) pass through here
// to the table's model: app.js hands every message here first.

import { KEYS } from "./connection.js";
import { h } from "./dom.js";
import { buyIn as defaultBuyIn, catalogue, lobbyGame, stakes, stakesKind } from "./format.js";

const SEAT = (table) => `pokerroom.seat.${table}`;
const INVITE = (table) => `pokerroom.invite.${table}`;
/** Whether this browser holds the invite of private table ``table`` (its host's, or a
 * guest's from the link): the table's records are for those who do. */
export const invited = (table) => localStorage.getItem(INVITE(table)) !== null;
const STRATEGIES = ["calling-station", "tight-aggressive", "random"];

/** What the page knows of the tables it hosts: table id -> host_state, kept current. */
const hosted = new Map();

/** Remember every seat's token a reply brings (a sit, a request approved): a reload, a
 * new tab or a browser opened again comes back to the seat with it (hello, resume). */
export function keepSeatTokens(app) {
  const request = app.conn.request.bind(app.conn);
  app.conn.request = async (message) => {
    const reply = await request(message);
    if (reply && reply.type === "seated" && reply.seat_token) localStorage.setItem(SEAT(reply.table), reply.seat_token);
    return reply;
  };
}

/** Before any other hello: on a table's page with no session in this tab, the seat
 * token kept for that table (null when there is none, or the seat is gone). */
export async function seatHello(app) {
  const [, page, table] = location.hash.split("/");
  const id = page === "table" || page === "join" ? decodeURIComponent(table || "") : "";
  const token = id && localStorage.getItem(SEAT(id));
  if (!token || sessionStorage.getItem(KEYS.session)) return null;
  try {
    return app.conn.welcomed(await app.conn.request({ type: "hello", version: 1, seat_token: token }));
  } catch {
    localStorage.removeItem(SEAT(id)); // the seat is gone (left, or the server restarted)
    return null;
  }
}

/** The server's messages about private tables; true when handled here. */
export function hostMessage(app, m) {
  const t = app.table;
  switch (m.type) {
    case "host_state": // the mutes and spectators' chat too, after a reload
      hosted.set(m.table, { ...m, muted: new Set(m.muted || []), spectatorChat: !!m.spectator_chat });
      break;
    case "seat_request": {
      const state = hosted.get(m.table);
      if (state) state.requests = [...state.requests.filter((r) => r.player !== m.player), { player: m.player, buy_in: m.buy_in, seat: m.seat }];
      break;
    }
    case "seated":
      localStorage.setItem(SEAT(m.table), m.seat_token);
      if (t && t.id === m.table) t.error = null;
      break;
    case "seat_rejected":
      if (t && t.id === m.table) t.error = "The host said no to your request.";
      break;
    case "host_action": {
      const state = hosted.get(m.table);
      if (state && (m.action === "mute" || m.action === "unmute")) {
        state.muted = new Set(state.muted || []);
        state.muted[m.action === "mute" ? "add" : "delete"](m.player);
      }
      if (state && m.action === "spectator_chat") state.spectatorChat = m.on;
      if (t && t.id === m.table && t.view) {
        // Who sits where: a private table is not in the lobby, where names come from.
        if (m.seat !== undefined && m.player && (m.action === "approve" || m.action === "house_bot")) nameSeat(t, m.seat, m.player);
        if (m.action === "house_bot" && t.seat(m.seat)) t.seat(m.seat).bot = true;
        t.line(`${m.by} (host): ${describe(m)}`);
      }
      break;
    }
    default:
      // A table's option messages (a straddle chosen, the bomb pot vote): its model's.
      if (t && t.id === m.table && typeof t.message === "function" && t.message(m)) break;
      return false;
  }
  app.draw();
  return true;
}

function nameSeat(t, seat, name) {
  if (typeof t.named === "function") t.named(seat, name);
  else {
    const s = t.seat(seat);
    if (s) s.name = name;
  }
}

function describe(m) {
  switch (m.action) {
    case "approve": return `${m.player} sits in seat ${m.seat + 1} with ${m.buy_in}`;
    case "reject": return `no seat for ${m.player}`;
    case "chips": return `${m.amount > 0 ? "+" : ""}${m.amount} chips for ${m.player}, from the next hand`;
    case "pause": return "paused the game after this hand";
    case "resume": return "resumed the game";
    case "blinds": return `blinds ${m.small_blind}/${m.big_blind}${m.ante ? ` ante ${m.ante}` : ""} from the next hand`;
    case "away": return `${m.player} is away`;
    case "remove": return `${m.player} leaves the table`;
    case "transfer": return `${m.player} is the host now`;
    case "close": return "closed the table";
    case "house_bot": return `house bot ${m.player} sits in seat ${m.seat + 1}`;
    case "remove_bot": return `house bot ${m.player} leaves`;
    case "mute": return `${m.player} is muted`;
    case "unmute": return `${m.player} may chat again`;
    case "spectator_chat": return m.on ? "spectators may chat" : "spectators may not chat";
    case "bomb_pot": return `bomb pot next hand${m.boards === 2 ? ", two boards" : ""}`;
    default: return m.action;
  }
}

export const inviteLink = (table, invite) => `${location.origin}/#/join/${encodeURIComponent(table)}/${encodeURIComponent(invite)}`;

// -- the lobby: hosting a game -------------------------------------------------------------

/** The table options ``game`` may have, as the server's catalogue says (the engine's
 * rule: straddles in no-limit and pot-limit games with blinds, and so on). */
const optionsOf = (game) => catalogue.table_options[game] || [];

/** The form's table options, one line each: each shown only for a game that may have it. */
/** The table options' fields (``show``: the default pause after a hand, in seconds), for
 * the host's form and the lobby's: one definition. */
export function optionFields(show = 4, testid = "host-options") {
  const num = (name, label, value, extra = {}) => h("label", {}, label, h("input", { name, type: "number", value, min: 0, ...extra }));
  const box = (name, label) => h("label", {}, h("input", { type: "checkbox", name }), label);
  const line = (option, ...children) => h("div", { class: "opt", "data-option": option }, children);
  return h("fieldset", { class: "host-options", "data-testid": testid }, h("legend", {}, "Table options"),
    line("straddle", h("b", {}, "Straddles"), h("span", { class: "muted" }, "each player opts in at the table"),
      box("button_straddle", "the button may straddle too")),
    line("bomb_pot", h("b", {}, "Bomb pot"), num("bomb_pot", "ante", 0, { title: "0: no bomb pots", "data-testid": "opt-bomb-pot" }),
      num("bomb_pot_every", "every", 0, { max: 1000, title: "0: only when the players vote for one, or you call one" }),
      h("span", { class: "muted" }, "hands (0: by vote)"), box("bomb_pot_boards", "two boards")),
    line("run_it_twice", box("run_it_twice", "Run it twice"), h("span", { class: "muted" }, "when all in before the river, if everyone agrees")),
    line("seven_deuce", h("b", {}, "7-2 bounty"), num("seven_deuce", "", 0, { title: "0: no bounty", "aria-label": "7-2 bounty" }),
      h("span", { class: "muted" }, "from each player (0: none)")),
    line("show", h("b", {}, "After each hand"), num("show_seconds", "", show, { max: 30, step: 1, "aria-label": "seconds to show cards" }),
      h("span", { class: "muted" }, "seconds to show cards and hunt the rabbit")));
}

/** The table options a form holds (its FormData ``d``), of those ``game`` may have, as
 * ``create_table`` fields. */
export function chosenOptions(d, game) {
  const n = (k) => Number(d.get(k));
  const has = (option) => optionsOf(game).includes(option);
  return { show_seconds: n("show_seconds"),
    ...(has("straddle") ? { button_straddle: d.get("button_straddle") === "on" } : {}),
    ...(has("bomb_pot") && n("bomb_pot") > 0 ? { bomb_pot: n("bomb_pot"), bomb_pot_every: n("bomb_pot_every"),
      bomb_pot_boards: d.get("bomb_pot_boards") === "on" ? 2 : 1 } : {}),
    ...(has("run_it_twice") ? { run_it_twice: d.get("run_it_twice") === "on" } : {}),
    ...(has("seven_deuce") && n("seven_deuce") > 0 ? { seven_deuce: n("seven_deuce") } : {}) };
}

/** Show only the options ``game`` may have (a mixed game: none; the pause to show
 * cards is every single game's). */
export function showOptions(form, game) {
  const allowed = optionsOf(game);
  const mixed = game.startsWith("mix:");
  for (const el of form.querySelectorAll("[data-option]")) {
    el.hidden = mixed || (el.dataset.option !== "show" && !allowed.includes(el.dataset.option));
    for (const input of el.querySelectorAll("input")) input.disabled = el.hidden;
  }
  const set = form.querySelector(".host-options");
  if (set) set.hidden = mixed;
}

/** The lobby's "Host a private game" form: game, blinds, buy-ins, seats, options. */
export function hostForm(app) {
  const num = (name, label, value, extra) => h("label", {}, label, h("input", { name, type: "number", value, ...extra }));
  const games = catalogue.games.filter((g) => stakesKind(g) === "blinds");
  const note = h("p", { class: "error" });
  const form = h("form", { class: "host-form", "data-testid": "host-form", onsubmit: async (e) => {
    e.preventDefault();
    const d = new FormData(e.target);
    const n = (k) => Number(d.get(k));
    try {
      if (!app.conn.player) throw new Error("say who you are first (a name above)");
      const options = chosenOptions(d, d.get("game"));
      const r = await app.conn.request({ type: "create_table", name: d.get("name"), game: d.get("game"), private: true,
        small_blind: n("small_blind"), big_blind: n("big_blind"), min_buy_in: n("min_buy_in"), max_buy_in: n("max_buy_in"),
        seats: n("seats"), decision_seconds: n("decision_seconds"), ...options });
      const id = r.table.id;
      localStorage.setItem(INVITE(id), r.invite);
      await app.openTable(id);
      try {
        await app.conn.request({ type: "sit", table: id, seat: 0, buy_in: n("max_buy_in"), wait_for_big_blind: false });
      } catch (err) { app.table.error = `You are watching: ${err.message}`; }
      location.hash = `#/table/${encodeURIComponent(id)}`;
    } catch (err) { note.textContent = err.message; }
  } },
  h("label", {}, "Name ", h("input", { name: "name", value: "Home game", required: true, maxlength: 64 })),
  h("label", {}, "Game ", h("select", { name: "game" }, games.map((g) => h("option", { value: g.key }, g.name)))),
  num("small_blind", "Small blind ", 1, { min: 0 }), num("big_blind", "Big blind ", 2, { min: 1 }),
  num("min_buy_in", "Buy-in from ", 100, { min: 1 }), num("max_buy_in", "to ", 400, { min: 1 }),
  num("seats", "Seats ", 9, { min: 2, max: 10 }), num("decision_seconds", "Seconds to act ", 30, { min: 1, max: 3600 }),
  optionFields(),
  h("button", { type: "submit", "data-testid": "host-create" }, "Create and invite"), note);
  const show = () => showOptions(form, form.elements.game.value);
  form.elements.game.addEventListener("change", show);
  show();
  return h("details", { class: "create host-create" }, h("summary", {}, "Host a private game"),
    h("p", { class: "muted" }, "Not in this list: you get a link to send your friends, and you approve who sits."), form);
}

// -- the invite link ------------------------------------------------------------------------

/** #/join/TABLE/INVITE: who you are, then a buy-in and "Ask for a seat". */
export function showJoin(app) {
  const [, , table, invite] = location.hash.split("/");
  const id = decodeURIComponent(table || ""), code = decodeURIComponent(invite || "");
  localStorage.setItem(INVITE(id), code);
  const note = h("p", { class: "error", "data-testid": "join-error" });
  let body;
  if (!app.conn.player) {
    const name = h("input", { name: "name", placeholder: "your name", maxlength: 32, pattern: "[A-Za-z0-9_.\\-]{1,32}", required: true });
    body = h("form", { onsubmit: async (e) => {
      e.preventDefault();
      localStorage.setItem(KEYS.name, name.value.trim());
      sessionStorage.removeItem(KEYS.session);
      await app.connected(); // says hello, then shows this page again
    } }, h("label", {}, "Your name ", name), h("button", { type: "submit", "data-testid": "join-name" }, "Continue"), note);
  } else {
    // Filled in, and the form let go, once the table's limits are known (below).
    const buyIn = h("input", { type: "number", name: "buy_in", min: 1, "aria-label": "buy-in", "data-testid": "join-buy-in" });
    // The free seats, once the table is known: the one farthest from anyone seated first.
    const seat = h("select", { name: "seat", "aria-label": "seat", "data-testid": "join-seat" }, h("option", { value: "" }, "any free seat"));
    body = h("form", { onsubmit: async (e) => {
      e.preventDefault();
      try {
        const where = seat.value === "" ? {} : { seat: Number(seat.value) };
        await app.conn.request({ type: "request_seat", table: id, invite: code, buy_in: Number(buyIn.value), ...where });
        await app.openTable(id);
        app.table.error = "Waiting for the host to let you in…";
        location.hash = `#/table/${encodeURIComponent(id)}`;
      } catch (err) { note.textContent = err.message; }
    } }, h("p", {}, `Playing as ${app.conn.player.name}.`), h("label", {}, "Buy-in ", buyIn), h("label", {}, "Seat ", seat),
    h("button", { type: "submit", "data-testid": "ask-seat", disabled: true }, "Ask for a seat"), note);
  }
  const about = h("p", { class: "muted", "data-testid": "join-table" }, `Table ${id}: the host lets you in.`);
  app.main.replaceChildren(h("section", { class: "join" }, h("h2", {}, "You are invited to a private game"), about, body));
  // What the table plays, and its buy-ins (the invite lets anyone watch it).
  app.conn.request({ type: "spectate", table: id, invite: code }).then((r) => {
    const t = r.summary;
    // The name is the host's text: isolated, so that however it is written (right to left,
    // say) the sentence around it reads in order.
    about.replaceChildren(h("bdi", {}, t.name), `: ${lobbyGame(t)}, ${stakes(t)}, buy-in ${t.min_buy_in} to ${t.max_buy_in}. The host lets you in.`);
    const box = body.querySelector("input[name=buy_in]");
    if (box) {
      Object.assign(box, { min: t.min_buy_in, max: t.max_buy_in });
      if (!box.value) box.value = String(defaultBuyIn(t)); // what they typed meanwhile stays
      body.querySelector("[data-testid=ask-seat]").disabled = false;
    }
    const select = body.querySelector("select[name=seat]");
    if (select) {
      const free = freeSeats(t.seats, (r.view && r.view.seats) || []);
      select.replaceChildren(...free.map((n) => h("option", { value: n }, `seat ${n + 1}`)), h("option", { value: "" }, "any free seat"));
      select.value = free.length ? String(free[0]) : "";
    }
  }).catch((err) => { about.textContent = err.message; });
}

/** The free seats of a table of ``count`` seats, ``seats`` its view's: the seat farthest
 * round the table from anyone seated first (friends let in one by one spread round the
 * oval, not bunched by the host), then by number. */
export function freeSeats(count, seats) {
  const taken = seats.filter((s) => s.name).map((s) => s.seat);
  const apart = (n) => (taken.length ? Math.min(...taken.map((k) => Math.min((n - k + count) % count, (k - n + count) % count))) : 0);
  return [...Array(count).keys()].filter((n) => !taken.includes(n)).sort((a, b) => apart(b) - apart(a) || a - b);
}

// -- the host's panel -----------------------------------------------------------------------

/** Under the table's panel, for its host: the invite, requests and controls. */
export function drawHost(app) {
  const t = app.table;
  const state = t && hosted.get(t.id);
  const panel = app.main.querySelector(".table-screen .panel");
  if (!state || !panel || !t.view || app.conn.player?.name !== state.host) return;
  const note = h("p", { class: "error", "data-testid": "host-error" }, state.error || "");
  const act = (action, fields = {}) => async () => {
    try {
      const r = await app.conn.request({ type: "host", table: t.id, action, ...fields });
      state.error = "";
      if (action === "approve" || action === "reject") state.requests = state.requests.filter((x) => x.player !== fields.player);
      if (action === "pause" || action === "resume") state.paused = action === "pause";
      if (action === "transfer") hosted.delete(t.id);
      if (action === "blinds") state.blinds = r;
    } catch (err) { state.error = err.message; }
    app.draw();
  };
  // Requests are what the host must not miss: a bar over the table, whatever is scrolled.
  if (state.requests.length) app.main.querySelector(".table-screen").prepend(requestsBar(state, act));
  // Under the controls, above the results, the chat and the log.
  const section = h("section", { class: "host-panel", "data-testid": "host-panel" },
    h("h3", {}, "You host this game"),
    inviteRow(t.id, state.invite),
    requestsView(state, act),
    h("div", { class: "host-row" },
      state.paused
        ? h("button", { type: "button", "data-testid": "host-resume", onclick: act("resume") }, "Resume")
        : h("button", { type: "button", "data-testid": "host-pause", onclick: act("pause") }, "Pause after this hand"),
      blindsForm(t, act)),
    optionsRow(t, state, act),
    playersView(app, t, state, act),
    botsView(t, act),
    h("div", { class: "host-row" }, h("button", { type: "button", class: "danger", "data-testid": "host-close",
      onclick: () => { if (confirm("Close the table? Everyone is cashed out.")) act("close")(); } }, "Close the table")),
    note);
  panel.insertBefore(section, panel.querySelector(":scope > .results, :scope > .log"));
}

/** "2 people ask for a seat": each with Let in and Say no, at the top of the host's screen. */
function requestsBar(state, act) {
  const n = state.requests.length;
  return h("div", { class: "host-alert", role: "status", "data-testid": "host-alert" },
    h("b", {}, n === 1 ? "1 person asks for a seat:" : `${n} people ask for a seat:`),
    state.requests.map((r) => h("span", { class: "host-alert-one", "data-player": r.player },
      h("span", {}, `${r.player} (${r.buy_in}${r.seat !== null && r.seat !== undefined ? `, seat ${r.seat + 1}` : ""})`),
      h("button", { type: "button", "data-testid": "alert-approve", onclick: act("approve", { player: r.player }) }, "Let in"),
      h("button", { type: "button", "data-testid": "alert-reject", onclick: act("reject", { player: r.player }) }, "Say no"))));
}

function inviteRow(table, invite) {
  const link = inviteLink(table, invite);
  const copied = h("span", { class: "muted", "aria-live": "polite" });
  return h("div", { class: "host-invite" },
    h("label", {}, "Invite link ", h("input", { readonly: true, value: link, "data-testid": "invite-link", onfocus: (e) => e.target.select() })),
    h("button", { type: "button", "data-testid": "copy-invite", onclick: async () => {
      try { await navigator.clipboard.writeText(link); copied.textContent = "copied"; } catch { copied.textContent = "select it and copy"; }
    } }, "Copy"), copied);
}

function requestsView(state, act) {
  if (!state.requests.length) return h("p", { class: "muted" }, "No one is asking for a seat.");
  return h("ul", { class: "host-requests", "data-testid": "host-requests" }, state.requests.map((r) =>
    h("li", { "data-player": r.player }, h("b", {}, r.player),
      ` asks for ${r.seat !== null && r.seat !== undefined ? `seat ${r.seat + 1}` : "a seat"} with ${r.buy_in}`,
      h("button", { type: "button", "data-testid": "approve", onclick: act("approve", { player: r.player }) }, "Let in"),
      h("button", { type: "button", "data-testid": "reject", onclick: act("reject", { player: r.player }) }, "Say no"))));
}

function blindsForm(t, act) {
  const cfg = t.summary || {};
  const sb = h("input", { type: "number", min: 0, value: cfg.small_blind ?? 1, "aria-label": "small blind", "data-testid": "host-sb" });
  const bb = h("input", { type: "number", min: 1, value: cfg.big_blind ?? 2, "aria-label": "big blind", "data-testid": "host-bb" });
  return h("form", { class: "host-blinds", onsubmit: (e) => { e.preventDefault(); act("blinds", { small_blind: Number(sb.value), big_blind: Number(bb.value) })(); } },
    "Blinds ", sb, "/", bb, h("button", { type: "submit", "data-testid": "host-set-blinds" }, "From next hand"));
}

/** Spectators' chat, and a bomb pot next hand when the table has bomb pots. */
function optionsRow(t, state, act) {
  const o = (t.summary && t.summary.options) || {};
  const on = !!state.spectatorChat;
  const boards = h("label", { class: "check" }, h("input", { type: "checkbox", "data-testid": "host-bomb-boards", checked: o.bomb_pot_boards === 2 }), " two boards");
  return h("div", { class: "host-row host-options-row" },
    h("button", { type: "button", class: `toggle${on ? " on" : ""}`, "data-testid": "host-spectator-chat", "aria-pressed": String(on),
      onclick: act("spectator_chat", { on: !on }) }, `Spectators may chat: ${on ? "yes" : "no"}`),
    o.bomb_pot ? h("span", { class: "host-bomb" },
      h("button", { type: "button", "data-testid": "host-bomb-pot",
        onclick: () => act("bomb_pot", { boards: boards.firstChild.checked ? 2 : 1 })() }, "Bomb pot next hand"), boards) : null);
}

function playersView(app, t, state, act) {
  const bots = new Set((t.view.seats || []).filter((s) => /^bot\d+-/.test(s.name || "")).map((s) => s.seat));
  const people = (t.view.seats || []).filter((s) => s.name && !bots.has(s.seat) && s.name !== state.host);
  if (!people.length) return null;
  return h("ul", { class: "host-players", "data-testid": "host-players" }, people.map((s) => {
    const amount = h("input", { type: "number", step: 1, value: 100, "aria-label": `chips for ${s.name}`, "data-testid": "chips-amount" });
    const chips = (sign) => act("chips", { player: s.name, amount: sign * Math.abs(Number(amount.value)) });
    return h("li", { "data-player": s.name },
      h("span", { class: "host-who" }, h("b", {}, s.name), h("span", { class: "muted" }, ` · ${s.stack}${s.sitting_out ? " · away" : ""}`)),
      h("span", { class: "host-chips" }, "Chips ", amount,
        h("button", { type: "button", "data-testid": "chips-add", title: "add chips, from the next hand", onclick: () => chips(1)() }, "+"),
        h("button", { type: "button", "data-testid": "chips-take", title: "take chips away, from the next hand", onclick: () => chips(-1)() }, "−")),
      h("span", { class: "host-moves" },
        h("button", { type: "button", "data-testid": "host-away", disabled: s.sitting_out, onclick: act("away", { player: s.name }) }, "Away"),
        h("button", { type: "button", "data-testid": "host-remove", onclick: act("remove", { player: s.name }) }, "Remove"),
        state.muted && state.muted.has(s.name)
          ? h("button", { type: "button", "data-testid": "host-unmute", title: "let them chat again", onclick: act("unmute", { player: s.name }) }, "Unmute")
          : h("button", { type: "button", "data-testid": "host-mute", title: "stop their chat at this table", onclick: act("mute", { player: s.name }) }, "Mute"),
        h("button", { type: "button", "data-testid": "host-transfer", onclick: () => { if (confirm(`Make ${s.name} the host?`)) act("transfer", { player: s.name })(); } }, "Make host")));
  }));
}

function botsView(t, act) {
  const seats = t.view.seats || [];
  const taken = new Set(seats.filter((s) => s.name).map((s) => s.seat));
  const seatCount = t.summary ? t.summary.seats : seats.length;
  const free = [...Array(seatCount).keys()].filter((n) => !taken.has(n));
  const bots = seats.filter((s) => /^bot\d+-/.test(s.name || ""));
  const seat = h("select", { "aria-label": "seat", "data-testid": "bot-seat" }, free.map((n) => h("option", { value: n }, `seat ${n + 1}`)));
  const strategy = h("select", { "aria-label": "strategy", "data-testid": "bot-strategy" }, STRATEGIES.map((s) => h("option", { value: s }, s)));
  return h("div", { class: "host-row host-bots" },
    free.length ? h("form", { onsubmit: (e) => { e.preventDefault(); act("house_bot", { seat: Number(seat.value), strategy: strategy.value })(); } },
      "House bot ", seat, strategy, h("button", { type: "submit", "data-testid": "bot-add" }, "Seat it")) : null,
    bots.map((b) => h("button", { type: "button", "data-testid": "bot-remove", onclick: act("remove_bot", { seat: b.seat }) }, `Remove ${b.name}`)));
}
