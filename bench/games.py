"""Every game's table speed beside pokerkit's for the same game, in one run.

    make bench                 # installs the peers (requirements/bench.txt) and runs this
    python -m bench.games [--seconds S] [--games KEY,KEY...]

For each of the 13 games pokerkit plays, both engines play complete hands in-process, at
the same table: 6 players (2 for Kuhn poker and Leduc hold'em; 3 for our three-player
Kuhn), blinds 50/100 and 100 big blinds each in no-limit and pot-limit games; in
fixed-limit games bets of 100/200 (stud: ante 10, bring-in 30; Kuhn 1, Leduc 2/4, ante
1) and 100 big bets each. Stacks are reset every hand and each engine shuffles its own
deck (pokerkit deals itself, every automation on). Two policies, the same for both
engines:

- "call": check or call, post the bring-in, stand pat: every hand reaches a showdown;
- "random": uniform over fold when facing a bet, check/call, and bet/raise, a bet or
  raise of a uniformly random legal size (the fixed size in fixed limit: pokerkit's
  "fixed-limit" Omaha hi-lo offers pot-limit sizes, a bug of 0.7.7, and is held to the
  fixed one); a draw throws away a random number of random cards; the bring-in or the
  completion, at random.

Ours goes through the public ``engine.Table`` API. Each figure is hands per second, the
best of three short runs after a warm-up, ours and pokerkit's taken in turn so that a
slow spell of the machine hits both. The goal: ours at least 20 times pokerkit's in every
row. The games pokerkit lacks (pot-limit hold'em, five- and six-card and hi-lo pot-limit
Omaha, five-card draw with and without the bug, three-player Kuhn, poker dice) get our
figure alone.

Exits 1 if any row misses its goal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

# Run as a script, bench/ comes first on sys.path and bench/engine.py would hide the
# engine package: drop it (python -m bench.games needs no help).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from engine.actions import BetOrRaiseTo, BringIn, CheckOrCall, Draw, Fold  # noqa: E402
from engine.deck import Deck  # noqa: E402
from engine.games import Game  # noqa: E402
from engine.rules import AnteKind, TableConfig, game  # noqa: E402
from engine.table import Table  # noqa: E402

Play = Callable[[random.Random], None]  # one complete hand
GOAL = 20.0
POLICIES = ("call", "random")

# Ours, by key; pokerkit's class name where it plays the game.
PEERED = {
    "nlhe": "NoLimitTexasHoldem",
    "flhe": "FixedLimitTexasHoldem",
    "plo": "PotLimitOmahaHoldem",
    "flo8": "FixedLimitOmahaHoldemHighLowSplitEightOrBetter",
    "shortdeck": "NoLimitShortDeckHoldem",
    "stud": "FixedLimitSevenCardStud",
    "stud8": "FixedLimitSevenCardStudHighLowSplitEightOrBetter",
    "razz": "FixedLimitRazz",
    "27sd": "NoLimitDeuceToSevenLowballSingleDraw",
    "27td": "FixedLimitDeuceToSevenLowballTripleDraw",
    "badugi": "FixedLimitBadugi",
    "kuhn": "KuhnPoker",
    "leduc": "LeducHoldem",
}
OURS_ONLY = ("plhe", "plo5", "plo6", "plo8", "5cd", "5cd-bug", "kuhn3", "dice")


@dataclass(frozen=True)
class Stakes:
    """One game's table: players, stacks and forced bets, for both engines."""

    players: int
    stack: int
    config: TableConfig


def stakes(g: Game) -> Stakes:
    players = min(6, g.max_players)
    if g.key.startswith("kuhn"):
        config = TableConfig(
            game=g, seats=players, ante=1, ante_kind=AnteKind.PER_PLAYER, small_bet=1, big_bet=1
        )
        return Stakes(players, 100, config)
    if g.key == "leduc":
        config = TableConfig(
            game=g, seats=players, ante=1, ante_kind=AnteKind.PER_PLAYER, small_bet=2, big_bet=4
        )
        return Stakes(players, 400, config)
    if g.bring_in:  # stud
        config = TableConfig(
            game=g,
            seats=players,
            ante=10,
            ante_kind=AnteKind.PER_PLAYER,
            bring_in=30,
            small_bet=100,
            big_bet=200,
        )
        return Stakes(players, 20_000, config)
    config = TableConfig(small_blind=50, big_blind=100, seats=players, game=g)
    # 100 big blinds, or 100 big bets in fixed limit.
    return Stakes(players, 100 * (config.big_bet if g.fixed_limit else 100), config)


MOVES = {
    (fold, raise_): ("call",) + (("fold",) if fold else ()) + (("raise",) if raise_ else ())
    for fold in (False, True)
    for raise_ in (False, True)
}


def choose(rng: random.Random, can_fold: bool, can_raise: bool) -> str:
    return rng.choice(MOVES[can_fold, can_raise])


def ours(key: str, policy: str) -> Play:
    g = game(key)
    s = stakes(g)
    config, stack, players, spec = s.config, s.stack, s.players, g.deck
    menus = g.draws or g.bring_in  # "call" needs the menu only to see a draw or a bring-in

    def play_call(rng: random.Random) -> None:
        table = Table(config)
        for chair in range(players):
            table.sit_down(chair, stack)
        table.start_hand(Deck.shuffled(rng, spec))
        while table.hand_in_progress:
            seat = table.to_act
            assert seat is not None
            if menus:
                menu = table.legal_actions(seat)
                assert menu is not None
                if menu.max_discard >= 0:
                    table.apply(Draw(seat))
                    continue
                if menu.bring_in:
                    table.apply(BringIn(seat))
                    continue
            table.apply(CheckOrCall(seat))

    def play_random(rng: random.Random) -> None:
        table = Table(config)
        for chair in range(players):
            table.sit_down(chair, stack)
        table.start_hand(Deck.shuffled(rng, spec))
        while table.hand_in_progress:
            seat = table.to_act
            assert seat is not None
            menu = table.legal_actions(seat)
            assert menu is not None
            if menu.max_discard >= 0:
                hand = table.hand
                assert hand is not None
                hole = hand.holes[hand.position[seat]]
                table.apply(Draw(seat, tuple(rng.sample(hole, rng.randint(0, len(hole))))))
            elif menu.bring_in:
                complete = menu.can_raise and rng.random() < 0.5
                table.apply(BetOrRaiseTo(seat, menu.min_raise_to) if complete else BringIn(seat))
            else:
                move = choose(rng, menu.can_fold, menu.can_raise)
                if move == "fold":
                    table.apply(Fold(seat))
                elif move == "raise":
                    amount = rng.randint(menu.min_raise_to, menu.max_raise_to)
                    table.apply(BetOrRaiseTo(seat, amount))
                else:
                    table.apply(CheckOrCall(seat))

    return play_call if policy == "call" else play_random


def pokerkit_game(key: str) -> Any:
    """pokerkit's game of ``key`` at our stakes, every automation on: called with the
    stacks and the number of players, it deals a hand."""
    import pokerkit as pk

    g = game(key)
    c = stakes(g).config
    automations = (
        pk.Automation.ANTE_POSTING, pk.Automation.BET_COLLECTION,
        pk.Automation.BLIND_OR_STRADDLE_POSTING, pk.Automation.CARD_BURNING,
        pk.Automation.HOLE_DEALING, pk.Automation.BOARD_DEALING,
        pk.Automation.RUNOUT_COUNT_SELECTION, pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pk.Automation.HAND_KILLING, pk.Automation.CHIPS_PUSHING, pk.Automation.CHIPS_PULLING,
    )  # fmt: skip
    kind: Any = getattr(pk, PEERED[key])
    mode = pk.Mode.CASH_GAME
    if key == "kuhn":
        return kind(automations, True, c.ante, c.small_bet, mode=mode)
    if key == "leduc":
        return kind(automations, True, c.ante, c.small_bet, c.big_bet, mode=mode)
    if g.bring_in:
        return kind(automations, True, c.ante, c.bring_in, c.small_bet, c.big_bet, mode=mode)
    blinds = (c.small_blind, c.big_blind)
    if g.fixed_limit:
        return kind(automations, True, 0, blinds, c.small_bet, c.big_bet, mode=mode)
    return kind(automations, True, 0, blinds, c.big_blind, mode=mode)


def pokerkit(key: str, policy: str) -> Play:
    g = game(key)
    s = stakes(g)
    made = pokerkit_game(key)
    stacks, players = (s.stack,) * s.players, s.players
    draws, stud, fixed = g.draws, g.bring_in, g.fixed_limit

    # pokerkit shuffles with the random module's own generator, seeded once a run (rate).
    def play_call(rng: random.Random) -> None:
        state = made(stacks, players)
        while state.status:
            if draws and state.stand_patter_or_discarder_index is not None:
                state.stand_pat_or_discard(())
            elif stud and state.can_post_bring_in():
                state.post_bring_in()
            else:
                state.check_or_call()

    def play_random(rng: random.Random) -> None:
        state = made(stacks, players)
        while state.status:
            if draws and (p := state.stand_patter_or_discarder_index) is not None:
                hole = state.hole_cards[p]
                state.stand_pat_or_discard(rng.sample(hole, rng.randint(0, len(hole))))
                continue
            can_raise = state.can_complete_bet_or_raise_to()
            if stud and state.can_post_bring_in():
                if can_raise and rng.random() < 0.5:
                    state.complete_bet_or_raise_to()  # no amount: the completion
                else:
                    state.post_bring_in()
                continue
            move = choose(rng, bool(state.checking_or_calling_amount), can_raise)
            if move == "fold":
                state.fold()
            elif move == "raise":
                if fixed:
                    state.complete_bet_or_raise_to()  # no amount: the minimum, the fixed bet
                else:
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    assert low is not None and high is not None
                    state.complete_bet_or_raise_to(rng.randint(low, high))
            else:
                state.check_or_call()

    return play_call if policy == "call" else play_random


def run(play: Play, rng: random.Random, seconds: float) -> float:
    """Hands per second over one run of ``seconds`` (and at least 20 hands)."""
    hands, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or hands < 20:
        play(rng)
        hands += 1
    return hands / elapsed


def rates(plays: list[Play], seconds: float, runs: int = 3) -> list[float]:
    """Hands per second of each play: the best of ``runs`` runs of ``seconds / runs`` each,
    after a warm-up, the plays taken in turn (in reverse order every other round); the best
    run is the one least disturbed by the rest of the machine. Each play has its own
    generator (and pokerkit the global one, seeded here), so every run plays the same."""
    rngs = [random.Random(2026) for _ in plays]
    random.seed(2026)
    for play, rng in zip(plays, rngs, strict=True):
        for _ in range(5):  # warm up caches and lazy imports
            play(rng)
    best = [0.0] * len(plays)
    for round_ in range(runs):
        order = range(len(plays)) if round_ % 2 == 0 else range(len(plays) - 1, -1, -1)
        for i in order:
            best[i] = max(best[i], run(plays[i], rngs[i], seconds / runs))
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description="every game's speed beside pokerkit's")
    parser.add_argument("--seconds", type=float, default=1.5, help="time per engine and row")
    parser.add_argument("--games", default="", help="comma-separated keys (default: all)")
    args = parser.parse_args()
    only = set(filter(None, args.games.split(",")))
    warnings.simplefilter("ignore")  # pokerkit warns when it reshuffles discards
    start = time.perf_counter()
    print(f"python {sys.version.split()[0]}; pokerkit {version('pokerkit')}")
    print(f"hands per second; ratio = ours / pokerkit's (goal >= {GOAL:g})")
    header = (
        f"{'game':<11}{'players':>8}{'policy':>8}{'pokerroom':>12}{'pokerkit':>11}"
        f"{'ratio':>8}{'goal':>7}  ok"
    )
    print(header)
    print("-" * len(header))
    failed = False
    for key in PEERED:
        if only and key not in only:
            continue
        for policy in POLICIES:
            mine, theirs = rates([ours(key, policy), pokerkit(key, policy)], args.seconds)
            ratio = mine / theirs
            failed |= ratio < GOAL
            players = stakes(game(key)).players
            print(
                f"{key:<11}{players:>8}{policy:>8}{mine:>12,.0f}{theirs:>11,.0f}{ratio:>8.1f}"
                f"{'>= ' + format(GOAL, 'g'):>7}  {'yes' if ratio >= GOAL else 'NO'}",
                flush=True,
            )
    for key in OURS_ONLY:
        if only and key not in only:
            continue
        for policy in POLICIES:
            (mine,) = rates([ours(key, policy)], args.seconds)
            players = stakes(game(key)).players
            print(f"{key:<11}{players:>8}{policy:>8}{mine:>12,.0f}{'-':>11}", flush=True)
    print(f"{time.perf_counter() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
