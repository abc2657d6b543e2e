"""How strong a hand is in any game, and which cards to throw away: the tight-aggressive
bot's judgement beyond hold'em.

:func:`showdown_equity` deals the unseen cards at random, over and over, and ranks every
hand with the game's own rankings (:attr:`engine.Game.hands`): Omaha, short deck, jokers,
stud and razz (the up cards of every seat known, a folded seat's up cards dead), Kuhn
and Leduc, each pot split high and low where the game splits it. In a draw game the
other hands are unseen and will change, so :func:`draw_equity` plays this hand's draws out
and ranks the result in a *hand-strength table*: the final hands of a player who draws
the way :func:`discards` does, from a random deal, sorted. Dice are all face up:
:func:`dice_equity` rolls everyone's remaining re-rolls.

:func:`discards` keeps what a sensible player keeps: in 2-7 lowball the cards of 8 or
less, one of each rank; in five-card draw the pairs, trips and made hands (and the
joker); in badugi the best badugi among the cards; with dice the most repeated faces.

>>> from engine import game, parse_cards, parse_dice
>>> [str(c) for c in discards(game("27td"), parse_cards("2c 7d 7h Kd 4s"), 3)]
['Kd', '7h']
>>> [str(c) for c in discards(game("5cd"), parse_cards("9c 9d Ah 4s 2d"), 1)]
['2d', '4s', 'Ah']
>>> [str(c) for c in discards(game("badugi"), parse_cards("Ac 2c 3d 4h"), 3)]
['2c']
>>> [str(c) for c in discards(game("dice"), parse_dice("3 6 3 1 3"), 2)]
['1', '6']
"""

from __future__ import annotations

import bisect
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Final

from engine import Card, Game, ranking
from engine.ranking import Ranking

__all__ = ["dice_equity", "discards", "draw_equity", "showdown_equity"]

_TABLE_HANDS: Final = 3000
"""Final hands in a draw game's hand-strength table (built once per game, seeded)."""


# -- what to throw away ------------------------------------------------------------------


def discards(game: Game, hand: Sequence[Card], draws_left: int) -> tuple[Card, ...]:
    """The cards of ``hand`` to throw away (or dice to re-roll) in ``game``, worst first;
    ``draws_left`` counts this draw and those after it. Empty: stand pat."""
    policy = _POLICIES.get(game.hands[0])
    return policy(tuple(hand), draws_left) if policy is not None else ()


def _low_rank(card: Card, *, ace_low: bool) -> int:
    """A card's rank for lowball: 2..14 with the ace high, or 1..13 with it low."""
    rank = int(card.rank) if card.rank is not None else 15
    return 1 if ace_low and rank == 14 else rank


def _lowball(hand: tuple[Card, ...], draws_left: int, *, ace_low: bool) -> tuple[Card, ...]:
    """Keep one card of each rank up to an 8 (a 9 or 10 too on a made hand when few draws
    are left); a made hand that is a straight or flush in deuce-to-seven breaks its top."""
    by_rank = sorted(hand, key=lambda c: _low_rank(c, ace_low=ace_low))
    keep: list[Card] = []
    for card in by_rank:
        if all(_low_rank(k, ace_low=ace_low) != _low_rank(card, ace_low=ace_low) for k in keep):
            keep.append(card)
    made = keep[:5] if len(keep) >= 5 else []
    top = _low_rank(made[-1], ace_low=ace_low) if made else 99
    if made and top <= (10 if draws_left <= 1 else 9) and not _straight_or_flush(made, ace_low):
        kept = made
    else:
        kept = [c for c in keep if _low_rank(c, ace_low=ace_low) <= 8][:5]
        if len(kept) == 5 and _straight_or_flush(kept, ace_low):
            kept = kept[:4]
    return _rest(hand, kept, key=lambda c: -_low_rank(c, ace_low=ace_low))


def _straight_or_flush(cards: Sequence[Card], ace_low: bool) -> bool:
    """Deuce-to-seven counts straights and flushes against a hand; ace-to-five does not."""
    if ace_low:
        return False
    ranks = sorted(_low_rank(c, ace_low=False) for c in cards)
    straight = ranks == list(range(ranks[0], ranks[0] + 5)) or ranks == [2, 3, 4, 5, 14]
    return straight or len({c.suit for c in cards}) == 1


def _rest(
    hand: tuple[Card, ...], kept: Sequence[Card], key: Callable[[Card], int]
) -> tuple[Card, ...]:
    """The cards of ``hand`` not kept, ordered by ``key`` (worst first)."""
    left = list(kept)
    out = []
    for card in hand:
        if card in left:
            left.remove(card)
        else:
            out.append(card)
    return tuple(sorted(out, key=key))


def _deuce_seven(hand: tuple[Card, ...], draws_left: int) -> tuple[Card, ...]:
    return _lowball(hand, draws_left, ace_low=False)


def _ace_five(hand: tuple[Card, ...], draws_left: int) -> tuple[Card, ...]:
    return _lowball(hand, draws_left, ace_low=True)


def _badugi(hand: tuple[Card, ...], draws_left: int) -> tuple[Card, ...]:
    """Keep the best badugi: the most cards of different ranks and suits, then the lowest
    (aces low); with draws to come, a card above a 10 in an unmade one goes too."""
    best: tuple[Card, ...] = ()
    best_key: tuple[int, ...] = ()
    for size in range(len(hand), 0, -1):
        for subset in combinations(hand, size):
            if len({c.rank for c in subset}) < size or len({c.suit for c in subset}) < size:
                continue
            key = tuple(sorted((_low_rank(c, ace_low=True) for c in subset), reverse=True))
            if not best or key < best_key:
                best, best_key = subset, key
        if best:
            break
    kept = list(best)
    if draws_left > 0 and len(kept) < 4:
        kept = [c for c in kept if _low_rank(c, ace_low=True) <= 10] or kept[:1]
    return _rest(hand, kept, key=lambda c: -_low_rank(c, ace_low=True))


def _high_draw(hand: tuple[Card, ...], draws_left: int) -> tuple[Card, ...]:
    """Five-card draw: stand pat on a straight or better; keep pairs, trips, quads (and
    the joker); else four to a flush; else the ace (or the joker) and draw the rest."""
    jokers = [c for c in hand if c.is_joker]
    cards = [c for c in hand if not c.is_joker]
    counts = Counter(c.rank for c in cards)
    suits = Counter(c.suit for c in cards)
    ranks = sorted({int(c.rank) for c in cards if c.rank is not None})
    if len(hand) == 5 and (_made_high(cards, len(jokers)) or max(counts.values(), default=0) >= 4):
        return ()
    grouped = [c for c in cards if counts[c.rank] >= 2]
    if grouped:
        kept = grouped + jokers
    elif len(jokers) + max(suits.values(), default=0) >= 4:
        suit = max(suits, key=lambda s: suits[s]) if suits else None
        kept = [c for c in cards if c.suit is suit] + jokers
    elif (run := _four_straight(ranks, len(jokers))) is not None:
        kept = [next(c for c in cards if c.rank == r) for r in run] + jokers
    else:
        top = max(cards, key=lambda c: c.rank or 0, default=None)
        kept = jokers + ([top] if top is not None and (jokers or top.rank == 14) else [])
        if not kept and top is not None:
            kept = sorted(cards, key=lambda c: c.rank or 0)[-2:]  # the two highest
    return _rest(hand, kept, key=lambda c: int(c.rank or 15))


def _made_high(cards: Sequence[Card], jokers: int) -> bool:
    """Whether five cards (jokers filling in) already make a straight, flush or full house."""
    if len(cards) + jokers < 5:
        return False
    counts = sorted(Counter(c.rank for c in cards).values(), reverse=True)
    if counts and counts[0] + jokers >= 3 and len(counts) <= 2:
        return True  # a full house (or quads and up)
    if len({c.suit for c in cards}) == 1:
        return True
    ranks = sorted({int(c.rank) for c in cards if c.rank is not None})
    if len(ranks) < len(cards):
        return False
    for low in range(1, 11):
        window = {14 if r == 1 else r for r in range(low, low + 5)}
        if all(r in window for r in ranks):
            return True
    return False


def _four_straight(ranks: Sequence[int], jokers: int) -> tuple[int, ...] | None:
    """Four ranks in a row (open-ended, no ace at either end), counting jokers as gaps."""
    for low in range(10, 1, -1):
        run = tuple(r for r in range(low, low + 4) if r in ranks)
        if len(run) + jokers >= 4 and low + 3 < 14 and run:
            return run
    return None


def _dice(hand: tuple[Card, ...], draws_left: int) -> tuple[Card, ...]:
    """Keep the most repeated faces (both pairs of two pair, a full house whole, a
    straight whole); with nothing, keep the straight draw and re-roll the odd die."""
    faces = [c.face or 0 for c in hand]
    counts = Counter(faces)
    shape = sorted(counts.values(), reverse=True)
    if shape in ([5], [3, 2]) or (shape == [1] * 5 and sorted(faces) in _STRAIGHTS):
        return ()
    if shape == [1] * 5:
        keep_faces = [f for f in faces if f != 1] if 1 in faces else [f for f in faces if f != 6]
    elif shape[:2] == [2, 2]:
        keep_faces = [f for f in faces if counts[f] == 2]
    else:
        top = max(counts, key=lambda f: (counts[f], f))
        keep_faces = [f for f in faces if f == top]
    kept = [next(c for c in hand if c.face == f) for f in keep_faces]
    return _rest(hand, kept, key=lambda c: c.face or 0)


_STRAIGHTS: Final = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])

_POLICIES: Final[dict[Ranking, Callable[[tuple[Card, ...], int], tuple[Card, ...]]]] = {
    ranking.DEUCE_SEVEN: _deuce_seven,
    ranking.A5_LOW: _ace_five,
    ranking.BADUGI: _badugi,
    ranking.HIGH: _high_draw,
    ranking.JOKER_BUG: _high_draw,
    ranking.JOKER_WILD: _high_draw,
    ranking.DICE: _dice,
}


# -- equity at a showdown, all the cards still to come dealt at random -------------------


def _share(values: list[tuple[int, ...]], split: bool) -> float:
    """Player 0's share of one pot: values per player, one per ranking (high first); a low
    half goes to the high hand when no low qualifies."""

    def half(index: int) -> float:
        column = [v[index] for v in values]
        best = max(column)
        return 1 / column.count(best) if column[0] == best else 0.0

    if not split:
        return half(0)
    if max(v[1] for v in values) == 0:
        return half(0)
    return (half(0) + half(1)) / 2


def showdown_equity(
    game: Game,
    mine: Sequence[Card],
    board: Sequence[Card],
    others: Sequence[Sequence[Card]],
    dead: Sequence[Card],
    *,
    rng: random.Random,
    samples: int,
) -> float:
    """This hand's expected share of the pot against ``others`` (each the up cards a live
    opponent shows, empty when none), over ``samples`` deals of the cards to come: the
    rest of the board, of this hand and of theirs, from the cards nobody has seen
    (``dead``: up cards of folded seats). A game whose deck runs short leaves out the
    opponents it cannot deal to."""
    hole, board_size = game.hole_cards, game.board_cards
    known = {c.code for c in (*mine, *board, *dead)} | {c.code for o in others for c in o}
    deck = [c.code for c in game.deck.cards if c.code not in known]
    mine_codes, board_codes = [c.code for c in mine], [c.code for c in board]
    hands = list(game.hands)
    split = len(hands) == 2
    missing_board = max(0, board_size - len(board))
    missing_mine = max(0, hole - len(mine))
    opponents: list[tuple[list[int], int]] = []
    need = missing_board + missing_mine
    for o in others:
        extra = max(0, hole - len(o))
        if need + extra > len(deck):
            break  # the deck runs short (stud, eight players): judge against fewer
        opponents.append(([c.code for c in o], extra))
        need += extra
    if not opponents:
        return 1.0
    total = 0.0
    sample = rng.sample
    for _ in range(samples):
        dealt = sample(deck, need)
        full_board = board_codes + dealt[:missing_board]
        at = missing_board + missing_mine
        players = [mine_codes + dealt[missing_board:at]]
        for codes, extra in opponents:
            players.append(codes + dealt[at : at + extra])
            at += extra
        values = [tuple(r.rank(p, full_board) for r in hands) for p in players]
        total += _share(values, split)
    return total / samples


# -- draw games: a hand played out, ranked in a table of final hands ------------------------


def _play_out(
    game: Game, hand: list[int], draws: int, deck: list[int], rng: random.Random
) -> list[int]:
    """``hand`` (codes) after ``draws`` draws by :func:`discards`, replacements from
    ``deck`` (cards this player has not held)."""
    cards = [Card.from_code(c) for c in hand]
    for left in range(draws, 0, -1):
        out = discards(game, cards, left)
        if not out:
            continue
        fresh = rng.sample(deck, len(out))
        deck = [c for c in deck if c not in fresh]
        for old, new in zip(out, fresh, strict=True):
            cards[cards.index(old)] = Card.from_code(new)
    return [c.code for c in cards]


_TABLES: dict[Game, list[int]] = {}


def strength_table(game: Game) -> list[int]:
    """The game's hand-strength table: the final values (under its first ranking) of
    random deals played through every draw by :func:`discards`, sorted. Built on first
    use from a fixed seed, so every bot judges alike."""
    table = _TABLES.get(game)
    if table is None:
        rng = random.Random(f"{game.key} strength table")
        codes = [c.code for c in game.deck.cards]
        hole, draws = game.hole_cards, sum(s.draw for s in game.streets)
        rank = game.hands[0].rank
        values = []
        for _ in range(_TABLE_HANDS):
            dealt = rng.sample(codes, hole)
            rest = [c for c in codes if c not in dealt]
            values.append(rank(_play_out(game, dealt, draws, rest, rng), []))
        table = _TABLES[game] = sorted(values)
    return table


def _percentile(table: list[int], value: int) -> float:
    """The share of the table ``value`` beats, ties counting half."""
    below = bisect.bisect_left(table, value)
    ties = bisect.bisect_right(table, value) - below
    return (below + ties / 2) / len(table)


def draw_equity(
    game: Game,
    mine: Sequence[Card],
    draws_left: int,
    opponents: int,
    *,
    rng: random.Random,
    samples: int,
) -> float:
    """This draw-game hand's chance to beat ``opponents`` unseen hands: its ``draws_left``
    draws played out ``samples`` times, each final hand ranked in
    :func:`strength_table` (each opponent taken as a player who draws like this one)."""
    table = strength_table(game)
    codes = [c.code for c in mine]
    deck = [c.code for c in game.deck.cards if c.code not in set(codes)]
    rank = game.hands[0].rank
    runs = samples if draws_left else 1
    total = 0.0
    for _ in range(runs):
        final = _play_out(game, codes, draws_left, deck, rng) if draws_left else codes
        total += _percentile(table, rank(final, [])) ** opponents
    return total / runs


def dice_equity(
    game: Game,
    mine: Sequence[Card],
    others: Sequence[Sequence[Card]],
    draws_left: int,
    *,
    rng: random.Random,
    samples: int,
) -> float:
    """Dice are face up: everyone's remaining re-rolls (each player re-rolling as
    :func:`discards` does) rolled ``samples`` times, and the pot shared as it falls."""
    faces = [c.code for c in game.deck.cards]  # the six faces
    rank = game.hands[0].rank
    players = [[c.code for c in mine], *([c.code for c in o] for o in others)]
    total = 0.0
    runs = samples if draws_left else 1
    for _ in range(runs):
        finals = [_reroll(game, p, draws_left, faces, rng) for p in players]
        total += _share([(rank(f, []),) for f in finals], split=False)
    return total / runs


def _reroll(
    game: Game, dice: list[int], draws: int, faces: list[int], rng: random.Random
) -> list[int]:
    cards = [Card.from_code(c) for c in dice]
    for left in range(draws, 0, -1):
        for die in discards(game, cards, left):
            cards[cards.index(die)] = Card.from_code(rng.choice(faces))
    return [c.code for c in cards]
