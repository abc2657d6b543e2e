// Downloads of the night: the table's hands since 12 hours ago as one file (the protocol's
// ``export``: PokerStars text, PHH or OHH, as the asker saw them), and any text the page
// has (the ledger's CSV, settle.js) saved as a file, made in the page (a Blob): no request
// for it, nothing fetched from elsewhere.

import { h } from "./dom.js";
import { catalogue } from "./format.js";
import { TONIGHT_HOURS, tonight } from "./stats.js";

/** Save ``text`` as a file named ``filename``. */
export function download(filename, text, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = h("a", { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "Download tonight's hands": a format to choose and a button; the file is the
 * server's (``export`` with ``since`` 12 hours ago), named as it says. */
export function handsDownload(app, table) {
  const format = h("select", { "aria-label": "format", "data-testid": "export-format" },
    catalogue.export_formats.map((f) => h("option", { value: f.name }, f.label)));
  const note = h("p", { class: "muted records-note", "data-testid": "export-note", "aria-live": "polite" });
  const button = h("button", { type: "submit", "data-testid": "export-hands" }, "Download tonight's hands");
  return h("form", { class: "records", "data-testid": "records", onsubmit: async (e) => {
    e.preventDefault();
    button.disabled = true;
    note.className = "muted records-note";
    note.textContent = "Writing…";
    try {
      const r = await app.conn.request({ type: "export", table, format: format.value, since: tonight() });
      if (!r.hands) {
        note.textContent = `No hands in the last ${TONIGHT_HOURS} hours.`;
      } else {
        const format = catalogue.export_formats.find((f) => f.name === r.format);
        download(r.filename, r.text, format ? format.media_type : "text/plain");
        note.textContent = `${r.hands} hand${r.hands === 1 ? "" : "s"}: ${r.filename}`;
      }
    } catch (err) {
      note.className = "error records-note";
      note.textContent = err.message;
    } finally {
      button.disabled = false;
    }
  } }, h("label", {}, "Format ", format), button, note);
}
