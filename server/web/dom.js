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

/** A card face up ("Kh"), face down (null), or an empty slot. */
export function card(code, extra) {
  if (!code || code === "??") return h("span", { class: `card back ${extra || ""}`, "data-card": "hidden" });
  const rank = code[0], suit = code[1];
  return h("span", { class: `card suit-${suit} ${extra || ""}`, "data-card": code, title: code },
    h("b", {}, RANKS[rank] || rank), SUITS[suit] || suit);
}
