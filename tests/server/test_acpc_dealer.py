"""The ACPC dealer (server/acpc): its deal, rules and text against the real dealer's own
log and OpenSpiel's ``universal_poker`` (built on the dealer's rules code), then whole
matches over TCP."""

from __future__ import annotations

import asyncio
import io
import random
import re
from collections.abc import Callable
from pathlib import Path

import pyspiel
import pytest
from pokerkit import FixedLimitTexasHoldem, HandHistory, NoLimitTexasHoldem, Poker

from engine import acpc
from server.acpc.dealer import MatchConfig, MatchError, run_match
from server.acpc.dealing import MT19937, card_text, deal
from server.acpc.state import Action, HandState, format_value, parse_action

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "acpc"
FILES = sorted(p.name for p in DATA.glob("*.game"))
STATE = re.compile(r"ACPC State: (STATE:[^\n]*)")

# Lines of matchName.log, written by the real dealer (project_acpc_server, as published
# with its sources) for `dealer matchName holdem.nolimit.2p.reverse_blinds.game 1000 0
# Alice Bob`: hands 0-29, two split pots (156, 177), and its SCORE line.
REAL_LOG = """\
STATE:0:cr13024c/r16916f:5d5c|9hQd/8dAs8s:13024|-13024:Alice|Bob
STATE:1:r19015r20000c///:6sKs|5dJd/2sTh2h/Qh/8h:20000|-20000:Bob|Alice
STATE:2:cc/r6420f:Ah8s|2h4c/Qd7h6c:100|-100:Alice|Bob
STATE:3:cr16298r20000c///:4s8s|6hJd/QhJs9d/Qc/9h:-20000|20000:Bob|Alice
STATE:4:r10312r20000f:5s4c|Kc7d:10312|-10312:Alice|Bob
STATE:5:cc/cr16845r20000c//:KhTh|8s7d/9c8d5c/Qd/Td:20000|-20000:Bob|Alice
STATE:6:cc/cc/cc/cr1109c:Kc8h|5cAs/9dAh4d/7h/Qs:-1109|1109:Alice|Bob
STATE:7:r5352r16552r20000c///:Ah6c|2c3d/5d6hTc/6d/Td:20000|-20000:Bob|Alice
STATE:8:cr7207c/r16668c/cc/cr19606r20000c:2hAd|Js7c/4d3s3c/Jh/7d:-20000|20000:Alice|Bob
STATE:9:r8512f:Qd5h|9h2d:-100|100:Bob|Alice
STATE:10:cr7611c/cc/cr19981r20000c/:KcAd|Jd5c/6s7c4h/Ks/Kh:20000|-20000:Alice|Bob
STATE:11:cc/r14983c/r18473r20000c/:9dTc|9s4h/3h7c2h/9h/Ts:20000|-20000:Bob|Alice
STATE:12:r1096r11363c/cc/r14651r19642r20000f:3hTs|AdQd/9d7h4h/Kd:19642|-19642:Alice|Bob
STATE:13:r12843r20000c///:8h9s|3d2s/7hJcKc/2d/2c:-20000|20000:Bob|Alice
STATE:14:cr6666f:2d3s|6sQh:100|-100:Alice|Bob
STATE:15:f:3c4c|Th7s:50|-50:Bob|Alice
STATE:16:cc/r6130r12412c/cr17541r20000c/:3c8d|Ks6c/Ad8c7s/Jd/8s:20000|-20000:Alice|Bob
STATE:17:r2866c/cc/cr4303r11247r19216c/r19320r19587c:Kc7c|2s7d/As3h6s/Qc/7s:19587|-19587:Bob|Alice
STATE:18:r6734c/r15953r20000c//:AsJh|8d2c/7dAh5c/3s/3c:20000|-20000:Alice|Bob
STATE:19:cc/cr2025c/r15965f:2h6d|7dKc/5sAs6h/6s:2025|-2025:Bob|Alice
STATE:20:cr14539r20000f:5cAs|2s7h:-14539|14539:Alice|Bob
STATE:21:cc/r5833c/r17241r20000c/:9sTs|7d4h/5c4sAh/4c/7c:-20000|20000:Bob|Alice
STATE:22:f:5sJh|8dTh:50|-50:Alice|Bob
STATE:23:cr3738c/r19083c/r19754c/r19915r20000c:6c7s|AcTh/TsAhQh/5s/As:-20000|20000:Bob|Alice
STATE:24:f:9d3h|Qh6s:50|-50:Alice|Bob
STATE:25:cr9172c/cr13554c/r18533c/cr19379r20000c:2s3d|7dTs/Ad4hJh/9c/6c:-20000|20000:Bob|Alice
STATE:26:r18411r20000c///:5dJs|9h4h/4sTh3d/3s/7d:-20000|20000:Alice|Bob
STATE:27:cr19811r20000c///:2d2s|8s4d/TcAd5d/2c/3h:-20000|20000:Bob|Alice
STATE:28:cr9286c/r12993c/r14319r19163c/cc:AdTd|Qd2c/2d7d6c/9d/Jh:19163|-19163:Alice|Bob
STATE:29:cr2020c/r5841r11848r18677c/cr19771c/r19890c:8s2d|8h9d/7h5c7s/7c/Jc:-19890|19890:Bob|Alice
STATE:156:r4913c/cr17905c/cc/r18902c:4c7h|4s9d/Jh5h8d/8h/5s:0|0:Alice|Bob
STATE:177:cc/cc/r18141c/r19559r20000c:8hTs|2d3c/AdAc4h/4c/Js:0|0:Bob|Alice
SCORE:195857|-195857:Alice|Bob
"""


def load(name: str) -> acpc.GameDef:
    return acpc.parse((DATA / name).read_text())


def test_mt19937_seeded_by_init_genrand_gives_the_reference_outputs() -> None:
    # mt19937ar.c's init_genrand(5489) is C++'s default std::mt19937: its 10000th output
    # is 4123659995 (the C++ standard, [rand.predef]).
    rng = MT19937(5489)
    outputs = [rng.next_u32() for _ in range(10000)]
    assert outputs[:5] == [3499211612, 581869302, 3890346734, 3586334585, 545404204]
    assert outputs[-1] == 4123659995


def test_the_same_seed_deals_the_real_dealers_cards() -> None:
    game = load("holdem.nolimit.2p.reverse_blinds.game")
    rng = MT19937(0)
    lines = {int(line.split(":")[1]): line for line in REAL_LOG.splitlines()[:-1]}
    for hand_id in range(max(lines) + 1):
        holes, board = deal(game, rng)
        if hand_id in lines:
            cards = lines[hand_id].split(":")[3]
            hole_text, *boards = cards.split("/")
            assert hole_text == "|".join("".join(map(card_text, h)) for h in holes)
            assert "".join(boards) == "".join(map(card_text, board))[: len("".join(boards))]


def test_replaying_the_real_log_prints_its_lines_and_score() -> None:
    game = load("holdem.nolimit.2p.reverse_blinds.game")
    rng = MT19937(0)
    *lines, score = REAL_LOG.splitlines()
    by_hand = {int(line.split(":")[1]): line for line in lines}
    for hand_id in range(max(by_hand) + 1):
        holes, board = deal(game, rng)
        if hand_id not in by_hand:
            continue
        line = by_hand[hand_id]
        hand = HandState(game, hand_id, holes, board)
        for move in re.findall(r"[fcr]\d*", line.split(":")[2]):
            action = parse_action(move, game)
            assert action is not None and hand.is_valid(action), (line, move)
            hand.apply(action)
        assert hand.finished
        names = ["Alice", "Bob"] if hand_id % 2 == 0 else ["Bob", "Alice"]
        assert hand.log_line(names) == line
    assert score == "SCORE:195857|-195857:Alice|Bob"


@pytest.mark.parametrize(
    ("value", "text"), [(-5.0, "-5"), (2.5, "2.5"), (-0.0, "-0"), (1 / 3, "0.333333")]
)
def test_values_print_as_the_dealer_prints_them(value: float, text: str) -> None:
    assert format_value(value) == text


def spiel_params(game: acpc.GameDef) -> dict[str, object]:
    out: dict[str, object] = {
        "betting": game.betting,
        "numPlayers": game.num_players,
        "numRounds": game.num_rounds,
        "blind": " ".join(map(str, game.blind)),
        "firstPlayer": " ".join(map(str, game.first_player)),
        "numSuits": game.num_suits,
        "numRanks": game.num_ranks,
        "numHoleCards": game.num_hole_cards,
        "numBoardCards": " ".join(map(str, game.num_board_cards)),
    }
    if game.betting == "limit":
        out["raiseSize"] = " ".join(map(str, game.raise_size))
        out["maxRaises"] = " ".join(map(str, game.max_raises))
    else:  # every raise-to size an action of its own
        out["stack"] = " ".join(map(str, game.stack))
        out["bettingAbstraction"] = "fullgame"
    return out


def acpc_cards(text: str) -> tuple[int, ...]:
    return tuple(
        "23456789TJQKA".index(text[i]) * 4 + "cdhs".index(text[i + 1])
        for i in range(0, len(text), 2)
    )


@pytest.mark.parametrize("name", FILES)
def test_random_hands_print_universal_pokers_state_lines(name: str) -> None:
    """Every state of every hand, the menu at every decision, and the values."""
    game = load(name)
    spiel = pyspiel.load_game("universal_poker", spiel_params(game))
    rng = random.Random(name)
    for _ in range(200):
        state = spiel.new_initial_state()
        steps: list[tuple[str, list[int], int]] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            legal = state.legal_actions()
            # Half the time the smallest or biggest raise: the edges are where rules part.
            raises = [a for a in legal if a >= 2]
            if raises and rng.random() < 0.5:
                choice = rng.choice([raises[0], raises[-1]])
            else:
                choice = rng.choice(legal)
            steps.append((STATE.search(str(state)).group(1), legal, choice))  # type: ignore[union-attr]
            state.apply_action(choice)
        final = STATE.search(str(state)).group(1)  # type: ignore[union-attr]
        hole_text, *boards = final.split(":")[3].split("/")
        holes = tuple(acpc_cards(h) for h in hole_text.split("|"))
        board = acpc_cards("".join(boards))
        # universal_poker deals only the rounds a hand reaches; ours, every card up front.
        hand = HandState(game, 0, holes, board + (0,) * (sum(game.num_board_cards) - len(board)))
        for line, legal, choice in steps:
            assert hand.state_line() == line
            assert set(legal) == ours_legal(hand), line
            if choice == 0:
                action = Action("f")
            elif choice == 1:
                action = Action("c")
            else:
                action = Action("r", choice if game.betting == "nolimit" else 0)
            hand.apply(action)
        assert hand.finished
        assert hand.state_line() == final
        assert [hand.value(p) for p in range(game.num_players)] == state.returns(), final


def ours_legal(hand: HandState) -> set[int]:
    """Our menu in universal_poker's fullgame action ids: 0 fold, 1 call, 2 a limit raise
    or each no-limit raise-to size."""
    legal = {1} | ({0} if hand.can_fold() else set())
    sizes = hand.raise_range()
    if sizes is not None:
        legal |= {2} if hand.game.betting == "limit" else set(range(sizes[0], sizes[1] + 1))
    return legal


# -- whole matches over TCP, with clients written from the protocol ----------------------


async def start_match(
    hands: int = 20,
    *,
    strict: bool = False,
    game_name: str = "holdem.nolimit.2p.reverse_blinds.game",
) -> tuple[asyncio.Task[list[float]], list[int], io.StringIO]:
    game = load(game_name)
    ports: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
    out, err = io.StringIO(), io.StringIO()
    config = MatchConfig(
        name="m",
        game_path="g.game",
        game=game,
        hands=hands,
        seed=7,
        names=["alice", "bob", "carol"][: game.num_players],
        host="127.0.0.1",
        quiet=True,
        strict=strict,
    )
    task = asyncio.create_task(run_match(config, out, err, ports.set_result))
    return task, await ports, out


async def client(port: int, choose: Callable[[str], str], newline: bytes = b"\n") -> list[str]:
    """An ACPC player: the handshake, then the state it was sent, ':' and its action when
    it is to act (it tells from the state it tracks itself, here by asking ``choose``,
    which answers "" when it is not to act). Returns the lines it was sent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"VERSION:2.0.0" + newline)
    seen: list[str] = []
    while line := (await reader.readline()).decode():
        seen.append(line.rstrip("\r\n"))
        if line.startswith(("#", ";")):
            continue
        action = choose(seen[-1])
        if action:
            writer.write(f"{seen[-1]}:{action}".encode() + newline)
            await writer.drain()
    writer.close()
    return seen


def replay(game: acpc.GameDef, line: str) -> HandState:
    """The hand of a MATCHSTATE line, its betting replayed (cards made up)."""
    hand_id, betting = line.split(":")[2:4]
    hand = HandState(game, int(hand_id), ((0, 0),) * game.num_players, (0,) * 5)
    for move in re.findall(r"[fcr]\d*", betting):
        hand.apply(parse_action(move, game))
    return hand


def to_act(game: acpc.GameDef) -> Callable[[str], bool]:
    """Whether the viewer of a MATCHSTATE line is to act."""

    def check(line: str) -> bool:
        hand = replay(game, line)
        return not hand.finished and hand.current_player() == int(line.split(":")[1])

    return check


async def test_a_match_between_a_caller_and_a_random_player_logs_every_hand_and_the_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = load("holdem.nolimit.2p.reverse_blinds.game")
    mine = to_act(game)
    rng = random.Random(1)
    task, ports, out = await start_match()
    caller = client(ports[0], lambda line: "c" if mine(line) else "", b"\r\n")
    random_player = client(
        ports[1],
        lambda line: rng.choice(["f", "c", "r", f"r{rng.randint(1, 30000)}"]) if mine(line) else "",
    )
    seen0, seen1 = await asyncio.gather(caller, random_player)
    totals = await task
    lines = (tmp_path / "m.log").read_text().splitlines()
    assert lines[0] == "# name/game/hands/seed m g.game 20 7"
    assert [int(line.split(":")[1]) for line in lines if line.startswith("STATE:")] == list(
        range(20)
    )
    assert lines[-1] == f"SCORE:{format_value(totals[0])}|{format_value(totals[1])}:alice|bob"
    assert out.getvalue().splitlines() == [f"{ports[0]} {ports[1]}", lines[-1]]
    assert totals[0] == -totals[1]
    # Positions rotate: seat 0 is position 0 in even hands, 1 in odd ones.
    assert all(line.startswith(f"MATCHSTATE:{int(line.split(':')[2]) % 2}:") for line in seen0)
    # The other's cards only at a showdown, and every showdown shows them.
    showdowns = 0
    for line in seen0:
        viewer, cards = int(line.split(":")[1]), line.split(":")[4]
        other = cards.split("/")[0].split("|")[1 - viewer]
        showdown = replay(game, line).finished and "f" not in line.split(":")[3]
        assert bool(other) == showdown, line
        showdowns += showdown
    assert showdowns > 0
    assert len(seen1) == len(seen0)


async def test_an_invalid_action_is_a_call_and_a_raise_out_of_range_is_clamped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = load("holdem.nolimit.2p.reverse_blinds.game")
    mine = to_act(game)
    answers = iter(["x", "r99999"])
    task, ports, _ = await start_match(1)
    first = client(ports[0], lambda line: next(answers, "c") if mine(line) else "")
    second = client(ports[1], lambda line: next(answers, "c") if mine(line) else "")
    await asyncio.gather(first, second)
    await task
    state = next(
        line for line in (tmp_path / "m.log").read_text().splitlines() if line.startswith("STATE")
    )
    # Position 1 (seat 1) acts first preflop: "x" becomes a call, "r99999" a raise to 20000.
    assert state.split(":")[2].startswith("cr20000c")


async def test_strict_disconnects_a_bad_action_saying_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = load("holdem.nolimit.2p.reverse_blinds.game")
    mine = to_act(game)
    task, ports, out = await start_match(strict=True)
    results = await asyncio.gather(
        client(ports[0], lambda line: "c" if mine(line) else ""),
        client(ports[1], lambda line: "x" if mine(line) else ""),
    )
    with pytest.raises(MatchError, match="seat 2: cannot read action 'x'"):
        await task
    assert results[1][-1] == "# disconnected: cannot read action 'x'"
    assert "SCORE" not in out.getvalue()


async def test_a_bad_version_line_ends_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    task, ports, _ = await start_match()
    writers = []
    for port in ports:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"HELLO\n")
        writers.append(writer)
    with pytest.raises(MatchError, match="invalid version string 'HELLO' from seat 1"):
        await task
    for writer in writers:
        writer.close()


def pokerkit_game(game: acpc.GameDef) -> tuple[Poker, int]:
    """The pokerkit game and starting stack of a heads-up hold'em gamedef with reverse
    blinds (pokerkit reverses heads-up blinds itself: position 0 posts the big one)."""
    blinds = tuple(sorted(game.blind))
    if game.betting == "limit":
        big = game.raise_size[-1]
        return FixedLimitTexasHoldem((), True, 0, blinds, game.raise_size[0], big), 10**9
    return NoLimitTexasHoldem((), True, 0, blinds, blinds[-1]), game.stack[0]


def pokerkit_betting(history: HandHistory, starting_stack: int, limit: bool) -> str:
    """The ACPC betting string of a hand as pokerkit played it: a raise is to the hand
    total the raiser has in, read off its stack, so pokerkit's street-relative amounts
    are not trusted."""
    out = []
    for state, action in history.state_actions:
        if action is None:
            continue
        words = action.split()
        if words[:2] == ["d", "db"]:
            out.append("/")
        elif words[1] == "f":
            out.append("f")
        elif words[1] == "cc":
            out.append("c")
        elif words[1] == "cbr":
            player = int(words[0][1:]) - 1
            out.append("r" if limit else f"r{starting_stack - state.stacks[player]}")
    return "".join(out)


@pytest.mark.parametrize(
    "game_name", ["holdem.nolimit.2p.reverse_blinds.game", "holdem.limit.2p.reverse_blinds.game"]
)
async def test_pokerkit_reads_our_log_to_the_same_hands_and_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_name: str
) -> None:
    """pokerkit's ``HandHistory.from_acpc_protocol`` reads the log's STATE lines: each
    hand replays on pokerkit's rules to the same betting, players and values."""
    monkeypatch.chdir(tmp_path)
    game = load(game_name)
    mine = to_act(game)
    rngs = [random.Random(2), random.Random(3)]

    def player(rng: random.Random) -> Callable[[str], str]:
        def choose(line: str) -> str:
            if not mine(line):
                return ""
            if game.betting == "limit":  # raise often enough to reach the caps
                return rng.choice(["f", "c", "r", "r", "r"])
            return rng.choice(["f", "c", "c", "r", f"r{rng.randint(100, 20000)}"])

        return choose

    task, ports, _ = await start_match(40, game_name=game_name)
    await asyncio.gather(
        *(client(port, player(rng)) for port, rng in zip(ports, rngs, strict=True))
    )
    totals = await task
    log = (tmp_path / "m.log").read_text()
    lines = [line for line in log.splitlines() if line.startswith("STATE:")]
    poker, stack = pokerkit_game(game)
    histories = list(HandHistory.from_acpc_protocol(poker, stack, log, error_status=True))
    assert len(histories) == len(lines) == 40
    sums = dict.fromkeys(["alice", "bob"], 0)
    for line, history in zip(lines, histories, strict=True):
        _, hand_id, betting, _, results, names = line.split(":")
        assert history.hand == int(hand_id)
        assert history.players == names.split("|")
        assert pokerkit_betting(history, stack, game.betting == "limit") == betting, line
        *_, final = history
        values = [int(v) for v in results.split("|")]
        assert list(final.payoffs) == values, line
        assert list(final.stacks) == [stack + v for v in values], line
        for name, value in zip(history.players or [], values, strict=True):
            sums[name] += value
    assert [sums["alice"], sums["bob"]] == totals


def card_strategy(game: acpc.GameDef) -> Callable[[str], str]:
    """A deterministic player that only looks at its own cards and the betting: a min
    raise with a pair or an ace, a fold with a 2 or a 3 when raised, else a call."""
    mine = to_act(game)

    def choose(line: str) -> str:
        if not mine(line):
            return ""
        viewer, _, betting, cards = line.split(":")[1:5]
        hole = cards.split("/")[0].split("|")[int(viewer)]
        hand = replay(game, line)
        sizes = hand.raise_range()
        if (hole[0] == hole[2] or "A" in hole[::2]) and sizes is not None:
            return f"r{sizes[0]}"
        if set(hole[::2]) & {"2", "3"} and betting.endswith(tuple("0123456789")):
            return "f"
        return "c"

    return choose


def always_call(game: acpc.GameDef) -> Callable[[str], str]:
    mine = to_act(game)
    return lambda line: "c" if mine(line) else ""


@pytest.mark.parametrize("same", [True, False])
async def test_duplicate_replays_the_cards_with_the_seats_swapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, same: bool
) -> None:
    """The second pass deals hand HANDS + i the cards of hand i with the positions
    swapped. Two copies of one deterministic strategy then play each hand's two sides
    once each, so the duplicate totals are exactly 0 though each pass's are not."""
    monkeypatch.chdir(tmp_path)
    game = load("holdem.nolimit.2p.reverse_blinds.game")
    hands = 30
    ports_set: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
    out, err = io.StringIO(), io.StringIO()
    config = MatchConfig(
        name="m",
        game_path="g.game",
        game=game,
        hands=hands,
        seed=11,
        names=["alice", "bob"],
        host="127.0.0.1",
        quiet=True,
        duplicate=True,
    )
    task = asyncio.create_task(run_match(config, out, err, ports_set.set_result))
    ports = await ports_set
    second = card_strategy(game) if same else always_call(game)
    await asyncio.gather(client(ports[0], card_strategy(game)), client(ports[1], second))
    totals = await task
    log = (tmp_path / "m.log").read_text().splitlines()
    states = [line.split(":") for line in log if line.startswith("STATE:")]
    assert [int(s[1]) for s in states] == list(range(2 * hands))
    for first, again in zip(states[:hands], states[hands:], strict=True):
        assert again[3] == first[3]  # the same cards, by position
        assert again[5].split("|") == first[5].split("|")[::-1]  # the seats swapped
        if same:  # the same players' choices: the same hand
            assert again[2] == first[2] and again[4] == first[4]
    passes = [line for line in log if line.startswith("# duplicate rotation")]
    assert len(passes) == 2
    parts = [[float(v) for v in line.split(":")[1].split("|")] for line in passes]
    assert [a + b for a, b in zip(*parts, strict=True)] == totals
    assert log[-1] == f"SCORE:{format_value(totals[0])}|{format_value(totals[1])}:alice|bob"
    assert out.getvalue().splitlines() == [f"{ports[0]} {ports[1]}", *passes, log[-1]]
    assert parts[0][0] != 0 and parts[0][0] == -parts[0][1]
    if same:
        assert totals == [0, 0]
        assert parts[1] == parts[0][::-1]
    else:  # the better strategy's edge, with the luck of the cards taken out
        assert totals[0] == -totals[1] != 0


def high_cards(game: acpc.GameDef) -> Callable[[str], str]:
    """Raise the least with a king or an ace, fold a deuce to a bet, else call: any
    number of hole cards, deterministic."""
    mine = to_act(game)

    def choose(line: str) -> str:
        if not mine(line):
            return ""
        viewer, _, betting, cards = line.split(":")[1:5]
        ranks = cards.split("/")[0].split("|")[int(viewer)][::2]
        sizes = replay(game, line).raise_range()
        if set(ranks) & {"K", "A"} and sizes is not None:
            return f"r{sizes[0]}" if game.betting == "nolimit" else "r"
        return "f" if "2" in ranks and betting.endswith(("r", *"0123456789")) else "c"

    return choose


@pytest.mark.parametrize("gamedef", ["holdem.nolimit.3p.game", "kuhn.limit.3p.game"])
async def test_duplicate_rotates_three_players_through_every_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gamedef: str
) -> None:
    """With three players the match is played three times, the positions moved one seat
    on each pass, so each player holds each position's cards once. Three copies of one
    deterministic strategy then score exactly 0 each, though every pass does not."""
    monkeypatch.chdir(tmp_path)
    game = load(gamedef)
    hands = 12
    ports_set: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
    config = MatchConfig(
        name="m3",
        game_path="g.game",
        game=game,
        hands=hands,
        seed=5,
        names=["ann", "bob", "cy"],
        host="127.0.0.1",
        quiet=True,
        duplicate=True,
    )
    quiet = io.StringIO(), io.StringIO()
    task = asyncio.create_task(run_match(config, *quiet, ports_set.set_result))
    ports = await ports_set
    await asyncio.gather(*(client(port, high_cards(game)) for port in ports))
    totals = await task
    log = (tmp_path / "m3.log").read_text().splitlines()
    states = [line.split(":") for line in log if line.startswith("STATE:")]
    assert [int(s[1]) for s in states] == list(range(3 * hands))
    for i in range(hands):
        first, *again = (states[r * hands + i] for r in range(3))
        for rotation, other in enumerate(again, 1):
            assert other[2:5] == first[2:5]  # the same cards and choices, by position
            names = first[5].split("|")
            assert other[5].split("|") == names[rotation:] + names[:rotation]
    passes = [line for line in log if line.startswith("# duplicate rotation")]
    parts = [[float(v) for v in line.split(":")[1].split("|")] for line in passes]
    assert len(parts) == 3 and any(v != 0 for v in parts[0])
    assert [sum(p[seat] for p in parts) for seat in range(3)] == totals == [0, 0, 0]
