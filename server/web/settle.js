// Settling up at the end of the night (the protocol's ``ledger``, docs/ledger.md): a
// dialog with each player's buy-ins, cash-outs, stack and net, who pays whom in the fewest
// transfers, a line checking that the nets sum to zero, the ledger as a CSV file
// (PokerNow's columns) and tonight's hands as a file (records.js).

import { h } from "./dom.js";
import { chips } from "./format.js";
import { download, handsDownload } from "./records.js";
import { openDialog, signedChips } from "./stats.js";

/** The "Settle up" button: one for the page, kept across redraws, for the table on
 * screen when it is pressed. */
export function settleButton(app) {
  if (!app.settleButton) {
    app.settleButton = h("button", { type: "button", class: "settle-button", "data-testid": "settle-up", "aria-haspopup": "dialog",
      onclick: () => { if (app.table) openSettle(app, app.table); } }, "Settle up");
  }
  return app.settleButton;
}

/** The dialog: asks for the ledger, then shows it. */
export async function openSettle(app, t) {
  const box = h("div", { class: "settle-body" }, h("p", { class: "muted" }, "Reading the ledger…"));
  const name = t.summary ? t.summary.name : t.id;
  openDialog(t, ["Settle up: ", h("bdi", {}, name)], h("div", {}, box, h("h3", {}, "Tonight's hands"), handsDownload(app, t.id)),
    '[data-testid="settle-up"]', { testid: "settle-dialog", kind: "stats-card settle-card" });
  try {
    const r = await app.conn.request({ type: "ledger", table: t.id });
    if (box.isConnected) box.replaceChildren(ledgerView(r));
  } catch (err) {
    if (box.isConnected) box.replaceChildren(h("p", { class: "error", "data-testid": "settle-error" }, `No ledger: ${err.message}`));
  }
}

/** Each player once: their sessions summed (by player id), named by the latest. */
function players(sessions) {
  const byId = new Map();
  for (const s of sessions) {
    const p = byId.get(s.player_id) || { name: s.player_nickname, start: "", buy_in: 0, buy_out: 0, stack: 0, net: 0 };
    if (!p.start || String(s.session_start_at) >= p.start) { p.name = s.player_nickname; p.start = String(s.session_start_at); }
    for (const k of ["buy_in", "buy_out", "stack", "net"]) p[k] += Number(s[k]) || 0;
    byId.set(s.player_id, p);
  }
  return [...byId.values()].sort((a, b) => b.net - a.net || a.name.localeCompare(b.name));
}

function ledgerView(r) {
  const rows = players(r.sessions || []);
  if (!rows.length) return h("p", { class: "muted", "data-testid": "ledger-empty" }, "Nobody has bought in at this table yet.");
  const total = Object.values(r.nets || {}).reduce((sum, n) => sum + n, 0);
  const sum = (k) => rows.reduce((n, p) => n + p[k], 0);
  const money = (k, p) => h("td", { "data-stat": k, class: k === "net" && p[k] ? (p[k] > 0 ? "won" : "lost") : null },
    k === "net" ? signedChips(p[k]) : chips(p[k]));
  const transfers = r.transfers || [];
  const csvName = `${r.table}-ledger.csv`;
  return h("div", {},
    h("div", { class: "stats-scroll" }, h("table", { class: "ledger-table", "data-testid": "ledger-table" },
      h("thead", {}, h("tr", {}, ["Player", "Buy-in", "Cash-out", "Stack", "Net"].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, rows.map((p) => h("tr", { "data-player": p.name }, h("th", { scope: "row" }, p.name),
        money("buy_in", p), money("buy_out", p), money("stack", p), money("net", p)))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Total"), h("td", {}, chips(sum("buy_in"))),
        h("td", {}, chips(sum("buy_out"))), h("td", {}, chips(sum("stack"))), h("td", {}, signedChips(sum("net"))))))),
    h("p", { class: `ledger-check ${total === 0 ? "won" : "error"}`, "data-testid": "ledger-check", "data-sum": total },
      total === 0 ? "✓ The nets sum to 0: every chip is accounted for." : `✗ The nets sum to ${signedChips(total)}, not 0.`),
    h("h3", {}, "Who pays whom"),
    r.error ? h("p", { class: "error", "data-testid": "settle-error" }, r.error) : null,
    transfers.length
      ? h("ol", { class: "transfers", "data-testid": "transfers" }, transfers.map((x) => h("li", { "data-from": x.from, "data-to": x.to, "data-amount": x.amount },
        h("b", {}, x.from), " pays ", h("b", {}, x.to), " ", h("span", { class: "amount" }, chips(x.amount)))))
      : r.error ? null : h("p", { class: "muted", "data-testid": "transfers" }, "Nobody owes anything."),
    transfers.length ? h("p", { class: "muted small" }, `${transfers.length} transfer${transfers.length === 1 ? "" : "s"}, the fewest that settle everyone.`) : null,
    h("div", { class: "downloads" }, h("button", { type: "button", "data-testid": "ledger-csv",
      onclick: () => download(csvName, r.csv, "text/csv") }, "Download CSV"),
    h("span", { class: "muted small" }, `${csvName}: PokerNow's columns`)));
}
