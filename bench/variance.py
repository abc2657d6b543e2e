"""How much each estimator of a win rate narrows its interval, on real house-bot matches.

    python -m bench.variance [--hands N] [--seed S]

Plays two heads-up no-limit hold'em ring matches with the tournament director (blinds
50/100, stacks of 100 big blinds reset every hand, the button moving each deal, not
duplicate): tight-aggressive against random and tight-aggressive against the calling
station, ``--hands`` hands each (default 3,000), every deck and bot seeded from ``--seed``.
Then, for the tight-aggressive bot (heads-up, the other's figures are the same with the
sign changed), three estimators of its win rate over the same hands:

- raw: the chips won, hand by hand;
- all-in adjusted: equity in each pot when all in before the river (server.stats);
- AIVAT chance terms: the chips won plus the correction of every deal, hole cards and
  board, against the check-down value (server.stats.luck, docs/statistics.md).

For each: bb/100 with its 95 % interval, the standard deviation of a hand's result in
big blinds, and how much narrower the interval is than the raw one. Last, what the
AIVAT terms cost per hand, beside the replay and the all-in adjustment they follow
(an all-in's exact enumeration is done once, by the adjustment, and reused).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

# Run as a script, bench/ comes first on sys.path and bench/engine.py would hide the
# engine package: drop it (python -m bench.NAME needs no help).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from engine import history  # noqa: E402
from server.bots.strategies import STRATEGIES  # noqa: E402
from server.stats.hands import Adjustment, exact_shares, facts  # noqa: E402
from server.stats.luck import LuckKind, luck  # noqa: E402
from server.tournaments.director import (  # noqa: E402
    BotAgent,
    Entrant,
    Format,
    HandPlayed,
    TournamentConfig,
    TournamentDirector,
    make_bot,
)

HERO = "tag"
MATCHES = (("random", "rnd"), ("calling-station", "cs"))
STACK = 10_000  # 100 big blinds of 50/100
Z95 = 1.959964


@dataclass
class Measured:
    """The hero's per-hand results in big blinds, by estimator, and what they cost."""

    raw: list[float] = field(default_factory=list)
    adjusted: list[float] = field(default_factory=list)
    aivat: list[float] = field(default_factory=list)
    all_ins: int = 0
    fallbacks: int = 0
    facts_seconds: float = 0.0
    luck_seconds: float = 0.0


def play(opponent: str, name: str, hands: int, seed: str) -> list[HandPlayed]:
    """A heads-up ring match of ``hands`` hands: the tight-aggressive bot and ``opponent``."""
    config = TournamentConfig(Format.RING, seed, starting_stack=STACK, hands=hands, buy_in=0)
    bots = [(HERO, "tight-aggressive"), (name, opponent)]
    entrants = [Entrant(n, BotAgent(make_bot(STRATEGIES[b], seed, n))) for n, b in bots]
    played: list[HandPlayed] = []
    director = TournamentDirector(config, entrants, on_hand=played.append)
    asyncio.run(director.run())
    return played


def measure(played: list[HandPlayed]) -> Measured:
    out = Measured()
    exact_shares.cache_clear()  # the match's statistics enumerated its all-ins: again
    for number, hp in enumerate(played):
        start = time.perf_counter()
        hh = history.from_hand(hp.hand, list(hp.players))
        replay = history.replay(hh)
        hand = facts(hp.players, hh, replay)
        middle = time.perf_counter()
        # The seed of the Monte Carlo equities: the hand's number, not its cards.
        result = luck(hh.game, replay, hand, seed=number)
        out.luck_seconds += time.perf_counter() - middle
        out.facts_seconds += middle - start
        me = hp.players.index(HERO)
        unit = hand.big_blind
        out.raw.append(hand.players[me].net / unit)
        out.adjusted.append(float(hand.players[me].adjusted / unit))
        out.aivat.append(float(result.values[me] / unit))
        out.all_ins += hand.adjustment is Adjustment.ALL_IN
        out.fallbacks += result.kind is LuckKind.FALLBACK
    return out


def row(label: str, results: list[float], raw_margin: float) -> tuple[str, float]:
    mean = statistics.fmean(results)
    sd = statistics.stdev(results)
    margin = 100 * Z95 * sd / math.sqrt(len(results))
    narrower = 1 - margin / raw_margin if raw_margin else 0.0
    rate = f"{100 * mean:+.1f} [{100 * mean - margin:+.1f}, {100 * mean + margin:+.1f}]"
    return f"  {label:<20} {rate:<26} {sd:>8.2f} {100 * narrower:>8.1f} %", margin


def report(title: str, m: Measured) -> None:
    n = len(m.raw)
    print(f"{title}: {n:,} hands, {m.all_ins} all in before the river, {m.fallbacks} fallbacks")
    print(f"  {'estimator':<20} {'bb/100 (95% CI)':<26} {'sd/hand':>8} {'narrower':>10}")
    line, raw_margin = row("raw", m.raw, 0.0)
    print(line)
    print(row("all-in adjusted", m.adjusted, raw_margin)[0])
    print(row("AIVAT chance terms", m.aivat, raw_margin)[0])
    print(
        f"  replay + all-in adjustment {1000 * m.facts_seconds / n:.1f} ms a hand, "
        f"AIVAT terms {1000 * m.luck_seconds / n:.1f} ms a hand"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=3_000, help="hands per match (3,000)")
    parser.add_argument("--seed", default="variance", help="seeds every deck and bot")
    args = parser.parse_args()
    print(f"python -m bench.variance --hands {args.hands} --seed {args.seed}")
    for opponent, name in MATCHES:
        start = time.perf_counter()
        played = play(opponent, name, args.hands, f"{args.seed}/{opponent}")
        seconds = time.perf_counter() - start
        print(f"\n({seconds:.0f} s to play)")
        report(f"{HERO} (tight-aggressive) against {name} ({opponent})", measure(played))
    return 0


if __name__ == "__main__":
    sys.exit(main())
