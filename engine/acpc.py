"""ACPC game definitions: the ``.game`` files the ACPC dealer plays, read as our games.

An ACPC gamedef (``GAMEDEF`` ... ``END GAMEDEF``) fixes the betting (``limit`` or
``nolimit``), players, rounds, stacks, blinds, raise sizes and caps, who acts first each
round, the deck (``numSuits`` by ``numRanks``) and the cards dealt. :func:`parse` reads
one; :meth:`GameDef.table_config` turns it into our :class:`engine.rules.TableConfig` (a
:class:`engine.games.Game` and its stakes) where our rules agree with the dealer's, and
says why not otherwise. Kuhn poker and Leduc hold'em are exactly the files in
``../shared/data/acpc`` (tests/engine/test_acpc.py plays them against OpenSpiel's
``universal_poker``, which is built on the ACPC rules code).

Cards: the ACPC deck is ranks ``2, 3, ...`` (``numRanks`` of them) in suits ``c, d, h,
s`` (``numSuits``); ours deals the highest ranks below the ace when there are fewer
than 13 (Kuhn's J, Q, K, as pokerkit deals them), so ACPC rank ``i`` is our deck's
``i``-th rank and suit ``j`` our ``j``-th suit: :meth:`GameDef.card`.

>>> gamedef = parse(KUHN_TEXT)
>>> gamedef.betting, gamedef.num_players, gamedef.raise_size, gamedef.max_raises
('limit', 2, (1,), (1,))
>>> config = gamedef.table_config()
>>> config.game.key, config.ante, config.small_bet, config.min_buy_in
('kuhn', 1, 1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from engine.cards import Card, Rank, Suit
from engine.deck import DeckSpec
from engine.errors import InvalidConfigError
from engine.games import GAMES, Betting, Game, Opener, StreetSpec
from engine.rules import AnteKind, RuleProfile, TableConfig

__all__ = ["GameDef", "parse"]

KUHN_TEXT: Final = """GAMEDEF
limit
numPlayers = 2
numRounds = 1
blind = 1 1
raiseSize = 1
firstPlayer = 1
maxRaises = 1
numSuits = 1
numRanks = 3
numHoleCards = 1
numBoardCards = 0
stack = 2 2
END GAMEDEF
"""
_PER_ROUND = ("raisesize", "firstplayer", "maxraises", "numboardcards")
_PER_PLAYER = ("blind", "stack")
_SUITS: Final = {
    1: (Suit.SPADES,),
    2: (Suit.HEARTS, Suit.SPADES),
    3: (Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES),
    4: (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES),
}
_BIG: Final = 2**31 - 1  # the dealer's stack in limit games, which have none


@dataclass(frozen=True)
class GameDef:
    """One ACPC game definition, as its file says."""

    betting: str
    num_players: int
    num_rounds: int
    blind: tuple[int, ...]
    raise_size: tuple[int, ...]
    first_player: tuple[int, ...]
    max_raises: tuple[int, ...]
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    num_board_cards: tuple[int, ...]
    stack: tuple[int, ...]

    @property
    def deck(self) -> DeckSpec:
        """Our deck of this game: the top ``num_ranks`` ranks below the ace (all 13 with 13)
        in ``num_suits`` suits."""
        ranks = tuple(Rank) if self.num_ranks == 13 else tuple(Rank)[-1 - self.num_ranks : -1]
        for spec in (g.deck for g in GAMES.values()):
            if spec.ranks == ranks and spec.suits == _SUITS[self.num_suits] and not spec.jokers:
                return spec
        return DeckSpec(f"acpc {self.num_ranks}x{self.num_suits}", ranks, _SUITS[self.num_suits])

    def card(self, acpc_index: int) -> Card:
        """Our card for the ACPC card ``rank * numSuits + suit``."""
        rank, suit = divmod(acpc_index, self.num_suits)
        return Card.from_code((self.deck.ranks[rank] - 2) * 4 + _SUITS[self.num_suits][suit].index)

    def table_config(self) -> TableConfig:
        """Our table of this game. Equal blinds for everyone are antes (they open the pot
        alike and act the same); the dealer's limit games have no stacks, so each player
        gets what the caps let them bet in a hand. Raises :class:`InvalidConfigError`
        where our rules and the dealer's part (docs/rules.md, "ACPC games")."""
        n = self.num_players
        equal = len(set(self.blind)) == 1
        fixed = self.betting == "limit"
        sizes = sorted(set(self.raise_size))
        if fixed and len(sizes) > 2:
            raise InvalidConfigError(
                f"raise sizes {self.raise_size!r}: ours are a small and a big bet"
            )
        streets = []
        for r in range(self.num_rounds):
            first = self.first_player[r] - 1
            expected = self._our_first(r, equal)
            if first != expected:
                raise InvalidConfigError(
                    f"round {r + 1} opens with position {first + 1}; "
                    f"ours would open with {expected + 1}"
                )
            streets.append(
                StreetSpec(
                    f"round {r + 1}",
                    (False,) * (self.num_hole_cards if r == 0 else 0),
                    self.num_board_cards[r],
                    opener=Opener.BLINDS if r == 0 else Opener.POSITION,
                    big_bet=fixed and self.raise_size[r] == sizes[-1] and len(sizes) == 2,
                    max_raises=self.max_raises[r] if fixed else None,
                )
            )
        game = self._preset(streets, equal)
        stacks = self.stack if not fixed else (self._most_a_player_bets(),) * n
        if len(set(stacks)) != 1:
            raise InvalidConfigError(f"stacks {self.stack!r}: a table's players buy in alike here")
        small = sizes[0] if fixed else max(self.blind)
        ante = self.blind[0] if equal else 0
        blinds = sorted(b for b in self.blind if b)
        return TableConfig(
            small_blind=0 if equal else blinds[0],
            big_blind=0 if equal else blinds[-1],
            seats=n,
            ante=ante,
            ante_kind=AnteKind.PER_PLAYER if ante else AnteKind.NONE,
            min_buy_in=stacks[0],
            max_buy_in=stacks[0],
            game=game,
            small_bet=small,
            big_bet=sizes[-1] if fixed else 2 * small,
            rule_profile=RuleProfile.ACPC,
        )

    def _our_first(self, r: int, equal: bool) -> int:
        """Who our rules let act first in round ``r`` (positions from left of the dealer)."""
        if r > 0 or equal:
            return 0
        big = max(range(self.num_players), key=lambda p: (self.blind[p], p))
        return (big + 1) % self.num_players

    def _preset(self, streets: list[StreetSpec], equal: bool) -> Game:
        """A preset of ours with exactly these rules, or a new game."""
        betting = Betting.FIXED_LIMIT if self.betting == "limit" else Betting.NO_LIMIT
        for g in GAMES.values():
            same = (
                g.deck == self.deck
                and g.betting is betting
                and g.blinds != equal
                and len(g.streets) == len(streets)
                and g.max_players >= self.num_players
                and all(
                    (a.hole, a.board, a.big_bet, a.max_raises)
                    == (b.hole, b.board, b.big_bet, b.max_raises)
                    for a, b in zip(g.streets, streets, strict=True)
                )
            )
            if same and not g.up_cards and not g.draws and not g.split:
                return g
        base = GAMES["nlhe"]
        return replace(
            base,
            key=f"acpc-{self.betting}-{self.num_players}p",
            name=f"ACPC {self.betting} game, {self.num_players} players",
            code="ACPC",
            deck=self.deck,
            streets=tuple(streets),
            betting=betting,
            blinds=not equal,
            max_players=self.num_players,
            phh=False,
        )

    def _most_a_player_bets(self) -> int:
        """In a limit game: the blind and every bet the caps allow, round by round."""
        return max(self.blind) + sum(
            m * s for m, s in zip(self.max_raises, self.raise_size, strict=True)
        )


def parse(text: str) -> GameDef:
    """Read an ACPC gamedef. Raises :class:`InvalidConfigError` naming what is wrong.

    >>> parse("GAMEDEF\\nlimit\\nnumPlayers = 2\\nEND GAMEDEF").num_rounds
    Traceback (most recent call last):
    ...
    engine.errors.InvalidConfigError: gamedef: numRounds is missing
    """
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith(("#", ";"))]
    if not lines or lines[0].upper() != "GAMEDEF" or lines[-1].upper() != "END GAMEDEF":
        raise InvalidConfigError("gamedef: expected GAMEDEF ... END GAMEDEF")
    betting = ""
    values: dict[str, tuple[int, ...]] = {}
    for line in lines[1:-1]:
        word = line.lower()
        if word in ("limit", "nolimit"):
            betting = word
            continue
        key, sep, rest = line.partition("=")
        if not sep:
            raise InvalidConfigError(f"gamedef: cannot read {line!r}")
        try:
            values[key.strip().lower()] = tuple(int(v) for v in rest.split())
        except ValueError:
            raise InvalidConfigError(
                f"gamedef: {key.strip()} takes integers, got {rest.strip()!r}"
            ) from None
    if not betting:
        raise InvalidConfigError("gamedef: says neither limit nor nolimit")

    def one(key: str, name: str) -> int:
        if key not in values:
            raise InvalidConfigError(f"gamedef: {name} is missing")
        return values[key][0]

    n = one("numplayers", "numPlayers")
    rounds = one("numrounds", "numRounds")
    if not 2 <= n <= 10 or not 1 <= rounds <= 4:
        raise InvalidConfigError(
            f"gamedef: {n} players and {rounds} rounds; ACPC allows 2-10 and 1-4"
        )
    per: dict[str, tuple[int, ...]] = {}
    for key in _PER_ROUND:
        got = values.get(key, (0,) * rounds)
        if len(got) < rounds:
            raise InvalidConfigError(f"gamedef: {key} has {len(got)} values for {rounds} rounds")
        per[key] = got[:rounds]
    for key in _PER_PLAYER:
        default = (_BIG,) * n if key == "stack" else (0,) * n
        got = values.get(key, default)
        if len(got) < n:
            raise InvalidConfigError(f"gamedef: {key} has {len(got)} values for {n} players")
        per[key] = got[:n]
    suits, ranks = one("numsuits", "numSuits"), one("numranks", "numRanks")
    if suits not in _SUITS or not 1 <= ranks <= 13:
        raise InvalidConfigError(f"gamedef: {suits} suits of {ranks} ranks is not a deck")
    return GameDef(
        betting=betting,
        num_players=n,
        num_rounds=rounds,
        blind=per["blind"],
        raise_size=per["raisesize"],
        first_player=per["firstplayer"],
        max_raises=per["maxraises"] if "maxraises" in values else (255,) * rounds,
        num_suits=suits,
        num_ranks=ranks,
        num_hole_cards=one("numholecards", "numHoleCards"),
        num_board_cards=per["numboardcards"],
        stack=per["stack"],
    )
