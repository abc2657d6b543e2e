"""Table configuration: the game, its stakes, antes, buy-ins and named rule options.

>>> config = TableConfig(small_blind=50, big_blind=100, seats=6)
>>> config.min_buy_in, config.max_buy_in, config.game.key
(4000, 20000, 'nlhe')
>>> stud = TableConfig(game=game("stud"), ante=5, ante_kind=AnteKind.PER_PLAYER,
...                    bring_in=10, small_bet=40, big_bet=80)
>>> stud.min_buy_in, stud.unit
(1600, 40)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from engine.errors import InvalidConfigError
from engine.games import NLHE, Betting, Game, game, game_from_dict

__all__ = ["TABLE_OPTIONS", "AnteKind", "ButtonRule", "RuleProfile", "TableConfig", "game"]


class AnteKind(Enum):
    """How antes are paid: by nobody, by every player dealt in, or by the big blind alone."""

    NONE = "none"
    PER_PLAYER = "per_player"
    BIG_BLIND = "big_blind"


class RuleProfile(Enum):
    """Whose rules settle a short all-in raise (docs/rules.md, "Two rule profiles")."""

    TDA = "tda"
    """A raise smaller than a full one neither sets the next minimum nor reopens the
    betting to players who have acted (TDA Rules 47 and 48; fixed limit: half a bet or
    more counts as full)."""
    ACPC = "acpc"
    """As the ACPC dealer: every raise, however short, sets the next minimum raise-to to
    the larger of the one before and twice this one less the bet it raised, and the
    betting is never closed to a player who has acted; a fixed-limit raise is a full bet
    more, or all in (project_acpc_server/game.c, ``doAction``, ``raiseIsValid``)."""


class ButtonRule(Enum):
    """How the button moves between hands (docs/rules.md, "Button and blinds")."""

    MOVING = "moving"
    """The button moves to the next player dealt in; the blinds follow it."""
    DEAD = "dead"
    """The big blind moves one player each hand; the button may be dead (TDA Rule 32)."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Everything that fixes how a table plays: the game and its stakes. Chips are ints.

    ``ante`` is the amount each player pays with ``AnteKind.PER_PLAYER``, or the amount the
    big blind pays for the table with ``AnteKind.BIG_BLIND``. Games with blinds take
    ``small_blind`` and ``big_blind``; fixed-limit games bet ``small_bet`` and ``big_bet``
    (by default the big blind and twice the small bet); stud opens with a ``bring_in``
    and no blinds. Buy-ins default to 40 and 200 times the :attr:`unit`, the big blind
    or, without blinds, the small bet.
    """

    small_blind: int = 0
    big_blind: int = 0
    seats: int = 6
    ante: int = 0
    ante_kind: AnteKind = AnteKind.NONE
    min_buy_in: int = 0
    max_buy_in: int = 0
    button_rule: ButtonRule = ButtonRule.MOVING
    fold_when_check_is_free: bool = False
    """Allow folding when checking costs nothing (some sites do; TDA play does not need it)."""
    game: Game = NLHE
    """The game played (:mod:`engine.games`): no-limit hold'em by default."""
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    uncapped_heads_up: bool = False
    """Fixed limit: no cap on raises while only two players can bet (Robert's Rules, for
    cash games); by default the cap holds heads-up too (TDA Rule 48, tournaments)."""
    rule_profile: RuleProfile = RuleProfile.TDA
    """How a short all-in raise plays: by the TDA's rules, or as the ACPC dealer plays it
    (:class:`RuleProfile`)."""
    button_straddle: bool = False
    """The button may straddle too, when the player under the gun does not (a
    "Mississippi" straddle: the small blind then acts first preflop, the button last;
    docs/rules.md O2). A player opts in with :meth:`engine.table.Table.set_straddle`."""
    bomb_pot: int = 0
    """The bomb pot's ante (docs/rules.md O3): in a bomb pot everyone dealt in antes this
    much, nobody posts a blind, and the flop comes at once. 0: the table has no bomb
    pots. One is dealt every ``bomb_pot_every`` hands, or when
    :meth:`engine.table.Table.call_bomb_pot` asks for the next."""
    bomb_pot_every: int = 0
    """Deal a bomb pot every this many hands (hands 10, 20, ... for 10); 0: only when
    asked for."""
    bomb_pot_boards: int = 1
    """Boards in a bomb pot: 1, or 2 for a double-board bomb pot (O4)."""
    run_it_twice: bool = False
    """Offer to run it twice (docs/rules.md O5): when everyone still in a hand is all in
    before the river, each is asked; if all agree the rest of the board is dealt twice
    and each run wins half of each pot."""
    seven_deuce: int = 0
    """The 7-2 bounty (docs/rules.md O6): whoever wins the whole hand holding a 7 and a 2
    and shows them gets this much from every other player dealt in. 0: none."""

    def __post_init__(self) -> None:
        names = ("small_blind", "big_blind", "seats", "ante", "min_buy_in", "max_buy_in")
        for name in (*names, "bring_in", "small_bet", "big_bet"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidConfigError(f"{name} must be a non-negative int, got {value!r}")
        g = self.game
        if not isinstance(g, Game):
            raise InvalidConfigError(f"game must be a Game (engine.games), got {g!r}")
        if not 2 <= self.seats <= g.max_players:
            raise InvalidConfigError(
                f"a table of {g.name} has 2 to {g.max_players} seats, got {self.seats!r}"
            )
        if g.blinds:
            if self.big_blind <= 0 or not 0 <= self.small_blind <= self.big_blind:
                raise InvalidConfigError(
                    f"blinds must satisfy 0 <= small_blind <= big_blind and big_blind > 0, "
                    f"got {self.small_blind!r}/{self.big_blind!r}"
                )
        elif self.small_blind or self.big_blind:
            raise InvalidConfigError(
                f"{g.name} has no blinds; got {self.small_blind!r}/{self.big_blind!r}"
            )
        if self.ante_kind is AnteKind.BIG_BLIND and not g.blinds:
            raise InvalidConfigError(f"{g.name} has no big blind to pay a big-blind ante")
        if (self.ante > 0) != (self.ante_kind is not AnteKind.NONE):
            raise InvalidConfigError(
                f"ante {self.ante!r} does not fit ante_kind {self.ante_kind.value!r}"
            )
        if self.small_bet == 0:
            object.__setattr__(self, "small_bet", self.big_blind)
        if self.big_bet == 0:
            object.__setattr__(self, "big_bet", 2 * self.small_bet)
        if self.small_bet <= 0 or self.small_bet > self.big_bet:
            what = "small bet" if g.betting is Betting.FIXED_LIMIT else "minimum bet (small_bet)"
            raise InvalidConfigError(
                f"{g.name} needs a {what}: 0 < small_bet <= big_bet, got "
                f"{self.small_bet!r}/{self.big_bet!r}"
            )
        if self.button_straddle and not g.straddles:
            raise InvalidConfigError(
                f"{g.name} has no straddle: straddles are played in no-limit and pot-limit "
                f"games with blinds"
            )
        self._check_bomb_pot()
        if self.bring_in and not g.bring_in:
            raise InvalidConfigError(f"{g.name} has no bring-in; got {self.bring_in!r}")
        if self.bring_in > self.small_bet:
            raise InvalidConfigError(
                f"the bring-in {self.bring_in!r} is more than the small bet {self.small_bet!r}"
            )
        if self.min_buy_in == 0:
            object.__setattr__(self, "min_buy_in", 40 * self.unit)
        if self.max_buy_in == 0:
            object.__setattr__(self, "max_buy_in", 200 * self.unit)
        if not 0 < self.min_buy_in <= self.max_buy_in:
            raise InvalidConfigError(
                f"buy-ins must satisfy 0 < min_buy_in <= max_buy_in, "
                f"got {self.min_buy_in!r}..{self.max_buy_in!r}"
            )

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON, every field by its name: the game as
        :meth:`Game.to_dict`, enums as their values. :meth:`from_dict` reads it back.

        >>> TableConfig(small_blind=1, big_blind=2).to_dict()["ante_kind"]
        'none'
        """
        return {f.name: _wire(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableConfig:
        """A configuration from its JSON form (:meth:`to_dict`'s). A field left out takes
        its default; a key that is no field is left alone (a stored table's name, say);
        the game is a definition, a preset's key or code, or a :class:`Game`. Raises
        :class:`InvalidConfigError` naming what does not fit.

        >>> TableConfig.from_dict({"game": "flhe", "small_blind": 1, "big_blind": 2}).big_bet
        4
        """
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in data:
                values[f.name] = _field_value(f.name, f.default, data[f.name])
        return cls(**values)

    def _check_bomb_pot(self) -> None:
        for name in ("bomb_pot", "bomb_pot_every", "seven_deuce"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidConfigError(f"{name} must be a non-negative int, got {value!r}")
        if self.bomb_pot_boards not in (1, 2):
            raise InvalidConfigError(
                f"a bomb pot has 1 or 2 boards, got bomb_pot_boards={self.bomb_pot_boards!r}"
            )
        self.game.check_options(
            bomb_pot=bool(self.bomb_pot),
            run_it_twice=self.run_it_twice,
            seven_deuce=bool(self.seven_deuce),
        )
        if self.bomb_pot_every and not self.bomb_pot:
            raise InvalidConfigError("bomb_pot_every needs a bomb_pot amount")

    @property
    def unit(self) -> int:
        """The stake buy-ins are counted in: the big blind, or the small bet without one."""
        return self.big_blind or self.small_bet

    @property
    def variant(self) -> str:
        """The game's PHH variant code (``"NT"`` for no-limit hold'em)."""
        return self.game.code


TABLE_OPTIONS = (
    "button_straddle", "bomb_pot", "bomb_pot_every", "bomb_pot_boards", "run_it_twice",
    "seven_deuce",
)  # fmt: skip
"""The fields of :class:`TableConfig` that are a table's options (docs/rules.md O1-O8),
which a table's summary lists under ``options``."""


def _wire(value: Any) -> Any:
    if isinstance(value, Game):
        return value.to_dict()
    return value.value if isinstance(value, Enum) else value


def _field_value(name: str, default: Any, raw: Any) -> Any:
    """``raw`` as the value of field ``name``, whose default says its kind."""
    if isinstance(default, Game):
        if isinstance(raw, Game):
            return raw
        return game(raw) if isinstance(raw, str) else game_from_dict(raw)
    if isinstance(default, Enum):
        kind = type(default)
        try:
            return kind(raw)
        except ValueError:
            allowed = ", ".join(repr(k.value) for k in kind)
            raise InvalidConfigError(f"{name} must be one of {allowed}, got {raw!r}") from None
    if isinstance(default, bool) and not isinstance(raw, bool):
        raise InvalidConfigError(f"{name} must be true or false, got {raw!r}")
    return raw
