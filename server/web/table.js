// A table on screen, drawn from its model: the felt (board, pots, seats around an oval,
// each with its cards down and up, or dice), the decision clock, our controls when it is
// our turn (the menu's: bring-in, complete, a fixed bet, a pot-limit or no-limit raise,
// the cards to draw or dice to re-roll), the last results (split pots by half) and the
// hand log. The viewer draws a stored hand with the same felt, results and log.

import { muteButton, showTurn } from "./alert.js";
import { card, h } from "./dom.js";
import { POT_NAME, buyIn, chips, gameName, halfName, nameOf, stakes } from "./format.js";
import { KEY_HINTS } from "./keys.js";
import { placeSeats } from "./layout.js";
import { Motion } from "./motion.js";
import { openPlayerStats, openTableStats } from "./stats.js";

/** Draw table ``t`` (a TableModel) on the app's page; ``app`` gives the connection to act
 * through and keeps our controls between redraws. */
export function drawTable(app, t) {
  if (!t.view) {
    app.main.replaceChildren(h("p", { class: "error" }, t.error || "Loading…"));
    return;
  }
  const me = t.mySeat();
  const focused = document.activeElement; // before a kept name plate moves to the new felt
  if (!app.namePlates || app.namePlates.table !== t.id) app.namePlates = { table: t.id, kept: new Map() };
  // The table on screen when a plate is clicked: a mixed table's game may have changed.
  if (!app.motion || app.motion.table !== t.id) app.motion = new Motion(t.id);
  app.motion.hand(t.view.hand_number);
  const names = { kept: app.namePlates.kept, open: (name, seat) => openPlayerStats(app, app.table || t, name, seat),
    sit: me ? null : (seat) => sitAt(app, t, seat), motion: app.motion };
  // Seven seats and more: a phone's oval is taller (app.css), to keep them apart.
  const crowded = t.summary && t.summary.seats > 6 ? " crowded" : "";
  const room = h("div", { class: `room${crowded}`, "data-testid": "room" }, felt(t, me, names), gamePicker(app, t, me));
  const mixLine = t.mixLine();
  const panel = h("aside", { class: "panel" },
    h("h2", {}, h("bdi", {}, t.summary ? t.summary.name : t.id)),
    mixLine ? h("p", { class: "mix-line", "data-testid": "mix" }, mixLine) : null,
    // A mixed table's line names the game already: here its stakes.
    t.summary ? h("p", { class: "game-line", "data-testid": "game" }, mixLine ? null : gameName(t.summary),
      h("span", { class: "muted" }, `${mixLine ? "" : " · "}${stakes(t.summary)}`)) : null,
    h("div", { class: "table-tools" }, statsButton(app), muteButton(app)),
    optionsLine(t),
    t.waiting ? h("p", { class: "waiting", role: "status", "data-testid": "table-waiting" },
      "The last hand is being saved: the server is waiting for its database, and deals the next hand as soon as it is back. Nothing is lost; chat and seats work meanwhile.") : null,
    t.error ? h("p", { class: "error", "data-testid": "table-error" }, t.error) : null,
    controlsFor(app, t, me), afterHand(app, t, me), seatOptions(app, t, me), results(t), logView(t));
  app.main.replaceChildren(h("section", { class: "table-screen" }, room, panel));
  placeSeats(room.querySelector(".felt")); // now that the plates have their sizes
  // A name plate or the stats button is kept, but moving it took the keyboard's focus away.
  const kept = [...names.kept.values(), app.statsButton];
  if (focused && focused.isConnected && focused !== document.activeElement && kept.includes(focused)) focused.focus();
  app.motion.primed = true; // from now on, what appears is dealt or bet: it moves
  showTurn(app, t);
  drawClock(app);
}

/** A click on an empty seat: sit there, with the lobby's buy-in (100 big blinds, within
 * the table's limits). */
async function sitAt(app, t, seat) {
  const s = t.summary;
  try {
    if (!app.conn.player) throw new Error("say who you are in the lobby first");
    const r = await app.conn.request({ type: "sit", table: t.id, seat, buy_in: buyIn(s), wait_for_big_blind: false });
    t.error = r.type === "waiting" ? `the table is full: you are number ${r.position} on its waiting list` : null;
  } catch (err) {
    t.error = err.message;
  }
  app.draw();
}

/** The oval: the board, the pots and the hand number in the middle, the seats around.
 * ``names``: at a live table, each name plate is a button opening the player's
 * statistics (``names.open(name, seat)``), kept in ``names.kept`` across redraws; without
 * it, plain text (the hand viewer). */
export function felt(t, me, names) {
  return h("div", { class: "felt" }, center(t, names && names.motion), seats(t, me, names));
}

/** The pot: every chip bet in the hand, this street's too ("Pot: 1,250", as PokerStars
 * has it), and when there are side pots, the main pot and each side pot as they stand
 * from the streets already played. */
function potLine(t) {
  const total = t.potTotal();
  const pots = t.view.pots;
  if (!total) return h("div", { class: "pots", "data-testid": "pots" });
  const cap = (n) => `${POT_NAME(n)[0].toUpperCase()}${POT_NAME(n).slice(1)}`;
  return h("div", { class: "pots", "data-testid": "pots" },
    h("span", { class: "pot-total", "data-testid": "pot-total" }, `Pot: ${chips(total)}`),
    pots.length > 1 ? h("span", { class: "side-pots", "data-testid": "side-pots" },
      pots.map((amount, n) => h("span", { class: "pot", "data-pot": n }, `${cap(n)}: ${chips(amount)}`))) : null);
}

function center(t, motion) {
  const v = t.view;
  const slots = Math.max(v.board.length, t.streets.reduce((n, st) => n + (st.board || 0), 0));
  const street = v.hand_in_progress && v.street ? `${v.street[0].toUpperCase()}${v.street.slice(1).replace(/_/g, " ")}` : "";
  // A mixed table names its game on the felt too: on a phone the panel is out of sight.
  // Under the rest, where no seat reaches at any width.
  const chooser = v.hand_in_progress ? null : t.choosing();
  const choosing = chooser !== null ? t.choosingText(chooser) : null;
  const mixed = t.mix ? h("div", { class: `felt-game${choosing ? " choosing" : ""}`, "data-testid": "felt-game" },
    choosing ? `${choosing.replace(/^you/, "You")}…` : gameName(t.summary)) : null;
  return h("div", { class: "center" },
    boardsView(t, slots, motion),
    potLine(t),
    choosing ? null : h("div", { class: "hand-number", "data-testid": "hand-number" }, v.hand_number ? `Hand #${v.hand_number}` : "Waiting for players"),
    street ? h("div", { class: "street", "data-testid": "street" }, street) : null,
    t.bombPot && v.hand_in_progress ? h("div", { class: "felt-tag bomb", "data-testid": "bomb-pot" },
      `Bomb pot${t.bombPot.boards > 1 ? " · two boards" : ""}`) : null, mixed);
}

/** The board: one row of cards (with the rabbit's after a hand that ended early, marked
 * as never dealt in it), or two when the hand has two boards or is run twice, each with
 * who won its half of the pot. */
function boardsView(t, slots, motion) {
  const v = t.view;
  const row = (cards, key) => [...Array(slots).keys()].map((i) => cards[i]
    ? card(cards[i], motion && motion.fresh(`${key}:${i}:${cards[i]}`) ? "deal" : "") : h("span", { class: "card slot" }));
  if (v.boards && v.boards.length > 1) {
    // Run twice: the players said yes (a page that missed the answers says Board).
    const label = t.boardName() === "run" ? "Run" : "Board";
    return h("div", { class: "boards", "data-testid": "boards" }, v.boards.map((b, i) => {
      const won = t.results.filter((e) => (e.board_index || 0) === i);
      return h("div", { class: "board-row", "data-board": i },
        h("span", { class: "board-label" }, `${label} ${i + 1}`),
        h("div", { class: "board", "data-testid": `board-${i}` }, row(b, i ? "board2" : "board")),
        won.length ? h("span", { class: "board-won", "data-testid": `board-won-${i}` },
          won.map((e) => e.shares.map(([s, n]) => `${t.name(s)} +${chips(n)}`).join(", ")).join(" · ")) : null);
    }));
  }
  const rabbit = v.rabbit || [];
  const dealt = row(v.board, "board").slice(0, Math.max(v.board.length, slots - rabbit.length));
  return h("div", { class: "board", "data-testid": "board" }, dealt,
    rabbit.length ? h("span", { class: "rabbit", "data-testid": "rabbit", title: "the rabbit hunt: the cards that would have come, not part of the hand" },
      rabbit.map((c) => card(c, "rabbit-card")), h("small", {}, "rabbit")) : null);
}

/** A seat's cards in deal order: face down (a back), face up, or ours face down (drawn
 * face up but marked as down: only we see them); dice as dice. */
function seatCards(t, s, n, motion) {
  const hand = s.hand || [];
  const studLike = t.streets.some((st) => (st.hole || []).includes("up")) && !t.dice;
  const dealt = (c, i) => (motion && motion.fresh(`seat:${n}:${i}:${c.card || "?"}`) ? " deal" : "");
  const shown = new Set(s.revealed || []);
  const cards = hand.map((c, i) => card(c.card, `${studLike ? (c.up ? "up" : "down") : ""}${dealt(c, i)}${c.card && shown.has(c.card) ? " revealed" : ""}`));
  return h("div", { class: `cards${t.dice ? " dice" : ""}`, "data-testid": `cards-${n}`, "data-count": hand.length }, cards);
}

/** The button opening the Stats view: one for the page, kept across redraws (as the
 * name plates are), for the table on screen when it is pressed. */
function statsButton(app) {
  if (!app.statsButton) {
    app.statsButton = h("button", { type: "button", class: "stats-button", "data-testid": "table-stats", "aria-haspopup": "dialog",
      onclick: () => { if (app.table) openTableStats(app, app.table); } }, "Player stats");
  }
  return app.statsButton;
}

/** A seat's name: a button opening the player's statistics, at a live table. The same
 * button from one redraw to the next (the table redraws at every event): a click whose
 * press and release straddle an event still lands, and the keyboard's focus stays. */
function namePlate(s, names) {
  if (!names || !s.name) return h("span", { class: "name" }, s.name);
  let plate = names.kept.get(s.seat);
  if (!plate || plate.dataset.name !== s.name) {
    plate = h("button", { type: "button", class: "name", "data-testid": `name-${s.seat}`, "data-name": s.name,
      "aria-haspopup": "dialog", title: `${s.name}: statistics`, onclick: () => names.open(s.name, s.seat) }, s.name);
    names.kept.set(s.seat, plate);
  }
  return plate;
}

function seats(t, me, names) {
  const v = t.view;
  const count = t.summary ? t.summary.seats : Math.max(6, ...v.seats.map((s) => s.seat + 1));
  const bottom = me ? me.seat : 0; // our own seat is drawn at the bottom
  const out = [];
  for (let n = 0; n < count; n++) {
    // Where on the oval: placeSeats (layout.js) puts it there once it has its size.
    const place = (n - bottom + count) % count;
    const angle = (place / count) * 2 * Math.PI;
    const style = { left: `${(50 - 40 * Math.sin(angle)).toFixed(1)}%`, top: `${(50 + 38 * Math.cos(angle)).toFixed(1)}%` };
    const at = { "data-place": place, "data-count": count };
    const s = t.seat(n);
    if (!s) {
      // Watching a live table, an empty seat is a button: sit there.
      out.push(names && names.sit
        ? h("button", { type: "button", class: "seat empty", style, ...at, "data-seat": n, "data-testid": `sit-${n}`,
          title: `Sit in seat ${n + 1}`, onclick: () => names.sit(n) }, "Sit here")
        : h("div", { class: "seat empty", style, ...at, "data-seat": n }, `Seat ${n + 1}`));
      continue;
    }
    const turn = v.hand_in_progress && v.to_act === n;
    const badges = [v.button === n ? h("span", { class: "badge dealer", title: "dealer button" }, "D") : null,
      t.blinds[n] && v.hand_in_progress ? h("span", { class: `badge blind${t.blinds[n] === "STR" ? " straddle" : ""}`,
        title: t.blinds[n] === "STR" ? "straddled" : null }, t.blinds[n]) : null,
      s.bot ? h("span", { class: "badge bot", "data-testid": `bot-${n}`, title: "a bot: a program plays this seat" }, "BOT") : null];
    const revealed = s.revealed && s.revealed.length;
    const showCards = (s.in_hand && !s.folded && (s.has_cards || (s.hand && s.hand.length))) || (revealed && !v.hand_in_progress);
    const drew = v.hand_in_progress && s.drew !== null && s.drew !== undefined && !s.folded
      ? h("span", { class: "drew", "data-testid": `drew-${n}` }, t.dice ? (s.drew ? `re-rolled ${s.drew}` : "kept all") : (s.drew ? `drew ${s.drew}` : "stood pat")) : null;
    const many = s.hand && s.hand.length > 4 ? " many" : "";
    const lastAction = v.hand_in_progress && t.lastAction ? t.lastAction[n] : null;
    out.push(h("div", { class: `seat${turn ? " turn" : ""}${s.folded ? " folded" : ""}${me && me.seat === n ? " mine" : ""}${s.sitting_out ? " away" : ""}${many}`, style, ...at, "data-seat": n, "data-testid": `seat-${n}` },
      showCards ? seatCards(t, s, n, names && names.motion) : h("div", { class: "cards", "data-testid": `cards-${n}` }),
      drew,
      h("div", { class: "who" }, badges, namePlate(s, names)),
      h("div", { class: "stack", "data-testid": `stack-${n}` }, chips(s.stack), s.all_in && v.hand_in_progress ? " all in" : ""),
      // Its kind is act-bet, act-fold...: a plain "bet" is the chips' class (layout.js places those).
      lastAction ? h("div", { class: `last-action act-${lastAction.split(" ")[0].toLowerCase()}`, "data-testid": `action-${n}` }, lastAction) : null,
      s.sitting_out ? h("div", { class: "muted" }, "sitting out") : null,
      s.straddle && t.options.straddle ? h("div", { class: "seat-tag", "data-testid": `straddle-${n}`, title: "straddles when under the gun" }, "straddles") : null,
      turn ? h("div", { class: "clock", "data-testid": "clock" }, h("i"), h("span")) : null,
      s.street_total ? h("div", { class: `bet${names && names.motion && names.motion.fresh(`bet:${n}:${v.street}:${s.street_total}`) ? " chip-in" : ""}`,
        "data-testid": `bet-${n}` }, chips(s.street_total)) : null));
  }
  return out;
}

/** Dealer's choice, when the table asks us (``game_choice``, or a snapshot saying we
 * are choosing): the table's games by name, the one being played marked, a countdown;
 * a game tapped is sent (``choose_game``). Gone once we picked or the hand is dealt. */
function gamePicker(app, t, me) {
  const mix = t.mix;
  if (!me || !mix || t.view.hand_in_progress) return null;
  const asked = t.choice && t.choice.seat === me.seat ? t.choice : t.choosing() === me.seat ? { games: mix.games, current: mix.game } : null;
  if (!asked) return null;
  const note = h("p", { class: "error", "data-testid": "pick-error" });
  const pick = async (key, button) => {
    for (const b of button.parentElement.children) b.disabled = true;
    try {
      await app.conn.request({ type: "choose_game", table: t.id, game: key });
      t.choice = null;
      t.summary.mix = { ...t.mix, choosing: null };
      t.line(`You chose ${nameOf(key)}`);
      app.draw();
    } catch (err) {
      note.textContent = err.message;
      for (const b of button.parentElement.children) b.disabled = false;
      // Too late (nobody picking in time keeps the game): the picker goes.
      if (err.code === "illegal" && /no game to pick now/.test(err.message)) { t.choice = null; app.draw(); }
    }
  };
  const games = h("div", { class: "game-choices" }, asked.games.map((key) => {
    const now = key === asked.current;
    const b = h("button", { type: "button", class: `game-choice${now ? " current" : ""}`, "data-testid": "choose-game", "data-game": key,
      "aria-current": now ? "true" : null }, nameOf(key), now ? h("small", {}, "playing now") : null);
    b.addEventListener("click", () => pick(key, b));
    return b;
  }));
  const clock = asked.seconds ? h("div", { class: "clock pick-clock", "data-testid": "pick-clock" }, h("i"), h("span")) : null;
  return h("div", { class: "picker", role: "dialog", "aria-label": "choose the game", "data-testid": "game-picker" },
    h("h3", {}, "Your deal: choose the game"), clock, games,
    h("p", { class: "muted" }, asked.seconds ? "No pick in time keeps the game being played." : null), note);
}

/** The countdown of whoever is to act: ours from the action request (decision time,
 * then the time bank), the others' from the table's decision time. */
export function drawClock(app) {
  const t = app.table;
  if (!t || !t.view) return;
  const pick = app.main.querySelector(".pick-clock");
  if (pick && t.choice) {
    const left = Math.max(0, t.choice.seconds - (performance.now() - t.choice.at) / 1000);
    pick.children[1].textContent = `${Math.ceil(left)}s to choose`;
    pick.children[0].style.width = `${(100 * left) / t.choice.seconds}%`;
  }
  const rit = app.main.querySelector("[data-testid=rit-countdown]");
  if (rit && t.request) {
    const left = Math.max(0, t.request.decision_seconds + t.request.time_bank_seconds - (performance.now() - t.requestAt) / 1000);
    rit.textContent = `${Math.ceil(left)}s: no answer is no`;
  }
  const el = app.main.querySelector(".seat.turn .clock");
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
function controlsFor(app, t, me) {
  const r = t.request;
  const key = [t.id, r && r.hand_number, r && r.seq, me && me.seat, me && me.sitting_out, t.view.hand_in_progress, t.choosing()].join("/");
  if (!app.controlsKept || app.controlsKept.key !== key) app.controlsKept = { key, el: controls(app, t, me) };
  return app.controlsKept.el;
}

function controls(app, t, me) {
  if (!me) {
    return h("div", { class: "controls" }, h("p", { class: "muted" }, "You are watching."),
      h("a", { class: "button", href: "#/" }, "Back to the lobby"));
  }
  const r = t.request && t.view.hand_in_progress ? t.request : null;
  const act = async (action, amount, discard, agree) => {
    const req = t.request;
    if (!req) return;
    t.request = null;
    drawTable(app, t); // at once: the buttons must not take a second click

    try {
      await app.conn.request({ type: "act", table: t.id, action_id: `${req.hand_number}-${req.seq}`, seq: req.seq, action, ...(amount !== undefined ? { amount } : {}), ...(discard ? { discard } : {}), ...(agree !== undefined ? { agree } : {}) });
      t.error = null;
    } catch (err) {
      t.error = err.message;
      // Refused as it stands (say, an amount out of range): still our turn. A dropped
      // connection is not: the server asks again after the resume if it still is.
      if (err.code && err.code !== "stale" && err.code !== "not_your_turn") t.request = req;
      app.draw();
    }
  };
  const seatButtons = h("div", { class: "seat-actions" },
    me.sitting_out
      ? h("button", { "data-testid": "sit-in", onclick: () => app.conn.request({ type: "sit_in", table: t.id, post: true }).catch((e) => { t.error = e.message; app.draw(); }) }, "Sit back in")
      : h("button", { "data-testid": "sit-out", onclick: () => app.conn.request({ type: "sit_out", table: t.id }).then(() => { t.error = "You will sit out from the next hand."; app.draw(); }).catch((e) => { t.error = e.message; app.draw(); }) }, "Sit out"),
    h("button", { "data-testid": "leave", onclick: async () => {
      try {
        const x = await app.conn.request({ type: "leave", table: t.id });
        if (x.type === "leaving") { t.error = "You will stand up when this hand ends."; app.draw(); } else location.hash = "#/";
      } catch (e) { t.error = e.message; app.draw(); }
    } }, "Leave"));
  if (!r) return h("div", { class: "controls" }, h("p", { class: "muted", "data-testid": "waiting-turn" }, t.view.hand_in_progress ? "Waiting for your turn…" : t.choosing() === me.seat ? "The next hand waits for your pick of the game." : "Waiting for the next hand…"), seatButtons);
  const m = r.menu;
  if (m.run_it_twice) {
    // All in before the river: every player still in is asked; one no runs it once.
    return h("div", { class: "controls your-turn run-twice", "data-testid": "your-turn" },
      h("p", {}, "Run it twice?"),
      h("p", { class: "muted" }, "The rest of the board is dealt twice, half the pot each run, if everyone says yes."),
      h("div", { class: "buttons" },
        h("button", { class: "raise", "data-testid": "rit-yes", onclick: () => act("run_it_twice", undefined, undefined, true) }, "Yes"),
        h("button", { "data-testid": "rit-no", onclick: () => act("run_it_twice", undefined, undefined, false) }, "No")),
      h("p", { class: "muted rit-countdown", "data-testid": "rit-countdown" }), seatButtons);
  }
  if (m.can_draw) {
    return h("div", { class: "controls your-turn", "data-testid": "your-turn" }, h("p", {}, "Your turn"),
      drawPicker(t, me, m, (discard) => act("draw", undefined, discard)), seatButtons);
  }
  const buttons = [];
  if (m.can_fold) buttons.push(h("button", { class: "fold", "data-testid": "fold", title: KEY_HINTS.fold, onclick: () => act("fold") }, "Fold"));
  if (m.can_check) buttons.push(h("button", { "data-testid": "check", title: KEY_HINTS.check, onclick: () => act("check") }, "Check"));
  if (m.call > 0 && m.can_call !== false) buttons.push(h("button", { "data-testid": "call", title: KEY_HINTS.call, onclick: () => act("call") }, `Call ${chips(m.call)}${m.call_is_all_in ? " (all in)" : ""}`));
  if (m.can_bring_in) buttons.push(h("button", { "data-testid": "bring-in", onclick: () => act("bring_in") }, `Bring in for ${chips(m.bring_in)}`));
  const betting = t.summary && (t.summary.betting || (t.summary.game && t.summary.game.betting));
  const label = (n) => `${m.raise_kind === "bet" ? "Bet" : m.raise_kind === "complete" ? "Complete to" : "Raise to"} ${chips(n)}`;
  let raise = null;
  if (m.can_raise && (m.min_raise_to === m.max_raise_to || betting === "fixed-limit")) {
    // Fixed limit (or only all in): one size, no slider.
    const n = m.min_raise_to;
    buttons.push(h("button", { class: "raise", "data-testid": "raise", title: KEY_HINTS.raise, onclick: () => act(m.raise_kind, n) },
      `${label(n)}${m.raise_is_all_in_only ? " (all in)" : ""}`));
  } else if (m.can_raise) {
    const lo = m.min_raise_to, hi = m.max_raise_to;
    const potLimit = betting === "pot-limit";
    const slider = h("input", { type: "range", min: lo, max: hi, step: 1, value: lo, "data-testid": "raise-slider", "aria-label": "raise to" });
    const typed = h("input", { type: "number", min: lo, max: hi, step: 1, value: lo, "data-testid": "raise-amount", "aria-label": "amount" });
    const go = h("button", { class: "raise", "data-testid": "raise", title: KEY_HINTS.raise }, "");
    const set = (value) => {
      const n = Math.min(hi, Math.max(lo, Math.round(Number(value) || lo)));
      slider.value = typed.value = n;
      go.textContent = `${label(n)}${n === hi ? (potLimit ? " (pot)" : " (all in)") : ""}`;
      return n;
    };
    slider.addEventListener("input", () => set(slider.value));
    typed.addEventListener("change", () => set(typed.value));
    go.addEventListener("click", () => act(m.raise_kind, set(typed.value)));
    // Presets: the street total after a raise of half the pot or the pot (the pot
    // counted once we have called), and all in; in pot limit the pot is the most.
    const pot = t.view.seats.reduce((sum, s) => sum + (s.hand_total || 0), 0);
    const mine = me.street_total;
    const potRaise = (part) => mine + m.call + Math.floor(part * (pot + m.call));
    const preset = (text, value, id, title) => h("button", { type: "button", class: "preset", "data-testid": id, title, onclick: () => set(value) }, text);
    // Preflop, raises in big blinds' terms: 2.5 or 3 times the bet to call (the big
    // blind when nobody has raised), as the sizes people open and 3-bet with.
    const bb = t.summary ? t.summary.big_blind : 0;
    const preflop = t.streetIndex === 0 && bb > 0 && m.raise_kind !== "complete";
    const facing = Math.max(bb, ...t.view.seats.map((s) => s.street_total || 0));
    // Only the sizes the menu allows, above the minimum (else they would be Min again).
    const times = (k) => (Math.round(k * facing) > lo && Math.round(k * facing) <= hi
      ? preset(`${k}x`, Math.round(k * facing), `x${k}`, `raise to ${k} times ${facing === bb ? "the big blind" : "the bet"}`) : null);
    raise = h("div", { class: "raise-box" }, slider, typed,
      h("div", { class: "presets" }, preset("Min", lo, "min-raise", "the smallest raise"),
        preflop ? times(2.5) : null, preflop ? times(3) : null,
        preset("½ pot", potRaise(0.5), "half-pot"),
        potLimit ? preset("Pot (max)", hi, "pot") : preset("Pot", potRaise(1), "pot"),
        potLimit ? null : preset("All in", hi, "all-in")), go);
    set(lo);
    if (m.raise_is_all_in_only) { slider.disabled = typed.disabled = true; }
  }
  return h("div", { class: "controls your-turn", "data-testid": "your-turn" }, h("p", {}, "Your turn"), h("div", { class: "buttons" }, buttons), raise, seatButtons);
}

/** A draw: our cards (or dice) to pick, up to ``max_discard``, then Discard (Re-roll)
 * those, or Stand pat (Keep all). */
function drawPicker(t, me, m, draw) {
  const hand = (me.hand || []).map((c) => c.card);
  const picked = new Set(); // indexes into the hand: dice repeat, so not the faces
  const noun = t.dice ? "dice" : "cards";
  const go = h("button", { class: "raise", "data-testid": "discard", disabled: true }, "");
  const note = h("span", { class: "muted", "data-testid": "draw-note" });
  const update = () => {
    go.disabled = !picked.size;
    go.textContent = picked.size ? `${t.dice ? "Re-roll" : "Discard"} ${picked.size}` : `${t.dice ? "Re-roll" : "Discard"}…`;
    note.textContent = `Pick up to ${m.max_discard} ${noun} to ${t.dice ? "re-roll" : "throw away"}.`;
  };
  const choices = hand.map((code, i) => {
    const b = h("button", { type: "button", class: "pick", "data-testid": "pick", "data-card": code, "aria-pressed": "false" }, card(code));
    b.addEventListener("click", () => {
      if (picked.has(i)) picked.delete(i);
      else if (picked.size < m.max_discard) picked.add(i);
      b.classList.toggle("picked", picked.has(i));
      b.setAttribute("aria-pressed", String(picked.has(i)));
      update();
    });
    return b;
  });
  go.addEventListener("click", () => draw([...picked].sort((a, b) => a - b).map((i) => hand[i])));
  update();
  return h("div", { class: "draw-box", "data-testid": "draw" }, note,
    h("div", { class: `picks${t.dice ? " dice" : ""}` }, choices),
    h("div", { class: "buttons" },
      h("button", { "data-testid": "stand-pat", onclick: () => draw([]) }, t.dice ? "Keep all" : "Stand pat"), go));
}

/** The table's options in a line under its name: "Straddles · Run it twice · 7-2
 * bounty 100 · Bomb pot 20 every 10 hands (two boards)"; nothing when it has none. */
function optionsLine(t) {
  const o = t.options;
  const parts = [];
  if (o.straddle) parts.push(o.button_straddle ? "Straddles (the button too)" : "Straddles");
  if (o.bomb_pot) parts.push(`Bomb pot ${chips(o.bomb_pot)}${o.bomb_pot_every ? ` every ${o.bomb_pot_every} hands` : " by vote"}${o.bomb_pot_boards > 1 ? ", two boards" : ""}`);
  if (o.run_it_twice) parts.push("Run it twice");
  if (o.seven_deuce) parts.push(`7-2 bounty ${chips(o.seven_deuce)}`);
  if (!parts.length) return null;
  return h("p", { class: "options-line muted", "data-testid": "table-options" }, parts.join(" · "));
}

/** A seated player's standing choices: straddling under the gun (when the game has
 * straddles), and a vote for a bomb pot next hand (when the table has bomb pots). */
function seatOptions(app, t, me) {
  const o = t.options;
  if (!me || (!o.straddle && !o.bomb_pot)) return null;
  const send = async (message) => {
    try { await app.conn.request({ table: t.id, ...message }); t.error = null; } catch (err) { t.error = err.message; }
    app.draw();
  };
  const votes = t.bombVotes ? t.bombVotes.votes : [];
  const voted = votes.includes(app.conn.player && app.conn.player.name);
  const called = t.bombVotes && t.bombVotes.called;
  return h("div", { class: "seat-options", "data-testid": "seat-options" },
    o.straddle ? h("button", { type: "button", class: `toggle${me.straddle ? " on" : ""}`, "data-testid": "straddle-toggle",
      "aria-pressed": String(!!me.straddle), title: "post a straddle (twice the big blind) whenever you are under the gun",
      onclick: () => send({ type: "straddle", on: !me.straddle }) }, `Straddle: ${me.straddle ? "on" : "off"}`) : null,
    o.bomb_pot ? h("button", { type: "button", class: `toggle${voted ? " on" : ""}`, "data-testid": "bomb-vote", "aria-pressed": String(voted),
      title: voted ? "take your vote back" : `a bomb pot next hand: everyone antes ${chips(o.bomb_pot)}, straight to the flop`,
      onclick: () => send({ type: "bomb_pot", on: !voted }) }, `Vote bomb pot (${votes.length}/${t.bombNeeded()})`) : null,
    called ? h("span", { class: "bomb-called", "data-testid": "bomb-called" }, "Bomb pot next hand") : null);
}

/** The pause after a hand (the table's show_seconds): a player dealt in may show any of
 * their cards; anyone may ask for the rabbit when the hand ended before the river. */
function afterHand(app, t, me) {
  const v = t.view;
  const now = performance.now();
  if (!t.inShowPause(now)) return null;
  clearTimeout(app.pauseTimer); // the buttons go when the pause is over
  app.pauseTimer = setTimeout(() => app.draw(), t.pauseUntil - now + 50);
  const note = h("span", { class: "error", "data-testid": "show-error" });
  const send = async (message, button) => {
    button.disabled = true;
    try { await app.conn.request({ table: t.id, ...message }); } catch (err) { note.textContent = err.message; button.disabled = false; }
  };
  const mine = me && me.in_hand && me.cards ? me.cards.filter((c) => !(me.revealed || []).includes(c) && !(me.shown && !me.folded)) : [];
  const buttons = [];
  if (mine.length) {
    for (const c of mine) {
      const b = h("button", { type: "button", "data-testid": "show-card", "data-card": c, title: `show ${c} to the table` }, "Show ", card(c, "small"));
      b.addEventListener("click", () => send({ type: "show", cards: [c] }, b));
      buttons.push(b);
    }
    if (mine.length > 1) {
      const all = h("button", { type: "button", "data-testid": "show-all" }, mine.length === 2 ? "Show both" : "Show all");
      all.addEventListener("click", () => send({ type: "show", cards: mine }, all));
      buttons.push(all);
    }
  }
  if (t.boardLeft() > 0 && !v.rabbit) {
    const r = h("button", { type: "button", "data-testid": "rabbit-hunt", title: "see the cards that would have come (they change nothing)" }, "Rabbit hunt");
    r.addEventListener("click", () => send({ type: "rabbit" }, r));
    buttons.push(r);
  }
  if (!buttons.length) return null;
  return h("div", { class: "after-hand", "data-testid": "after-hand" }, h("p", { class: "muted" }, "Before the next hand:"),
    h("div", { class: "buttons" }, buttons), note);
}

/** Who won which pot with what, and the hands shown: this hand's, else the last one's
 * (the next hand is dealt at once; this is where people see what happened). */
export function results(t) {
  const [hand, results, shown, bounties] = t.results.length ? [t.view.hand_number, t.results, t.shown, t.bounties]
    : t.lastResults ? [t.lastResults.hand, t.lastResults.results, t.lastResults.shown, t.lastResults.bounties || []] : [0, [], [], []];
  const twoBoards = results.some((e) => e.board_index !== undefined);
  const boardName = t.results.length ? t.boardName() : (t.lastResults && t.lastResults.boardName) || "board";
  if (!results.length) return null;
  return h("div", { class: "results", "data-testid": "results" }, h("h3", {}, `Hand #${hand}`),
    shown.map((e) => h("p", { class: "shown", "data-seat": e.seat }, `${t.name(e.seat)} shows `, e.cards.map((c) => card(c, "small")))),
    bounties.map((e) => h("p", { class: "result bounty", "data-testid": "bounty" }, `${t.name(e.seat)} wins the 7-2 bounty: ${chips(e.amount)}`,
      e.payers.length ? h("span", { class: "muted" }, ` (${e.payers.map(([s, n]) => `${t.name(s)} ${chips(n)}`).join(", ")})`) : null)),
    results.map((e) => {
      // In a split game the high hand takes the whole pot when no low qualifies.
      const whole = e.half === "high" && !results.some((x) => x.pot === e.pot && x.half === "low");
      const half = e.half ? (whole ? "the whole pot: no low" : halfName(e.half)) : "";
      return h("p", { class: "result", "data-testid": "result", "data-half": e.half || null },
      e.half ? h("span", { class: `half ${e.half}`, "data-testid": "half" }, e.half === "high" ? "High" : "Low") : null,
      twoBoards ? h("span", { class: "board-tag", "data-testid": "result-board" }, `${boardName} ${(e.board_index || 0) + 1}`) : null,
      e.shares.map(([s, n]) => `${t.name(s)} wins ${chips(n)}`).join(", "), ` from the ${POT_NAME(e.pot)}${half ? `, ${half}` : ""}`,
      e.description ? h("span", { class: "hand-name", "data-testid": "hand-name" }, ` with ${e.description}`) : null);
    }));
}

export function logView(t) {
  const list = h("ul", { "data-testid": "log" }, t.log.slice(-80).map((l) => h("li", {}, l.text)));
  requestAnimationFrame(() => {
    // The newest in view, and only whole lines: as many of the last as the box holds.
    const most = parseFloat(getComputedStyle(list).maxHeight);
    if (list.scrollHeight > most) {
      let height = 0;
      for (const li of [...list.children].reverse()) {
        const tall = li.getBoundingClientRect().height;
        if (height + tall > most) break;
        height += tall;
      }
      list.style.height = `${height}px`;
    }
    list.scrollTop = list.scrollHeight;
  });
  return h("details", { class: "log", open: true }, h("summary", {}, "Hand log"), list);
}
