// The table model: a view (docs/protocol.md, "The view") kept up to date by the table's
// events, with what the page keeps beyond it (blinds, the hand log, the last results,
// each seat's cards down and up). Whose turn it is and the pots are the server's: the
// last event of each batch says them (its ``state``); the model never works them out.
// Every game: the game's definition (the summary's ``game``) says how many cards each
// street deals, face down or up, and which streets draw. No DOM:
// tests/web/test_table_model.py runs it in Node against the engine.

import { BLIND_NAMES, POT_NAME, actionLabel, chips, describeAction, describeDraw, nameOf } from "./format.js";

/** No-limit hold'em's streets, for a server that names no game. */
const HOLDEM = { key: "nlhe", deck: "standard", hands: ["high"], streets: [
  { name: "preflop", hole: ["down", "down"], board: 0, draw: false, opener: "blinds" },
  { name: "flop", hole: [], board: 3, draw: false, opener: "position" },
  { name: "turn", hole: [], board: 1, draw: false, opener: "position" },
  { name: "river", hole: [], board: 1, draw: false, opener: "position" }] };

/** The wire's name of a street ("third_street") from the definition's ("third street"). */
export const streetKey = (name) => name.replace(/ /g, "_");

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
    this.order = [];       // seats dealt in, from the left of the button, button last
    this.gameDef = null;   // the game when no summary names it (a stored hand's)
    this.mixDealt = 0;     // a mixed game: hands dealt of its current game (this one too)
    this.choice = null;    // dealer's choice: our game_choice, with when it came (ms)
    this.bombVotes = null; // {votes: [names], needed, called}: the bomb pot vote (bomb_pot_votes)
    this.bombPot = null;   // the hand being played is a bomb pot: {ante, boards}
    this.bounties = [];    // bounty_paid events of this hand (the 7-2 bounty)
    this.runTwice = {};    // seat -> their answer to "run it twice?" this hand
    this.pauseUntil = 0;   // the pause after a hand (show, rabbit) ends then (ms, performance.now())
    this.resetHand();
  }

  /** What the page keeps of the hand being played beyond the view. */
  resetHand() {
    this.blinds = {};      // seat -> "SB" | "BB"
    this.streetIndex = 0;  // the street being played, an index into the game's streets
    this.drawing = false;  // a draw is under way: everyone draws before anyone bets
    this.drawn = new Set(); // who has drawn this street
    this.lastAction = {};  // seat -> what they did last this street ("Check", "Raise to 900")
  }

  /** The game's definition: the summary's, else the one given, else hold'em's. */
  get game() {
    const g = this.summary && this.summary.game;
    return (g && typeof g === "object" ? g : null) || this.gameDef || HOLDEM;
  }
  get streets() { return this.game.streets && this.game.streets.length ? this.game.streets : HOLDEM.streets; }
  /** Whether pots split high and low (Omaha hi-lo, stud hi-lo). */
  get split() { return (this.game.hands || []).length === 2; }
  get dice() { return this.game.deck === "dice"; }

  /** The index of the street the wire calls ``name`` ("first_draw"), or -1. */
  streetIndexOf(name) { return this.streets.findIndex((s) => streetKey(s.name) === name); }

  /** How many cards a player holds once street ``k`` is dealt, and which are face up. */
  dealtThrough(k) { return this.streets.slice(0, k + 1).flatMap((s) => s.hole || []); }

  /** A stored hand (the reply to ``hand``, docs/protocol.md) after its first ``count``
   * events: what the hand viewer draws. */
  static replay(hand, count) {
    const t = new TableModel(hand.table);
    t.gameDef = typeof hand.game === "object" && hand.game ? hand.game : null;
    if (!t.gameDef) {
      // An older server names no game: as many cards down as the viewer was dealt.
      const mine = hand.events.find((e) => e.type === "hole_cards_dealt" && e.cards);
      if (mine && mine.cards.length !== 2) {
        t.gameDef = { ...HOLDEM, streets: [{ ...HOLDEM.streets[0], hole: mine.cards.map(() => "down") }, ...HOLDEM.streets.slice(1)] };
      }
    }
    t.summary = { name: hand.table, seats: Math.max(...hand.players.map((p) => p.seat + 1), 2),
      small_blind: hand.small_blind, big_blind: hand.big_blind, decision_seconds: 0, game: t.gameDef || hand.game || null,
      bring_in: hand.bring_in || 0, small_bet: hand.small_bet || 0, big_bet: hand.big_bet || 0 };
    t.setSnapshot({ seq: 0, summary: t.summary, view: { hand_number: hand.hand_number, hand_in_progress: false,
      street: null, board: [], pots: [], button: null, to_act: null, viewer: hand.seat, menu: null,
      seats: hand.players.map((p) => ({ seat: p.seat, name: p.name, stack: 0, in_hand: false, folded: false,
        all_in: false, street_total: 0, hand_total: 0, sitting_out: false, waiting_for_big_blind: false, has_cards: false, cards: null, up_cards: [] })) } });
    hand.events.slice(0, count).forEach((e, i) => t.apply(e, hand.states && hand.states[i]));
    return t;
  }

  seat(n) { return this.view && this.view.seats.find((s) => s.seat === n); }

  /** Every chip in the middle and in front of the players, this street's bets too (as
   * PokerStars' "Pot:"); 0 between hands. */
  potTotal() {
    const v = this.view;
    if (!v || !v.hand_in_progress) return 0;
    return v.seats.filter((s) => s.in_hand).reduce((sum, s) => sum + (s.hand_total || 0), 0);
  }

  /** After a reload or a resume from nothing (``resume`` with ``last_seq`` 0): what the
   * view leaves out, rebuilt from the events the table still keeps (its last hands):
   * the hand log, the blinds' seats and each seat's last action in the hand being
   * played, and the last result. A model of its own replays them; the view stays the
   * snapshot's. */
  restore(missed) {
    if (!missed.length) return;
    const past = new TableModel(this.id);
    past.summary = structuredClone(this.summary);
    past.view = { ...structuredClone(this.view), hand_in_progress: false };
    for (const s of past.view.seats) s.hand = s.hand || [];
    for (const m of missed) {
      if (m.event.type !== "hand_started") past.view.hand_number = m.hand_number;
      past.apply(m.event);
    }
    // A player re-seated meanwhile (a house bot buying in again) was "seat 4" to the
    // replay: the snapshot knows their name.
    for (const s of this.view.seats) if (!s.unnamed) this.rename(past.log, s.seat, s.name);
    this.log = [...this.log, ...past.log];
    const sameHand = this.view.hand_in_progress && past.view.hand_number === this.view.hand_number;
    if (sameHand) {
      this.blinds = past.blinds;
      this.lastAction = past.lastAction;
      this.results = past.results;
      this.shown = past.shown;
      this.bounties = past.bounties;
      this.runTwice = past.runTwice;
      this.bombPot = past.bombPot;
    }
    this.lastResults = past.lastResults || (!sameHand && past.results.length ? { hand: past.view.hand_number, results: past.results, shown: past.shown, bounties: past.bounties, boardName: past.boardName() } : null);
  }
  name(n) {
    const s = this.seat(n);
    // A player who stood up (busted) is still named in the hand they played.
    return s ? s.name : (this.gone && this.gone[n]) || `seat ${n + 1}`;
  }

  /** A seat's name is known at last (the lobby's, after ``player_sat``): log lines that
   * said "seat 4" for it meanwhile get the name. */
  named(n, name) {
    const s = this.seat(n);
    if (!s || s.name === name) return;
    const unnamed = s.unnamed;
    s.name = name;
    s.unnamed = false;
    if (unnamed) this.rename(this.log, n, name);
  }

  /** Our own seat, or null when we are watching. */
  mySeat() {
    const v = this.view;
    return v && v.viewer !== null && v.viewer !== undefined ? this.seat(v.viewer) : null;
  }

  setSnapshot(m) {
    this.view = m.view;
    this.summary = m.summary || this.summary;
    this.waiting = m.waiting_for ?? null; // what the table waits for: "database", or none
    const mix = this.mix;
    if (mix && mix.hands_left !== null && mix.hands_left !== undefined) {
      // The server moves its rotation on just before a hand: in a hand, hands_left counts
      // that hand; between hands, the hand just played is not counted yet (unless none
      // has been, or the game is being picked: the rotation has moved on).
      const counted = this.view.hand_in_progress || (this.summary.hands_played > 0 && mix.choosing === null);
      this.mixDealt = mix.hands - mix.hands_left + (counted ? 1 : 0);
    }
    this.seq = m.seq;
    this.request = null;
    const v = this.view;
    this.order = v.seats.filter((s) => s.in_hand).map((s) => s.seat);
    this.orderFromButton();
    this.resetHand();
    // A page (re)loaded in the pause after a hand may still show cards, hunt the rabbit.
    if (m.show_seconds_left) this.pauseUntil = performance.now() + 1000 * m.show_seconds_left;
    const k = v.street ? this.streetIndexOf(v.street) : -1;
    this.streetIndex = Math.max(k, 0);
    for (const s of v.seats) {
      s.hand = handFromView(s, k >= 0 ? this.dealtThrough(k) : []);
      s.drew = null;
      s.revealed = [...(s.shown_cards || [])];
      for (const c of s.revealed) placeRevealed(s, c);
    }
    v.boards = v.boards || [];
    v.rabbit = null;
    this.bounties = [];
    this.runTwice = {};
    this.bombPot = null;
    this.pauseUntil = 0;
    this.results = [];
    this.shown = [];
    this.lastResults = null;
    this.error = null;
    this.turnStarted = performance.now();
  }

  /** A mixed game's part of the summary (docs/protocol.md, "Mixed games"), or null. */
  get mix() { return (this.summary && this.summary.mix) || null; }

  /** A mixed table changes game between hands (``game_changed``): the new summary, with
   * the new game and its stakes. The last hand's cards leave the felt (the results stay
   * in the panel): they were another game's, and would be drawn by this one's layout. */
  changeGame(summary) {
    const before = this.summary && this.summary.game && this.summary.game.key;
    this.summary = summary;
    this.mixDealt = 0;
    const v = this.view;
    if (v && !v.hand_in_progress) {
      for (const s of v.seats) Object.assign(s, { hand: [], cards: null, up_cards: [], has_cards: false, drew: null, shown: false });
      Object.assign(v, { board: [], street: null });
      this.resetHand();
    }
    if (v && summary.game && summary.game.key !== before) this.line(`The game is now ${summary.game.name}`);
  }

  /** Hands of this mixed game still to deal, this one included while it is played; null
   * when the game changes with the orbit (or the table is of one game). */
  mixLeft() {
    const mix = this.mix;
    if (!mix || mix.change !== "hands") return null;
    return mix.hands - this.mixDealt + (this.view && this.view.hand_in_progress ? 1 : 0);
  }

  /** The game a rotation (not dealer's choice) plays after this one, by name. */
  nextGame() {
    const mix = this.mix;
    if (!mix || mix.dealers_choice) return null;
    return nameOf(mix.games[(mix.games.indexOf(mix.game) + 1) % mix.games.length], true);
  }

  /** Who picks the next game at dealer's choice (a seat), or null. */
  choosing() {
    const mix = this.mix;
    return mix && mix.choosing !== null && mix.choosing !== undefined ? mix.choosing : null;
  }

  /** "bob is choosing the game", or "you are" when it is our pick. */
  choosingText(chooser) {
    const mine = this.view && this.view.viewer === chooser;
    return `${mine ? "you are" : this.name(chooser) + " is"} choosing the game`;
  }

  /** A mixed table's line: "HORSE · Razz · 3 hands left", "Dealer's choice · 2-7 triple
   * draw", "8-game · Stud · until the orbit ends", "Dealer's choice · bob is choosing the
   * game"; null at a table of one game. */
  mixLine() {
    const mix = this.mix;
    if (!mix) return null;
    const parts = [mix.name];
    const chooser = this.choosing();
    if (chooser !== null) return [...parts, this.choosingText(chooser)].join(" · ");
    parts.push(this.summary.game && this.summary.game.key === mix.game ? this.summary.game.name : nameOf(mix.game));
    const playing = this.view && this.view.hand_in_progress;
    if (mix.change === "orbit") parts.push("until the orbit ends");
    else if (!mix.dealers_choice || mix.hands > 1) {
      const left = this.mixLeft();
      if (left > 1 || (left === 1 && !playing)) parts.push(`${left} hands left`.replace(/^1 hands/, "1 hand"));
      else if (left === 1) parts.push(`last hand${this.nextGame() ? `, then ${this.nextGame()}` : ""}`);
      else if (this.nextGame()) parts.push(`${this.nextGame()} next`);
    }
    return parts.join(" · ");
  }

  /** The table's options (docs/home-games.md, "Table options"): the summary's, with
   * nothing on for a server that has none. */
  get options() {
    return { straddle: false, button_straddle: false, bomb_pot: 0, bomb_pot_every: 0, bomb_pot_boards: 1,
      run_it_twice: false, seven_deuce: 0, show_seconds: 0, ...((this.summary && this.summary.options) || {}) };
  }

  /** The table's messages that are not engine events: a seat's straddle choice
   * (``straddle``) and the bomb pot vote (``bomb_pot_votes``). True when handled. */
  message(m) {
    const v = this.view;
    if (!v) return false;
    if (m.type === "straddle") {
      const s = this.seat(m.seat);
      if (s) s.straddle = m.on;
      this.line(`${this.name(m.seat)} ${m.on ? "will straddle under the gun" : "stops straddling"}`);
      return true;
    }
    if (m.type === "player_joined") { // who just sat: a name, and whether a bot
      this.named(m.seat, m.name);
      const s = this.seat(m.seat);
      if (s) s.bot = m.bot;
      return true;
    }
    if (m.type === "bomb_pot_votes") {
      this.bombVotes = { votes: m.votes, needed: m.needed, called: m.called };
      if (m.called) this.line("Bomb pot next hand: the table voted for it");
      return true;
    }
    return false;
  }

  /** What this hand's two boards are called: "board" (a double-board bomb pot) or
   * "run" (run twice). */
  boardName() {
    return (!this.bombPot || this.bombPot.boards < 2) && Object.keys(this.runTwice).length ? "run" : "board";
  }

  /** How many votes a bomb pot needs: more than half the seated players. */
  bombNeeded() {
    if (this.bombVotes) return this.bombVotes.needed;
    return Math.floor((this.view ? this.view.seats.length : 0) / 2) + 1;
  }

  /** Whether the pause after a hand is on: cards may be shown and the rabbit hunted. */
  inShowPause(now = performance.now()) {
    const v = this.view;
    return !!v && !v.hand_in_progress && v.hand_number > 0 && now < this.pauseUntil;
  }

  /** The board cards a hand that ended early never dealt (none with two boards). */
  boardLeft() {
    const v = this.view;
    if (!v || v.boards.length > 1) return 0;
    const full = this.streets.reduce((n, st) => n + (st.board || 0), 0);
    return Math.max(0, full - v.board.length - (v.rabbit ? v.rabbit.length : 0));
  }

  /** Put ``order`` left of the button first, the button last (the snapshot lists seats
   * by number). */
  orderFromButton() {
    const b = this.view.button;
    if (b === null || b === undefined || !this.order.length) return;
    const after = this.order.filter((s) => s > b), before = this.order.filter((s) => s <= b);
    this.order = [...after, ...before];
  }

  /** One event, and with the last of a batch the table's ``state`` after it: whose turn
   * it is, the pots, the street (a draw begins with no event of its own). */
  apply(e, state) {
    const v = this.view;
    if (!v) return;
    const seat = e.seat !== undefined ? this.seat(e.seat) : null;
    const who = e.seat !== undefined ? this.name(e.seat) : "";
    const on = ON[e.type];
    if (on) on.call(this, e, v, seat, who);
    if (state) this.told(state);
  }

  /** The server's word on the table: whose turn it is, the pots and the street. */
  told(state) {
    const v = this.view;
    if (!v.hand_in_progress) return;
    const k = state.street ? this.streetIndexOf(state.street) : -1;
    if (k > this.streetIndex) this.newStreet(k);
    v.pots = state.pots;
    const next = state.hand_in_progress ? state.to_act : null;
    if (next !== v.to_act) this.turnStarted = performance.now();
    v.to_act = next;
  }

  live() { return this.order.map((n) => this.seat(n)).filter((s) => s && s.in_hand && !s.folded); }

  /** A new street: its draw, or its betting round. */
  newStreet(k) {
    const v = this.view;
    const spec = this.streets[k] || {};
    this.streetIndex = k;
    if (spec.name) v.street = streetKey(spec.name);
    for (const s of v.seats) s.drew = null;
    this.drawn = new Set();
    this.lastAction = {};
    this.drawing = !!spec.draw;
    // A draw comes first: the bets stay in front of the players until the betting opens.
    if (!this.drawing) this.openBetting();
  }

  /** The street's betting round opens: the chips bet are in the pots, nobody has acted. */
  openBetting() {
    for (const s of this.view.seats) s.street_total = 0;
    this.lastAction = {};
  }

  /** The street a deal to ``seat`` belongs to: the one whose cards start where the
   * seat's hand is now. */
  dealStreet(seat) {
    const held = seat.hand.length;
    let count = 0;
    for (let k = 0; k < this.streets.length; k++) {
      const n = (this.streets[k].hole || []).length;
      if (n && count >= held) return k;
      count += n;
    }
    return this.streetIndex;
  }

  /** A line of the hand log. A player who just sat has no name yet ("seat 4" until the
   * lobby's list says it): the line remembers the seat, to be renamed (``named``). */
  line(text) {
    const seats = this.view.seats.filter((s) => s.unnamed && placeholder(s.seat).test(text)).map((s) => s.seat);
    this.log.push({ hand: this.view.hand_number, text, ...(seats.length ? { seats } : {}) });
    if (this.log.length > 400) this.log.shift();
  }

  /** Log lines naming seat ``n`` by its number get its name. */
  rename(lines, n, name) {
    for (const l of lines) {
      if (l.seats && l.seats.includes(n)) {
        l.text = l.text.replace(placeholder(n), name);
        l.seats = l.seats.filter((x) => x !== n);
      }
    }
  }
}

/** "seat 4" in a log line, as a player with no name yet is called (not "seat 40"). */
const placeholder = (n) => new RegExp(`\\bseat ${n + 1}\\b`, "g");

/** A seat's cards from a view: all of them when we may see them, else the up cards in
 * their places among face-down ones, as the game deals them (``faces``: "down" or "up"
 * per card dealt so far). */
function handFromView(s, faces) {
  const up = [...(s.up_cards || [])];
  if (s.cards) {
    const left = [...up];
    return s.cards.map((c) => {
      const i = left.indexOf(c);
      if (i >= 0) left.splice(i, 1);
      return { card: c, up: i >= 0 };
    });
  }
  if (!s.has_cards && !up.length) return [];
  const hand = faces.map((f) => (f === "up" && up.length ? { card: up.shift(), up: true } : { card: null, up: false }));
  return [...hand, ...up.map((c) => ({ card: c, up: true }))];
}

/** A card shown after the hand goes in the seat's hand: where it is, when we know the
 * cards, else in the place of a card face down. */
function placeRevealed(s, c) {
  s.hand = s.hand || [];
  if (s.hand.some((x) => x.card === c)) return;
  const i = s.hand.findIndex((x) => !x.card);
  if (i >= 0) s.hand[i] = { card: c, up: false };
  else s.hand.push({ card: c, up: false });
}

/** Whether every card of a hand is known (to show ``cards``, as the view does). */
const known = (hand) => (hand.length && hand.every((c) => c.card) ? hand.map((c) => c.card) : null);

/** What each event does to the model: ``on.call(model, event, view, seat, name)``, with
 * the seat the event names (null if none) and that player's name. The view's pots and
 * the player to act come with the last event of a batch (``apply``). */
const ON = {
  hand_started(e, v) {
    if (this.results.length) this.lastResults = { hand: v.hand_number, results: this.results, shown: this.shown, bounties: this.bounties, boardName: this.boardName() };
    this.shown = [];
    this.bounties = [];
    this.runTwice = {};
    this.bombPot = null;
    this.pauseUntil = 0;
    const first = this.streets[0];
    Object.assign(v, { hand_number: e.hand_number, hand_in_progress: true, street: streetKey(first.name),
      board: [], boards: [], rabbit: null, pots: [], button: e.button, to_act: null });
    for (const s of v.seats) {
      const i = e.seats.indexOf(s.seat);
      Object.assign(s, { in_hand: i >= 0, folded: false, all_in: false, street_total: 0,
        hand_total: 0, has_cards: false, cards: null, up_cards: [], hand: [], drew: null, shown: false, mucked: false,
        revealed: [], shown_cards: [] });
      if (i >= 0) s.stack = e.stacks[i];
    }
    this.order = e.seats.slice();
    this.results = [];
    this.resetHand();
    // A new pick at dealer's choice starts a stretch, even of the game played before
    // (the server says nothing when the game stays the same).
    if (this.choosing() !== null || this.choice) this.mixDealt = 0;
    this.mixDealt += 1;
    this.choice = null; // a pick nobody made in time: the hand is dealt all the same
    if (this.mix) this.summary.mix = { ...this.mix, choosing: null };
    const g = this.summary && this.summary.game;
    const stakes = e.big_blind ? `blinds ${chips(e.small_blind)}/${chips(e.big_blind)}` : `${g ? g.name : "stakes"}`;
    this.line(`Hand #${e.hand_number}: ${stakes}${e.ante ? `, ante ${chips(e.ante)}` : ""}; ${this.name(e.button)} has the button`);
  },
  forced_bet_posted(e, v, seat, who) {
    if (seat) Object.assign(seat, { street_total: e.street_total, hand_total: e.hand_total, stack: e.stack, all_in: e.all_in });
    if (e.kind === "small_blind") this.blinds[e.seat] = "SB";
    if (e.kind === "big_blind") this.blinds[e.seat] = "BB";
    if (e.kind === "straddle") this.blinds[e.seat] = "STR";
    this.line(`${who} posts ${BLIND_NAMES[e.kind] || e.kind} of ${chips(e.increment)}`);
  },
  hole_cards_dealt(e, v, seat, who) {
    if (!seat) return;
    const k = this.dealStreet(seat);
    if (k > this.streetIndex) this.newStreet(k);
    const downs = (this.streets[k].hole || []).filter((f) => f === "down").length || 1;
    const cards = e.cards || Array(downs).fill(null);
    seat.hand = [...seat.hand, ...cards.map((c) => ({ card: c, up: false }))];
    Object.assign(seat, { has_cards: true, cards: known(seat.hand) });
    if (e.cards) this.line(`Dealt to ${who}: ${e.cards.join(" ")}`);
  },
  up_cards_dealt(e, v, seat, who) {
    if (!seat) return;
    const k = this.streetIndexOf(e.street);
    if (k > this.streetIndex) this.newStreet(k);
    seat.hand = [...seat.hand, ...e.cards.map((c) => ({ card: c, up: true }))];
    seat.up_cards = [...(seat.up_cards || []), ...e.cards];
    Object.assign(seat, { has_cards: true, cards: known(seat.hand) });
    this.line(this.dice ? `${who} rolls ${e.cards.join(" ")}` : `${who} is dealt ${e.cards.join(" ")} face up`);
  },
  cards_drawn(e, v, seat, who) {
    const k = this.streetIndexOf(e.street);
    if (k > this.streetIndex || (k === this.streetIndex && !this.drawing && !this.drawn.size)) this.newStreet(k);
    this.drawing = true;
    this.drawn.add(e.seat);
    if (seat) {
      seat.drew = e.count;
      if (e.discarded && e.drawn) {
        // The new cards take the places of the old, in the hand's order (engine/hand.py).
        const taken = [...e.discarded], fresh = [...e.drawn];
        seat.hand = seat.hand.map((c) => {
          const i = taken.indexOf(c.card);
          if (i < 0) return c;
          taken.splice(i, 1);
          return { card: fresh.shift(), up: c.up };
        });
        if (e.face_up) seat.up_cards = seat.hand.filter((c) => c.up).map((c) => c.card);
        seat.cards = known(seat.hand);
      }
    }
    this.line(describeDraw(who, e, this.dice));
    if (this.live().every((s) => this.drawn.has(s.seat))) {
      this.drawing = false; // everyone has drawn: the betting opens left of the button
      this.openBetting();
    }
  },
  action_taken(e, v, seat, who) {
    const k = e.street ? this.streetIndexOf(e.street) : -1;
    if (k > this.streetIndex) this.newStreet(k);
    if (seat) Object.assign(seat, { street_total: e.street_total, hand_total: e.hand_total,
      stack: e.stack, all_in: e.all_in, folded: seat.folded || e.kind === "fold" });
    this.lastAction[e.seat] = actionLabel(e);
    this.line(describeAction(who, e));
  },
  board_dealt(e, v) {
    // Stud's common card (too few cards left for everyone's seventh) opens its street
    // on the same up cards as the street before.
    const k = this.streetIndexOf(e.street);
    this.newStreet(k >= 0 ? k : this.streetIndex + 1);
    v.board = e.board;
    v.street = e.street;
    this.line(`${e.street[0].toUpperCase()}${e.street.slice(1).replace(/_/g, " ")}: ${e.board.join(" ")}`);
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
    if (seat) {
      const old = seat.hand || [];
      seat.hand = e.cards.map((c, i) => ({ card: c, up: old[i] ? old[i].up : false }));
      Object.assign(seat, { cards: e.cards, shown: true, has_cards: true });
    }
    this.shown.push(e);
    this.line(`${who} shows ${e.cards.join(" ")}`);
  },
  cards_mucked(e, v, seat, who) {
    if (seat) seat.mucked = true;
    this.line(`${who} mucks`);
  },
  pot_awarded(e, v) {
    this.results.push(e);
    // "cy wins 160 from the main pot with ...", as the results say it.
    const names = e.shares.map(([s, n]) => `${this.name(s)} wins ${chips(n)}`).join(", ");
    this.line(`${names} from the ${POT_NAME(e.pot)}${e.half ? ` (${e.half})` : ""}${e.description ? ` with ${e.description}` : ""}`);
  },
  hand_ended(e, v) {
    v.hand_in_progress = false;
    v.to_act = null;
    v.pots = [];
    for (const [s, stack] of e.stacks) {
      const st = this.seat(s);
      if (st) Object.assign(st, { stack, street_total: 0, hand_total: 0 });
    }
    this.lastAction = {};
    this.request = null;
    // The pause after the hand: its players may show their cards, anyone the rabbit.
    this.pauseUntil = performance.now() + 1000 * (this.options.show_seconds || 0);
  },
  player_sat(e, v, seat) {
    if (!seat) v.seats.push({ seat: e.seat, name: e.name || `seat ${e.seat + 1}`, unnamed: !e.name, stack: e.stack,
      in_hand: false, folded: false, all_in: false, street_total: 0, hand_total: 0,
      sitting_out: false, waiting_for_big_blind: e.waiting_for_big_blind, has_cards: false, cards: null,
      up_cards: [], hand: [], drew: null });
    v.seats.sort((a, b) => a.seat - b.seat);
  },
  player_stood(e, v, seat, who) {
    if (seat && !seat.unnamed) this.gone = { ...this.gone, [e.seat]: seat.name };
    v.seats = v.seats.filter((s) => s.seat !== e.seat);
    this.line(`${who} ${e.reason === "busted" ? "is out of chips and stands up" : "stands up"} with ${chips(e.stack)}`);
  },
  player_sat_out(e, v, seat) {
    if (seat) seat.sitting_out = true;
  },
  player_sat_in(e, v, seat) {
    if (seat) Object.assign(seat, { sitting_out: false, waiting_for_big_blind: e.waiting_for_big_blind });
  },
  // -- table options (docs/rules.md O1-O8): subclasses of the events above do what they do,
  // and more.
  bomb_pot_started(e, v, seat, who) {
    ON.hand_started.call(this, e, v, seat, who);
    this.bombPot = { ante: e.ante, boards: e.boards || 1 };
    this.bombVotes = null; // the votes are spent
    if (this.bombPot.boards > 1) v.boards = [[], []];
    this.line(`Bomb pot: everyone antes ${chips(e.ante)}, no betting before the flop${this.bombPot.boards > 1 ? ", two boards" : ""}`);
  },
  board_dealt_on_board(e, v, seat, who) {
    const i = e.board_index || 0;
    const which = `${this.boardName()} ${i + 1}`;
    const street = `${e.street[0].toUpperCase()}${e.street.slice(1).replace(/_/g, " ")}`;
    if (i === 0) {
      const shared = v.board;
      ON.board_dealt.call(this, e, v, seat, who);
      this.log.pop(); // said below, with the board's number
      // Run twice: the cards dealt before the runs are both runs'.
      v.boards = v.boards.length > 1 ? [e.board, v.boards[1].length ? v.boards[1] : []] : [e.board, shared];
    } else {
      v.boards = [v.boards[0] || v.board, e.board];
    }
    this.line(`${street}, ${which}: ${e.board.join(" ")}`);
  },
  pot_awarded_on_board(e, v) {
    ON.pot_awarded.call(this, e, v);
    this.log[this.log.length - 1].text += ` (${this.boardName()} ${(e.board_index || 0) + 1})`;
  },
  hand_ended_on_boards(e, v, seat, who) {
    ON.hand_ended.call(this, e, v, seat, who);
    if (e.boards && e.boards.length) {
      v.boards = e.boards;
      v.board = e.boards[0];
    }
  },
  run_it_twice_answered(e, v, seat, who) {
    this.runTwice[e.seat] = e.agree;
    this.lastAction[e.seat] = e.agree ? "Twice: yes" : "Twice: no";
    this.line(`${who} ${e.agree ? "agrees to run it twice" : "says no to running it twice"}`);
  },
  bounty_paid(e, v, seat, who) {
    this.bounties.push(e);
    for (const [s, amount] of e.payers) {
      const payer = this.seat(s);
      if (payer) payer.stack = Math.max(0, payer.stack - amount);
    }
    if (seat) seat.stack = e.stack;
    const paid = e.payers.map(([s, n]) => `${this.name(s)} ${chips(n)}`).join(", ");
    this.line(`${who} wins the 7-2 bounty: ${chips(e.amount)}${paid ? ` (${paid})` : ""}`);
  },
  cards_revealed(e, v, seat, who) {
    if (seat) {
      seat.revealed = [...new Set([...(seat.revealed || []), ...e.cards])];
      seat.shown_cards = seat.revealed;
      for (const c of e.cards) placeRevealed(seat, c);
    }
    this.shown.push({ seat: e.seat, cards: e.cards, after: true });
    this.line(`${who} shows ${e.cards.join(" ")}`);
  },
  rabbit_hunted(e, v) {
    v.rabbit = e.cards;
    this.line(`Rabbit hunt: ${e.cards.join(" ")} would have come (not part of the hand)`);
  },
};

