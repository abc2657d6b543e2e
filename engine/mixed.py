"""Mixed games: one stake level for every game, and a rotation of games between hands.

A mixed game (HORSE, 8-game, dealer's choice) is a list of games played in turn at one
table. Everything here is values: :func:`stakes_for` turns a stake level into the
blinds, antes, bring-in and bets of one game by that game's convention; a :class:`Mix`
names the games and when the game changes; a :class:`Rotation` says which game the next
hand plays, given the hands the server has played. The table changes game between
hands with :meth:`engine.Table.set_config`. docs/rules.md ("Mixed games") gives the
conventions and their sources.

>>> horse = mix("horse")
>>> [g.key for g in horse.games], horse.max_players
(['flhe', 'flo8', 'razz', 'stud', 'stud8'], 8)
>>> stakes = stakes_for("stud", (100, 200))
>>> stakes["ante"], stakes["bring_in"], stakes["small_bet"], stakes["big_bet"]
(20, 50, 100, 200)
>>> rotation = Rotation(horse)
>>> for _ in range(8):
...     rotation = rotation.after_hand(button=0, seats=[0, 1, 2], table_seats=8)
>>> rotation.game.key, rotation.hands
('flo8', 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Final, TypedDict

from engine.errors import InvalidConfigError
from engine.games import Betting, Game, game
from engine.rules import AnteKind, TableConfig

__all__ = [
    "MIXES",
    "GameChange",
    "Mix",
    "Rotation",
    "Stakes",
    "dealers_choice",
    "mix",
    "stakes_for",
    "stakes_for_blinds",
]

Level = tuple[int, int]
"""A stake level as a pair: the small and big bet of a fixed-limit game, or the small and
big blind of a no-limit or pot-limit game."""


class Stakes(TypedDict):
    """The stake fields of a :class:`TableConfig`: ``TableConfig(game=g, **stakes)``."""

    small_blind: int
    big_blind: int
    ante: int
    ante_kind: AnteKind
    bring_in: int
    small_bet: int
    big_bet: int


def _level(level: Level) -> Level:
    """``level`` checked: two ints, ``0 < low <= high``."""
    if not isinstance(level, tuple) or len(level) != 2:
        raise InvalidConfigError(f"a stake level is a pair (low, high), got {level!r}")
    low, high = level
    for value in level:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidConfigError(f"a stake level is two ints, got {level!r}")
    if not 0 < low <= high:
        raise InvalidConfigError(f"a stake level needs 0 < low <= high, got {low!r}/{high!r}")
    return low, high


def stakes_for(which: Game | str, level: Level) -> Stakes:
    """The stakes of ``which`` (a :class:`Game` or a preset key) at ``level``, by the
    game's own convention (docs/rules.md, "Mixed games"):

    - fixed-limit games with blinds (limit hold'em, Omaha hi-lo, 2-7 triple draw,
      badugi): ``level`` is the small and big bet; the blinds are half the small bet and
      the small bet;
    - stud games (stud, stud hi-lo, razz): ``level`` is the small and big bet; every
      player antes a fifth of the small bet and the bring-in is half of it (PokerStars),
      each at least one chip;
    - other games without blinds (Kuhn, Leduc): ``level`` is the small and big bet; every
      player antes half the small bet, at least one chip (Kuhn antes 1 and bets 1, Leduc
      antes 1 and bets 2 and 4);
    - no-limit and pot-limit games: ``level`` is the small and big blind.

    >>> s = stakes_for("flhe", (100, 200))
    >>> s["small_blind"], s["big_blind"], s["small_bet"], s["big_bet"]
    (50, 100, 100, 200)
    >>> stakes_for("nlhe", (50, 100))["big_blind"]
    100
    >>> TableConfig(game=game("razz"), **stakes_for("razz", (40, 80))).bring_in
    20
    """
    g = game(which) if isinstance(which, str) else which
    if not isinstance(g, Game):
        raise InvalidConfigError(f"a game is a Game or a preset key, got {which!r}")
    low, high = _level(level)
    small_blind = big_blind = ante = bring_in = 0
    small_bet, big_bet = low, high
    if g.betting is not Betting.FIXED_LIMIT:
        if not g.blinds:  # no preset is a big-bet game without blinds; a pair is blinds
            raise InvalidConfigError(f"{g.name} has no blinds to read {level!r} as")
        small_blind, big_blind, small_bet, big_bet = low, high, high, 2 * high
    elif g.blinds:
        small_blind, big_blind = low // 2, low
    elif g.bring_in:
        ante, bring_in = max(1, low // 5), max(1, low // 2)
    else:
        ante = max(1, low // 2)
    return Stakes(
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        ante_kind=AnteKind.PER_PLAYER if ante else AnteKind.NONE,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
    )


def stakes_for_blinds(which: Game | str, small_blind: int, big_blind: int, ante: int = 0) -> Stakes:
    """The stakes of ``which`` at a blind level stated as hold'em's (a tournament's blind
    structure): a no-limit or pot-limit game plays it as it is, the ante paid by every
    player; a fixed-limit game bets the big blind and twice it (limits 100/200 at blinds
    50/100, as WSOP HORSE levels pair them), so limit hold'em keeps the blinds, and stud
    antes and brings in by its own convention (:func:`stakes_for`; ``ante`` is not used).

    >>> s = stakes_for_blinds("stud8", 50, 100, ante=10)
    >>> s["ante"], s["bring_in"], s["small_bet"], s["big_bet"]
    (20, 50, 100, 200)
    >>> s = stakes_for_blinds("plo", 50, 100, ante=10)
    >>> s["small_blind"], s["big_blind"], s["ante"], s["ante_kind"].value
    (50, 100, 10, 'per_player')
    """
    g = game(which) if isinstance(which, str) else which
    if not isinstance(g, Game):
        raise InvalidConfigError(f"a game is a Game or a preset key, got {which!r}")
    if g.betting is Betting.FIXED_LIMIT:
        return stakes_for(g, (big_blind, 2 * big_blind))
    if not isinstance(ante, int) or isinstance(ante, bool) or ante < 0:
        raise InvalidConfigError(f"an ante is an int >= 0, got {ante!r}")
    stakes = stakes_for(g, (small_blind, big_blind))
    if ante:
        stakes["ante"], stakes["ante_kind"] = ante, AnteKind.PER_PLAYER
    return stakes


class GameChange(Enum):
    """When a mixed game moves on to its next game (or its button's next pick)."""

    HANDS = "hands"
    """After a fixed number of hands (:attr:`Mix.hands`)."""
    ORBIT = "orbit"
    """After an orbit: when the button would next reach or pass the seat where it was
    on the game's first hand."""


@dataclass(frozen=True, slots=True)
class Mix:
    """A frozen rotation of games. ``change`` says when the game changes: after
    ``hands`` hands, or after an orbit. In dealer's choice (``dealers_choice``) the
    button picks one of ``games`` for the next stretch instead of the games taking turns.

    One stake level serves every game (:meth:`config`): a mix's level is stated in
    limit terms, the small and big bet, and its no-limit and pot-limit games play with
    the blinds of its limit hold'em, half the small bet and the small bet, as
    PokerStars' 8-game does (docs/rules.md, "Mixed games").

    >>> eight = mix("8game")
    >>> eight.max_players, eight.hands
    (6, 6)
    >>> eight.config("nlhe", (100, 200)).big_blind
    100
    """

    key: str
    name: str
    games: tuple[Game, ...]
    change: GameChange = GameChange.HANDS
    hands: int = 8
    """Hands per game with :attr:`GameChange.HANDS` (ignored with an orbit)."""
    dealers_choice: bool = False
    max_players: int = field(init=False)
    """The most seats a table of this mix may have: the fewest any of its games seats."""

    def __post_init__(self) -> None:
        games = tuple(game(g) if isinstance(g, str) else g for g in self.games)
        if not games or not all(isinstance(g, Game) for g in games):
            raise InvalidConfigError(f"a mix needs one or more games, got {self.games!r}")
        if len({g.key for g in games}) != len(games):
            raise InvalidConfigError(f"a mix lists each game once, got {[g.key for g in games]}")
        if not isinstance(self.change, GameChange):
            raise InvalidConfigError(f"change must be a GameChange, got {self.change!r}")
        hands = self.hands
        if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:
            raise InvalidConfigError(f"a game lasts 1 or more hands, got {hands!r}")
        object.__setattr__(self, "games", games)
        object.__setattr__(self, "max_players", min(g.max_players for g in games))

    def every(self, hands: int | None) -> Mix:
        """This mix changing game every ``hands`` hands, or every orbit with ``None``.

        >>> mix("horse").every(None).change.value
        'orbit'
        """
        if hands is None:
            return replace(self, change=GameChange.ORBIT)
        return replace(self, change=GameChange.HANDS, hands=hands)

    def index(self, which: Game | str) -> int:
        """Where ``which`` (a game or its key) is in :attr:`games`."""
        key = which.key if isinstance(which, Game) else which
        for i, g in enumerate(self.games):
            if g.key == key:
                return i
        keys = ", ".join(g.key for g in self.games)
        raise InvalidConfigError(f"{self.name} has no game {key!r}; its games are {keys}")

    def level_for(self, which: Game | str, level: Level) -> Level:
        """The level of one of this mix's games, from the mix's ``level`` (small and big
        bet): a no-limit or pot-limit game plays the blinds of half the small bet and the
        small bet; a limit game plays the level itself."""
        g = self.games[self.index(which)]
        low, high = _level(level)
        if g.betting is Betting.FIXED_LIMIT:
            return low, high
        return max(1, low // 2), low

    def config(self, which: Game | str, level: Level, *, seats: int | None = None) -> TableConfig:
        """The table config of one of this mix's games at the mix's ``level``, for a table
        of ``seats`` (by default :attr:`max_players`). Every game of the mix at one level
        has the same seats and the same buy-ins (40 to 200 small bets), so that
        :meth:`engine.Table.set_config` takes any of them between hands."""
        g = self.games[self.index(which)]
        seats = self.max_players if seats is None else seats
        if not isinstance(seats, int) or not 2 <= seats <= self.max_players:
            raise InvalidConfigError(
                f"a table of {self.name} has 2 to {self.max_players} seats, got {seats!r}"
            )
        low = _level(level)[0]
        return TableConfig(
            game=g,
            seats=seats,
            min_buy_in=40 * low,
            max_buy_in=200 * low,
            **stakes_for(g, self.level_for(g, level)),
        )

    def configs(self, level: Level, *, seats: int | None = None) -> tuple[TableConfig, ...]:
        """Every game's config at ``level``, in the order of :attr:`games`."""
        return tuple(self.config(g, level, seats=seats) for g in self.games)


def dealers_choice(
    games: Iterable[Game | str],
    *,
    hands: int | None = 1,
    name: str = "Dealer's choice",
    key: str = "choice",
) -> Mix:
    """A dealer's choice mix: the button picks one of ``games`` (games or keys), played
    for ``hands`` hands (one by default) or, with ``None``, for an orbit.

    >>> choice = dealers_choice(["nlhe", "plo", "27td"])
    >>> choice.dealers_choice, choice.max_players, choice.hands
    (True, 6, 1)
    """
    picked = tuple(game(g) if isinstance(g, str) else g for g in games)
    return Mix(key, name, picked, dealers_choice=True).every(hands)


def _preset(key: str, name: str, games: str, hands: int) -> Mix:
    return Mix(key, name, tuple(game(k) for k in games.split()), hands=hands)


MIXES: Final[dict[str, Mix]] = {
    m.key: m
    for m in (
        # WSOP HORSE deals eight hands of each game (WSOP Europe 2007, Event 1).
        _preset("horse", "HORSE", "flhe flo8 razz stud stud8", 8),
        # PokerStars' 8-game, 6-max, changes game every six hands.
        _preset("8game", "8-Game", "27td flhe flo8 razz stud stud8 nlhe plo", 6),
    )
}
"""The preset mixes by key: ``horse`` and ``8game``."""

_ALIASES: Final = {"h.o.r.s.e.": "horse", "8-game": "8game", "eight": "8game"}


def mix(name: str) -> Mix:
    """A preset mix by key (``"horse"``, ``"8game"``), case-insensitively. Raises
    :class:`InvalidConfigError` naming the choices for anything else.

    >>> mix("HORSE").name, mix("8-game").key
    ('HORSE', '8game')
    """
    if not isinstance(name, str):
        raise InvalidConfigError(f"a mix is named by a string, got {name!r}")
    key = name.lower()
    key = _ALIASES.get(key, key)
    if key in MIXES:
        return MIXES[key]
    raise InvalidConfigError(f"unknown mix {name!r}; the mixes are {', '.join(MIXES)}")


def _orbit_done(button: int, seats: Iterable[int], first_button: int, table_seats: int) -> bool:
    """Whether the button, moving on from ``button`` to the next of ``seats`` clockwise
    (the moving-button rule), reaches or passes ``first_button``: the orbit is over."""

    def ahead(seat: int) -> int:  # clockwise steps from the button, 1..table_seats
        return (seat - button - 1) % table_seats + 1

    others = [s for s in seats if s != button]
    if not others:
        return True
    return min(ahead(s) for s in others) >= ahead(first_button)


@dataclass(frozen=True, slots=True)
class Rotation:
    """Where a table is in its :class:`Mix`: the current game, the hands played in it, and
    (for orbits) the button of its first hand. The server asks :attr:`game` before each
    hand and calls :meth:`after_hand` after it; each returns a new value.

    In dealer's choice, :attr:`needs_choice` says the next hand's button must pick
    (:meth:`choose`) before the hand starts; until then :attr:`game` is the last game
    played (or the first of the list).

    >>> r = Rotation(mix("horse").every(None))
    >>> for button in (0, 1, 2):
    ...     r = r.after_hand(button=button, seats=[0, 1, 2], table_seats=8)
    >>> r.game.key
    'flo8'
    """

    mix: Mix
    current: int = 0
    """The index of the game being played in :attr:`Mix.games`."""
    hands: int = 0
    """Hands played in the current game (or the current pick, in dealer's choice)."""
    first_button: int | None = None
    """The button on the first hand of the current game, once it is dealt."""
    chosen: bool = False
    """Dealer's choice: whether the current stretch's game has been picked."""

    @property
    def game(self) -> Game:
        """The game the next hand plays."""
        return self.mix.games[self.current]

    @property
    def needs_choice(self) -> bool:
        """Dealer's choice: whether the next hand's button must pick a game first."""
        return self.mix.dealers_choice and not self.chosen

    @property
    def hands_left(self) -> int | None:
        """Hands left in the current game with :attr:`GameChange.HANDS`, else ``None``."""
        if self.mix.change is GameChange.HANDS:
            return self.mix.hands - self.hands
        return None

    def choose(self, which: Game | str) -> Rotation:
        """Dealer's choice: the button picks ``which`` (a game of the mix, or its key) for
        the next stretch. Raises :class:`InvalidConfigError` if it is not time to pick or
        the game is not on the list."""
        if not self.mix.dealers_choice:
            raise InvalidConfigError(f"{self.mix.name} is not dealer's choice")
        if self.chosen:
            raise InvalidConfigError(f"the game is picked: {self.game.key!r}")
        return replace(self, current=self.mix.index(which), chosen=True)

    def after_hand(self, *, button: int, seats: Iterable[int], table_seats: int) -> Rotation:
        """The rotation after a hand of :attr:`game` with ``button`` on the button, where
        ``seats`` are the seats that can play the next hand and ``table_seats`` the
        table's seats (orbits go round them). Changes game when the hands or the orbit
        are done: to the next game of the list, or, in dealer's choice, to a new pick."""
        if self.needs_choice:
            raise InvalidConfigError("a hand of dealer's choice was played before its pick")
        first = button if self.first_button is None else self.first_button
        hands = self.hands + 1
        if self.mix.change is GameChange.HANDS:
            done = hands >= self.mix.hands
        else:
            done = _orbit_done(button, seats, first, table_seats)
        if not done:
            return replace(self, hands=hands, first_button=first)
        current = self.current
        if not self.mix.dealers_choice:
            current = (current + 1) % len(self.mix.games)
        return Rotation(self.mix, current)
