// Keyboard shortcuts at the table: F folds, C checks or calls, R bets or raises (the
// amount set). Never while typing in a box, with a modifier held, or with a dialog open.

export const KEY_HINTS = { fold: "Fold (F)", check: "Check (C)", call: "Call (C)", raise: "Bet or raise the amount set (R)" };

const KEYS = { f: ["fold"], c: ["check", "call"], r: ["raise"] };

const typing = (el) => el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

export function listenForKeys() {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || typing(e.target)) return;
    const ids = KEYS[e.key.toLowerCase()];
    const turn = ids && !document.querySelector("dialog[open]") && document.querySelector("[data-testid=your-turn]");
    if (!turn) return;
    for (const id of ids) {
      const button = turn.querySelector(`[data-testid=${id}]`);
      if (button && !button.disabled) {
        e.preventDefault();
        button.click();
        return;
      }
    }
  });
}
