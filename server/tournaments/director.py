"""The tournament director: runs a sit-and-go, a multi-table tournament, a heads-up round
robin or a ring match between bots, and ranks them (docs/tournaments.md).

Every deal comes from a seed derived from the tournament's seed and the deal's place in
it, so a tournament with the same entrants, seed and (deterministic) bots is played
again hand for hand. The director drives ``engine.Table``\\ s itself, one hand at a time
per table in a fixed order (a multi-table tournament plays in rounds: a hand at every
table, then busts, table breaking and balancing), and asks each seat's player through
:class:`Agent`: a bot in this process, or one connected over a websocket. Time, for
blind levels by the clock, comes from an injected clock.
"""

from __future__ import annotations

import enum
import hashlib
import inspect
import itertools
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from engine import (
    Action,
    ActionMenu,
    BetOrRaiseTo,
    BringIn,
    CheckOrCall,
    Deck,
    Draw,
    EngineError,
    Event,
    Fold,
    Game,
    GameChange,
    Hand,
    Mix,
    Rotation,
    Table,
    TableConfig,
    TableView,
    game,
    mix,
    stakes_for_blinds,
)
from server.errors import Code, Refusal
from server.stats import Adjustment, HandFacts, PlayerStats, facts_of_hand, player_stats
from server.tables import default_action
from server.tournaments.stats import ADJUST_BUDGET, STAT_KEYS, Rate, bb_per_100
from server.tournaments.structures import BLIND_STRUCTURES, PAYOUTS, BlindStructure, Level, payouts

log = logging.getLogger("pokerroom")

__all__ = [
    "Agent",
    "BotAgent",
    "Entrant",
    "Format",
    "HandPlayed",
    "Results",
    "Standing",
    "TournamentConfig",
    "TournamentDirector",
    "TournamentError",
    "check_field",
    "config_from_json",
    "config_json",
]


class TournamentError(Refusal):
    """A tournament that cannot be run as asked (too few entrants, too many for a table):
    a client who asked for it is told ``refused``."""

    def __init__(self, message: str) -> None:
        super().__init__(Code.REFUSED, message)


class Format(enum.StrEnum):
    SNG = "sng"
    MTT = "mtt"
    ROUND_ROBIN = "round-robin"
    RING = "ring"


class Agent(Protocol):
    """A player's decisions: what ``menu.seat`` does at ``table``, seeing ``view``."""

    async def decide(self, table: str, view: TableView, menu: ActionMenu) -> Action: ...


class BotAgent:
    """A bot in this process (``act(view, menu)``): the fast way to run tournaments."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def decide(self, table: str, view: TableView, menu: ActionMenu) -> Action:
        return self.bot.act(view, menu)  # type: ignore[no-any-return]


class Observer(Protocol):
    """Who follows the tables as they play (a server sending players their events)."""

    def seated(self, table: str, engine_table: Table, seat: int, name: str) -> None:
        """``name`` sat down at ``seat`` (the start, a table balanced, a new ring deal), or
        the game at their table changed (a mixed game's rotation, before its next hand)."""

    def events(self, table: str, engine_table: Table, events: Sequence[Event]) -> None:
        """What the engine emitted at ``table``, in order."""


@dataclass(frozen=True)
class Entrant:
    name: str
    agent: Agent


RING_STAKES = Level(50, 100)


@dataclass(frozen=True)
class TournamentConfig:
    format: Format
    seed: str
    starting_stack: int = 1_500
    """Sit-and-go and multi-table: everyone's chips at the start. Ring and round robin:
    the stack every hand starts with (stacks are reset each hand)."""
    blinds: BlindStructure = BLIND_STRUCTURES["turbo"]
    """Sit-and-go and multi-table."""
    stakes: Level = RING_STAKES
    """Ring and round robin: the blinds of every hand."""
    buy_in: int = 100
    """Each entrant's buy-in: the prize pool is this times the entrants."""
    payouts: tuple[float, ...] = PAYOUTS["top-3"]
    seats: int = 9
    """Seats at a table: a sit-and-go's entrants must fit; a multi-table tournament
    fills tables of this size."""
    hands: int = 1_000
    """Ring: hands in all; round robin: hands each pair plays."""
    duplicate: bool = False
    """Ring and round robin: every deal is played once in each seat rotation."""
    max_rounds: int = 100_000
    """Sit-and-go and multi-table: a safety stop for bots that never bust each other."""
    game: str = "nlhe"
    """The game every hand plays: an engine preset key (``engine.game``)."""
    mix: str | None = None
    """A mixed game instead (``engine.mix``: ``horse``, ``8game``): each table rotates
    through its games, changing game as the mix says (every so many hands)."""

    @property
    def mixed(self) -> Mix | None:
        """The mix played, if any (:class:`TournamentError` for an unknown one)."""
        if self.mix is None:
            return None
        try:
            return mix(self.mix)
        except EngineError as exc:
            raise TournamentError(str(exc)) from None

    @property
    def games(self) -> tuple[Game, ...]:
        """The games played: the mix's, in its order, or the one game."""
        mixed = self.mixed
        if mixed is not None:
            return mixed.games
        try:
            return (game(self.game),)
        except EngineError as exc:
            raise TournamentError(str(exc)) from None

    @property
    def max_players(self) -> int:
        """The most players a table seats: the seats asked for, within what every game
        played seats (stud 8, 2-7 triple draw 6, ...)."""
        return min(self.seats, 10, *(g.max_players for g in self.games))

    @property
    def unit(self) -> str:
        """What winnings are counted in: ``"big bets"`` when every game is fixed-limit
        (the big bet of the hand's level), else ``"big blinds"`` (the big blind, or a
        fixed-limit game's small bet, which is the level's big blind)."""
        limit = all(g.betting.value == "fixed-limit" for g in self.games)
        return "big bets" if limit else "big blinds"


@dataclass(frozen=True)
class HandPlayed:
    """One hand, as the director reports it (to store it, show progress, chart it)."""

    table: str
    """Where it was played: ``table-1``, ``ring``, ``match-1-2`` (entrant numbers)."""
    number: int
    seed: str
    """What its deck was shuffled from."""
    hand: Hand
    players: tuple[str, ...]
    """By position, as in ``hand.seats``."""
    deal: int
    """Duplicate groups: hands with the same deal (and table) had the same cards."""


@dataclass
class Standing:
    name: str
    place: int
    prize: int
    chips: int
    """Sit-and-go and multi-table: chips at the end (0 once busted). Ring and round robin:
    chips won."""
    hands: int
    """Hands the player was dealt in."""
    rate: Rate | None
    """Ring and round robin: the win rate per 100 hands. None in a freeze-out, where
    chips won at one blind level and lost at another do not add up to anything: a player
    who doubles up early and busts late has a high rate and finishes low."""
    duplicate_rate: Rate | None = None
    errors: int = 0
    """Decisions the player got wrong (an illegal action, an exception, a timeout): each
    was played as a check, or a fold when checking was not free."""
    eliminated_in_hand: int | None = None
    """Sit-and-go and multi-table: the tournament's hand (counting every table's, from 1)
    in which the player busted; None for the winner."""
    eliminated_in_round: int | None = None
    """The round (from 1) of that hand: a hand at every table. Players out in the same
    round are ranked by their chips before its hands, whichever table's hand came first
    (TDA hand-for-hand)."""
    eliminated_at_level: int | None = None
    """The blind level (from 1) of that hand."""
    adjusted_rate: Rate | None = None
    """Ring and round robin: the win rate of the all-in adjusted results
    (docs/statistics.md): a hand all in before the last card counts as the player's
    equity in each pot, not the cards that came."""
    adjusted_chips: Fraction | None = None
    """Ring and round robin: chips won, all-in adjusted (exact: they sum to 0)."""
    stats: PlayerStats | None = None
    """VPIP, PFR, 3-bet, aggression, WTSD, W$SD over the hands the player was dealt in."""

    @property
    def ci_narrower(self) -> float | None:
        """How much narrower the adjusted interval is than the raw one (0.15: 15 %)."""
        raw, adjusted = self.rate, self.adjusted_rate
        if raw is None or adjusted is None or not raw.margin > 0:
            return None
        return 1 - adjusted.margin / raw.margin


@dataclass
class Results:
    config: TournamentConfig
    standings: list[Standing]
    prize_pool: int
    hands: int
    winnings: dict[str, list[float]]
    """Ring and round robin: each player's cumulative winnings in the tournament's unit
    (big blinds, or big bets when every game is fixed-limit: ``config.unit``), hand by
    hand they played."""
    stacks: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Sit-and-go and multi-table: each player's chips after every hand they played, as
    (the tournament's hand, chips), ending with 0 in the hand they busted."""
    adjustments: dict[str, int] = field(default_factory=dict)
    """Hands by how their adjusted results were found (``Adjustment`` values: ``all-in``
    adjusted, kept ``actual``, ``unsupported`` or ``skipped`` over the budget)."""

    @property
    def freezeout(self) -> bool:
        """A sit-and-go or multi-table: ranked by finish, not by chips won."""
        return self.config.format in (Format.SNG, Format.MTT)

    def to_json(self) -> dict[str, Any]:
        def rate(r: Rate | None) -> dict[str, Any] | None:
            if r is None:
                return None
            finite = not math.isnan(r.low)
            return {
                "bb_per_100": r.bb_per_100, "ci95": [r.low, r.high] if finite else None,
                "samples": r.samples,
            }  # fmt: skip

        def standing(s: Standing) -> dict[str, Any]:
            entry: dict[str, Any] = {
                "place": s.place, "name": s.name, "prize": s.prize, "chips": s.chips,
                "hands": s.hands,
            }  # fmt: skip
            if self.freezeout:
                entry["eliminated_in_hand"] = s.eliminated_in_hand
                entry["eliminated_in_round"] = s.eliminated_in_round
                entry["eliminated_at_level"] = s.eliminated_at_level
            else:
                entry["rate"] = rate(s.rate)
                entry["duplicate_rate"] = rate(s.duplicate_rate)
                entry["adjusted"] = rate(s.adjusted_rate)
                if entry["adjusted"] is not None:
                    chips = s.adjusted_chips
                    entry["adjusted"]["chips_won"] = None if chips is None else float(chips)
                    entry["adjusted"]["ci_narrower"] = s.ci_narrower
            entry["errors"] = s.errors
            if s.stats is not None:
                every = s.stats.as_json()
                entry["stats"] = {k: every[k] for k in STAT_KEYS}
            return entry

        series: dict[str, Any] = (
            {"stacks": {name: [list(point) for point in points]
                        for name, points in self.stacks.items()}}
            if self.freezeout
            else {"winnings": self.winnings}
        )  # fmt: skip
        return {
            "format": str(self.config.format),
            "seed": self.config.seed,
            "game": self.config.game if self.config.mix is None else None,
            "mix": self.config.mix,
            "unit": self.config.unit,
            "duplicate": self.config.duplicate,
            "prize_pool": self.prize_pool,
            "hands": self.hands,
            "standings": [standing(s) for s in self.standings],
            "adjustments": self.adjustments,
            "adjust_budget": ADJUST_BUDGET,
            **series,
        }


Clock = Callable[[], float]
OnHand = Callable[[HandPlayed], Awaitable[None] | None]


@dataclass
class _Seated:
    """An entrant's tournament state."""

    entrant: Entrant
    number: int  # 1.. in entry order
    chips: int = 0
    results: list[float] = field(default_factory=list)  # per hand, in config.unit
    adjusted: list[float] = field(default_factory=list)  # the same, all-in adjusted
    adjusted_chips: Fraction = Fraction(0)
    groups: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    errors: int = 0
    busted: tuple[int, int, int] | None = None  # (round, stack before its hand, order)
    out: tuple[int, int, int] | None = None  # busted in: (tournament hand, round, level)
    stacks: list[tuple[int, int]] = field(default_factory=list)  # freeze-outs: (hand, chips)


class TournamentDirector:
    """Runs one tournament: ``await TournamentDirector(config, entrants).run()``."""

    def __init__(
        self,
        config: TournamentConfig,
        entrants: Sequence[Entrant],
        *,
        on_hand: OnHand | None = None,
        observer: Observer | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        names = [e.name for e in entrants]
        if len(set(names)) != len(names):
            raise TournamentError(f"entrants need names of their own, got {names!r}")
        self.config = config
        # Numbered in name order, not the order they came in: however bots register, the
        # same field with the same seed plays the same tournament.
        ordered = sorted(entrants, key=lambda e: e.name)
        self.players = [_Seated(e, n) for n, e in enumerate(ordered, 1)]
        self.on_hand = on_hand
        self.observer = observer
        self.clock = clock
        self.hands = 0
        self.level = 0
        check_field(config, len(self.players))
        self.games = config.games
        self.rotations: dict[str, Rotation] = {}
        """A mixed game's place in its rotation at each table of a freeze-out."""
        self.unit_is_big_bet = config.unit == "big bets"
        self.facts: list[HandFacts] = []
        """Every hand played, reduced to what the statistics count (server.stats)."""

    # -- running --------------------------------------------------------------------------

    def planned_hands(self) -> int | None:
        """The hands a ring match or a round robin plays (a freeze-out: None, unknown)."""
        n, cfg = len(self.players), self.config
        if cfg.format is Format.RING:
            return _deals(cfg, n) * (n if cfg.duplicate else 1)
        if cfg.format is Format.ROUND_ROBIN:
            return n * (n - 1) // 2 * _deals(cfg, 2) * (2 if cfg.duplicate else 1)
        return None

    async def run(self) -> Results:
        if self.config.format in (Format.SNG, Format.MTT):
            await self._freezeout()
            order = self._finishing_order()
        else:
            if self.config.format is Format.RING:
                await self._ring(self.players, "ring")
            else:
                for a, b in itertools.combinations(self.players, 2):
                    await self._ring([a, b], f"match-{a.number}-{b.number}")
            # Ranked by chips won; equal winnings share the better place's order by entry.
            order = sorted(self.players, key=lambda p: (-p.chips, p.number))
        return self._results(order)

    def _results(self, order: list[_Seated]) -> Results:
        pool = self.config.buy_in * len(self.players)
        prizes = payouts(pool, self.config.payouts, len(self.players)) if pool else []
        freezeout = self.config.format in (Format.SNG, Format.MTT)
        stats = player_stats(self.facts)
        standings = []
        for place, p in enumerate(order, 1):
            duplicate = None
            if self.config.duplicate:
                duplicate = bb_per_100([sum(g) / len(g) for g in p.groups.values()])
            standings.append(
                Standing(
                    p.entrant.name,
                    place,
                    prizes[place - 1] if place <= len(prizes) else 0,
                    p.chips,
                    len(p.results),
                    None if freezeout else bb_per_100(p.results),
                    duplicate,
                    p.errors,
                    eliminated_in_hand=p.out[0] if p.out else None,
                    eliminated_in_round=p.out[1] if p.out else None,
                    eliminated_at_level=p.out[2] if p.out else None,
                    adjusted_rate=None if freezeout else bb_per_100(p.adjusted),
                    adjusted_chips=None if freezeout else p.adjusted_chips,
                    stats=stats.get(p.entrant.name),
                )
            )
        kinds = [str(f.adjustment.value) for f in self.facts]
        counted = {a.value: kinds.count(a.value) for a in Adjustment}
        if freezeout:
            stacks = {p.entrant.name: p.stacks for p in self.players}
            return Results(self.config, standings, pool, self.hands, {}, stacks, counted)
        winnings = {p.entrant.name: list(itertools.accumulate(p.results)) for p in self.players}
        return Results(self.config, standings, pool, self.hands, winnings, {}, counted)

    def _deck(self, table: str, deal: int, played: Game) -> tuple[str, Deck]:
        """Deal ``deal``'s deck at ``table``: the game's own deck (52 cards, the short
        deck, Kuhn's, dice...), shuffled from the tournament's seed."""
        seed = f"{self.config.seed}/{table}/{deal}"
        digest = hashlib.sha256(seed.encode()).digest()
        return seed, Deck.shuffled(random.Random(digest), played.deck)

    async def _play(self, table: Table, seated: dict[int, _Seated], label: str, deal: int) -> Hand:
        """Deal one hand at ``table`` from deal ``deal``'s deck and play it out."""
        seed, deck = self._deck(label, deal, table.config.game)
        self._tell(label, table, table.start_hand(deck))
        hand = table.hand
        assert hand is not None
        while not hand.is_over:
            seat = table.to_act
            assert seat is not None
            menu = table.legal_actions(seat)
            assert menu is not None
            player = seated[seat]
            try:
                action = await player.entrant.agent.decide(label, table.view(seat), menu)
                if not isinstance(action, Fold | CheckOrCall | BetOrRaiseTo | BringIn | Draw):
                    raise TypeError(f"{action!r} is not an action")
                if action.seat != seat:
                    raise EngineError(f"an action for seat {action.seat!r}, not {seat}")
                events = table.apply(action)  # checked before anything changes
            except Exception as exc:  # a bot's bug costs it this decision, nothing else
                player.errors += 1
                why = str(exc) or type(exc).__name__  # a timeout says nothing itself
                log.warning("%s: %s; it plays the default", player.entrant.name, why)
                # What a timed-out player does at a cash table too: stand pat, bring in,
                # else check or fold.
                events = table.apply(default_action(menu))
            self._tell(label, table, events)
        self.hands += 1
        setup = hand.setup
        unit = setup.big_bet if self.unit_is_big_bet else setup.big_blind or setup.small_bet
        names = tuple(seated[s].entrant.name for s in hand.seats)
        # The server dealt every card, so the all-in adjustment is exact (docs/statistics.md);
        # the budget keeps an Omaha hi-lo preflop all-in (a minute and more) from stalling.
        facts: HandFacts | None = None
        try:
            facts = facts_of_hand(hand, names, budget=ADJUST_BUDGET)
        except EngineError:  # PHH cannot replay it (dice roll a face twice): not counted
            pass
        else:
            self.facts.append(facts)
        for position, seat in enumerate(hand.seats):
            p = seated[seat]
            net = hand.stacks[position] - setup.stacks[position]
            p.chips += net  # a freeze-out's stack; a ring's chips won
            p.results.append(net / unit)
            adjusted = Fraction(net) if facts is None else facts.players[position].adjusted
            p.adjusted_chips += adjusted
            p.adjusted.append(float(adjusted / unit))
            p.groups.setdefault((label, deal), []).append(net / unit)
            if self.config.format in (Format.SNG, Format.MTT):
                p.stacks.append((self.hands, p.chips))
        if self.on_hand is not None:
            done = self.on_hand(HandPlayed(label, table.hand_number, seed, hand, names, deal))
            if done is not None:
                await done
        return hand

    def _config(self, played: Game, level: Level, seats: int, most: int) -> TableConfig:
        """A table of ``played`` at blind level ``level``, read by the game's convention
        (engine.stakes_for_blinds: a limit game bets the big blind and twice it, stud
        antes and brings in by the small bet), taking stacks of 1 to ``most`` chips."""
        stakes = stakes_for_blinds(played, level.small_blind, level.big_blind, level.ante)
        return TableConfig(game=played, seats=seats, min_buy_in=1, max_buy_in=most, **stakes)

    def _set_game(
        self, label: str, table: Table, seated: dict[int, _Seated], config: TableConfig
    ) -> None:
        """The next hand's game and stakes; when the game changes, everyone at the table
        is told as if seated again (a snapshot with the new game)."""
        changed = config.game != table.config.game
        table.set_config(config)
        if changed and self.observer is not None:
            for seat, p in sorted(seated.items()):
                self.observer.seated(label, table, seat, p.entrant.name)

    def _tell(self, label: str, table: Table, events: Sequence[Event]) -> None:
        if self.observer is not None:
            self.observer.events(label, table, events)

    def _sit(self, label: str, table: Table, seat: int, player: _Seated, stack: int) -> None:
        events = table.sit_down(seat, stack, wait_for_big_blind=False)
        if self.observer is not None:  # the newcomer's snapshot includes their own sitting
            self.observer.events(label, table, events)
            self.observer.seated(label, table, seat, player.entrant.name)

    def standings_now(self) -> list[dict[str, Any]]:
        """The field as it stands: chips (won, in a ring or round robin), and the place of
        each player out (freeze-outs), best first."""
        if self.config.format in (Format.SNG, Format.MTT):
            return [
                {"name": p.entrant.name, "chips": p.chips, "hands": len(p.results),
                 "place": None if p.busted is None else place}
                for place, p in enumerate(self._finishing_order(), 1)
            ]  # fmt: skip
        order = sorted(self.players, key=lambda p: (-p.chips, p.number))
        return [
            {"name": p.entrant.name, "chips": p.chips, "hands": len(p.results), "place": None}
            for p in order
        ]

    # -- ring matches -----------------------------------------------------------------------

    async def _ring(self, players: list[_Seated], label: str) -> None:
        """``hands`` hands with stacks reset each hand; the players move one seat each
        deal (as the button would). Duplicate: each deal is played once in each rotation
        of the players through the seats, the cards staying with the seats."""
        n, cfg = len(players), self.config
        rotations = n if cfg.duplicate else 1
        # A mixed game changes game by deals: every rotation of a duplicate deal plays the
        # same game with the same cards. An orbit is a deal for each player.
        mixed = cfg.mixed
        per_game = 1 if mixed is None else mixed.hands
        if mixed is not None and mixed.change is GameChange.ORBIT:
            per_game = n
        for deal in range(_deals(cfg, n)):
            played = self.games[(deal // per_game) % len(self.games)]
            config = self._config(played, cfg.stakes, n, cfg.starting_stack)
            for rotation in range(rotations):
                table = Table(config)  # a fresh table: the button on the same seat
                table.hand_number = deal * rotations + rotation  # numbered within the match
                seated = {s: players[(s + deal + rotation) % n] for s in range(n)}
                for seat, player in seated.items():
                    self._sit(label, table, seat, player, cfg.starting_stack)
                await self._play(table, seated, label, deal)

    # -- freeze-outs: sit-and-go and multi-table ------------------------------------------

    async def _freezeout(self) -> None:
        cfg = self.config
        n = len(self.players)
        total = cfg.starting_stack * n
        per_table = cfg.max_players
        count = 1 if cfg.format is Format.SNG else math.ceil(n / per_table)
        config = self._config(self.games[0], cfg.blinds.levels[0], per_table, total)
        self.tables: list[tuple[str, Table, dict[int, _Seated]]] = [
            (f"table-{i + 1}", Table(config), {}) for i in range(count)
        ]
        # Each table goes round the mix on its own, as the button goes round it.
        mixed = cfg.mixed
        rotations = self.rotations
        rotations.update({label: Rotation(mixed) for label, _, _ in self.tables} if mixed else {})
        draw = random.Random(hashlib.sha256(f"{cfg.seed}/seating".encode()).digest())
        order = list(self.players)
        draw.shuffle(order)  # seats are drawn, as at a live tournament
        for i, p in enumerate(order):  # dealt round the tables: sizes differ by one at most
            label, table, seated = self.tables[i % count]
            seat = len(seated)
            self._sit(label, table, seat, p, cfg.starting_stack)
            seated[seat] = p
            p.chips = cfg.starting_stack
        self._draw = draw
        started = self.clock()
        for round_ in range(cfg.max_rounds):
            alive = [p for p in self.players if p.busted is None]
            if len(alive) < 2:
                return
            self.level = cfg.blinds.level(round_, self.clock() - started)
            level = cfg.blinds.levels[self.level]
            busts: list[tuple[_Seated, int]] = []
            for label, table, seated in self.tables:
                if len(seated) < 2:
                    continue
                played = rotations[label].game if label in rotations else self.games[0]
                self._set_game(label, table, seated, self._config(played, level, per_table, total))
                hand = await self._play(table, seated, label, table.hand_number + 1)
                if label in rotations:
                    assert table.button is not None
                    rotations[label] = rotations[label].after_hand(
                        button=table.button, seats=table.occupied(), table_seats=per_table
                    )
                for position, seat in enumerate(hand.seats):
                    if hand.stacks[position] == 0:
                        busts.append((seated[seat], hand.setup.stacks[position]))
                        seated[seat].out = (self.hands, round_ + 1, self.level + 1)
                assert sum(p.chips for p in seated.values()) == sum(
                    table.stack(s) for s in table.occupied()
                )
            self._bust(round_, busts)
            self._rebalance()
            assert sum(p.chips for p in self.players) == total  # chips are conserved
        raise TournamentError(
            f"no winner after {cfg.max_rounds} rounds: the bots do not bust each other"
        )

    def _bust(self, round_: int, busts: list[tuple[_Seated, int]]) -> None:
        """Players out this round: those who started their last hand with more chips
        finish higher (TDA); equal stacks by the order they were seated."""
        for order, (p, stack) in enumerate(busts):
            p.busted = (round_, stack, -order)
            for _, _, seated in self.tables:
                for seat, q in list(seated.items()):
                    if q is p:  # the engine stands a busted player up itself
                        del seated[seat]

    def _finishing_order(self) -> list[_Seated]:
        alive = [p for p in self.players if p.busted is None]
        out = sorted(
            (p for p in self.players if p.busted is not None),
            key=lambda p: p.busted,  # type: ignore[arg-type, return-value]
            reverse=True,
        )
        return sorted(alive, key=lambda p: -p.chips) + out

    def _rebalance(self) -> None:
        """Break tables while the players fit at fewer, then move players from the
        fullest table to the emptiest until they differ by one at most: each move takes
        a player drawn by the tournament's seed to a free seat drawn the same way."""
        per_table = self.tables[0][1].config.seats
        alive = sum(len(seated) for _, _, seated in self.tables)
        while len(self.tables) > max(1, math.ceil(alive / per_table)):
            breaking = min(range(len(self.tables)), key=lambda i: (len(self.tables[i][2]), -i))
            label, table, seated = self.tables.pop(breaking)
            for seat in sorted(seated):
                self._move(label, table, seated, seat)
        while True:
            sizes = [len(seated) for _, _, seated in self.tables]
            if max(sizes) - min(sizes) <= 1:
                return
            label, table, seated = self.tables[sizes.index(max(sizes))]
            self._move(label, table, seated, self._draw.choice(sorted(seated)))

    def _move(self, label: str, table: Table, seated: dict[int, _Seated], seat: int) -> None:
        """Move a player to the table with the fewest players (the first of those)."""
        player = seated.pop(seat)
        self._tell(label, table, table.stand_up(seat))
        to, target, target_seated = min(
            (t for t in self.tables if t[1] is not table), key=lambda t: len(t[2])
        )
        free = [s for s in range(target.config.seats) if s not in target_seated]
        new_seat = self._draw.choice(free)
        self._sit(to, target, new_seat, player, player.chips)
        target_seated[new_seat] = player


def config_json(config: TournamentConfig) -> dict[str, Any]:
    """A configuration as JSON: what is stored with a tournament, and played again from."""
    blinds = config.blinds
    return {
        "format": str(config.format), "seed": config.seed,
        "starting_stack": config.starting_stack,
        "blinds": {"name": blinds.name, "hands": blinds.hands, "seconds": blinds.seconds,
                   "levels": [[lv.small_blind, lv.big_blind, lv.ante] for lv in blinds.levels]},
        "stakes": [config.stakes.small_blind, config.stakes.big_blind, config.stakes.ante],
        "buy_in": config.buy_in, "payouts": list(config.payouts), "seats": config.seats,
        "hands": config.hands, "duplicate": config.duplicate,
        "game": config.game, "mix": config.mix,
    }  # fmt: skip


def config_from_json(data: dict[str, Any]) -> TournamentConfig:
    """The configuration :func:`config_json` stored."""
    blinds = data["blinds"]
    levels = tuple(Level(*lv) for lv in blinds["levels"])
    return TournamentConfig(
        format=Format(data["format"]), seed=data["seed"], starting_stack=data["starting_stack"],
        blinds=BlindStructure(blinds["name"], levels, blinds["hands"], blinds["seconds"]),
        stakes=Level(*data["stakes"]), buy_in=data["buy_in"], payouts=tuple(data["payouts"]),
        seats=data["seats"], hands=data["hands"], duplicate=data["duplicate"],
        # Stored before tournaments played other games: no-limit hold'em.
        game=data.get("game", "nlhe"), mix=data.get("mix"),
    )  # fmt: skip


def check_field(cfg: TournamentConfig, n: int) -> None:
    """:class:`TournamentError` unless ``n`` entrants can play a tournament so configured."""
    if n < 2:
        raise TournamentError("a tournament needs at least two entrants")
    if cfg.mix is not None and cfg.game != "nlhe":
        raise TournamentError(f"give a game or a mix, not both: {cfg.game!r} and {cfg.mix!r}")
    games = cfg.games  # an unknown game or mix is refused here
    if not 2 <= cfg.seats <= 10:
        raise TournamentError(f"a table has 2 to 10 seats, not {cfg.seats}")
    seats = cfg.max_players
    if cfg.format in (Format.SNG, Format.RING) and n > seats:
        what = cfg.mixed.name if cfg.mixed is not None else games[0].name
        few = f" ({what} seats {seats})" if seats < min(cfg.seats, 10) else ""
        raise TournamentError(
            f"a {cfg.format} seats everyone at one table: {n} entrants, {seats} seats{few}"
        )
    if cfg.starting_stack < 1 or cfg.hands < 1 or cfg.buy_in < 0:
        raise TournamentError("stacks and hands must be positive, a buy-in not negative")
    if cfg.duplicate and cfg.format in (Format.SNG, Format.MTT):
        raise TournamentError("duplicate mode is for ring matches and round robins")


def _deals(config: TournamentConfig, players: int) -> int:
    """Deals in a ring match: each is played once, or once per rotation (duplicate)."""
    return max(1, config.hands // (players if config.duplicate else 1))


def bot_seed(seed: str, name: str) -> int:
    """A bot's own seed, from the tournament's and its name: seeded bots repeat."""
    return int.from_bytes(hashlib.sha256(f"{seed}/bot/{name}".encode()).digest()[:8], "big")


def make_bot(cls: Any, seed: str, name: str) -> Any:
    """An instance of a bot class, seeded when its constructor takes a ``seed``."""
    try:
        takes_seed = "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        takes_seed = False
    return cls(seed=bot_seed(seed, name)) if takes_seed else cls()
