"""ACPC game definitions: Kuhn, Leduc and hold'em, exactly as the files say, against
OpenSpiel's universal_poker (built on the ACPC dealer's rules code) as the oracle."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pyspiel
import pytest

from engine import acpc
from engine.actions import BetOrRaiseTo, CheckOrCall, Fold
from engine.deck import Deck
from engine.errors import InvalidConfigError
from engine.games import GAMES
from engine.rules import TableConfig
from engine.table import Table

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "acpc"
FILES = sorted(p.name for p in DATA.glob("*.game"))
STATE = re.compile(r"STATE:\d+:([^:]*):([^\n]*)")


def params(gamedef: acpc.GameDef) -> dict[str, object]:
    """universal_poker's parameters for a gamedef (its own keys)."""
    out: dict[str, object] = {
        "betting": gamedef.betting,
        "numPlayers": gamedef.num_players,
        "numRounds": gamedef.num_rounds,
        "blind": " ".join(map(str, gamedef.blind)),
        "firstPlayer": " ".join(map(str, gamedef.first_player)),
        "numSuits": gamedef.num_suits,
        "numRanks": gamedef.num_ranks,
        "numHoleCards": gamedef.num_hole_cards,
        "numBoardCards": " ".join(map(str, gamedef.num_board_cards)),
    }
    if gamedef.betting == "limit":
        out["raiseSize"] = " ".join(map(str, gamedef.raise_size))
        out["maxRaises"] = " ".join(map(str, gamedef.max_raises))
    else:
        out["stack"] = " ".join(map(str, gamedef.stack))
    return out


def test_the_kuhn_and_leduc_files_are_our_presets() -> None:
    for name, key in (
        ("kuhn.limit.2p.game", "kuhn"),
        ("kuhn.limit.3p.game", "kuhn3"),
        ("leduc.limit.2p.game", "leduc"),
        ("holdem.limit.2p.reverse_blinds.game", "flhe"),
        ("holdem.nolimit.3p.game", "nlhe"),
    ):
        config = acpc.parse((DATA / name).read_text()).table_config()
        assert config.game is GAMES[key], name


def test_kuhn_antes_one_and_bets_one_with_stacks_of_two() -> None:
    config = acpc.parse((DATA / "kuhn.limit.2p.game").read_text()).table_config()
    assert (config.ante, config.small_bet, config.big_bet, config.min_buy_in) == (1, 1, 1, 2)


def test_leduc_bets_two_then_four_and_a_player_can_put_in_13() -> None:
    config = acpc.parse((DATA / "leduc.limit.2p.game").read_text()).table_config()
    assert (config.ante, config.small_bet, config.big_bet, config.min_buy_in) == (1, 2, 4, 13)


@pytest.mark.parametrize("name", FILES)
def test_random_hands_play_as_universal_poker_plays_them(name: str) -> None:
    gamedef = acpc.parse((DATA / name).read_text())
    config = gamedef.table_config()
    spiel = pyspiel.load_game("universal_poker", params(gamedef))
    rng = random.Random(name)
    for _ in range(300):
        state = spiel.new_initial_state()
        menus: list[set[int]] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            legal = set(state.legal_actions())
            menus.append(legal)
            # All-in (3, in no-limit) included: a short raise plays by the ACPC rules here.
            state.apply_action(rng.choice(sorted(legal)))
        betting, cards = STATE.search(str(state)).groups()  # type: ignore[union-attr]
        ours = play_ours(gamedef, config, betting, cards, menus)
        theirs = state.returns()
        # The ACPC dealer splits a pot in equal fractions (2.5 each); ours are whole chips,
        # the odd ones to the first winners left of the button (docs/rules.md S2).
        assert sum(ours) == 0, (name, betting, cards)
        assert all(abs(a - b) < 1 for a, b in zip(ours, theirs, strict=True)), (
            name,
            betting,
            cards,
            ours,
            theirs,
        )


def play_ours(
    gamedef: acpc.GameDef, config: TableConfig, betting: str, cards: str, menus: list[set[int]]
) -> list[int]:
    """Our table plays the betting string with the same cards; each of our menus must
    offer what universal_poker offered. Returns each position's winnings."""
    table = Table(config)
    n = gamedef.num_players
    for seat in range(n):
        table.sit_down(seat, config.min_buy_in)
    holes_text, *boards = cards.split("/")
    holes = [
        [gamedef.card(acpc_index(t[i : i + 2], gamedef)) for i in range(0, len(t), 2)]
        for t in holes_text.split("|")
    ]
    board = [
        gamedef.card(acpc_index(t[i : i + 2], gamedef)) for t in boards for i in range(0, len(t), 2)
    ]
    # Our dealing order: a round of hole cards at a time by position, then the board.
    order = [holes[p][k] for k in range(gamedef.num_hole_cards) for p in range(n)] + board
    table.start_hand(Deck.from_cards(order, config.game.deck))
    hand = table.hand
    assert hand is not None
    start = list(hand.setup.stacks)
    moves = re.findall(r"[fcr]\d*", betting.replace("/", ""))
    for i, move in enumerate(moves):
        actor = table.to_act
        assert actor is not None, f"we ended the hand before {move!r}"
        menu = table.legal_actions(actor)
        assert menu is not None
        # universal_poker offers fold (0), call (1), a raise (2: in no-limit, pot-sized,
        # when that is not all in) and all in (3, no-limit): each must be ours too, and in
        # no-limit all in is there exactly when we may raise.
        raises = {2, 3} if not menu.raise_is_all_in_only else {3}
        if gamedef.betting == "limit":
            raises = {2}
        offered = {1} | ({0} if menu.can_fold else set()) | (raises if menu.can_raise else set())
        assert offered >= menus[i], (i, move, offered, menus[i])
        if gamedef.betting == "nolimit":
            assert (3 in menus[i]) == menu.can_raise, (i, move, menu, menus[i])
        if move == "f":
            table.apply(Fold(actor))
        elif move == "c":
            table.apply(CheckOrCall(actor))
        else:  # ACPC: r<N> raises to N over the whole hand; ours, to a street total
            p = hand.position[actor]
            total = (
                int(move[1:]) - (hand.totals[p] - hand.bets[p]) if move[1:] else menu.min_raise_to
            )
            table.apply(BetOrRaiseTo(actor, total))
    assert hand.is_over
    return [hand.stacks[p] - start[p] for p in range(n)]


def acpc_index(text: str, gamedef: acpc.GameDef) -> int:
    rank = "23456789TJQKA".index(text[0])
    suit = "cdhs".index(text[1])
    return rank * gamedef.num_suits + suit


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("limit\nnumPlayers = 2", "expected GAMEDEF ... END GAMEDEF"),
        ("GAMEDEF\nnumPlayers = 2\nEND GAMEDEF", "says neither limit nor nolimit"),
        ("GAMEDEF\nlimit\nnumPlayers = two\nEND GAMEDEF", "numPlayers takes integers"),
        ("GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 5\nEND GAMEDEF", "2 players and 5 rounds"),
    ],
)
def test_bad_gamedefs_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidConfigError, match=message):
        acpc.parse(text)


def test_a_round_opening_where_ours_would_not_is_refused() -> None:
    text = (
        (DATA / "leduc.limit.2p.game").read_text().replace("firstPlayer = 1 1", "firstPlayer = 2 1")
    )
    with pytest.raises(InvalidConfigError, match="round 1 opens with position 2"):
        acpc.parse(text).table_config()
