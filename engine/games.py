"""Games as data: the deck, the streets, the forced bets, the betting and the showdown.

One :class:`Game` value says everything that makes one poker game differ from another,
and one state machine (:class:`engine.hand.Hand`) plays any of them. No-limit hold'em is
:data:`NLHE`; the other presets are in :data:`GAMES`, by key. docs/engine.md says why
games are data rather than subclasses; docs/rules.md gives each game's rules and sources.

>>> from engine.games import GAMES, NLHE
>>> NLHE.code, NLHE.betting.value, [s.name for s in NLHE.streets]
('NT', 'no-limit', ['preflop', 'flop', 'turn', 'river'])
>>> game("plo8").name
'Pot-limit Omaha hi-lo 8 or better'
>>> [r.name for r in game("stud8").hands]
['high', '8-or-better low']

A variant is a new value, e.g. hold'em dealt from a deck with the bug:

>>> GAMES["5cd"].with_jokers(1, "bug").name
'Five-card draw with the joker (the bug)'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from typing import Any, Final, Literal

from engine import ranking
from engine.cards import Rank
from engine.deck import (
    DICE,
    KUHN,
    KUHN4,
    LEDUC,
    SHORT,
    STANDARD,
    WITH_JOKER,
    WITH_TWO_JOKERS,
    DeckSpec,
)
from engine.errors import InvalidConfigError
from engine.events import Street
from engine.ranking import Ranking

__all__ = [
    "GAMES",
    "NLHE",
    "Betting",
    "Game",
    "Opener",
    "StreetSpec",
    "game",
    "game_from_dict",
]


class Betting(Enum):
    """The betting structure: how much a bet or raise may be."""

    NO_LIMIT = "no-limit"
    """Any amount from the minimum bet or raise up to the whole stack."""
    POT_LIMIT = "pot-limit"
    """From the minimum up to the size of the pot after calling (docs/rules.md L2)."""
    FIXED_LIMIT = "fixed-limit"
    """Exactly one bet of the street's size, a small bet or a big bet (docs/rules.md L1)."""


class Opener(Enum):
    """Who acts first in a betting round."""

    BLINDS = "blinds"
    """The player after the big blind (the largest blind) on the first round; like
    ``POSITION`` later, and when there are no blinds."""
    POSITION = "position"
    """The first player left of the button still able to act."""
    LOW_CARD = "low card"
    """Stud's bring-in: the lowest up card, aces high, ties broken by suit (clubs lowest)."""
    HIGH_CARD = "high card"
    """Razz's bring-in: the highest up card, aces low, ties broken by suit (spades highest)."""
    HIGH_HAND = "high hand"
    """Stud: the best high hand showing; on a tie, the first of them left of the button."""
    LOW_HAND = "low hand"
    """Razz: the best ace-to-five low showing; on a tie, the first left of the button."""


@dataclass(frozen=True, slots=True)
class StreetSpec:
    """One street: what it deals, then who bets first and how much.

    ``hole`` has one flag per card dealt to each player still in the hand, ``True`` for
    face up; ``board`` counts community cards; with ``draw`` every player still in the
    hand first discards and draws (or re-rolls dice). In fixed-limit games ``big_bet``
    picks the big bet over the small one, and ``max_raises`` caps the bets and raises a
    betting round allows, forced bets and the bring-in not counted (``None``: no cap).
    """

    name: str
    hole: tuple[bool, ...] = ()
    board: int = 0
    draw: bool = False
    opener: Opener = Opener.POSITION
    big_bet: bool = False
    max_raises: int | None = None


class _NamedStreet(IntEnum):
    """A game's own streets: ``str()`` gives the street's name, ``"third street"``."""

    def __str__(self) -> str:
        return self.name.lower().replace("_", " ")


@dataclass(frozen=True)
class Game:
    """A poker game as data. ``hands`` ranks the hands at showdown: one :class:`Ranking`
    takes the pot; two split it, high then low, and the low half goes to the high hand
    when no low qualifies (docs/rules.md S4).

    ``blinds`` says the game posts a small and a big blind (and may straddle); without,
    antes alone start the pot. ``bring_in`` says the first betting round opens with a
    forced bring-in (stud). ``code`` is the game's PHH variant code where PHH has one
    (``phh`` True), otherwise ours in the same style; ``key`` names the preset.
    """

    key: str
    name: str
    code: str
    deck: DeckSpec
    streets: tuple[StreetSpec, ...]
    betting: Betting
    hands: tuple[Ranking, ...]
    blinds: bool = True
    bring_in: bool = False
    max_players: int = 10
    phh: bool = False
    short_name: str = field(default="", compare=False)
    """The name a crowded line gives the game ("PLO", "Limit hold'em"); ``name`` when
    not given. Not part of :meth:`to_dict` (the stored and summary form, which readers
    before short names reject a field they do not know in): the server's catalogue adds
    it; :func:`game_from_dict` takes it."""
    pokerstars: str | None = field(default=None, compare=False)
    """The words PokerStars' hand histories name the game by, betting aside ("Omaha
    Hi/Lo"); None for a game PokerStars does not deal. A preset's alone: a definition
    read from JSON has none (:func:`game_from_dict` gives the preset it matches)."""
    ohh: str | None = field(default=None, compare=False)
    """The game's ``game_type`` in OHH (Open Hand History): ``Holdem``, ``Omaha``,
    ``OmahaHiLo``; None for a game OHH has no name for. A preset's alone, as above."""
    street_enum: type[IntEnum] = field(init=False, repr=False, compare=False)
    """The streets as an enum (:class:`engine.events.Street` for hold'em and Omaha), so
    events name them: ``ActionTaken.street`` is one of its members."""
    draws_after: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    """By street index: whether a later street has a draw (hands are tabled all in only
    once the draws are done)."""
    streets_played: tuple[IntEnum, ...] = field(init=False, repr=False, compare=False)
    """The members of :attr:`street_enum`, in order."""
    draws: bool = field(init=False, repr=False, compare=False)
    """Whether players discard and draw (or re-roll) on some street."""
    up_cards: bool = field(init=False, repr=False, compare=False)
    """Whether some hole cards are dealt face up (stud, dice)."""
    split: bool = field(init=False, repr=False, compare=False)
    """Whether the pot is split high and low."""
    fixed_limit: bool = field(init=False, repr=False, compare=False)
    pot_limit: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._check()
        if not self.short_name:
            object.__setattr__(self, "short_name", self.name)
        names = tuple(s.name for s in self.streets)
        street_enum: type[IntEnum] = Street
        if names != tuple(str(s) for s in Street):
            members = [(n.upper().replace(" ", "_"), i) for i, n in enumerate(names)]
            factory: Any = _NamedStreet  # a functional enum call, which mypy cannot follow
            street_enum = factory(f"{self.key.title().replace('-', '')}Street", members)
        object.__setattr__(self, "street_enum", street_enum)
        draws = [s.draw for s in self.streets]
        after = tuple(any(draws[i + 1 :]) for i in range(len(draws)))
        object.__setattr__(self, "draws_after", after)
        object.__setattr__(self, "streets_played", tuple(street_enum))
        object.__setattr__(self, "draws", any(draws))
        object.__setattr__(self, "up_cards", any(any(s.hole) for s in self.streets))
        object.__setattr__(self, "split", len(self.hands) == 2)
        # Flags the hot paths read (an enum's members are slow to look up on its class).
        object.__setattr__(self, "fixed_limit", self.betting is Betting.FIXED_LIMIT)
        object.__setattr__(self, "pot_limit", self.betting is Betting.POT_LIMIT)

    def _check(self) -> None:
        if not self.streets:
            raise InvalidConfigError(f"game {self.key!r} has no streets")
        if not self.streets[0].hole:
            raise InvalidConfigError(f"game {self.key!r} deals no hole cards on its first street")
        if self.streets[0].draw:
            raise InvalidConfigError(f"game {self.key!r} draws before anything is dealt")
        if not 1 <= len(self.hands) <= 2:
            raise InvalidConfigError(f"game {self.key!r} splits the pot {len(self.hands)} ways")
        if len({s.name for s in self.streets}) != len(self.streets):
            raise InvalidConfigError(f"game {self.key!r} names two streets alike")
        if self.bring_in and self.streets[0].opener not in (Opener.LOW_CARD, Opener.HIGH_CARD):
            raise InvalidConfigError(
                f"game {self.key!r} has a bring-in but its first street does not open on an up card"
            )
        on_cards = (Opener.LOW_CARD, Opener.HIGH_CARD, Opener.HIGH_HAND, Opener.LOW_HAND)
        for i, street in enumerate(self.streets):
            if street.opener in on_cards and not any(any(s.hole) for s in self.streets[: i + 1]):
                raise InvalidConfigError(
                    f"game {self.key!r}: street {street.name!r} opens on up cards "
                    f"but none are dealt"
                )
            if street.max_raises is not None and street.max_raises < 1:
                raise InvalidConfigError(
                    f"game {self.key!r}: street {street.name!r} caps raises "
                    f"at {street.max_raises!r}"
                )
        if self.deck.dice and any(s.board for s in self.streets):
            raise InvalidConfigError(f"game {self.key!r} deals dice to a board")
        if self.deck.dice != any(r.dice for r in self.hands):
            raise InvalidConfigError(
                f"game {self.key!r}: its rankings do not fit its {self.deck.name} deck"
            )
        needed = self.hole_cards * 2 + self.board_cards
        if not self.deck.dice and needed > len(self.deck.cards):
            raise InvalidConfigError(
                f"game {self.key!r} needs {needed} cards for two players; its deck has "
                f"{len(self.deck.cards)}"
            )
        if not 2 <= self.max_players <= 10:
            raise InvalidConfigError(f"game {self.key!r} seats {self.max_players!r} players")
        most = self.hole_cards * self.max_players + self.board_cards
        fits = (
            self.deck.dice
            or any(s.draw for s in self.streets)
            or any(any(s.hole) for s in self.streets)
        )
        if not fits and most > len(self.deck.cards):  # draws reshuffle, stud shares a card
            raise InvalidConfigError(
                f"game {self.key!r} deals {most} cards to {self.max_players} players; "
                f"its deck has {len(self.deck.cards)}"
            )

    # -- what the game deals --------------------------------------------------------------

    @property
    def hole_cards(self) -> int:
        """How many cards each player holds by the end (draws replace, never add)."""
        return sum(len(s.hole) for s in self.streets)

    @property
    def board_cards(self) -> int:
        """How many community cards the board has by the end."""
        return sum(s.board for s in self.streets)

    @property
    def straddles(self) -> bool:
        """Whether a table of this game offers straddles: a game with blinds, bet no-limit
        or pot-limit (docs/rules.md O1)."""
        return self.blinds and self.betting is not Betting.FIXED_LIMIT

    @property
    def bomb_pots(self) -> bool:
        """Whether a table of this game offers bomb pots (docs/rules.md O3): a game with
        blinds whose board comes after the first betting round, without draws or up
        cards (hold'em, Omaha, short deck)."""
        return self.blinds and self.runs_twice

    @property
    def seven_deuce(self) -> bool:
        """Whether a table of this game can pay the 7-2 bounty (docs/rules.md O6): two
        hole cards, from a deck with sevens and deuces (hold'em, with or without jokers)."""
        ranks = {c.rank for c in self.deck.cards}
        return self.hole_cards == 2 and Rank.SEVEN in ranks and Rank.TWO in ranks

    def check_options(self, *, bomb_pot: bool, run_it_twice: bool, seven_deuce: bool) -> None:
        """:class:`InvalidConfigError` naming a table option this game cannot have (a
        table's and a hand's options are checked by this one rule)."""
        if bomb_pot and not self.bomb_pots:
            raise InvalidConfigError(
                f"{self.name} has no bomb pot: bomb pots are played in games with blinds "
                f"and a board after the first betting round"
            )
        if run_it_twice and not self.runs_twice:
            raise InvalidConfigError(
                f"{self.name} cannot be run twice: its streets after the first deal "
                f"more than board cards"
            )
        if seven_deuce and not self.seven_deuce:
            raise InvalidConfigError(
                f"{self.name} has no 7-2 bounty: it is for games of two hole cards"
            )

    @property
    def runs_twice(self) -> bool:
        """Whether the rest of the board can be run twice (docs/rules.md O5): the streets
        after the first deal only board cards (hold'em, Omaha, short deck)."""
        first, rest = self.streets[0], self.streets[1:]
        return (
            not self.draws
            and not self.up_cards
            and first.board == 0
            and any(s.board for s in rest)
            and not any(s.hole for s in rest)
        )

    def street(self, index: int) -> IntEnum:
        """The street enum member at ``index``."""
        return self.street_enum(index)

    # -- variants ----------------------------------------------------------------------

    def with_jokers(self, jokers: int, rule: Literal["wild", "bug"]) -> Game:
        """This game dealt from the 52 plus ``jokers`` jokers, ranked with the joker fully
        wild or as the bug (docs/rules.md J1, J2). Only high games take jokers."""
        if self.hands != (ranking.HIGH,):
            raise InvalidConfigError(f"jokers are for games ranked high only, not {self.key!r}")
        if self.deck is not STANDARD or jokers not in (1, 2):
            raise InvalidConfigError(f"a joker deck is the 52 and 1 or 2 jokers, got {jokers!r}")
        hand = {"wild": ranking.JOKER_WILD, "bug": ranking.JOKER_BUG}.get(rule)
        if hand is None:
            raise InvalidConfigError(f"a joker plays 'wild' or as the 'bug', not {rule!r}")
        deck = WITH_JOKER if jokers == 1 else WITH_TWO_JOKERS
        what = "the joker" if jokers == 1 else "two jokers"
        how = "wild" if rule == "wild" else "the bug"
        return replace(
            self,
            key=f"{self.key}-{rule}" + ("" if jokers == 1 else "2"),
            name=f"{self.name} with {what} ({how})",
            short_name=f"{self.short_name} ({'wild' if rule == 'wild' else 'bug'})",
            pokerstars=None,
            ohh=None,
            code=f"{self.code}+J{jokers}{'W' if rule == 'wild' else 'B'}",
            deck=deck,
            hands=(hand,),
            phh=False,
        )

    def with_cap(self, cap: int) -> Game:
        """This fixed-limit game with ``cap`` bets and raises a betting round (the blind or
        the bring-in not counted, as :attr:`StreetSpec.max_raises`), on every street."""
        if self.betting is not Betting.FIXED_LIMIT:
            raise InvalidConfigError(f"only fixed-limit games cap raises, not {self.key!r}")
        if not isinstance(cap, int) or isinstance(cap, bool) or not 1 <= cap <= 255:
            raise InvalidConfigError(f"a cap is 1 to 255 bets and raises, got {cap!r}")
        streets = tuple(replace(s, max_raises=cap) for s in self.streets)
        if streets == self.streets:
            return self
        return replace(
            self, key=f"{self.key}-cap{cap}", streets=streets, phh=False, pokerstars=None, ohh=None
        )

    def to_dict(self) -> dict[str, Any]:
        """The definition as JSON values (the wire's, the store's and PHH's form of a
        game; a street without a cap has no ``max_raises``); :func:`game_from_dict` reads
        it back."""
        return {
            "key": self.key,
            "name": self.name,
            "code": self.code,
            "deck": self.deck.name,
            "betting": self.betting.value,
            "hands": [r.name for r in self.hands],
            "blinds": self.blinds,
            "bring_in": self.bring_in,
            "max_players": self.max_players,
            "phh": self.phh,
            "streets": [
                {
                    "name": s.name,
                    "hole": ["up" if up else "down" for up in s.hole],
                    "board": s.board,
                    "draw": s.draw,
                    "opener": s.opener.value,
                    "big_bet": s.big_bet,
                    **({} if s.max_raises is None else {"max_raises": s.max_raises}),
                }
                for s in self.streets
            ],
        }


# -- the presets -----------------------------------------------------------------------------

_FL_HOLDEM_CAPS = (3, 4, 4, 4)  # the big blind is the preflop bet: a bet and three raises


def _board_streets(
    hole: int, *, fixed: bool = False, big_bet_from: int = 2
) -> tuple[StreetSpec, ...]:
    """Hold'em and Omaha: ``hole`` cards down, then the flop, turn and river."""
    caps = _FL_HOLDEM_CAPS if fixed else (None,) * 4
    deals = ((False,) * hole, (), (), ())
    boards = (0, 3, 1, 1)
    openers = (Opener.BLINDS,) + (Opener.POSITION,) * 3
    return tuple(
        StreetSpec(
            str(s), deals[i], boards[i], False, openers[i], fixed and i >= big_bet_from, caps[i]
        )
        for i, s in enumerate(Street)
    )


def _stud_streets(low: bool) -> tuple[StreetSpec, ...]:
    """Seven-card stud: two down and one up, three more up, one down; small bets on third
    and fourth street, big bets after (docs/rules.md T1-T6)."""
    bring_in = Opener.HIGH_CARD if low else Opener.LOW_CARD
    showing = Opener.LOW_HAND if low else Opener.HIGH_HAND
    return (
        StreetSpec("third street", (False, False, True), opener=bring_in, max_raises=4),
        StreetSpec("fourth street", (True,), opener=showing, max_raises=4),
        StreetSpec("fifth street", (True,), opener=showing, big_bet=True, max_raises=4),
        StreetSpec("sixth street", (True,), opener=showing, big_bet=True, max_raises=4),
        StreetSpec("seventh street", (False,), opener=showing, big_bet=True, max_raises=4),
    )


def _draw_streets(cards: int, draws: int, *, fixed: bool) -> tuple[StreetSpec, ...]:
    """Draw games: ``cards`` down, a betting round, then ``draws`` rounds of drawing and
    betting; in fixed limit, small bets before the draw and after the first of three,
    big bets after (docs/rules.md X1)."""
    words = ("first", "second", "third")
    # A bet and three raises with three or more betting rounds, a bet and four with two
    # (Robert's Rules, "Betting and Raising" 3); the big blind is the first bet.
    cap = (3 if draws > 1 else 4) if fixed else None
    first = StreetSpec("predraw", (False,) * cards, opener=Opener.BLINDS, max_raises=cap)
    later = tuple(
        StreetSpec(
            f"{words[i]} draw" if draws > 1 else "draw",
            draw=True,
            big_bet=i >= (1 if draws > 1 else 0),
            max_raises=None if cap is None else cap + 1,
        )
        for i in range(draws)
    )
    return (first, *later)


def _holdem(key: str, name: str, code: str, betting: Betting, *, phh: bool) -> Game:
    fixed = betting is Betting.FIXED_LIMIT
    return Game(
        key, name, code, STANDARD, _board_streets(2, fixed=fixed), betting, (ranking.HIGH,), phh=phh
    )


def _omaha(
    key: str, name: str, code: str, betting: Betting, hole: int, *, hi_lo: bool, phh: bool
) -> Game:
    fixed = betting is Betting.FIXED_LIMIT
    hands = (ranking.OMAHA_HIGH, ranking.OMAHA_LOW8) if hi_lo else (ranking.OMAHA_HIGH,)
    return Game(
        key,
        name,
        code,
        STANDARD,
        _board_streets(hole, fixed=fixed),
        betting,
        hands,
        max_players=10 if hole == 4 else 9 if hole == 5 else 7,
        phh=phh,
    )


def _stud(key: str, name: str, code: str, hands: tuple[Ranking, ...]) -> Game:
    low = hands == (ranking.A5_LOW,)
    return Game(
        key,
        name,
        code,
        STANDARD,
        _stud_streets(low),
        Betting.FIXED_LIMIT,
        hands,
        blinds=False,
        bring_in=True,
        max_players=8,
        phh=True,
    )


def _draw(
    key: str,
    name: str,
    code: str,
    betting: Betting,
    hand: Ranking,
    *,
    cards: int,
    draws: int,
    phh: bool,
) -> Game:
    streets = _draw_streets(cards, draws, fixed=betting is Betting.FIXED_LIMIT)
    return Game(
        key,
        name,
        code,
        STANDARD,
        streets,
        betting,
        (hand,),
        max_players=6 if draws > 1 else 8,
        phh=phh,
    )


FL, NL = Betting.FIXED_LIMIT, Betting.NO_LIMIT

_PRESETS: tuple[Game, ...] = (
    _holdem("nlhe", "No-limit Texas hold'em", "NT", Betting.NO_LIMIT, phh=True),
    _holdem("flhe", "Fixed-limit Texas hold'em", "FT", Betting.FIXED_LIMIT, phh=True),
    _holdem("plhe", "Pot-limit Texas hold'em", "PT", Betting.POT_LIMIT, phh=False),
    _omaha("plo", "Pot-limit Omaha", "PO", Betting.POT_LIMIT, 4, hi_lo=False, phh=True),
    _omaha(
        "plo5", "Pot-limit five-card Omaha", "PO5", Betting.POT_LIMIT, 5, hi_lo=False, phh=False
    ),
    _omaha("plo6", "Pot-limit six-card Omaha", "PO6", Betting.POT_LIMIT, 6, hi_lo=False, phh=False),
    _omaha(
        "flo8",
        "Fixed-limit Omaha hi-lo 8 or better",
        "FO/8",
        Betting.FIXED_LIMIT,
        4,
        hi_lo=True,
        phh=True,
    ),
    _omaha(
        "plo8",
        "Pot-limit Omaha hi-lo 8 or better",
        "PO/8",
        Betting.POT_LIMIT,
        4,
        hi_lo=True,
        phh=False,
    ),
    Game(
        "shortdeck",
        "No-limit short-deck hold'em",
        "NS",
        SHORT,
        _board_streets(2),
        Betting.NO_LIMIT,
        (ranking.SHORT_DECK,),
        phh=True,
    ),
    _stud("stud", "Seven-card stud", "F7S", (ranking.HIGH,)),
    _stud("stud8", "Seven-card stud hi-lo 8 or better", "F7S/8", (ranking.HIGH, ranking.EIGHT_LOW)),
    _stud("razz", "Razz", "FR", (ranking.A5_LOW,)),
    _draw("27td", "2-7 triple draw", "F2L3D", FL, ranking.DEUCE_SEVEN, cards=5, draws=3, phh=True),
    _draw(
        "27sd",
        "2-7 single draw, no-limit",
        "N2L1D",
        NL,
        ranking.DEUCE_SEVEN,
        cards=5,
        draws=1,
        phh=True,
    ),
    _draw("5cd", "Five-card draw", "N5D", NL, ranking.HIGH, cards=5, draws=1, phh=False),
    _draw("badugi", "Badugi", "FB", FL, ranking.BADUGI, cards=4, draws=3, phh=True),
    Game(
        "kuhn",
        "Kuhn poker",
        "KUHN",
        KUHN,
        (StreetSpec("deal", (False,), opener=Opener.BLINDS, max_raises=1),),
        Betting.FIXED_LIMIT,
        (ranking.HIGH,),
        blinds=False,
        max_players=2,
    ),
    Game(
        "kuhn3",
        "Three-player Kuhn poker",
        "KUHN3",
        KUHN4,
        (StreetSpec("deal", (False,), opener=Opener.BLINDS, max_raises=1),),
        Betting.FIXED_LIMIT,
        (ranking.HIGH,),
        blinds=False,
        max_players=3,
    ),
    Game(
        "leduc",
        "Leduc hold'em",
        "LEDUC",
        LEDUC,
        (
            StreetSpec("preflop", (False,), opener=Opener.BLINDS, max_raises=2),
            StreetSpec("flop", board=1, big_bet=True, max_raises=2),
        ),
        Betting.FIXED_LIMIT,
        (ranking.HIGH,),
        blinds=False,
        max_players=2,
    ),
    Game(
        "dice",
        "Poker dice",
        "DICE",
        DICE,
        (
            StreetSpec("first roll", (True,) * 5, opener=Opener.BLINDS),
            StreetSpec("second roll", draw=True),
            StreetSpec("third roll", draw=True),
        ),
        Betting.NO_LIMIT,
        (ranking.DICE,),
    ),
)

_NAMES: Final[dict[str, tuple[str, str | None, str | None]]] = {
    # key: (short name, PokerStars' words, OHH's game_type)
    "nlhe": ("NL hold'em", "Hold'em", "Holdem"), "flhe": ("Limit hold'em", "Hold'em", "Holdem"),
    "plhe": ("PL hold'em", "Hold'em", "Holdem"), "plo": ("PLO", "Omaha", "Omaha"),
    "plo5": ("PLO5", "5 Card Omaha", "Omaha"), "plo6": ("PLO6", "6 Card Omaha", "Omaha"),
    "flo8": ("Omaha hi-lo", "Omaha Hi/Lo", "OmahaHiLo"),
    "plo8": ("PLO hi-lo", "Omaha Hi/Lo", "OmahaHiLo"), "shortdeck": ("Short deck", None, None),
    "stud": ("Stud", "7 Card Stud", None), "stud8": ("Stud hi-lo", "7 Card Stud Hi/Lo", None),
    "razz": ("Razz", "Razz", None), "27td": ("2-7 triple draw", "Triple Draw 2-7 Lowball", None),
    "27sd": ("2-7 single draw", "Single Draw 2-7 Lowball", None),
    "5cd": ("Five-card draw", "5 Card Draw", None), "badugi": ("Badugi", "Badugi", None),
    "kuhn": ("Kuhn", None, None), "kuhn3": ("Kuhn (3)", None, None),
    "leduc": ("Leduc", None, None), "dice": ("Poker dice", None, None),
}  # fmt: skip
_PRESETS = tuple(
    replace(g, short_name=short, pokerstars=stars, ohh=ohh)
    for g in _PRESETS
    for short, stars, ohh in [_NAMES[g.key]]
)

GAMES: Final[dict[str, Game]] = {g.key: g for g in _PRESETS}
"""Every preset game by key, e.g. ``GAMES["plo"]``."""
NLHE: Final = GAMES["nlhe"]
"""No-limit Texas hold'em."""
BY_CODE: Final[dict[str, Game]] = {g.code: g for g in _PRESETS}
"""Every preset game by variant code, e.g. ``BY_CODE["FO/8"]``."""


def game(name: str) -> Game:
    """A preset game by key (``"plo8"``) or variant code (``"FO/8"``), or a joker variant
    of one (``"5cd-bug"``, ``"nlhe-wild2"``). Raises :class:`InvalidConfigError` naming
    the choices for anything else.

    >>> game("FT").key, game("27td").code, game("5cd-bug").deck.name
    ('flhe', 'F2L3D', 'joker')
    """
    if name in GAMES:
        return GAMES[name]
    if name in BY_CODE:
        return BY_CODE[name]
    base, _, suffix = name.rpartition("-")
    if suffix.startswith("cap") and suffix[3:].isdigit() and base:
        return game(base).with_cap(int(suffix[3:]))
    jokers = 2 if suffix.endswith("2") else 1
    rule = suffix.removesuffix("2")
    if base in GAMES and rule in ("wild", "bug"):
        return GAMES[base].with_jokers(jokers, rule)  # type: ignore[arg-type]
    known = ", ".join(GAMES)
    raise InvalidConfigError(f"unknown game {name!r}; the games are {known}")


_DECKS: Final = {
    d.name: d for d in (STANDARD, SHORT, KUHN, KUHN4, LEDUC, WITH_JOKER, WITH_TWO_JOKERS, DICE)
}
_RANKINGS: Final = {
    r.name: r
    for r in (
        ranking.HIGH,
        ranking.SHORT_DECK,
        ranking.OMAHA_HIGH,
        ranking.OMAHA_LOW8,
        ranking.A5_LOW,
        ranking.EIGHT_LOW,
        ranking.DEUCE_SEVEN,
        ranking.BADUGI,
        ranking.JOKER_WILD,
        ranking.JOKER_BUG,
        ranking.DICE,
    )
}
_STREET_FIELDS: Final = frozenset(
    {"name", "hole", "board", "draw", "opener", "big_bet", "max_raises"}
)
_GAME_FIELDS: Final = frozenset(
    {"key", "name", "code", "deck", "betting", "hands", "blinds", "bring_in", "max_players",
     "phh", "streets", "short_name"}  # short_name: the catalogue's, not to_dict's
)  # fmt: skip


def game_from_dict(data: Any) -> Game:
    """A game from its definition as :meth:`Game.to_dict` writes it (a client's own game,
    or a stored one). A preset's own definition gives the preset itself. Raises
    :class:`InvalidConfigError` naming the first problem.

    >>> game_from_dict(GAMES["razz"].to_dict()) is GAMES["razz"]
    True
    >>> game_from_dict({"key": "x", "streets": []})
    Traceback (most recent call last):
    ...
    engine.errors.InvalidConfigError: game definition: missing 'name'
    """
    if not isinstance(data, dict):
        raise InvalidConfigError(f"a game definition is an object, got {data!r}")
    unknown = sorted(set(data) - _GAME_FIELDS)
    if unknown:
        raise InvalidConfigError(f"game definition: unknown field {unknown[0]!r}")

    def pick(where: dict[str, Any], key: str, kind: type, default: Any = ...) -> Any:
        if key not in where:
            if default is ...:
                raise InvalidConfigError(f"game definition: missing {key!r}")
            return default
        value = where[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InvalidConfigError(
                f"game definition: {key!r} must be a {kind.__name__}, got {value!r}"
            )
        return value

    def choose(table: dict[str, Any], key: str, what: str) -> Any:
        if key not in table:
            raise InvalidConfigError(
                f"game definition: unknown {what} {key!r}; one of {list(table)}"
            )
        return table[key]

    streets = []
    for s in pick(data, "streets", list):
        if not isinstance(s, dict):
            raise InvalidConfigError(f"game definition: a street is an object, got {s!r}")
        extra = sorted(set(s) - _STREET_FIELDS)
        if extra:
            raise InvalidConfigError(f"game definition: unknown street field {extra[0]!r}")
        hole = pick(s, "hole", list, [])
        if any(h not in ("up", "down") for h in hole):
            raise InvalidConfigError(
                f"game definition: hole cards are 'up' or 'down', got {hole!r}"
            )
        cap = s.get("max_raises")
        if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool)):
            raise InvalidConfigError(f"game definition: 'max_raises' must be an int, got {cap!r}")
        openers = {o.value: o for o in Opener}
        streets.append(
            StreetSpec(
                pick(s, "name", str),
                tuple(h == "up" for h in hole),
                pick(s, "board", int, 0),
                pick(s, "draw", bool, False),
                choose(openers, pick(s, "opener", str, Opener.POSITION.value), "opener"),
                pick(s, "big_bet", bool, False),
                cap,
            )
        )
    betting = {b.value: b for b in Betting}
    made = Game(
        pick(data, "key", str),
        pick(data, "name", str),
        pick(data, "code", str),
        choose(_DECKS, pick(data, "deck", str, STANDARD.name), "deck"),
        tuple(streets),
        choose(betting, pick(data, "betting", str), "betting"),
        tuple(choose(_RANKINGS, r, "ranking") for r in pick(data, "hands", list)),
        blinds=pick(data, "blinds", bool, True),
        bring_in=pick(data, "bring_in", bool, False),
        max_players=pick(data, "max_players", int, 10),
        phh=pick(data, "phh", bool, False),
        short_name=pick(data, "short_name", str, ""),
    )
    try:
        known = game(made.key)
    except InvalidConfigError:
        return made
    return known if known == made else made
