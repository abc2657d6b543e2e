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
    case "bring_in": return `${name} brings in for ${chips(e.increment)}${e.all_in ? " and is all in" : ""}`;
    case "complete": return `${name} completes to ${chips(e.street_total)}${e.all_in ? " and is all in" : ""}`;
    default: return `${name} ${e.kind}`;
  }
}

/** A seat's label for its last action this street: "Check", "Call 200", "Raise to 900",
 * "All in". */
export function actionLabel(e) {
  if (e.all_in && e.kind !== "fold") return "All in";
  switch (e.kind) {
    case "fold": return "Fold";
    case "check": return "Check";
    case "call": return `Call ${chips(e.increment)}`;
    case "bet": return `Bet ${chips(e.street_total)}`;
    case "raise": return `Raise to ${chips(e.street_total)}`;
    case "bring_in": return `Bring in ${chips(e.increment)}`;
    case "complete": return `Complete to ${chips(e.street_total)}`;
    default: return e.kind;
  }
}

export const BLIND_NAMES = { small_blind: "the small blind", big_blind: "the big blind", ante: "an ante",
  dead_blind: "a dead blind", straddle: "a straddle", blind: "a blind" };
export const POT_NAME = (n) => (n === 0 ? "main pot" : `side pot ${n}`);

/** "alice draws 2" (or "discards 7d 2c, draws 9h Ks" when we may see them, "stands
 * pat"; dice: "re-rolls 2: 3 5"), from a cards_drawn event. */
export function describeDraw(name, e, dice) {
  if (!e.count) return `${name} ${dice ? "keeps all five dice" : "stands pat"}`;
  if (dice) return `${name} re-rolls ${e.count}${e.drawn ? `: ${e.drawn.join(" ")}` : ""}`;
  if (e.discarded && e.drawn) return `${name} discards ${e.discarded.join(" ")}, draws ${e.drawn.join(" ")}`;
  return `${name} draws ${e.count}`;
}

/** The half of a split pot: "high" -> "high half". */
export const halfName = (half) => `${half} half`;

/** A table's stakes, as a summary gives them: the blinds in big-bet games, the small and
 * big bet in fixed-limit ones, with the ante and the bring-in. */
export function stakes(t) {
  const parts = [];
  const limit = (t.betting || (t.game && t.game.betting)) === "fixed-limit";
  if (limit && t.small_bet) parts.push(`${chips(t.small_bet)}/${chips(t.big_bet)}`);
  if (!limit || t.big_blind !== t.small_bet) {
    if (t.big_blind) parts.push(`${limit ? "blinds " : ""}${chips(t.small_blind)}/${chips(t.big_blind)}`);
  }
  if (t.ante) parts.push(`ante ${chips(t.ante)}`);
  if (t.bring_in) parts.push(`bring-in ${chips(t.bring_in)}`);
  return parts.join(", ");
}

/** "Pot-limit Omaha" and the like: the game's name, or hold'em's for an older server. */
export const gameName = (t) => (!t || !t.game ? "No-limit Texas hold'em" : typeof t.game === "string" ? t.game : t.game.name);

/** The games a table may play (the engine's presets, engine/games.py): the key, the
 * name, which stakes it takes (blinds, or an ante and bets, with stud's bring-in), and
 * the short name a mixed game's line in the lobby gives it. */
export const GAMES = [
  ["nlhe", "No-limit Texas hold'em", "blinds", "NL hold'em"], ["flhe", "Fixed-limit Texas hold'em", "blinds", "Limit hold'em"],
  ["plhe", "Pot-limit Texas hold'em", "blinds", "PL hold'em"], ["plo", "Pot-limit Omaha", "blinds", "PLO"],
  ["plo5", "Pot-limit five-card Omaha", "blinds", "PLO5"], ["plo6", "Pot-limit six-card Omaha", "blinds", "PLO6"],
  ["flo8", "Fixed-limit Omaha hi-lo 8 or better", "blinds", "Omaha hi-lo"], ["plo8", "Pot-limit Omaha hi-lo 8 or better", "blinds", "PLO hi-lo"],
  ["shortdeck", "No-limit short-deck hold'em", "blinds", "Short deck"], ["stud", "Seven-card stud", "stud", "Stud"],
  ["stud8", "Seven-card stud hi-lo 8 or better", "stud", "Stud hi-lo"], ["razz", "Razz", "stud", "Razz"],
  ["27td", "2-7 triple draw", "blinds", "2-7 triple draw"], ["27sd", "2-7 single draw, no-limit", "blinds", "2-7 single draw"],
  ["5cd", "Five-card draw", "blinds", "Five-card draw"], ["badugi", "Badugi", "blinds", "Badugi"], ["kuhn", "Kuhn poker", "ante", "Kuhn"],
  ["kuhn3", "Three-player Kuhn poker", "ante", "Kuhn (3)"], ["leduc", "Leduc hold'em", "ante", "Leduc"], ["dice", "Poker dice", "blinds", "Poker dice"],
];

/** A game's name from its key ("razz" -> "Razz"); ``short``: the lobby's short one. */
export function nameOf(key, short) {
  const g = GAMES.find(([k]) => k === key);
  return g ? g[short ? 3 : 1] : key;
}

/** The mixes ``create_table`` offers: the key, the name, the hands each game lasts. */
export const MIXES = [["horse", "HORSE", 8], ["8game", "8-game", 6], ["choice", "Dealer's choice", 1]];

/** A lobby line's game: "Razz", or a mixed table's "HORSE (Limit hold'em)"; dealer's
 * choice, "Dealer's choice (Razz)" once a game is picked. */
export function lobbyGame(t) {
  if (!t || !t.mix) return gameName(t);
  if (t.mix.dealers_choice && !t.hands_played) return t.mix.name; // nothing picked yet
  return `${t.mix.name} (${nameOf(t.mix.game, true)})`;
}
