"""Our table's game as an ACPC gamedef, for the gateway (:mod:`server.acpc.gateway`).

ACPC protocol 2.0.0 expresses board games only: every hole card dealt face down before
the first round (at most 3), board cards after, fixed-limit or no-limit betting, one pot
to the best high hand. :func:`game_problem` says why any other game (stud, draw, Omaha
with 4 cards, pot limit, hi-lo, short deck's ranking) cannot be played through it;
:func:`table_gamedef` describes a table of a game that can, and :func:`gamedef_text` writes
the ``.game`` file a bot is started with.

Positions are the ACPC gamedefs': heads-up, position 0 is the big blind and 1 the button,
which posts the small blind (``holdem.nolimit.2p.reverse_blinds.game``); with three or
more, position 0 is the small blind, 1 the big blind, and so on round to the button. A
game without blinds (Kuhn, Leduc) opens with antes, which the ACPC writes as equal blinds.

>>> from engine import GAMES, TableConfig
>>> g = table_gamedef(TableConfig(small_blind=50, big_blind=100, seats=2), 2, 20000)
>>> print(gamedef_text(g), end="")
GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 20000 20000
blind = 100 50
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
>>> game_problem(GAMES["stud"])
"the game 'stud' (Seven-card stud) deals cards face up, which ACPC cannot express"
"""

from __future__ import annotations

from typing import Final

from engine import GAMES, Card, DeckSpec, Game, TableConfig
from engine.acpc import GameDef
from engine.games import Betting

__all__ = ["GatewayError", "acpc_card", "game_problem", "gamedef_text", "table_gamedef"]

MAX_HOLE_CARDS: Final = 3  # the dealer's MAX_HOLE_CARDS
MAX_BOARD_CARDS: Final = 7
MAX_ROUNDS: Final = 4
NO_CAP: Final = 255  # game.c's maxRaises when a gamedef gives none


class GatewayError(Exception):
    """The gateway cannot start or go on: the server, the table or tournament, its game,
    or the bot's connection. The message says which, for the command line."""


def game_problem(game: Game) -> str | None:
    """Why ``game`` cannot be played as an ACPC match, or None if it can."""
    what = f"the game {game.key!r} ({game.name})"
    high = GAMES["nlhe"].hands
    if game.up_cards:
        return f"{what} deals cards face up, which ACPC cannot express"
    if game.draws:
        return f"{what} has draws, which ACPC cannot express"
    if game.betting not in (Betting.NO_LIMIT, Betting.FIXED_LIMIT):
        return (
            f"{what} is {game.betting.name.lower().replace('_', '-')}; ACPC has limit and no-limit"
        )
    if game.split:
        return f"{what} splits the pot high and low; ACPC has one pot to the best high hand"
    if game.hands != high:
        return f"{what} ranks hands as {game.hands[0].name}; ACPC ranks standard high hands"
    holes = len(game.streets[0].hole)
    if holes > MAX_HOLE_CARDS or any(s.hole for s in game.streets[1:]):
        return f"{what} deals {holes} hole cards; ACPC deals at most 3, all before the first round"
    if len(game.streets) > MAX_ROUNDS or sum(s.board for s in game.streets) > MAX_BOARD_CARDS:
        return f"{what} has more rounds or board cards than ACPC allows (4 rounds, 7 cards)"
    return None


def _positions(config: TableConfig, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Blinds by position and the first player of each round (1-based), as the ACPC's
    gamedefs have them for ``n`` players at a table of ``config``."""
    rounds = len(config.game.streets)
    if not config.game.blinds:  # antes alone: equal blinds, position 0 opens every round
        return (config.ante,) * n, (1,) * rounds
    if n == 2:
        return (config.big_blind, config.small_blind), (2,) + (1,) * (rounds - 1)
    blinds = (config.small_blind, config.big_blind) + (0,) * (n - 2)
    return blinds, (3,) + (1,) * (rounds - 1)


def table_gamedef(config: TableConfig, players: int, stack: int) -> GameDef:
    """The gamedef of ``players`` playing ``config``'s game with ``stack`` chips each;
    :class:`GatewayError` if ACPC cannot express the game."""
    game = config.game
    problem = game_problem(game)
    if problem is not None:
        raise GatewayError(problem)
    limit = game.betting is Betting.FIXED_LIMIT
    small = config.small_bet or config.big_blind
    big = config.big_bet or 2 * small
    blind, first = _positions(config, players)
    return GameDef(
        betting="limit" if limit else "nolimit",
        num_players=players,
        num_rounds=len(game.streets),
        blind=blind,
        raise_size=tuple((big if s.big_bet else small) if limit else 0 for s in game.streets),
        first_player=first,
        max_raises=tuple(
            (s.max_raises if s.max_raises is not None else NO_CAP) if limit else NO_CAP
            for s in game.streets
        ),
        num_suits=len(game.deck.suits),
        num_ranks=len(game.deck.ranks),
        num_hole_cards=len(game.streets[0].hole),
        num_board_cards=tuple(s.board for s in game.streets),
        stack=(stack,) * players,
    )


def gamedef_text(g: GameDef) -> str:
    """The ``.game`` file of ``g`` (``GAMEDEF`` ... ``END GAMEDEF``)."""

    def line(key: str, values: tuple[int, ...]) -> str:
        return f"{key} = {' '.join(map(str, values))}"

    lines = ["GAMEDEF", g.betting, f"numPlayers = {g.num_players}", f"numRounds = {g.num_rounds}"]
    lines.append(line("stack", g.stack))
    lines.append(line("blind", g.blind))
    if g.betting == "limit":
        lines.append(line("raiseSize", g.raise_size))
    lines.append(line("firstPlayer", g.first_player))
    if g.betting == "limit":
        lines.append(line("maxRaises", g.max_raises))
    lines += [
        f"numSuits = {g.num_suits}",
        f"numRanks = {g.num_ranks}",
        f"numHoleCards = {g.num_hole_cards}",
        line("numBoardCards", g.num_board_cards),
        "END GAMEDEF",
    ]
    return "\n".join(lines) + "\n"


def acpc_card(card: Card, deck: DeckSpec) -> int:
    """The ACPC card (``rank * 4 + suit``) for our ``card`` of ``deck``: the ACPC deals the
    top ranks and suits of its deck, so our deck's i-th lowest rank is the ACPC's
    ``13 - len(ranks) + i`` (Kuhn's jack is the ACPC's queen), and so for suits."""
    assert card.rank is not None and card.suit is not None  # a card, not a die or joker
    ranks = sorted(deck.ranks)
    suits = sorted(deck.suits, key=lambda s: s.index)
    rank = 13 - len(ranks) + ranks.index(card.rank)
    return rank * 4 + 4 - len(suits) + suits.index(card.suit)
