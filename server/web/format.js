// How chips, actions, forced bets and pots read on the page: text only, no DOM, shared
// by the table model (its hand log) and the drawing code.

export const chips = (n) => Number(n).toLocaleString("en-US");

/** "alice raises to 300", from an action_taken event and the actor's name. */
export function describeAction(name, e) {
  switch (e.kind) {
    case "fold": return `${name} folds`;
    case "check": return `${name} checks`;
    case "call": return `${name} calls ${chips(e.increment)}${e.all_in ? " and is all in" : ""}`;
    case "bet": return `${name} bets ${chips(e.street_total)}${e.all_in ? " and is all in" : ""}`;
    case "raise": return `${name} raises to ${chips(e.street_total)}${e.all_in ? " and is all in" : ""}`;
    default: return `${name} ${e.kind}`;
  }
}

export const BLIND_NAMES = { small_blind: "the small blind", big_blind: "the big blind", ante: "an ante",
  dead_blind: "a dead blind", straddle: "a straddle", blind: "a blind" };
export const POT_NAME = (n) => (n === 0 ? "main pot" : `side pot ${n}`);
