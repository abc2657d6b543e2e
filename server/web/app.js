// pokerroom's browser client: the lobby, a table, your hands and a hand viewer.
// Plain JavaScript with no build step and nothing loaded from elsewhere; it speaks the
// protocol of docs/protocol.md over /ws on the server that served it. docs/client.md
// says what it does.
"use strict";

// -- small helpers ----------------------------------------------------------------------

/** An element: h("div", {class: "x", onclick: f}, child, "text", ...). Text is never HTML. */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "style") Object.assign(el.style, value); // CSSOM: the policy forbids style attributes
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const chips = (n) => Number(n).toLocaleString("en-US");
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANKS = { T: "10" };

/** A card face up ("Kh"), face down (null), or an empty slot. */
function card(code, extra) {
  if (!code || code === "??") return h("span", { class: `card back ${extra || ""}`, "data-card": "hidden" });
  const rank = code[0], suit = code[1];
  return h("span", { class: `card suit-${suit} ${extra || ""}`, "data-card": code, title: code },
    h("b", {}, RANKS[rank] || rank), SUITS[suit] || suit);
}

function describeAction(name, e) {
  switch (e.kind) {
    case "fold": return `${name} folds`;
    case "check": return `${name} checks`;
    case "call": return `${name} calls ${chips(e.increment)}${e.all_in ? " and is all in" : ""}`;
    case "bet": return `${name} bets ${chips(e.street_total)}${e.all_in ? " and is all in" : ""}`;
    case "raise": return `${name} raises to ${chips(e.street_total)}${e.all_in ? " and is all in" : ""}`;
    default: return `${name} ${e.kind}`;
  }
}

const BLIND_NAMES = { small_blind: "the small blind", big_blind: "the big blind", ante: "an ante",
  dead_blind: "a dead blind", straddle: "a straddle", blind: "a blind" };
const POT_NAME = (n) => (n === 0 ? "main pot" : `side pot ${n}`);

// -- the table model: a view (docs/protocol.md, "The view") kept up to date by events ----

class TableModel {
  constructor(id) {
    this.id = id;
    this.summary = null;
    this.view = null;
    this.seq = 0;
    this.request = null;   // our action_request while it is our turn
    this.turnStarted = 0;  // when the current decision began (ms, performance.now())
    this.results = [];     // pot_awarded events of this hand
    this.shown = [];       // cards_shown events of this hand
    this.lastResults = null; // {hand, results, shown} of the hand before, until this one's
    this.log = [];         // readable lines, newest last
    this.lastActor = null; // who acted last this street (to know who acts next)
    this.acted = new Set();
    this.order = [];       // seats dealt in, from the left of the button, button last
    this.resetHand();
  }

  /** What the page keeps of the hand being played beyond the view. */
  resetHand() {
    this.blinds = {};      // seat -> "SB" | "BB"
    this.dead = {};        // seat -> dead money: dead blinds, a big-blind ante
    this.antes = [];       // [seat, amount] of each ante posted
    this.owed = 0;         // the bet to match this street, at least (the full big blind)
  }

  seat(n) { return this.view && this.view.seats.find((s) => s.seat === n); }
  name(n) { const s = this.seat(n); return s ? s.name : `seat ${n + 1}`; }

  setSnapshot(m) {
    this.view = m.view;
    this.summary = m.summary || this.summary;
    this.seq = m.seq;
    this.request = null;
    const v = this.view;
    this.order = v.seats.filter((s) => s.in_hand).map((s) => s.seat);
    this.orderFromButton();
    this.acted = new Set();
    this.lastActor = null;
    this.resetHand();
    this.results = [];
    this.shown = [];
    this.lastResults = null;
    this.error = null;
    this.turnStarted = performance.now();
  }

  /** Put ``order`` left of the button first, the button last (the snapshot lists seats
   * by number). */
  orderFromButton() {
    const b = this.view.button;
    if (b === null || b === undefined || !this.order.length) return;
    const after = this.order.filter((s) => s > b), before = this.order.filter((s) => s <= b);
    this.order = [...after, ...before];
  }

  apply(e) {
    const v = this.view;
    if (!v) return;
    const seat = e.seat !== undefined ? this.seat(e.seat) : null;
    const who = e.seat !== undefined ? this.name(e.seat) : "";
    switch (e.type) {
      case "hand_started":
        if (this.results.length) this.lastResults = { hand: v.hand_number, results: this.results, shown: this.shown };
        this.shown = [];
        Object.assign(v, { hand_number: e.hand_number, hand_in_progress: true, street: "preflop",
          board: [], pots: [], button: e.button, to_act: null });
        for (const s of v.seats) {
          const i = e.seats.indexOf(s.seat);
          Object.assign(s, { in_hand: i >= 0, folded: false, all_in: false, street_total: 0,
            hand_total: 0, has_cards: false, cards: null, mucked: false });
          if (i >= 0) s.stack = e.stacks[i];
        }
        this.order = e.seats.slice();
        this.results = [];
        this.acted = new Set();
        this.resetHand();
        this.lastActor = e.big_blind_seat; // preflop, the player after it acts first
        // Callers owe the full big blind, even when it is posted all in for less, or not
        // at all by a player all in from an ante (docs/rules.md F3).
        this.owed = e.big_blind;
        this.log.push({ hand: e.hand_number, text: `Hand #${e.hand_number}: blinds ${chips(e.small_blind)}/${chips(e.big_blind)}${e.ante ? `, ante ${chips(e.ante)}` : ""}; ${this.name(e.button)} has the button` });
        break;
      case "forced_bet_posted":
        if (seat) Object.assign(seat, { street_total: e.street_total, hand_total: e.hand_total, stack: e.stack, all_in: e.all_in });
        if (e.kind === "small_blind") this.blinds[e.seat] = "SB";
        if (e.kind === "big_blind") this.blinds[e.seat] = "BB";
        if (e.kind === "dead_blind") this.dead[e.seat] = (this.dead[e.seat] || 0) + e.increment;
        if (e.kind === "ante") this.antes.push([e.seat, e.increment]);
        this.line(`${who} posts ${BLIND_NAMES[e.kind] || e.kind} of ${chips(e.increment)}`);
        break;
      case "hole_cards_dealt":
        if (seat) Object.assign(seat, { has_cards: true, cards: e.cards });
        if (e.cards) this.line(`Dealt to ${who}: ${e.cards.join(" ")}`);
        break;
      case "action_taken":
        if (seat) Object.assign(seat, { street_total: e.street_total, hand_total: e.hand_total,
          stack: e.stack, all_in: e.all_in, folded: seat.folded || e.kind === "fold" });
        if (e.kind === "bet" || e.kind === "raise") this.acted = new Set();
        this.acted.add(e.seat);
        this.lastActor = e.seat;
        this.line(describeAction(who, e));
        break;
      case "board_dealt":
        v.board = e.board;
        v.street = e.street;
        for (const s of v.seats) s.street_total = 0; // the street just played is in the pots now
        this.owed = 0;
        this.acted = new Set();
        this.lastActor = this.order[this.order.length - 1]; // first to act: left of the button
        this.line(`${e.street[0].toUpperCase()}${e.street.slice(1)}: ${e.board.join(" ")}`);
        break;
      case "uncalled_bet_returned":
        if (seat) {
          seat.stack = e.stack;
          seat.street_total -= e.amount;
          seat.hand_total -= e.amount;
          seat.all_in = e.stack === 0; // the chips back: all in no more
        }
        this.line(`${chips(e.amount)} uncalled returned to ${who}`);
        break;
      case "cards_shown":
        if (seat) seat.cards = e.cards;
        this.shown.push(e);
        this.line(`${who} shows ${e.cards.join(" ")}`);
        break;
      case "cards_mucked":
        if (seat) seat.mucked = true;
        this.line(`${who} mucks`);
        break;
      case "pot_awarded": {
        this.results.push(e);
        const names = e.shares.map(([s, n]) => `${this.name(s)} ${chips(n)}`).join(", ");
        this.line(`${names} from the ${POT_NAME(e.pot)}${e.description ? ` with ${e.description}` : ""}`);
        break;
      }
      case "hand_ended":
        v.hand_in_progress = false;
        v.to_act = null;
        v.pots = [];
        for (const [s, stack] of e.stacks) {
          const st = this.seat(s);
          if (st) Object.assign(st, { stack, street_total: 0, hand_total: 0 });
        }
        this.request = null;
        break;
      case "player_sat":
        if (!seat) v.seats.push({ seat: e.seat, name: e.name || `seat ${e.seat + 1}`, stack: e.stack,
          in_hand: false, folded: false, all_in: false, street_total: 0, hand_total: 0,
          sitting_out: false, waiting_for_big_blind: e.waiting_for_big_blind, has_cards: false, cards: null });
        v.seats.sort((a, b) => a.seat - b.seat);
        break;
      case "player_stood":
        v.seats = v.seats.filter((s) => s.seat !== e.seat);
        this.line(`${who} ${e.reason === "busted" ? "is out of chips and stands up" : "stands up"} with ${chips(e.stack)}`);
        break;
      case "player_sat_out":
        if (seat) seat.sitting_out = true;
        break;
      case "player_sat_in":
        if (seat) Object.assign(seat, { sitting_out: false, waiting_for_big_blind: e.waiting_for_big_blind });
        break;
    }
    if (v.hand_in_progress) {
      v.pots = potsOf(v.seats, this.deadMoney());
      const next = this.nextToAct();
      if (next !== v.to_act) this.turnStarted = performance.now();
      v.to_act = next;
    }
  }

  /** Dead money by seat: dead blinds, and a big-blind ante (one player antes for the
   * whole table: the only ante posted); per-player antes are live. */
  deadMoney() {
    if (this.antes.length !== 1) return this.dead;
    const [seat, amount] = this.antes[0];
    return { ...this.dead, [seat]: (this.dead[seat] || 0) + amount };
  }

  line(text) { this.log.push({ hand: this.view.hand_number, text }); if (this.log.length > 400) this.log.shift(); }

  /** Who acts next, from the rules: the next player left of the last one to act who is
   * neither folded nor all in and has yet to act or to match the bet. Our own turn is
   * known exactly (the action request); this shows whose turn it is at the others. */
  nextToAct() {
    const v = this.view;
    const live = this.order.map((n) => this.seat(n)).filter((s) => s && s.in_hand && !s.folded);
    if (live.length < 2) return null;
    const bet = Math.max(this.owed, ...live.map((s) => s.street_total));
    const able = live.filter((s) => !s.all_in);
    if (!able.length || (able.length === 1 && able[0].street_total >= bet)) return null;
    const start = this.order.indexOf(this.lastActor);
    for (let k = 1; k <= this.order.length; k++) {
      const s = this.seat(this.order[(start + k) % this.order.length]);
      if (!s || !s.in_hand || s.folded || s.all_in) continue;
      if (!this.acted.has(s.seat) || s.street_total < bet) return s.seat;
    }
    return null;
  }
}

/** The main pot and side pots as the engine builds them (engine/pots.py, Hand.pots),
 * from the chips of the streets already played (this street's are still in front of the
 * players): each total of a player still in the hand closes a pot they and everyone who
 * put in as much may win; folded players' chips fill the pots up to what they put in;
 * pots with the same players merge; dead money goes to the main pot. */
function potsOf(seats, dead) {
  const dealt = seats.filter((s) => s.in_hand);
  const live = dealt.map((s) => s.hand_total - s.street_total - (dead[s.seat] || 0));
  const levels = [...new Set(live.filter((c, i) => !dealt[i].folded && c > 0))].sort((a, b) => a - b);
  const pots = [];
  let previous = 0;
  for (const level of levels) {
    const amount = live.reduce((sum, c) => sum + Math.min(c, level) - Math.min(c, previous), 0);
    const eligible = dealt.filter((s, i) => !s.folded && live[i] >= level).map((s) => s.seat).join();
    if (pots.length && pots[pots.length - 1].eligible === eligible) pots[pots.length - 1].amount += amount;
    else pots.push({ amount, eligible });
    previous = level;
  }
  const excess = live.reduce((sum, c) => sum + Math.max(c - previous, 0), 0);
  if (excess && pots.length) pots[pots.length - 1].amount += excess;
  const deadTotal = Object.values(dead).reduce((sum, c) => sum + c, 0);
  if (deadTotal && pots.length) pots[0].amount += deadTotal;
  else if (deadTotal) pots.push({ amount: deadTotal });
  return pots.map((p) => p.amount);
}

// -- the connection -----------------------------------------------------------------------

const KEYS = { name: "pokerroom.name", token: "pokerroom.token", session: "pokerroom.session" };

class Connection {
  constructor(app) {
    this.app = app;
    this.ws = null;
    this.nextId = 1;
    this.waiting = new Map(); // message id -> {resolve, reject}
    this.retry = 500;
    this.player = null;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    this.app.status("connecting…");
    ws.onopen = () => { this.retry = 500; this.app.connected(); };
    ws.onmessage = (m) => this.receive(JSON.parse(m.data));
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.player = null;
      for (const { reject } of this.waiting.values()) reject(new Error("the connection dropped"));
      this.waiting.clear();
      this.app.status("reconnecting…", "bad");
      setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  /** Send a message; resolves with its reply, rejects with the server's error. */
  request(message) {
    const id = String(this.nextId++);
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error("not connected"));
        return;
      }
      this.waiting.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  receive(m) {
    if (m.re !== undefined && this.waiting.has(m.re)) {
      const { resolve, reject } = this.waiting.get(m.re);
      this.waiting.delete(m.re);
      if (m.type === "error") {
        const err = new Error(m.message);
        err.code = m.code;
        err.address = m.address; // with "elsewhere": the server hosting the table
        reject(err);
      } else resolve(m);
      return;
    }
    this.app.message(m);
  }

  /** Say who we are: the session (reconnecting), else the account token, else the name. */
  async hello() {
    const session = sessionStorage.getItem(KEYS.session);
    const token = localStorage.getItem(KEYS.token);
    const name = localStorage.getItem(KEYS.name);
    const tries = [];
    if (session) tries.push({ session });
    if (token) tries.push({ token });
    else if (name) tries.push({ name });
    for (const who of tries) {
      try {
        const welcome = await this.request({ type: "hello", version: 1, ...who });
        sessionStorage.setItem(KEYS.session, welcome.session);
        this.player = welcome.player;
        return welcome.player;
      } catch (err) {
        if (who.session) sessionStorage.removeItem(KEYS.session); // the server restarted
        else throw err;
      }
    }
    return null;
  }
}

// -- the app --------------------------------------------------------------------------------

class App {
  constructor() {
    this.main = document.getElementById("main");
    this.conn = new Connection(this);
    this.table = null; // the TableModel on screen
    this.clockTimer = null;
    this.drawQueued = false;
    this.viewer = null;
    this.handsPage = 50; // hands listed at a time under My hands
    window.addEventListener("hashchange", () => this.route());
    this.conn.open();
  }

  status(text, kind) {
    const el = document.getElementById("status");
    el.textContent = text;
    el.className = `status ${kind || ""}`;
  }

  async connected() {
    try {
      const player = await this.conn.hello();
      this.status(player ? `${player.name}${player.guest ? " (guest)" : ""}` : "not signed in", player ? "ok" : "");
    } catch (err) {
      this.status(err.message, "bad");
      // Forget only what the server refused: a name someone else has, or a token it does
      // not know (the server keeps only its hash, so an account's token is never dropped
      // for any other reason).
      if (err.code === "name_taken" || err.code === "refused") localStorage.removeItem(KEYS.name);
      if (err.code === "bad_token") localStorage.removeItem(KEYS.token);
      this.notice = `${err.message}: choose another name`;
    }
    // Pick up where we were: the table we watched or sat at, with the events we missed.
    if (this.table) await this.resumeTable(this.table.id);
    this.route();
  }

  async resumeTable(id) {
    try {
      if (this.conn.player) {
        // Also how a signed-in player starts watching: resume subscribes, and moves our
        // seat, if we have one, to this connection.
        const since = this.table.seq;
        const r = await this.conn.request({ type: "resume", table: id, last_seq: since });
        this.table.setSnapshot(r);
        if (since && r.missed.length) this.table.line(`(reconnected: ${r.missed.length} events while away)`);
      } else {
        this.table.setSnapshot(await this.conn.request({ type: "spectate", table: id }));
      }
    } catch (err) {
      this.table.error = err.message;
    }
    this.draw();
  }

  message(m) {
    const t = this.table;
    if (m.type === "table_closed" && t && m.table === t.id) { t.error = "this table has closed"; this.draw(); return; }
    if (!t || m.table !== t.id) return;
    switch (m.type) {
      case "event":
        if (m.seq <= t.seq) return; // seen already (a resume may send some twice)
        t.seq = m.seq;
        t.apply(m.event);
        if (m.event.type === "player_sat") this.refreshNames();
        break;
      case "snapshot": // ours, on taking a seat
        t.setSnapshot(m);
        break;
      case "action_request":
        t.request = m;
        t.view.to_act = m.seat;
        t.requestAt = performance.now();
        break;
      default:
        return;
    }
    this.draw();
  }

  /** Names of players who just sat down (events carry the seat, the lobby the name). */
  async refreshNames() {
    try {
      const r = await this.conn.request({ type: "list_tables" });
      const summary = r.tables.find((x) => x.id === this.table?.id);
      if (!summary) return;
      this.table.summary = summary;
      for (const p of summary.players) {
        const s = this.table.seat(p.seat);
        if (s) s.name = p.name;
      }
      this.draw();
    } catch { /* the next event tries again */ }
  }

  route() {
    const [, page, arg] = location.hash.split("/");
    clearInterval(this.clockTimer);
    if (this.viewer) { clearInterval(this.viewer.timer); this.viewer = null; }
    if (page === "table" && arg) return this.showTable(decodeURIComponent(arg));
    if (this.table) { this.leaveScreen(); }
    if (page === "hands") return this.showHands();
    if (page === "hand" && arg) return this.showViewer(Number(arg));
    return this.showLobby();
  }

  leaveScreen() {
    const t = this.table;
    this.table = null;
    if (t && !this.mySeat(t)) this.conn.request({ type: "leave", table: t.id }).catch(() => {});
  }

  mySeat(t) {
    return t && t.view && t.view.viewer !== null && t.view.viewer !== undefined ? t.seat(t.view.viewer) : null;
  }

  // -- lobby ------------------------------------------------------------------------------

  async showLobby() {
    const who = this.identityForm();
    const list = h("div", { class: "tables", "data-testid": "tables" }, "Loading tables…");
    this.main.replaceChildren(h("section", { class: "lobby" }, who, h("h2", {}, "Tables"), list, this.createForm()));
    try {
      const r = await this.conn.request({ type: "list_tables" });
      list.replaceChildren(this.tableList(r.tables));
    } catch (err) {
      list.textContent = `Cannot list tables: ${err.message}`;
    }
  }

  identityForm() {
    const player = this.conn.player;
    if (player) {
      const token = localStorage.getItem(KEYS.token);
      return h("div", { class: "identity", "data-testid": "identity" },
        h("span", {}, "Playing as ", h("b", { "data-testid": "me" }, player.name), player.guest ? " (guest)" : " (account)"),
        token ? h("details", { class: "token" }, h("summary", {}, "Your account token"),
          h("p", { class: "muted" }, "Kept in this browser. To play as you elsewhere, paste it there: anyone who has it is you."),
          h("code", { "data-testid": "token" }, token)) : null,
        h("button", { class: "link", onclick: () => this.signOut() }, "Change name"));
    }
    const name = h("input", { name: "name", placeholder: "your name", maxlength: 32, pattern: "[A-Za-z0-9_.\\-]{1,32}", required: true, value: localStorage.getItem(KEYS.name) || "" });
    const token = h("input", { name: "token", placeholder: "or an account token", maxlength: 128 });
    const note = h("p", { class: "error" }, this.notice || "");
    const go = async (account) => {
      note.textContent = "";
      try {
        if (token.value.trim()) localStorage.setItem(KEYS.token, token.value.trim());
        else if (account) {
          const r = await this.conn.request({ type: "create_account", name: name.value.trim() });
          localStorage.setItem(KEYS.token, r.token);
        } else localStorage.setItem(KEYS.name, name.value.trim());
        sessionStorage.removeItem(KEYS.session);
        await this.connected();
      } catch (err) {
        note.textContent = err.message;
      }
    };
    return h("form", { class: "identity", "data-testid": "identity", onsubmit: (e) => { e.preventDefault(); go(false); } },
      h("label", {}, "Name ", name), h("button", { type: "submit", "data-testid": "play-as-guest" }, "Play as guest"),
      h("button", { type: "button", onclick: () => go(true) }, "Create account"),
      h("label", {}, "Token ", token), note);
  }

  signOut() {
    const token = localStorage.getItem(KEYS.token);
    // The server keeps only a hash of the token: without it the account is lost for good.
    if (token && !confirm(`Forget this account's token? Keep a copy to play as ${this.conn.player.name} again:\n\n${token}`)) return;
    localStorage.removeItem(KEYS.name);
    localStorage.removeItem(KEYS.token);
    sessionStorage.removeItem(KEYS.session);
    this.conn.player = null;
    this.conn.ws.close(); // a fresh connection: a hello is once per connection
  }

  tableList(tables) {
    if (!tables.length) return h("p", {}, "No tables yet: create one.");
    return h("table", { class: "list" },
      h("thead", {}, h("tr", {}, ["Table", "Stakes", "Seats", "Avg pot", "Hands/h", ""].map((x) => h("th", {}, x)))),
      h("tbody", {}, tables.map((t) => h("tr", { "data-table": t.id },
        h("td", {}, t.name),
        h("td", {}, `${chips(t.small_blind)}/${chips(t.big_blind)}${t.ante ? ` ante ${chips(t.ante)}` : ""}`),
        h("td", {}, `${t.players.length}/${t.seats}${t.waiting.length ? ` (+${t.waiting.length} waiting)` : ""}`),
        h("td", {}, t.average_pot !== undefined ? chips(t.average_pot) : "–"),
        h("td", {}, t.hands_per_hour !== undefined ? chips(t.hands_per_hour) : "–"),
        h("td", { class: "actions" }, this.sitForm(t), h("a", { class: "button", href: `#/table/${encodeURIComponent(t.id)}`, "data-testid": "watch" }, "Watch"))))));
  }

  sitForm(t) {
    const full = t.players.length >= t.seats;
    const amount = h("input", { type: "number", name: "buy_in", min: t.min_buy_in, max: t.max_buy_in, step: 1,
      value: Math.min(t.max_buy_in, Math.max(t.min_buy_in, 100 * t.big_blind)), "aria-label": "buy-in" });
    return h("form", { class: "sit", onsubmit: async (e) => {
      e.preventDefault();
      const err = e.target.querySelector(".error");
      try {
        if (!this.conn.player) throw new Error("say who you are first (a name above)");
        await this.openTable(t.id);
        const r = await this.conn.request({ type: "sit", table: t.id, buy_in: Number(amount.value), wait_for_big_blind: false });
        if (r.type === "waiting") this.table.error = `the table is full: you are number ${r.position} on its waiting list`;
        location.hash = `#/table/${encodeURIComponent(t.id)}`;
      } catch (ex) {
        if (ex.code === "elsewhere" && ex.address) {
          // Another server process hosts this table: its page is at the same address.
          const page = new URL(ex.address);
          page.protocol = page.protocol === "wss:" ? "https:" : "http:";
          page.pathname = "/";
          page.hash = `#/table/${encodeURIComponent(t.id)}`;
          err.replaceChildren("This table is on another server: ",
            h("a", { href: page.href, "data-testid": "elsewhere" }, "sit there"));
        } else err.textContent = ex.message;
      }
    } }, amount, h("button", { type: "submit", "data-testid": "sit" }, full ? "Join waiting list" : "Sit"), h("span", { class: "error" }));
  }

  createForm() {
    const f = (name, label, value, extra) => h("label", {}, label, h("input", { name, value, ...extra }));
    const note = h("p", { class: "error" });
    return h("details", { class: "create" }, h("summary", {}, "Create a table"),
      h("form", { onsubmit: async (e) => {
        e.preventDefault();
        const d = new FormData(e.target);
        const num = (k) => Number(d.get(k));
        try {
          const r = await this.conn.request({ type: "create_table", name: d.get("name"), small_blind: num("small_blind"),
            big_blind: num("big_blind"), seats: num("seats"), decision_seconds: num("decision_seconds") });
          location.hash = `#/table/${encodeURIComponent(r.table.id)}`;
        } catch (err) { note.textContent = err.message; }
      } },
      f("name", "Name ", "My table", { required: true, maxlength: 64 }),
      f("small_blind", "Small blind ", 50, { type: "number", min: 0 }),
      f("big_blind", "Big blind ", 100, { type: "number", min: 1 }),
      f("seats", "Seats ", 6, { type: "number", min: 2, max: 10 }),
      f("decision_seconds", "Seconds to act ", 30, { type: "number", min: 1, max: 3600 }),
      h("button", { type: "submit" }, "Create"), note));
  }

  // -- a table ----------------------------------------------------------------------------

  async openTable(id) {
    if (this.table && this.table.id === id) return;
    this.table = new TableModel(id);
    await this.resumeTable(id);
  }

  async showTable(id) {
    await this.openTable(id);
    this.clockTimer = setInterval(() => this.drawClock(), 200);
    this.draw();
  }

  draw() {
    if (this.drawQueued) return;
    this.drawQueued = true;
    requestAnimationFrame(() => {
      this.drawQueued = false;
      if (this.table && location.hash.startsWith("#/table/")) this.drawTable(this.table);
    });
  }

  drawTable(t) {
    if (!t.view) {
      this.main.replaceChildren(h("p", { class: "error" }, t.error || "Loading…"));
      return;
    }
    const me = this.mySeat(t);
    const room = h("div", { class: "room", "data-testid": "room" },
      h("div", { class: "felt" }, this.center(t), this.seats(t, me)));
    const panel = h("aside", { class: "panel" },
      h("h2", {}, t.summary ? t.summary.name : t.id,
        t.summary ? h("small", {}, ` ${chips(t.summary.small_blind)}/${chips(t.summary.big_blind)}`) : null),
      t.error ? h("p", { class: "error", "data-testid": "table-error" }, t.error) : null,
      this.controlsFor(t, me), this.results(t), this.logView(t));
    this.main.replaceChildren(h("section", { class: "table-screen" }, room, panel));
    this.drawClock();
  }

  center(t) {
    const v = t.view;
    const pots = v.pots;
    return h("div", { class: "center" },
      h("div", { class: "board", "data-testid": "board" }, [0, 1, 2, 3, 4].map((i) => v.board[i] ? card(v.board[i]) : h("span", { class: "card slot" }))),
      h("div", { class: "pots", "data-testid": "pots" }, pots.map((amount, n) => h("span", { class: "pot", "data-pot": n }, `${POT_NAME(n)[0].toUpperCase()}${POT_NAME(n).slice(1)}: ${chips(amount)}`))),
      h("div", { class: "hand-number", "data-testid": "hand-number" }, v.hand_number ? `Hand #${v.hand_number}` : "Waiting for players"));
  }

  seats(t, me) {
    const v = t.view;
    const count = t.summary ? t.summary.seats : Math.max(6, ...v.seats.map((s) => s.seat + 1));
    const bottom = me ? me.seat : 0; // our own seat is drawn at the bottom
    const out = [];
    for (let n = 0; n < count; n++) {
      const angle = ((n - bottom) / count) * 2 * Math.PI;
      const x = 50 - 42 * Math.sin(angle), y = 50 + 40 * Math.cos(angle);
      const s = t.seat(n);
      const style = { left: `${x.toFixed(1)}%`, top: `${y.toFixed(1)}%` };
      if (!s) { out.push(h("div", { class: "seat empty", style, "data-seat": n }, `Seat ${n + 1}`)); continue; }
      const turn = v.hand_in_progress && v.to_act === n;
      const badges = [v.button === n ? h("span", { class: "badge dealer", title: "dealer button" }, "D") : null,
        t.blinds[n] && v.hand_in_progress ? h("span", { class: "badge blind" }, t.blinds[n]) : null];
      const cards = s.has_cards && !s.folded ? [card(s.cards && s.cards[0]), card(s.cards && s.cards[1])] : [];
      out.push(h("div", { class: `seat${turn ? " turn" : ""}${s.folded ? " folded" : ""}${me && me.seat === n ? " mine" : ""}${s.sitting_out ? " away" : ""}`, style, "data-seat": n, "data-testid": `seat-${n}` },
        h("div", { class: "cards", "data-testid": `cards-${n}` }, cards),
        h("div", { class: "who" }, badges, h("span", { class: "name" }, s.name)),
        h("div", { class: "stack", "data-testid": `stack-${n}` }, chips(s.stack), s.all_in ? " all in" : ""),
        s.sitting_out ? h("div", { class: "muted" }, "sitting out") : null,
        turn ? h("div", { class: "clock", "data-testid": "clock" }, h("i"), h("span")) : null,
        s.street_total ? h("div", { class: "bet", "data-testid": `bet-${n}` }, chips(s.street_total)) : null));
    }
    return out;
  }

  /** The countdown of whoever is to act: ours from the action request (decision time,
   * then the time bank), the others' from the table's decision time. */
  drawClock() {
    const t = this.table;
    if (!t || !t.view) return;
    const el = this.main.querySelector(".seat.turn .clock");
    if (!el) return;
    const mine = t.request && t.request.seat === t.view.to_act;
    const started = mine ? t.requestAt : t.turnStarted;
    const decision = mine ? t.request.decision_seconds : (t.summary ? t.summary.decision_seconds : 30);
    const bank = mine ? t.request.time_bank_seconds : 0;
    const used = (performance.now() - started) / 1000;
    const left = decision - used;
    const [bar, label] = el.children;
    const inBank = Math.max(0, bank + Math.min(0, left));
    el.classList.toggle("bank", left <= 0);
    label.textContent = left > 0 ? `${Math.ceil(left)}s` : `time bank ${Math.ceil(inBank)}s`;
    bar.style.width = `${left > 0 ? (100 * left) / decision : bank ? (100 * inBank) / bank : 0}%`;
  }

  /** The controls, kept across redraws while the decision is the same, so that a raise
   * amount being typed is not lost when someone else's event redraws the table. */
  controlsFor(t, me) {
    const r = t.request;
    const key = [t.id, r && r.hand_number, r && r.seq, me && me.seat, me && me.sitting_out, t.view.hand_in_progress].join("/");
    if (!this.controlsKept || this.controlsKept.key !== key) this.controlsKept = { key, el: this.controls(t, me) };
    return this.controlsKept.el;
  }

  controls(t, me) {
    if (!me) {
      return h("div", { class: "controls" }, h("p", { class: "muted" }, "You are watching."),
        h("a", { class: "button", href: "#/" }, "Back to the lobby"));
    }
    const r = t.request && t.view.hand_in_progress ? t.request : null;
    const act = async (action, amount) => {
      const req = t.request;
      if (!req) return;
      t.request = null;
      this.drawTable(t); // at once: the buttons must not take a second click

      try {
        await this.conn.request({ type: "act", table: t.id, action_id: `${req.hand_number}-${req.seq}`, seq: req.seq, action, ...(amount !== undefined ? { amount } : {}) });
        t.error = null;
      } catch (err) {
        t.error = err.message;
        // Refused as it stands (say, an amount out of range): still our turn. A dropped
        // connection is not: the server asks again after the resume if it still is.
        if (err.code && err.code !== "stale" && err.code !== "not_your_turn") t.request = req;
        this.draw();
      }
    };
    const seatButtons = h("div", { class: "seat-actions" },
      me.sitting_out
        ? h("button", { "data-testid": "sit-in", onclick: () => this.conn.request({ type: "sit_in", table: t.id, post: true }).catch((e) => { t.error = e.message; this.draw(); }) }, "Sit back in")
        : h("button", { "data-testid": "sit-out", onclick: () => this.conn.request({ type: "sit_out", table: t.id }).then(() => { t.error = "You will sit out from the next hand."; this.draw(); }).catch((e) => { t.error = e.message; this.draw(); }) }, "Sit out"),
      h("button", { "data-testid": "leave", onclick: async () => {
        try {
          const x = await this.conn.request({ type: "leave", table: t.id });
          if (x.type === "leaving") { t.error = "You will stand up when this hand ends."; this.draw(); } else location.hash = "#/";
        } catch (e) { t.error = e.message; this.draw(); }
      } }, "Leave"));
    if (!r) return h("div", { class: "controls" }, h("p", { class: "muted", "data-testid": "waiting-turn" }, t.view.hand_in_progress ? "Waiting for your turn…" : "Waiting for the next hand…"), seatButtons);
    const m = r.menu;
    const buttons = [];
    if (m.can_fold) buttons.push(h("button", { class: "fold", "data-testid": "fold", onclick: () => act("fold") }, "Fold"));
    if (m.can_check) buttons.push(h("button", { "data-testid": "check", onclick: () => act("check") }, "Check"));
    if (m.call > 0) buttons.push(h("button", { "data-testid": "call", onclick: () => act("call") }, `Call ${chips(m.call)}${m.call_is_all_in ? " (all in)" : ""}`));
    let raise = null;
    if (m.can_raise) {
      const lo = m.min_raise_to, hi = m.max_raise_to;
      const slider = h("input", { type: "range", min: lo, max: hi, step: 1, value: lo, "data-testid": "raise-slider", "aria-label": "raise to" });
      const typed = h("input", { type: "number", min: lo, max: hi, step: 1, value: lo, "data-testid": "raise-amount", "aria-label": "amount" });
      const go = h("button", { class: "raise", "data-testid": "raise" }, "");
      const set = (value) => {
        const n = Math.min(hi, Math.max(lo, Math.round(Number(value) || lo)));
        slider.value = typed.value = n;
        go.textContent = `${m.raise_kind === "bet" ? "Bet" : "Raise to"} ${chips(n)}${n === hi ? " (all in)" : ""}`;
        return n;
      };
      slider.addEventListener("input", () => set(slider.value));
      typed.addEventListener("change", () => set(typed.value));
      go.addEventListener("click", () => act(m.raise_kind, set(typed.value)));
      // Presets: the street total after a raise of half the pot or the pot (the pot
      // counted once we have called), and all in.
      const pot = t.view.seats.reduce((sum, s) => sum + (s.hand_total || 0), 0);
      const mine = me.street_total;
      const potRaise = (part) => mine + m.call + Math.floor(part * (pot + m.call));
      const preset = (label, value, id) => h("button", { type: "button", class: "preset", "data-testid": id, onclick: () => set(value) }, label);
      raise = h("div", { class: "raise-box" }, slider, typed,
        h("div", { class: "presets" }, preset("½ pot", potRaise(0.5), "half-pot"), preset("Pot", potRaise(1), "pot"), preset("All in", hi, "all-in")), go);
      set(lo);
      if (m.raise_is_all_in_only) { slider.disabled = typed.disabled = true; }
    }
    return h("div", { class: "controls your-turn", "data-testid": "your-turn" }, h("p", {}, "Your turn"), h("div", { class: "buttons" }, buttons), raise, seatButtons);
  }

  /** Who won which pot with what, and the hands shown: this hand's, else the last one's
   * (the next hand is dealt at once; this is where people see what happened). */
  results(t) {
    const [hand, results, shown] = t.results.length ? [t.view.hand_number, t.results, t.shown]
      : t.lastResults ? [t.lastResults.hand, t.lastResults.results, t.lastResults.shown] : [0, [], []];
    if (!results.length) return null;
    return h("div", { class: "results", "data-testid": "results" }, h("h3", {}, `Hand #${hand}`),
      shown.map((e) => h("p", { class: "shown", "data-seat": e.seat }, `${t.name(e.seat)} shows `, e.cards.map((c) => card(c, "small")))),
      results.map((e) =>
      h("p", {}, e.shares.map(([s, n]) => `${t.name(s)} wins ${chips(n)}`).join(", "), ` from the ${POT_NAME(e.pot)}`,
        e.description ? h("span", { class: "hand-name", "data-testid": "hand-name" }, ` with ${e.description}`) : null)));
  }

  logView(t) {
    const list = h("ul", { "data-testid": "log" }, t.log.slice(-80).map((l) => h("li", {}, l.text)));
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; }); // the newest in view
    return h("details", { class: "log", open: true }, h("summary", {}, "Hand log"), list);
  }

  // -- your hands and the viewer ----------------------------------------------------------

  async showHands() {
    const box = h("div", { "data-testid": "hands" }, "Loading your hands…");
    this.main.replaceChildren(h("section", {}, h("h2", {}, "Your recent hands"), box));
    if (!this.conn.player) { box.textContent = "Say who you are in the lobby to see your hands."; return; }
    const rows = h("tbody");
    const more = h("button", { "data-testid": "more-hands" }, "Older hands");
    const page = async (before) => {
      const r = await this.conn.request({ type: "hands", limit: this.handsPage, ...(before ? { before } : {}) });
      rows.append(...r.hands.map((x) => h("tr", { "data-hand": x.id },
        h("td", {}, `#${x.hand_number}`), h("td", {}, x.table), h("td", {}, new Date(x.started_at).toLocaleString()),
        h("td", {}, x.board.map((c) => card(c, "small"))), h("td", {}, chips(x.pot)),
        h("td", { class: x.net > 0 ? "won" : x.net < 0 ? "lost" : "" }, `${x.net > 0 ? "+" : ""}${chips(x.net)}`),
        h("td", {}, h("a", { class: "button", href: `#/hand/${x.id}`, "data-testid": "replay" }, "Replay")))));
      // A full page may have more behind it: hands come newest first, ids falling.
      more.hidden = r.hands.length < this.handsPage;
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

  async showViewer(id) {
    this.main.replaceChildren(h("p", {}, "Loading the hand…"));
    let hand;
    try {
      hand = await this.conn.request({ type: "hand", hand_id: id });
    } catch (err) {
      this.main.replaceChildren(h("p", { class: "error" }, `Cannot open hand ${id}: ${err.message}`));
      return;
    }
    this.viewer = { hand, step: 0, timer: null };
    this.drawViewer();
  }

  /** The hand after its first ``step`` events, drawn with the table's own code. */
  drawViewer() {
    const { hand, step } = this.viewer;
    const t = new TableModel(hand.table);
    t.summary = { name: hand.table, seats: Math.max(...hand.players.map((p) => p.seat + 1), 2),
      small_blind: hand.small_blind, big_blind: hand.big_blind, decision_seconds: 0 };
    t.setSnapshot({ seq: 0, summary: t.summary, view: { hand_number: hand.hand_number, hand_in_progress: false,
      street: null, board: [], pots: [], button: null, to_act: null, viewer: hand.seat, menu: null,
      seats: hand.players.map((p) => ({ seat: p.seat, name: p.name, stack: 0, in_hand: false, folded: false,
        all_in: false, street_total: 0, hand_total: 0, sitting_out: false, waiting_for_big_blind: false, has_cards: false, cards: null })) } });
    for (const e of hand.events.slice(0, step + 1)) t.apply(e);
    const total = hand.events.length;
    const go = (n) => { this.viewer.step = Math.max(0, Math.min(total - 1, n)); this.drawViewer(); };
    const play = () => {
      if (this.viewer.timer) { clearInterval(this.viewer.timer); this.viewer.timer = null; this.drawViewer(); return; }
      this.viewer.timer = setInterval(() => {
        if (!this.viewer || this.viewer.step >= total - 1) { clearInterval(this.viewer?.timer); if (this.viewer) { this.viewer.timer = null; this.drawViewer(); } return; }
        go(this.viewer.step + 1);
      }, 700);
      this.drawViewer();
    };
    const download = (format, text, ext) => h("button", { "data-testid": `download-${format}`, onclick: () => {
      const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      h("a", { href: url, download: `pokerroom-hand-${hand.hand_id}.${ext}` }).click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } }, format === "phh" ? "Download PHH" : "Download PokerStars");
    const me = this.mySeat(t);
    this.main.replaceChildren(h("section", { class: "table-screen viewer", "data-testid": "viewer" },
      h("div", { class: "room" }, h("div", { class: "felt" }, this.center(t), this.seats(t, me))),
      h("aside", { class: "panel" },
        h("h2", {}, `${hand.table} #${hand.hand_number}`, h("small", {}, ` ${new Date(hand.started_at).toLocaleString()}`)),
        h("div", { class: "steps" },
          h("button", { "data-testid": "first", onclick: () => go(0) }, "« Start"),
          h("button", { "data-testid": "prev", onclick: () => go(step - 1), disabled: step === 0 }, "◀ Prev"),
          h("button", { "data-testid": "play", onclick: play }, this.viewer.timer ? "Pause" : "▶ Play"),
          h("button", { "data-testid": "next", onclick: () => go(step + 1), disabled: step >= total - 1 }, "Next ▶"),
          h("span", { "data-testid": "step" }, `${step + 1} / ${total}`)),
        h("div", { class: "downloads" }, download("phh", hand.phh, "phh"), download("pokerstars", hand.pokerstars, "txt")),
        this.results(t), this.logView(t))));
  }
}

window.pokerroom = new App();
