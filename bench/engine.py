"""Table engine speed beside texasholdem, rlcard, PyPokerEngine and pokerkit, in one run.

    make bench                 # installs the peers (requirements/bench.txt) and runs this
    python -m bench.engine [--seconds S] [--against PATH [--rounds N]]

Each engine plays complete no-limit hold'em hands in-process, 6-max and heads-up, blinds
50/100 (rlcard: its fixed 1/2) and 100 big blinds each, stacks reset every hand, with the
deck shuffled by the engine. Two policies, the same for every engine: "call" (check or
call every time: every hand reaches a showdown) and "random" (uniform over fold when
facing a bet, check/call, and bet/raise; a raise is uniform over half the pot, the pot, and
all in, on top of the minimum raise and within the legal range: the three sizes rlcard's
abstract actions offer, so every engine plays hands of the same shape). Ours goes through
the public ``engine.Table`` API. Prints hands per second and our ratio to the fastest peer
in every row; the goal is 2 or more.

``--against PATH`` then plays the same rows on an earlier checkout of pokerroom (e.g. a git
worktree of the last release) and on ours: the same driver (this file, ``--worker``) in
two subprocesses, one with ``PYTHONPATH=PATH``, one with ours, both on one CPU (a
different one each round) and taken in turn, each figure the best of six short runs in
process CPU time. Over ``--rounds`` rounds it prints the median hands per second of each
and the median of the rounds' ratios, ours / its; the goal is that no-limit hold'em loses
nothing: every ratio at least 0.95.

Where valgrind is installed, ``--against`` also counts the instructions a hand takes
under callgrind in each checkout (200 hands of each row, the same deals for both, hash
seed fixed): a count that does not change with the load on the machine, where CPU time on
a shared machine does (two runs of one commit against itself have differed by 10%). The
goal is then judged on the count: its instructions / ours at least 0.95.

Exits 1 if any goal is missed.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version
from pathlib import Path

# Run as a script, bench/ comes first on sys.path and this file would hide the engine
# package: drop it (python -m bench.engine needs no help).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from engine.actions import BetOrRaiseTo, CheckOrCall, Fold  # noqa: E402
from engine.deck import Deck  # noqa: E402
from engine.rules import TableConfig  # noqa: E402
from engine.table import Table  # noqa: E402

Play = Callable[[int, str, random.Random], None]  # (players, policy, rng): one hand


MOVES = {
    (fold, raise_): ("call",) + (("fold",) if fold else ()) + (("raise",) if raise_ else ())
    for fold in (False, True)
    for raise_ in (False, True)
}


def choose(rng: random.Random, can_fold: bool, can_raise: bool) -> str:
    return rng.choice(MOVES[can_fold, can_raise])


SIZES = (0.5, 1.0, None)  # half pot, pot, all in: rlcard's RAISE_HALF_POT, RAISE_POT, ALL_IN


def raise_to(rng: random.Random, low: int, high: int, pot: int) -> int:
    size = rng.choice(SIZES)
    return high if size is None else min(high, low + int(size * pot))


def ours() -> Play:
    config = TableConfig(small_blind=50, big_blind=100, seats=6)

    def play(players: int, policy: str, rng: random.Random) -> None:
        table = Table(config)
        for chair in range(players):
            table.sit_down(chair, 10_000)
        table.start_hand(Deck.shuffled(rng))
        while table.hand_in_progress:
            seat = table.to_act
            assert seat is not None
            if policy == "call":
                table.apply(CheckOrCall(seat))
                continue
            menu = table.legal_actions(seat)
            assert menu is not None
            move = choose(rng, menu.can_fold, menu.can_raise)
            if move == "fold":
                table.apply(Fold(seat))
            elif move == "raise":
                assert table.hand is not None
                pot = sum(table.hand.totals)
                table.apply(
                    BetOrRaiseTo(seat, raise_to(rng, menu.min_raise_to, menu.max_raise_to, pot))
                )
            else:
                table.apply(CheckOrCall(seat))

    return play


def texasholdem() -> Play:
    from texasholdem import ActionType, TexasHoldEm

    def play(players: int, policy: str, rng: random.Random) -> None:
        random.seed(rng.random())  # texasholdem shuffles with the global generator
        game = TexasHoldEm(buyin=10_000, big_blind=100, small_blind=50, max_players=players)
        game.start_hand()
        while game.is_hand_running():
            moves = game.get_available_moves()
            types = moves.action_types
            call = ActionType.CHECK if ActionType.CHECK in types else ActionType.CALL
            if call not in types:
                call = ActionType.ALL_IN
            if policy == "call":
                game.take_action(call)
                continue
            can_raise = ActionType.RAISE in types and len(moves.raise_range) > 0
            move = choose(rng, ActionType.CALL in types, can_raise)
            if move == "fold":
                game.take_action(ActionType.FOLD)
            elif move == "raise":
                low, high = moves.raise_range.start, moves.raise_range.stop - 1
                pot = sum(p.get_total_amount() for p in game.pots)
                game.take_action(ActionType.RAISE, total=raise_to(rng, low, high, pot))
            else:
                game.take_action(call)

    return play


def rlcard() -> Play:
    import rlcard as rl
    from rlcard.games.nolimitholdem.round import Action

    envs: dict[int, object] = {}

    def play(players: int, policy: str, rng: random.Random) -> None:
        if players not in envs:
            envs[players] = rl.make(
                "no-limit-holdem",
                config={"game_num_players": players, "chips_for_each": 200, "seed": 1},
            )
        env = envs[players]
        _state, _ = env.reset()  # type: ignore[attr-defined]
        while not env.is_over():  # type: ignore[attr-defined]
            state = env.get_state(env.get_player_id())  # type: ignore[attr-defined]
            legal = list(state["legal_actions"])
            # rlcard offers a fold even when checking is free; the common policy does not.
            facing = max(state["raw_obs"]["all_chips"]) > state["raw_obs"]["my_chips"]
            call = Action.CHECK_CALL.value
            if policy == "call":
                move_id = call if call in legal else legal[0]
            else:
                raises = [a for a in legal if a not in (Action.FOLD.value, call)]
                move = choose(rng, facing and Action.FOLD.value in legal, bool(raises))
                if move == "fold":
                    move_id = Action.FOLD.value
                elif move == "raise":
                    sizes = {0.5: Action.RAISE_HALF_POT.value, 1.0: Action.RAISE_POT.value}
                    size = rng.choice(SIZES)
                    move_id = sizes[size] if size is not None else Action.ALL_IN.value
                    if move_id not in legal:  # a size rlcard does not offer here
                        move_id = rng.choice(raises)
                else:
                    move_id = call if call in legal else legal[0]
            env.step(move_id)  # type: ignore[attr-defined]

    return play


def pypokerengine() -> Play:
    from pypokerengine.api.game import setup_config, start_poker
    from pypokerengine.players import BasePokerPlayer

    class Player(BasePokerPlayer):  # type: ignore[misc]
        def __init__(self, policy: str, rng: random.Random) -> None:
            self.policy, self.rng = policy, rng

        def declare_action(
            self, valid: list[dict[str, object]], hole: object, state: object
        ) -> tuple[str, object]:
            call = valid[1]["amount"]
            if self.policy == "call":
                return "call", call
            limits = valid[2]["amount"]
            assert isinstance(limits, dict)
            can_raise = limits["min"] != -1
            move = choose(self.rng, call != 0, can_raise)
            if move == "raise":
                assert isinstance(state, dict)
                pot = state["pot"]["main"]["amount"] + sum(
                    p["amount"] for p in state["pot"]["side"]
                )
                return "raise", raise_to(self.rng, limits["min"], limits["max"], pot)
            return ("fold", 0) if move == "fold" else ("call", call)

        def receive_game_start_message(self, info: object) -> None: ...
        def receive_round_start_message(
            self, count: object, hole: object, seats: object
        ) -> None: ...
        def receive_street_start_message(self, street: object, state: object) -> None: ...
        def receive_game_update_message(self, action: object, state: object) -> None: ...
        def receive_round_result_message(
            self, winners: object, info: object, state: object
        ) -> None: ...

    def play(players: int, policy: str, rng: random.Random) -> None:
        random.seed(rng.random())  # PyPokerEngine shuffles with the global generator
        config = setup_config(max_round=1, initial_stack=10_000, small_blind_amount=50)
        for i in range(players):
            config.register_player(name=f"p{i}", algorithm=Player(policy, rng))
        start_poker(config, verbose=0)

    return play


def pokerkit() -> Play:
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )  # fmt: skip
    game = NoLimitTexasHoldem(automations, True, 0, (50, 100), 100, mode=Mode.CASH_GAME)

    def play(players: int, policy: str, rng: random.Random) -> None:
        random.seed(rng.random())  # pokerkit shuffles with the global generator
        state = game((10_000,) * players, players)
        while state.status:
            if policy == "call":
                state.check_or_call()
                continue
            move = choose(
                rng, bool(state.checking_or_calling_amount), state.can_complete_bet_or_raise_to()
            )
            if move == "fold":
                state.fold()
            elif move == "raise":
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None
                pot = state.total_pot_amount
                state.complete_bet_or_raise_to(raise_to(rng, low, high, pot))
            else:
                state.check_or_call()

    return play


def rate(play: Play, players: int, policy: str, seconds: float) -> float:
    """Hands per second: the best of three runs of ``seconds / 3`` (and 20 hands) each,
    after a warm-up; the best run is the one least disturbed by the rest of the machine."""
    rng = random.Random(2026)
    for _ in range(5):  # warm up caches and lazy imports
        play(players, policy, rng)
    best = 0.0
    for _ in range(3):
        hands, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3 or hands < 20:
            play(players, policy, rng)
            hands += 1
        best = max(best, hands / elapsed)
    return best


def cpu_rate(play: Play, players: int, policy: str, seconds: float, rng: random.Random) -> float:
    """Hands per second of process CPU time: the best of six runs of ``seconds / 6`` (and
    20 hands) each. CPU time leaves out the time the machine gives to other processes, and
    on a noisy machine a quiet moment is likelier to last through a short run."""
    best = 0.0
    for _ in range(6):
        hands, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds / 6 or hands < 20:
            play(players, policy, rng)
            hands += 1
        best = max(best, hands / elapsed)
    return best


def worker() -> None:
    """``--worker``: our driver on the engine that ``PYTHONPATH`` finds. Each line read,
    ``players policy seconds``, is answered with that row's hands per second (CPU time);
    each row keeps its own generator, warmed up on first use. The first line out is the
    checkout the engine came from."""
    print(Path(sys.modules["engine"].__file__ or "").resolve().parents[1], flush=True)
    play = ours()
    rngs: dict[tuple[int, str], random.Random] = {}
    for line in sys.stdin:
        words = line.split()
        players, policy, seconds = int(words[0]), words[1], float(words[2])
        rng = rngs.get((players, policy))
        if rng is None:
            rng = rngs[players, policy] = random.Random(2026)
            for _ in range(20):  # warm up caches and lazy imports
                play(players, policy, rng)
        print(cpu_rate(play, players, policy, seconds, rng), flush=True)


def count(hands: int, players: int, policy: str) -> None:
    """``--count``: play ``hands`` hands of a row after a warm-up, for callgrind to count."""
    play, rng = ours(), random.Random(2026)
    for _ in range(20 + hands):
        play(players, policy, rng)


def instructions(path: Path, players: int, policy: str) -> float:
    """Instructions per hand of a row on the checkout at ``path``: callgrind's totals for
    201 hands and for 1, differenced, so start-up and warm-up cancel out."""
    totals = []
    for hands in (1, 201):
        done = subprocess.run(
            [
                "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                sys.executable, str(Path(__file__).resolve()),
                "--count", str(hands), str(players), policy,
            ],
            capture_output=True, text=True, cwd=path, check=True,
            env={**os.environ, "PYTHONPATH": str(path), "PYTHONHASHSEED": "0"},
        )  # fmt: skip
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise RuntimeError(f"callgrind printed no total: {done.stderr[-500:]}")
        totals.append(int(found[1]))
    return (totals[1] - totals[0]) / 200


def against_instructions(path: Path) -> bool:
    """Print instructions per hand, ours and the checkout's at ``path``, row by row;
    whether every ratio meets the goal."""
    print(f"against {path}: instructions per hand under callgrind; ratio = its / ours")
    header = f"{'row':<16}{'pokerroom':>12}{'its':>12}{'ratio':>8}{'goal':>9}  ok"
    print(header)
    print("-" * len(header))
    ours_path = Path(__file__).resolve().parents[1]
    jobs = [(p, players, policy) for players, policy in ROWS for p in (ours_path, path)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # one valgrind a CPU
        counts = list(pool.map(lambda job: instructions(*job), jobs))
    met = True
    for i, (players, policy) in enumerate(ROWS):
        mine, theirs = counts[2 * i], counts[2 * i + 1]
        ok = theirs / mine >= AGAINST_GOAL
        met &= ok
        row = f"{'6-max' if players == 6 else 'heads-up'} {policy}"
        print(
            f"{row:<16}{mine:>12,.0f}{theirs:>12,.0f}{theirs / mine:>8.3f}"
            f"{'>= ' + format(AGAINST_GOAL, 'g'):>9}  {'yes' if ok else 'NO'}"
        )
    return met


class Checkout:
    """This file run as a ``--worker`` on the checkout at ``path`` (``PYTHONPATH=path``)."""

    def __init__(self, path: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(path)}
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=path,
            env=env,
        )
        assert self.process.stdout is not None
        found = Path(self.process.stdout.readline().strip())
        if found != path:  # no engine at path: site-packages would give ours
            self.close()
            raise SystemExit(f"{path} has no pokerroom engine (the worker imported {found})")

    def pin(self, cpu: int) -> None:
        """Run on that CPU only (where the OS allows)."""
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(self.process.pid, {cpu})

    def rate(self, players: int, policy: str, seconds: float) -> float:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{players} {policy} {seconds}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the worker of {self.process.args!r} died")
        return float(answer)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


ROWS = ((6, "call"), (6, "random"), (2, "call"), (2, "random"))
AGAINST_GOAL = 0.95


def against(path: Path, rounds: int, seconds: float) -> bool:
    """Print our no-limit hold'em rows beside the checkout at ``path``'s; whether every
    ratio meets the goal."""
    checkouts = [Checkout(Path(__file__).resolve().parents[1]), Checkout(path)]
    rates: dict[tuple[int, str], list[tuple[float, float]]] = {row: [] for row in ROWS}
    # Both on one CPU at a time, a different one each round: on a shared machine one CPU
    # can be slower than another for seconds on end.
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    try:
        for round_ in range(rounds):
            for checkout in checkouts:
                checkout.pin(cpus[round_ % len(cpus)])
            for i, (players, policy) in enumerate(ROWS):
                order = (0, 1) if (round_ + i) % 2 == 0 else (1, 0)
                pair = [0.0, 0.0]
                for j in order:
                    pair[j] = checkouts[j].rate(players, policy, seconds)
                rates[players, policy].append((pair[0], pair[1]))
    finally:
        for checkout in checkouts:
            checkout.close()
    print(
        f"against {path}: hands per second of CPU time, medians of {rounds} rounds; "
        f"ratio = the median of the rounds' ours / its (goal >= {AGAINST_GOAL:g})"
    )
    header = f"{'row':<16}{'pokerroom':>12}{'its':>12}{'ratio':>8}{'goal':>9}  ok"
    print(header)
    print("-" * len(header))
    met = True
    for (players, policy), pairs in rates.items():
        mine = statistics.median(m for m, _ in pairs)
        theirs = statistics.median(t for _, t in pairs)
        ratio = statistics.median(m / t for m, t in pairs)
        ok = ratio >= AGAINST_GOAL
        met &= ok
        row = f"{'6-max' if players == 6 else 'heads-up'} {policy}"
        print(
            f"{row:<16}{mine:>12,.0f}{theirs:>12,.0f}{ratio:>8.3f}"
            f"{'>= ' + format(AGAINST_GOAL, 'g'):>9}  {'yes' if ok else 'NO'}"
        )
    return met


PEERS = {
    "texasholdem": texasholdem,
    "rlcard": rlcard,
    "PyPokerEngine": pypokerengine,
    "pokerkit": pokerkit,
}


def main() -> int:
    parser = argparse.ArgumentParser(description="table engine speed, side by side")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine and row")
    parser.add_argument(
        "--against", type=Path, metavar="PATH", help="an earlier checkout to compare with"
    )
    parser.add_argument("--rounds", type=int, default=11, help="--against: rounds, in turn")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    if args.count:
        count(int(args.count[0]), int(args.count[1]), args.count[2])
        return 0
    warnings.simplefilter("ignore")  # peers warn about folds and deprecated arguments
    engines = {"pokerroom": ours(), **{name: make() for name, make in PEERS.items()}}
    peers = ", ".join(
        f"{p} {version(p)}" for p in ("texasholdem", "rlcard", "PyPokerEngine", "pokerkit")
    )
    print(f"python {sys.version.split()[0]}; {peers}")
    print("hands per second; ratio = ours / the fastest peer in the row (goal >= 2)")
    header = f"{'row':<16}" + "".join(f"{name:>14}" for name in engines) + f"{'ratio':>8}  ok"
    print(header)
    print("-" * len(header))
    failed = False
    for players in (6, 2):
        for policy in ("call", "random"):
            rates = {
                name: rate(play, players, policy, args.seconds) for name, play in engines.items()
            }
            best_peer = max(v for k, v in rates.items() if k != "pokerroom")
            ratio = rates["pokerroom"] / best_peer
            failed |= ratio < 2
            row = f"{'6-max' if players == 6 else 'heads-up'} {policy}"
            cells = "".join(f"{v:>14,.0f}" for v in rates.values())
            print(f"{row:<16}{cells}{ratio:>8.2f}  {'yes' if ratio >= 2 else 'NO'}")
    if args.against:
        print()
        cpu_met = against(args.against.resolve(), args.rounds, args.seconds / 5)
        if shutil.which("valgrind"):
            print()
            failed |= not against_instructions(args.against.resolve())
            print("(the goal is judged on instructions: CPU time above is for reference)")
        else:
            failed |= not cpu_met
            print("(valgrind is not installed: the goal is judged on CPU time)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
