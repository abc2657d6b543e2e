// The lobby: who we are (a name, an account, its token), the tables (each with its game,
// or its mix and the game it plays now, and stakes) with a buy-in box, Sit and Watch
// each, and a form to create a table of any game or mix.

import { KEYS } from "./connection.js";
import { h } from "./dom.js";
import { chosenOptions, hostForm, optionFields, showOptions } from "./host.js";
import { buyIn, catalogue, chips, lobbyGame, stakes, stakesKind } from "./format.js";


export async function showLobby(app) {
  const who = identityForm(app);
  const list = h("div", { class: "tables", "data-testid": "tables" }, "Loading tables…");
  app.main.replaceChildren(h("section", { class: "lobby" }, who, h("h2", {}, "Tables"), list, createForm(app), hostForm(app)));
  try {
    const r = await app.conn.request({ type: "list_tables" });
    list.replaceChildren(tableList(app, r.tables));
  } catch (err) {
    list.textContent = `Cannot list tables: ${err.message}`;
  }
}

function identityForm(app) {
  const player = app.conn.player;
  if (player) {
    const token = localStorage.getItem(KEYS.token);
    return h("div", { class: "identity", "data-testid": "identity" },
      h("span", {}, "Playing as ", h("b", { "data-testid": "me" }, player.name), player.guest ? " (guest)" : " (account)"),
      token ? h("details", { class: "token" }, h("summary", {}, "Your account token"),
        h("p", { class: "muted" }, "Kept in this browser. To play as you elsewhere, paste it there: anyone who has it is you."),
        h("code", { "data-testid": "token" }, token)) : null,
      h("button", { class: "link", onclick: () => signOut(app) }, "Change name"));
  }
  const name = h("input", { name: "name", placeholder: "your name", maxlength: 32, pattern: "[A-Za-z0-9_.\\-]{1,32}", required: true, value: localStorage.getItem(KEYS.name) || "" });
  const token = h("input", { name: "token", placeholder: "or an account token", maxlength: 128 });
  const note = h("p", { class: "error" }, app.notice || "");
  const go = async (account) => {
    note.textContent = "";
    try {
      if (token.value.trim()) localStorage.setItem(KEYS.token, token.value.trim());
      else if (account) {
        const r = await app.conn.request({ type: "create_account", name: name.value.trim() });
        localStorage.setItem(KEYS.token, r.token);
      } else localStorage.setItem(KEYS.name, name.value.trim());
      sessionStorage.removeItem(KEYS.session);
      await app.connected();
    } catch (err) {
      note.textContent = err.message;
    }
  };
  return h("form", { class: "identity", "data-testid": "identity", onsubmit: (e) => { e.preventDefault(); go(false); } },
    h("label", {}, "Name ", name), h("button", { type: "submit", "data-testid": "play-as-guest" }, "Play as guest"),
    h("button", { type: "button", onclick: () => go(true) }, "Create account"),
    h("label", {}, "Token ", token), note);
}

function signOut(app) {
  const token = localStorage.getItem(KEYS.token);
  // The server keeps only a hash of the token: without it the account is lost for good.
  if (token && !confirm(`Forget this account's token? Keep a copy to play as ${app.conn.player.name} again:\n\n${token}`)) return;
  localStorage.removeItem(KEYS.name);
  localStorage.removeItem(KEYS.token);
  sessionStorage.removeItem(KEYS.session);
  app.conn.player = null;
  app.conn.ws.close(); // a fresh connection: a hello is once per connection
}

function tableList(app, tables) {
  if (!tables.length) return h("p", {}, "No tables yet: create one.");
  return h("table", { class: "list lobby-list" },
    h("thead", {}, h("tr", {}, ["Table", "Game", "Stakes", "Seats", "Avg pot", "Hands/h", ""].map((x) => h("th", {}, x)))),
    h("tbody", {}, tables.map((t) => h("tr", { "data-table": t.id },
      h("td", {}, h("bdi", {}, t.name)),
      h("td", { "data-testid": "game" }, lobbyGame(t)),
      h("td", { "data-testid": "stakes" }, stakes(t)),
      h("td", {}, `${t.players.length}/${t.seats}${t.waiting.length ? ` (+${t.waiting.length} waiting)` : ""}`),
      h("td", {}, t.average_pot !== undefined ? chips(t.average_pot) : "–"),
      h("td", {}, t.hands_per_hour !== undefined ? chips(t.hands_per_hour) : "–"),
      h("td", { class: "actions" }, sitForm(app, t), h("button", { type: "button", "data-testid": "watch",
        onclick: () => { location.hash = `#/table/${encodeURIComponent(t.id)}`; } }, "Watch"))))));
}

function sitForm(app, t) {
  const full = t.players.length >= t.seats;
  const amount = h("input", { type: "number", name: "buy_in", min: t.min_buy_in, max: t.max_buy_in, step: 1,
    value: buyIn(t), "aria-label": "buy-in" });
  return h("form", { class: "sit", onsubmit: async (e) => {
    e.preventDefault();
    const err = e.target.querySelector(".error");
    try {
      if (!app.conn.player) throw new Error("say who you are first (a name above)");
      await app.openTable(t.id);
      const r = await app.conn.request({ type: "sit", table: t.id, buy_in: Number(amount.value), wait_for_big_blind: false });
      if (r.type === "waiting") app.table.error = `the table is full: you are number ${r.position} on its waiting list`;
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

function createForm(app) {
  const f = (name, label, value, extra) => h("label", { "data-field": name }, label, h("input", { name, value, ...extra }));
  const note = h("p", { class: "error" });
  // One select for a game or a mix ("mix:horse"): a mix plays its games at one level.
  const game = h("select", { name: "game", "data-testid": "game-choice" },
    h("optgroup", { label: "One game" }, catalogue.games.map((g) => h("option", { value: g.key }, g.name))),
    h("optgroup", { label: "Mixed games" }, catalogue.mixes.map((m) => h("option", { value: `mix:${m.key}` }, m.name))));
  const fields = {
    blinds: ["small_blind", "big_blind", "ante"],
    stud: ["ante", "bring_in", "small_bet", "big_bet"],
    ante: ["ante", "small_bet", "big_bet"],
    mix: ["small_bet", "big_bet"],
  };
  const kindOf = (value) => {
    if (value.startsWith("mix:")) return "mix";
    const g = catalogue.games.find((x) => x.key === value);
    return g ? stakesKind(g) : "blinds";
  };
  const picked = new Set(["nlhe", "plo", "27td", "stud", "razz"]);
  const choices = h("fieldset", { class: "choices", "data-testid": "mix-games" }, h("legend", {}, "Games the dealer chooses from"),
    catalogue.games.map((g) => h("label", {}, h("input", { type: "checkbox", name: "games", value: g.key, checked: picked.has(g.key) }), g.name)));
  const change = h("select", { name: "change", "data-testid": "mix-change" },
    h("option", { value: "hands" }, "after N hands"), h("option", { value: "orbit" }, "after each orbit"));
  const form = h("form", { onsubmit: async (e) => {
      e.preventDefault();
      const d = new FormData(e.target);
      const num = (k) => Number(d.get(k));
      const kind = kindOf(d.get("game"));
      const stakes = Object.fromEntries(fields[kind].map((k) => [k, num(k)]));
      if (stakes.ante) stakes.ante_kind = "per_player";
      const mix = kind === "mix" ? d.get("game").slice(4) : null;
      const what = mix
        ? { mix, every: d.get("change") === "orbit" ? "orbit" : num("every"), ...(mix === "choice" ? { games: d.getAll("games") } : {}) }
        : { game: d.get("game"), ...chosenOptions(d, d.get("game")) };
      try {
        const r = await app.conn.request({ type: "create_table", name: d.get("name"), ...what, ...stakes,
          seats: num("seats"), decision_seconds: num("decision_seconds") });
        // Whoever creates a table sits at it, with the usual buy-in.
        const id = r.table.id;
        await app.openTable(id);
        try {
          await app.conn.request({ type: "sit", table: id, buy_in: buyIn(r.table), wait_for_big_blind: false });
        } catch (err) { app.table.error = `You are watching: ${err.message}`; }
        location.hash = `#/table/${encodeURIComponent(id)}`;
      } catch (err) { note.textContent = err.message; }
    } },
    f("name", "Name ", "My table", { required: true, maxlength: 64 }),
    h("label", {}, "Game ", game),
    f("small_blind", "Small blind ", 50, { type: "number", min: 0 }),
    f("big_blind", "Big blind ", 100, { type: "number", min: 1 }),
    f("ante", "Ante ", 0, { type: "number", min: 0 }),
    f("bring_in", "Bring-in ", 25, { type: "number", min: 0 }),
    f("small_bet", "Small bet ", 100, { type: "number", min: 1 }),
    f("big_bet", "Big bet ", 200, { type: "number", min: 1 }),
    h("label", { "data-field": "change" }, "Change game ", change),
    f("every", "Hands of each game ", 8, { type: "number", min: 1, max: 1000, "data-testid": "mix-every" }),
    choices,
    f("seats", "Seats ", 6, { type: "number", min: 2, max: 10 }),
    f("decision_seconds", "Seconds to act ", 30, { type: "number", min: 1, max: 3600 }),
    optionFields(0, "create-options"),
    h("button", { type: "submit" }, "Create"), note);
  // Only the stakes the game takes: blinds, or an ante and bets (stud: and a bring-in); a
  // mix: its level (small and big bet), when it changes game, and dealer's choice's list.
  let shownKind = null;
  const show = () => {
    const kind = kindOf(game.value);
    for (const label of form.querySelectorAll("label[data-field]")) {
      const name = label.dataset.field;
      const stake = ["small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet"].includes(name);
      label.hidden = (stake && !fields[kind].includes(name)) || (["change", "every"].includes(name) && kind !== "mix")
        || (name === "every" && change.value === "orbit");
    }
    choices.hidden = game.value !== "mix:choice";
    for (const box of choices.querySelectorAll("input")) box.disabled = choices.hidden;
    if (kind !== "blinds" && kind !== "mix") form.elements.ante.value = form.elements.ante.value === "0" ? 10 : form.elements.ante.value;
    if (kind === "mix" && shownKind !== game.value) {
      form.elements.every.value = catalogue.mixes.find((m) => `mix:${m.key}` === game.value).hands; // the mix's own
    }
    shownKind = kind === "mix" ? game.value : kind;
    showOptions(form, game.value);
  };
  game.addEventListener("change", show);
  change.addEventListener("change", show);
  show();
  return h("details", { class: "create" }, h("summary", {}, "Create a table"), form);
}
