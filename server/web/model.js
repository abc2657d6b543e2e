// The table model: a view (docs/protocol.md, "The view") kept up to date by the table's
// events, with what the page keeps beyond it (blinds, the hand log, the last results,
// whose turn it is). No DOM: tests/web/test_table_model.py runs it in Node against the
// engine.

import { BLIND_NAMES, POT_NAME, chips, describeAction } from "./format.js";

export class TableModel {
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

  /** A stored hand (the reply to ``hand``, docs/protocol.md) after its first ``count``
   * events: what the hand viewer draws. */
  static replay(hand, count) {
    const t = new TableModel(hand.table);
    t.summary = { name: hand.table, seats: Math.max(...hand.players.map((p) => p.seat + 1), 2),
      small_blind: hand.small_blind, big_blind: hand.big_blind, decision_seconds: 0 };
    t.setSnapshot({ seq: 0, summary: t.summary, view: { hand_number: hand.hand_number, hand_in_progress: false,
      street: null, board: [], pots: [], button: null, to_act: null, viewer: hand.seat, menu: null,
      seats: hand.players.map((p) => ({ seat: p.seat, name: p.name, stack: 0, in_hand: false, folded: false,
        all_in: false, street_total: 0, hand_total: 0, sitting_out: false, waiting_for_big_blind: false, has_cards: false, cards: null })) } });
    for (const e of hand.events.slice(0, count)) t.apply(e);
    return t;
  }

  seat(n) { return this.view && this.view.seats.find((s) => s.seat === n); }
  name(n) { const s = this.seat(n); return s ? s.name : `seat ${n + 1}`; }

  /** Our own seat, or null when we are watching. */
  mySeat() {
    const v = this.view;
    return v && v.viewer !== null && v.viewer !== undefined ? this.seat(v.viewer) : null;
  }

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
    const on = ON[e.type];
    if (on) on.call(this, e, v, seat, who);
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

/** What each event does to the model: ``on.call(model, event, view, seat, name)``, with
 * the seat the event names (null if none) and that player's name. The view's pots and
 * the player to act are worked out after each, in ``apply``. */
const ON = {
  hand_started(e, v) {
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
  },
  forced_bet_posted(e, v, seat, who) {
    if (seat) Object.assign(seat, { street_total: e.street_total, hand_total: e.hand_total, stack: e.stack, all_in: e.all_in });
    if (e.kind === "small_blind") this.blinds[e.seat] = "SB";
    if (e.kind === "big_blind") this.blinds[e.seat] = "BB";
    if (e.kind === "dead_blind") this.dead[e.seat] = (this.dead[e.seat] || 0) + e.increment;
    if (e.kind === "ante") this.antes.push([e.seat, e.increment]);
    this.line(`${who} posts ${BLIND_NAMES[e.kind] || e.kind} of ${chips(e.increment)}`);
  },
  hole_cards_dealt(e, v, seat, who) {
    if (seat) Object.assign(seat, { has_cards: true, cards: e.cards });
    if (e.cards) this.line(`Dealt to ${who}: ${e.cards.join(" ")}`);
  },
  action_taken(e, v, seat, who) {
    if (seat) Object.assign(seat, { street_total: e.street_total, hand_total: e.hand_total,
      stack: e.stack, all_in: e.all_in, folded: seat.folded || e.kind === "fold" });
    if (e.kind === "bet" || e.kind === "raise") this.acted = new Set();
    this.acted.add(e.seat);
    this.lastActor = e.seat;
    this.line(describeAction(who, e));
  },
  board_dealt(e, v) {
    v.board = e.board;
    v.street = e.street;
    for (const s of v.seats) s.street_total = 0; // the street just played is in the pots now
    this.owed = 0;
    this.acted = new Set();
    this.lastActor = this.order[this.order.length - 1]; // first to act: left of the button
    this.line(`${e.street[0].toUpperCase()}${e.street.slice(1)}: ${e.board.join(" ")}`);
  },
  uncalled_bet_returned(e, v, seat, who) {
    if (seat) {
      seat.stack = e.stack;
      seat.street_total -= e.amount;
      seat.hand_total -= e.amount;
      seat.all_in = e.stack === 0; // the chips back: all in no more
    }
    this.line(`${chips(e.amount)} uncalled returned to ${who}`);
  },
  cards_shown(e, v, seat, who) {
    if (seat) seat.cards = e.cards;
    this.shown.push(e);
    this.line(`${who} shows ${e.cards.join(" ")}`);
  },
  cards_mucked(e, v, seat, who) {
    if (seat) seat.mucked = true;
    this.line(`${who} mucks`);
  },
  pot_awarded(e, v) {
    this.results.push(e);
    const names = e.shares.map(([s, n]) => `${this.name(s)} ${chips(n)}`).join(", ");
    this.line(`${names} from the ${POT_NAME(e.pot)}${e.description ? ` with ${e.description}` : ""}`);
  },
  hand_ended(e, v) {
    v.hand_in_progress = false;
    v.to_act = null;
    v.pots = [];
    for (const [s, stack] of e.stacks) {
      const st = this.seat(s);
      if (st) Object.assign(st, { stack, street_total: 0, hand_total: 0 });
    }
    this.request = null;
  },
  player_sat(e, v, seat) {
    if (!seat) v.seats.push({ seat: e.seat, name: e.name || `seat ${e.seat + 1}`, stack: e.stack,
      in_hand: false, folded: false, all_in: false, street_total: 0, hand_total: 0,
      sitting_out: false, waiting_for_big_blind: e.waiting_for_big_blind, has_cards: false, cards: null });
    v.seats.sort((a, b) => a.seat - b.seat);
  },
  player_stood(e, v, seat, who) {
    v.seats = v.seats.filter((s) => s.seat !== e.seat);
    this.line(`${who} ${e.reason === "busted" ? "is out of chips and stands up" : "stands up"} with ${chips(e.stack)}`);
  },
  player_sat_out(e, v, seat) {
    if (seat) seat.sitting_out = true;
  },
  player_sat_in(e, v, seat) {
    if (seat) Object.assign(seat, { sitting_out: false, waiting_for_big_blind: e.waiting_for_big_blind });
  },
};

/** The main pot and side pots as the engine builds them (engine/pots.py, Hand.pots),
 * from the chips of the streets already played (this street's are still in front of the
 * players): each total of a player still in the hand closes a pot they and everyone who
 * put in as much may win; folded players' chips fill the pots up to what they put in;
 * pots with the same players merge; dead money goes to the main pot. */
export function potsOf(seats, dead) {
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

