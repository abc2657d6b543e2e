// What is new on the felt since the last time it was drawn: a card just dealt, a bet
// just made. The table redraws at every event, so a card or a chip that merely stays
// must not move again; only new ones get the classes the stylesheet animates ("deal",
// "chip-in"; none under prefers-reduced-motion).

export class Motion {
  constructor(table) {
    this.table = table;
    this.handNumber = null;
    this.seen = new Set();
    this.primed = false; // the first drawing of a table shows what is there: nothing moves
  }

  /** A new hand forgets the last one's cards and bets. */
  hand(number) {
    if (number === this.handNumber) return;
    this.handNumber = number;
    this.seen = new Set();
  }

  /** Whether ``key`` (a card in its place, a bet of an amount) is new since the last draw. */
  fresh(key) {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return this.primed;
  }
}
