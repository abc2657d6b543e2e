// Drawing helpers: elements built from plain values (never HTML text), and cards.

/** An element: h("div", {class: "x", onclick: f}, child, "text", ...). Text is never HTML. */
export function h(tag, attrs, ...children) {
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

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANKS = { T: "10" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
// Which of a die's nine places (3 by 3, left to right, top to bottom) hold a pip.
const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** A card face up ("Kh"), face down (null), a joker ("X1"), a die ("1".."6"), or an
 * empty slot. ``extra``: more classes ("small", "up", "down"). */
export function card(code, extra) {
  const more = extra ? ` ${extra}` : "";
  if (!code || code === "??") return h("span", { class: `card back${more}`, "data-card": "hidden", title: "face down" });
  if (/^[1-6]$/.test(code)) {
    return h("span", { class: `die${more}`, "data-card": code, title: `a ${code}`, role: "img", "aria-label": `die showing ${code}` },
      [...Array(9).keys()].map((i) => h("i", { class: PIPS[code].includes(i) ? "pip" : null })));
  }
  if (code[0] === "X") {
    return h("span", { class: `card joker${more}`, "data-card": code, title: "joker" }, h("b", {}, "★"), h("small", {}, "JOKER"));
  }
  const rank = code[0], suit = code[1];
  return h("span", { class: `card suit-${suit}${more}`, "data-card": code, title: `${RANKS[rank] || rank} of ${SUIT_NAMES[suit] || suit}` },
    h("b", { class: rank === "T" ? "ten" : null }, RANKS[rank] || rank), h("span", { class: "suit" }, SUITS[suit] || suit));
}
