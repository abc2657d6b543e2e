// pokerroom's browser client: the lobby, a table, your hands and a hand viewer.
// Plain JavaScript modules with no build step and nothing loaded from elsewhere; it speaks
// the protocol of docs/protocol.md over /ws on the server that served it. docs/client.md
// says what it does. This module is the page's entry: the app, which holds the connection
// and the table on screen, routes the address (#/, #/table/ID, #/hands, #/hand/ID) to the
// screens, and applies the server's messages to the table's model.

import { chimes, resetTitle, yourTurn } from "./alert.js";
import { chatMessage, chatSnapshot, closeChat, drawChat } from "./chat.js";
import { Connection, KEYS, loadCatalogue } from "./connection.js";
import { drawHost, hostMessage, keepSeatTokens, seatHello, showJoin } from "./host.js";
import { listenForKeys } from "./keys.js";
import { showLobby } from "./lobby.js";
import { TableModel } from "./model.js";
import { settleButton } from "./settle.js";
import { closeStats, listenForHud, placeHud } from "./stats.js";
import { drawClock, drawTable } from "./table.js";
import { showHands, showViewer } from "./viewer.js";

/** The page: its connection, the table on screen (a TableModel) and which screen shows. */
class App {
  constructor() {
    this.main = document.getElementById("main");
    this.conn = new Connection(this);
    this.table = null; // the TableModel on screen
    this.clockTimer = null;
    this.drawQueued = false;
    this.viewer = null; // the hand viewer's {hand, step, timer} while it is on screen
    this.handsPage = 50; // hands listed at a time under My hands
    this.controlsKept = null; // our controls at the table, kept while the decision stands
    this.notice = null; // why the server refused who we said we are, for the lobby
    this.chimes = chimes; // how many your-turn sounds played (muted ones are not)
    window.addEventListener("hashchange", () => this.route());
    window.addEventListener("resize", () => this.draw()); // the seats are placed by measure
    holdDrawsWhilePressed(this);
    listenForKeys();
    listenForHud(this); // a name plate hovered or focused: four figures (stats.js)
    keepSeatTokens(this); // home games: a seat's token, for coming back to it
    loadCatalogue().catch((err) => this.status(err.message, "bad")).finally(() => this.conn.open());
  }

  status(text, kind) {
    const el = document.getElementById("status");
    el.textContent = text;
    el.className = `status ${kind || ""}`;
  }

  async connected() {
    try {
      const player = (await seatHello(this)) || (await this.conn.hello());
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
    // A private table watched from its link: the invite the join page kept lets us in.
    const invite = localStorage.getItem(`pokerroom.invite.${id}`);
    const invited = invite ? { invite } : {};
    try {
      if (this.conn.player) {
        // Also how a signed-in player starts watching: resume subscribes, and moves our
        // seat, if we have one, to this connection.
        const since = this.table.seq;
        const r = await this.conn.request({ type: "resume", table: id, last_seq: since, ...invited });
        this.table.setSnapshot(r);
        chatSnapshot(this, id, r);
        if (since && r.missed.length) this.table.line(`(reconnected: ${r.missed.length} events while away)`);
        // A reload: the log, the blinds, the last actions and the last result, from the
        // events the table keeps.
        if (!since) this.table.restore(r.missed || []);
      } else {
        const r = await this.conn.request({ type: "spectate", table: id, ...invited });
        this.table.setSnapshot(r);
        chatSnapshot(this, id, r);
      }
    } catch (err) {
      this.table.error = err.message;
    }
    this.draw();
  }

  message(m) {
    if (chatMessage(this, m)) return; // chat lines and reactions (chat.js)
    if (hostMessage(this, m)) return; // a private table's (host.js)
    const t = this.table;
    if (m.type === "table_closed" && t && m.table === t.id) { t.error = "this table has closed"; this.draw(); return; }
    if (!t || m.table !== t.id) return;
    switch (m.type) {
      case "event":
        if (m.seq <= t.seq) return; // seen already (a resume may send some twice)
        t.seq = m.seq;
        t.apply(m.event, m.state);
        if (m.event.type === "player_sat") this.refreshNames();
        break;
      case "snapshot": // ours, on taking a seat
        t.setSnapshot(m);
        chatSnapshot(this, t.id, m);
        break;
      case "table_waiting": // the last hand is not stored yet: the next waits for it
        t.waiting = m.waiting_for;
        break;
      case "game_changed": // a mixed table's next game, between hands
        t.changeGame(m.summary);
        break;
      case "game_choosing": // dealer's choice: someone else is picking the next game
        if (t.mix) t.summary.mix = { ...t.mix, choosing: m.seat };
        break;
      case "game_choice": // dealer's choice: ours to pick
        t.choice = { ...m, at: performance.now() };
        if (t.mix) t.summary.mix = { ...t.mix, choosing: m.seat };
        break;
      case "action_request":
        t.request = m;
        t.view.to_act = m.seat;
        // Sent again after a resume (a reload), the request says how long the decision
        // has run: the clock shows the time really left.
        t.requestAt = performance.now() - 1000 * (m.elapsed_seconds || 0);
        yourTurn(this, m);
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
      // A summary listed before a change of game must not undo the game_changed after it.
      const sameGame = !this.table.summary || !summary.game || !this.table.summary.game
        || summary.game.key === this.table.summary.game.key;
      if (sameGame) this.table.summary = summary;
      for (const p of summary.players) {
        const s = this.table.seat(p.seat);
        if (s) this.table.named(p.seat, p.name);
      }
      this.draw();
    } catch { /* the next event tries again */ }
  }

  route() {
    const [, page, arg] = location.hash.split("/");
    clearInterval(this.clockTimer);
    // A dialog (stats, Settle up) stays open through a reconnection to the same table.
    const here = page === "table" && this.table && decodeURIComponent(arg || "") === this.table.id;
    if (!here) closeStats();
    resetTitle();
    if (this.viewer) { clearInterval(this.viewer.timer); this.viewer = null; }
    if (page === "table" && arg) return this.showTable(decodeURIComponent(arg));
    if (page === "join" && arg) return showJoin(this); // an invite link (host.js)
    closeChat();
    if (this.table) { this.leaveScreen(); }
    if (page === "hands") return showHands(this);
    if (page === "hand" && arg) return showViewer(this, Number(arg));
    return showLobby(this);
  }

  leaveScreen() {
    const t = this.table;
    this.table = null;
    if (t && !t.mySeat()) this.conn.request({ type: "leave", table: t.id }).catch(() => {});
  }

  // -- a table ----------------------------------------------------------------------------

  async openTable(id) {
    if (this.table && this.table.id === id) return;
    this.table = new TableModel(id);
    await this.resumeTable(id);
  }

  async showTable(id) {
    await this.openTable(id);
    this.clockTimer = setInterval(() => drawClock(this), 200);
    this.draw();
  }

  draw() {
    if (this.drawQueued) return;
    this.drawQueued = true;
    requestAnimationFrame(() => {
      this.drawQueued = false;
      if (this.pressed && performance.now() - this.pressed < HOLD_MS) {
        this.drawHeld = true; // drawn once the button is let go: see holdDrawsWhilePressed
        return;
      }
      if (!this.table || !location.hash.startsWith("#/table/")) return;
      // The chat's box and the Settle up button are kept across redraws (as the name
      // plates are): what had the keyboard's focus gets it back, the caret where it was.
      const el = document.activeElement;
      const focused = el && el !== document.body ? { el, start: el.selectionStart ?? null, end: el.selectionEnd ?? null } : null;
      drawTable(this, this.table);
      drawHost(this);
      const tools = this.main.querySelector(".table-screen .panel .table-tools");
      if (tools) tools.append(settleButton(this));
      drawChat(this, focused);
      placeHud();
      if (focused && focused.el === this.settleButton && document.activeElement !== focused.el) focused.el.focus();
    });
  }
}

/** The longest a press holds the table's drawing back. */
const HOLD_MS = 1000;

/** A redraw moves or replaces the buttons under the pointer; one between a press and its
 * release loses the click (Chromium sends none to a node taken out and put back). While
 * a mouse button or a finger is down the table is not redrawn (for up to HOLD_MS), and
 * it is drawn once the click has gone through. */
function holdDrawsWhilePressed(app) {
  app.pressed = 0; // when the press began (0: nothing is pressed)
  app.drawHeld = false;
  const release = () => {
    app.pressed = 0;
    if (app.drawHeld) {
      app.drawHeld = false;
      setTimeout(() => app.draw()); // after the click this release makes
    }
  };
  document.addEventListener("pointerdown", () => { app.pressed = performance.now(); }, true);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
}

window.pokerroom = new App();
