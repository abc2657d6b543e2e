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

/** What a table may play and a player may download, as the server says it (``welcome``'s
 * ``games``: each preset's definition; ``mixes``; ``table_options``; ``export_formats``): the page keeps no
 * list of its own. connection.js loads it. */
export const catalogue = { games: [], mixes: [], table_options: {}, export_formats: [] };

/** Which stakes a game takes: "blinds", or an ante and bets with stud's bring-in
 * ("stud"), or an ante and bets ("ante"). */
/** The buy-in offered a table's newcomer: 100 big blinds (units), within its limits. */
export const buyIn = (t) => Math.min(t.max_buy_in, Math.max(t.min_buy_in, 100 * (t.unit || t.big_blind || 1)));

export const stakesKind = (g) => (g.blinds ? "blinds" : g.bring_in ? "stud" : "ante");

/** A game's name from its key ("razz" -> "Razz"); ``short``: the lobby's short one. */
export function nameOf(key, short) {
  const g = catalogue.games.find((x) => x.key === key);
  return g ? (short ? g.short_name : g.name) : key;
}

/** A lobby line's game: "Razz", or a mixed table's "HORSE (Limit hold'em)"; dealer's
 * choice, "Dealer's choice (Razz)" once a game is picked. */
export function lobbyGame(t) {
  if (!t || !t.mix) return gameName(t);
  if (t.mix.dealers_choice && !t.hands_played) return t.mix.name; // nothing picked yet
  return `${t.mix.name} (${nameOf(t.mix.game, true)})`;
}
