"""The hand tools: ``pokerroom eval``, ``compare``, ``showdown``, ``equity``, ``replay`` and
``demo``. Pure computation on the engine; nothing is stored.

Without ``--game`` the first four name and compare best-five high hands, as ever. With
``--game`` (a preset key such as ``plo8`` or ``dice``, or a PHH code such as ``FO/8``) they
take the game's own hands: its hole cards, a ``--board`` where it has one, and each of its
rankings (high and low in a split game)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import engine
from engine import Card, EngineError, HandValue, compare, equity, evaluate, parse_cards
from server.cli.common import (
    Command,
    Parser,
    UsageError,
    add_command,
    emit,
    json_number,
    phh_files,
    progress,
)


def _value_json(value: HandValue) -> dict[str, Any]:
    return {
        "description": value.describe(),
        "category": str(value.category),
        "rank": value.rank,
        "best_five": [str(c) for c in value.best_five],
    }


def _game(args: argparse.Namespace) -> engine.Game | None:
    if args.game is None:
        return None
    try:
        return engine.game(args.game)
    except EngineError as exc:
        raise UsageError(str(exc)) from exc


def _rating_json(rating: engine.Rating) -> dict[str, Any]:
    halves = ("high", "low") if len(rating.values) == 2 else ("hand",)
    return {
        "game": rating.game.key,
        "description": rating.describe(),
        **{
            half: {
                "description": name,
                "value": value,
                "best": [str(c) for c in best],
                "ranking": ranking.name,
            }
            for half, name, value, best, ranking in zip(
                halves, rating.names, rating.values, rating.best, rating.game.hands, strict=True
            )
        },
    }


def _rating_text(rating: engine.Rating) -> str:
    """The hand in words; under each ranking, the cards that play and the rank."""
    lines = []
    split = len(rating.values) == 2
    for half, name, value, best, ranking in zip(
        ("high", "low"), rating.names, rating.values, rating.best, rating.game.hands, strict=False
    ):
        indent = "  " if split else ""
        lines.append(f"{half}: {name}" if split else name)
        if value:
            lines.append(f"{indent}cards that play: {' '.join(map(str, best))}")
        lines.append(f"{indent}rank: {value} ({ranking.name}; higher is better)")
    return "\n".join(lines)


def cmd_eval(args: argparse.Namespace) -> int:
    game = _game(args)
    if game is not None:
        rating = engine.rate(" ".join(args.cards), args.board or "", game=game)
        emit(args, _rating_text(rating), _rating_json(rating))
        return 0
    if args.board:
        raise UsageError("--board needs --game (without one, give all the cards)")
    value = evaluate(parse_cards(" ".join(args.cards)))
    text = (
        f"{value.describe()}\n"
        f"best five: {' '.join(map(str, value.best_five))}\n"
        f"category: {value.category}\n"
        f"rank: {value.rank} of 7462"
    )
    emit(args, text, _value_json(value))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    game = _game(args)
    if game is not None:
        board = args.board or ""
        outcomes = engine.contest(args.hand_a, args.hand_b, board, game=game)
        a, b = (
            engine.rate(args.hand_a, board, game=game),
            engine.rate(args.hand_b, board, game=game),
        )
        text = outcomes[0] if len(outcomes) == 1 else f"high: {outcomes[0]}, low: {outcomes[1]}"
        data = {"result": list(outcomes), "hand_a": _rating_json(a), "hand_b": _rating_json(b)}
        emit(args, text, data)
        return 0
    if args.board:
        raise UsageError("--board needs --game (without one, give all the cards)")
    value_a, value_b = evaluate(parse_cards(args.hand_a)), evaluate(parse_cards(args.hand_b))
    outcome = compare(value_a, value_b)
    data = {"result": outcome, "hand_a": _value_json(value_a), "hand_b": _value_json(value_b)}
    emit(args, outcome, data)
    return 0


def cmd_showdown(args: argparse.Namespace) -> int:
    name = "<stdin>" if args.file == "-" else args.file
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {name}: {exc}") from exc
    game = _game(args)
    tally = {"WIN": 0, "LOSE": 0, "DRAW": 0}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            if game is None:
                cards = parse_cards(line)
                if len(cards) != 10:
                    raise UsageError(f"expected 10 cards, got {len(cards)}")
                tally[compare(cards[:5], cards[5:])] += 1
            else:
                tally[_pot_outcome(game, line)] += 1
        except (EngineError, UsageError) as exc:
            raise UsageError(f"{name}: line {number}: {exc}") from exc
    hands = sum(tally.values())
    text_out = (
        f"hands: {hands}\nplayer 1 wins: {tally['WIN']}\n"
        f"player 2 wins: {tally['LOSE']}\ndraws: {tally['DRAW']}"
    )
    data = {
        "hands": hands,
        "player1": tally["WIN"],
        "player2": tally["LOSE"],
        "draws": tally["DRAW"],
    }
    emit(args, text_out, data)
    return 0


def _pot_outcome(game: engine.Game, line: str) -> str:
    """A line of ``showdown --game``: ``hand | hand`` or ``hand | hand | board``. Who wins the
    pot (a split game: both halves; one each is a draw)."""
    parts = [p.strip() for p in line.split("|")]
    if len(parts) not in (2, 3):
        raise UsageError("expected 'first hand | second hand', then '| board' in a board game")
    board = parts[2] if len(parts) == 3 else ""
    outcomes = engine.contest(parts[0], parts[1], board, game=game)
    if len(set(outcomes)) == 1:
        return outcomes[0]
    return "DRAW" if set(outcomes) == {"WIN", "LOSE"} else next(o for o in outcomes if o != "DRAW")


def cmd_equity(args: argparse.Namespace) -> int:
    if args.samples is not None and args.exact:
        raise UsageError("--exact and --samples exclude each other")
    results = equity(
        [parse_cards(h) for h in args.hands],
        board=parse_cards(args.board or ""),
        dead=parse_cards(args.dead or ""),
        game=_game(args),
        exact=True if args.exact else None,
        samples=args.samples,
        seed=args.seed,
    )
    first = results[0]
    how = (
        f"exact, {first.boards:,} boards"
        if first.exact
        else f"Monte Carlo, {first.boards:,} boards"
        + (f", seed {args.seed}" if args.seed is not None else "")
    )
    width = max(6, *(2 * len(r.hand) for r in results))
    lines = [f"{'hand':<{width}} {'win':>8} {'tie':>8} {'equity':>8}   ({how})"]
    for r in results:
        hand = "".join(map(str, r.hand))
        lines.append(f"{hand:<{width}} {r.win_share:8.3%} {r.tie_share:8.3%} {r.equity:8.3%}")
    data = {
        "exact": first.exact,
        "boards": first.boards,
        "seed": args.seed,
        "hands": [
            {"hand": [str(c) for c in r.hand], "wins": r.wins, "ties": r.ties, "equity": r.equity}
            for r in results
        ],
    }
    emit(args, "\n".join(lines), data)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay PHH files through the engine and compare with the recorded final stacks."""
    counts = dict.fromkeys(("match", "differ", "unsupported", "error"), 0)
    files = phh_files(args.paths)
    with progress("replay", len(files)) as bar:
        for path in files:
            _replay_file(args, path, counts)
            bar.advance()
    if args.json:
        print(json.dumps({"summary": counts}))
    else:
        print(", ".join(f"{n} {status}" for status, n in counts.items()))
    return 1 if counts["differ"] or counts["error"] else 0


def _replay_file(args: argparse.Namespace, path: Path, counts: dict[str, int]) -> None:
    """Replay one file's hands, count them, and print those ``args`` asks for."""
    history = engine.history  # the first use loads it: eval and the rest do without
    try:
        text = path.read_text(encoding="utf-8")
        hands = history.load_all(text) if path.suffix == ".phhs" else [history.load(text)]
        results = [history.check(h) for h in hands]
    except (OSError, UnicodeDecodeError, EngineError) as exc:
        results = [history.ReplayResult("error", None, None, f"cannot read: {exc}")]
    for index, result in enumerate(results, start=1 if path.suffix == ".phhs" else 0):
        counts[result.status] += 1
        if args.json:
            print(
                json.dumps(
                    {
                        "file": str(path),
                        "index": index,
                        "status": result.status,
                        "ours": None
                        if result.ours is None
                        else [json_number(v) for v in result.ours],
                        "recorded": None
                        if result.recorded is None
                        else [json_number(v) for v in result.recorded],
                        "message": result.message,
                    }
                )
            )
        elif result.status != "match" or args.verbose:
            where = f"{path}[{index}]" if path.suffix == ".phhs" else str(path)
            print(f"{where}: {result.status}" + (f": {result.message}" if result.message else ""))


def cmd_demo(args: argparse.Namespace) -> int:
    """Deal random six-handed showdowns and show what the evaluator makes of them."""
    rng = random.Random(args.seed)
    for number in range(1, args.hands + 1):
        deck = [Card.from_code(c) for c in rng.sample(range(52), 5 + 2 * 6)]
        board, holes = deck[:5], [deck[5 + 2 * i : 7 + 2 * i] for i in range(6)]
        print(f"hand {number}: board {' '.join(map(str, board))}")
        values = [evaluate(h + board) for h in holes]
        best = max(values)
        for seat, (hole, value) in enumerate(zip(holes, values, strict=True), start=1):
            mark = "  <- wins" if value == best else ""
            print(f"  seat {seat}: {' '.join(map(str, hole))}  {value}{mark}")
    return 0


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """Register the hand tools: eval, compare, showdown, equity, replay, demo."""

    def add(name: str, func: Command) -> argparse.ArgumentParser:
        return add_command(sub, name, func)

    game_help = (
        "a game: a preset (nlhe, plo, plo8, stud, razz, 27td, badugi, dice, ...) or PHH code"
    )
    p = add("eval", cmd_eval)
    p.add_argument("cards", nargs="+", help="cards, e.g. As Ks Qs Js Ts 2c 3d (dice: 66612)")
    p.add_argument("--game", help=game_help)
    p.add_argument("--board", help="with --game: the board, e.g. 'Ah 7c 2d Kd 9s'")
    p = add("compare", cmd_compare)
    p.add_argument("hand_a", help='first hand, e.g. "2H 2D AH KC 3D"')
    p.add_argument("hand_b", help="second hand")
    p.add_argument("--game", help=game_help)
    p.add_argument("--board", help="with --game: the board the two hands share")
    p = add("showdown", cmd_showdown)
    p.add_argument("file", help="the file, or - for standard input")
    p.add_argument(
        "--game", help=game_help + "; lines are then 'hand | hand' or 'hand | hand | board'"
    )
    p = add("equity", cmd_equity)
    p.add_argument("hands", nargs="+", help="hands, e.g. AhKh QsQd, or Omaha's AsAdKhQc")
    p.add_argument("--game", help="a board game: hold'em, Omaha (high or hi-lo), short deck")
    p.add_argument("--board", help="board cards already dealt, e.g. 'Ah 7c 2d'")
    p.add_argument("--dead", help="cards known to be out of the deck")
    p.add_argument("--exact", action="store_true", help="enumerate every board")
    p.add_argument("--samples", type=int, help="Monte Carlo with this many boards")
    p.add_argument("--seed", type=int, help="seed for Monte Carlo")
    p = add("replay", cmd_replay)
    p.add_argument("paths", nargs="+", help=".phh or .phhs files, or folders of them")
    p.add_argument("-v", "--verbose", action="store_true", help="list matching hands too")
    p = add("demo", cmd_demo)
    p.add_argument("--hands", type=int, default=5, help="how many hands (default 5)")
    p.add_argument("--seed", type=int, help="seed for the deal")
