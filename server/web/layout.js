// Where the seats and their bets go on the felt, measured once the table is on the page:
// the seats on an oval inside the felt's rim (whatever sticks out of a plate, its badges
// and last action, included), spaced evenly along the oval rather than by angle, so that
// the seats at a tall phone oval's top and bottom keep apart; then each bet beside its
// plate, on the first side facing the middle where it covers no plate, no other bet and
// nothing of the board or the pot. tests/web/test_table_layout.py checks every table size
// at a desktop's and a phone's width.

const GAP = 4; // px between a plate and the rim, or its bet

/** Place the seats (``.seat`` with ``data-place``: 0 at the bottom, going clockwise) and
 * their bets on ``felt`` (the element on the page). */
export function placeSeats(felt) {
  const seats = [...felt.querySelectorAll(":scope > .seat")];
  if (!seats.length || !felt.clientWidth) return;
  const count = Number(seats[0].dataset.count) || seats.length;
  const W = felt.clientWidth, H = felt.clientHeight;
  // How far each plate reaches from its centre, what sticks out of it included.
  let reachX = 0, reachUp = 0, reachDown = 0;
  for (const seat of seats) {
    const r = seat.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    for (const el of [seat, ...seat.querySelectorAll(".badge, .last-action, .drew")]) {
      const b = el.getBoundingClientRect();
      reachX = Math.max(reachX, cx - b.left, b.right - cx);
      reachUp = Math.max(reachUp, cy - b.top);
      reachDown = Math.max(reachDown, b.bottom - cy);
    }
  }
  const rx = Math.max(0, W / 2 - reachX - GAP);
  const ry = Math.max(0, H / 2 - Math.max(reachUp, reachDown) - GAP);
  // A wider plate (ours, a seat of five cards or more) takes more of the oval.
  const widths = Array(count).fill(0);
  for (const seat of seats) widths[Number(seat.dataset.place) % count] = seat.offsetWidth;
  const usual = Math.min(...seats.map((s) => s.offsetWidth));
  const p = Number(getComputedStyle(felt).getPropertyValue("--oval")) || 2;
  const points = evenly(rx, ry, p, widths.map((w) => Math.max(w, usual)));
  for (const seat of seats) {
    const [x, y] = points[Number(seat.dataset.place) % count];
    seat.style.left = `${(100 * (W / 2 + x)) / W}%`;
    seat.style.top = `${(100 * (H / 2 + y)) / H}%`;
    seat.dataset.side = Math.abs(y) < 0.3 * ry ? (x < 0 ? "left" : "right") : y > 0 ? "low" : "high";
  }
  placeBets(felt, seats);
}

/** A point on the oval of radii ``rx`` and ``ry`` around (0, 0) for each of ``widths``
 * (the plates' widths, in order), on the oval |x/rx|^p + |y/ry|^p = 1, the first at the bottom, then clockwise (to the left
 * first, as a dealer sees it); the space along the oval between two neighbours is as
 * their widths. */
function evenly(rx, ry, p, widths) {
  const steps = 720;
  // |x/rx|^p + |y/ry|^p = 1: an ellipse when p is 2, squarer above (a phone's felt).
  const bend = (v) => Math.sign(v) * Math.abs(v) ** (2 / p);
  const at = (i) => { const a = (2 * Math.PI * i) / steps; return [-rx * bend(Math.sin(a)), ry * bend(Math.cos(a))]; };
  const length = [0];
  for (let i = 1; i <= steps; i++) {
    const [x0, y0] = at(i - 1), [x1, y1] = at(i);
    length.push(length[i - 1] + Math.hypot(x1 - x0, y1 - y0));
  }
  const count = widths.length;
  const gaps = widths.map((w, k) => w + widths[(k + 1) % count]);
  const sum = gaps.reduce((a, b) => a + b, 0);
  // The bottom seat's centre at the bottom: the others from half its gaps either side.
  const points = [];
  let along = 0, i = 0;
  for (let k = 0; k < count; k++) {
    const want = (length[steps] * along) / sum;
    while (i < steps && length[i] < want) i++;
    points.push(at(i));
    along += gaps[k];
  }
  return points;
}

const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
  && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

/** Each bet on the first side of its plate, facing the middle first, where it lies
 * inside the felt and over nothing else. */
function placeBets(felt, seats) {
  const f = felt.getBoundingClientRect();
  const inside = { left: f.left + felt.clientLeft, top: f.top + felt.clientTop };
  Object.assign(inside, { right: inside.left + felt.clientWidth, bottom: inside.top + felt.clientHeight });
  const taken = [];
  for (const seat of seats) {
    for (const el of [seat, ...seat.querySelectorAll(".badge, .last-action, .drew")]) taken.push(el.getBoundingClientRect());
  }
  for (const el of felt.querySelectorAll(".center .card, .center .pot-total, .center .side-pots, .center .hand-number, .center .street, .center .felt-tag, .center .felt-game, .center .board-won, .center .board-label")) {
    taken.push(el.getBoundingClientRect());
  }
  for (const seat of seats) {
    const bet = seat.querySelector(":scope > .bet");
    if (!bet) continue;
    const s = seat.getBoundingClientRect();
    const w = bet.offsetWidth, h = bet.offsetHeight;
    const under = [...seat.querySelectorAll(".last-action")].reduce((m, el) => Math.max(m, el.getBoundingClientRect().bottom - s.bottom), 0);
    const over = [...seat.querySelectorAll(".badge")].reduce((m, el) => Math.max(m, s.top - el.getBoundingClientRect().top), 0);
    // In the plate's own coordinates (its padding box): left, top of the bet.
    const cx = (s.width - w) / 2;
    const spots = {
      up: [cx, -over - GAP - h], down: [cx, s.height + under + GAP],
      left: [-w - GAP, (s.height - h) / 2], right: [s.width + GAP, (s.height - h) / 2],
    };
    const toMiddle = s.left + s.width / 2 > f.left + f.width / 2 ? "left" : "right";
    const away = toMiddle === "left" ? "right" : "left";
    const order = { low: ["up", toMiddle, away, "down"], high: ["down", toMiddle, away, "up"],
      left: ["right", "up", "down", "left"], right: ["left", "up", "down", "right"] }[seat.dataset.side];
    let chosen = null;
    for (const side of order) {
      const [x, y] = spots[side];
      const r = { left: s.left + x, top: s.top + y, right: s.left + x + w, bottom: s.top + y + h };
      const fits = r.left >= inside.left && r.top >= inside.top && r.right <= inside.right && r.bottom <= inside.bottom;
      if (fits && !taken.some((t) => overlap(t, r))) { chosen = [side, r]; break; }
    }
    const [side, r] = chosen || [order[0], null];
    const [x, y] = spots[side];
    Object.assign(bet.style, { left: `${x}px`, top: `${y}px` });
    bet.dataset.side = side;
    if (r) taken.push(r);
  }
}
