// The connection to the server: one websocket to /ws on the host that served the page,
// reopened when it drops; requests matched to their replies by id; who we are (hello).
// It tells the app (status, connected, message) what happened.

import { catalogue } from "./format.js";

/** What a table may play and a player may download, from the server that served the
 * page (``/catalogue.json``: ``welcome``'s catalogue, there before any hello). */
export async function loadCatalogue() {
  const r = await fetch("/catalogue.json");
  if (!r.ok) throw new Error(`the server's catalogue: HTTP ${r.status}`);
  Object.assign(catalogue, await r.json());
}

/** Where the page keeps who we are: the name and account token (local storage) and the
 * session (this tab's storage, for coming back after a dropped connection). */
export const KEYS = { name: "pokerroom.name", token: "pokerroom.token", session: "pokerroom.session" };

export class Connection {
  constructor(app) {
    this.app = app;
    this.ws = null;
    this.nextId = 1;
    this.waiting = new Map(); // message id -> {resolve, reject}
    this.retry = 500;
    this.player = null;
  }

  /** Who the server says we are, and what it offers (the ``welcome``: its catalogue is
   * ``/catalogue.json``'s, which a page may not have had before hello). */
  welcomed(welcome) {
    sessionStorage.setItem(KEYS.session, welcome.session);
    this.player = welcome.player;
    const { games, mixes, table_options, export_formats } = welcome;
    if (games) Object.assign(catalogue, { games, mixes, table_options, export_formats });
    return welcome.player;
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
        return this.welcomed(await this.request({ type: "hello", version: 1, ...who }));
      } catch (err) {
        if (who.session) sessionStorage.removeItem(KEYS.session); // the server restarted
        else throw err;
      }
    }
    return null;
  }
}
