"""Mixed games: stakes by each game's convention, rotations, and a table changing game.
A test of a rule in docs/rules.md ("Mixed games", M1-M9) starts with the rule's id."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import (
    MIXES,
    AnteKind,
    BetOrRaiseTo,
    BringIn,
    CheckOrCall,
    Deck,
    Draw,
    Fold,
    GameChange,
    IllegalActionError,
    InvalidConfigError,
    Mix,
    Rotation,
    SeatingError,
    Table,
    TableConfig,
    dealers_choice,
    game,
    mix,
    stakes_for,
    stakes_for_blinds,
)

HORSE = ["flhe", "flo8", "razz", "stud", "stud8"]
EIGHT = ["27td", "flhe", "flo8", "razz", "stud", "stud8", "nlhe", "plo"]


def play(rotation: Rotation, hands: int, *, seats: list[int], table_seats: int) -> list[str]:
    """The games of ``hands`` hands, the button moving one player a hand from seats[0]."""
    played = []
    for i in range(hands):
        played.append(rotation.game.key)
        button = seats[i % len(seats)]
        rotation = rotation.after_hand(button=button, seats=seats, table_seats=table_seats)
    return played


# -- presets ---------------------------------------------------------------------------


def test_horse_plays_its_five_limit_games_in_order() -> None:
    assert [g.key for g in mix("horse").games] == HORSE


def test_eight_game_plays_its_eight_games_in_order() -> None:
    assert [g.key for g in mix("8game").games] == EIGHT


def test_m7_a_mix_seats_the_fewest_its_games_seat() -> None:
    assert mix("horse").max_players == 8  # stud
    assert mix("8game").max_players == 6  # 2-7 triple draw


def test_mix_names_are_case_insensitive_with_aliases() -> None:
    assert mix("HORSE") is MIXES["horse"]
    assert mix("8-Game") is MIXES["8game"]


def test_an_unknown_mix_names_the_choices() -> None:
    with pytest.raises(InvalidConfigError, match=r"unknown mix 'hose'; the mixes are horse, 8game"):
        mix("hose")


def test_a_mix_needs_games_listed_once() -> None:
    with pytest.raises(InvalidConfigError, match="one or more games"):
        Mix("none", "None", ())
    with pytest.raises(InvalidConfigError, match="each game once"):
        Mix("twice", "Twice", (game("flhe"), game("flhe")))


def test_a_game_lasts_at_least_one_hand() -> None:
    with pytest.raises(InvalidConfigError, match="1 or more hands"):
        mix("horse").every(0)


# -- stakes ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["flhe", "flo8", "27td", "badugi"])
def test_m2_limit_games_with_blinds_post_half_the_small_bet_and_the_small_bet(key: str) -> None:
    stakes = stakes_for(key, (100, 200))
    assert (stakes["small_blind"], stakes["big_blind"]) == (50, 100)
    assert (stakes["small_bet"], stakes["big_bet"]) == (100, 200)
    assert stakes["ante"] == stakes["bring_in"] == 0


@pytest.mark.parametrize("key", ["stud", "stud8", "razz"])
def test_m3_stud_games_ante_a_fifth_and_bring_in_half_the_small_bet(key: str) -> None:
    stakes = stakes_for(key, (100, 200))
    assert (stakes["ante"], stakes["ante_kind"], stakes["bring_in"]) == (
        20,
        AnteKind.PER_PLAYER,
        50,
    )
    assert (stakes["small_blind"], stakes["big_blind"]) == (0, 0)
    assert (stakes["small_bet"], stakes["big_bet"]) == (100, 200)


def test_m3_small_stud_stakes_keep_a_one_chip_ante_and_bring_in() -> None:
    stakes = stakes_for("stud", (2, 4))
    assert (stakes["ante"], stakes["bring_in"]) == (1, 1)


@pytest.mark.parametrize("key", ["nlhe", "plo", "plo8", "shortdeck", "27sd", "5cd"])
def test_m1_big_bet_games_read_the_level_as_blinds(key: str) -> None:
    stakes = stakes_for(key, (50, 100))
    assert (stakes["small_blind"], stakes["big_blind"], stakes["small_bet"]) == (50, 100, 100)


def test_m5_kuhn_and_leduc_ante_as_their_papers_say() -> None:
    assert stakes_for("kuhn", (1, 1))["ante"] == 1
    leduc = stakes_for("leduc", (2, 4))
    assert (leduc["ante"], leduc["small_bet"], leduc["big_bet"]) == (1, 2, 4)


@pytest.mark.parametrize("key", sorted(game(k).key for k in ("nlhe", "stud", "kuhn", "dice")))
def test_every_stakes_make_a_valid_config(key: str) -> None:
    level = (1, 1) if key == "kuhn" else (10, 20)
    config = TableConfig(game=game(key), seats=2, **stakes_for(key, level))
    assert config.game.key == key


@pytest.mark.parametrize("level", [(0, 10), (20, 10), (1.5, 3), (True, 2), 100, (1, 2, 3)])
def test_a_bad_level_is_refused(level: object) -> None:
    with pytest.raises(InvalidConfigError, match="stake level"):
        stakes_for("flhe", level)  # type: ignore[arg-type]


def test_m4_eight_game_plays_big_bet_games_at_the_limit_blinds() -> None:
    eight = mix("8game")
    nlhe, plo, flhe = (eight.config(k, (200, 400)) for k in ("nlhe", "plo", "flhe"))
    assert (nlhe.small_blind, nlhe.big_blind) == (100, 200)
    assert (plo.small_blind, plo.big_blind) == (100, 200)
    assert (flhe.small_blind, flhe.big_blind, flhe.small_bet, flhe.big_bet) == (100, 200, 200, 400)


def test_m4_every_game_of_a_mix_has_the_same_seats_and_buy_ins() -> None:
    configs = mix("8game").configs((100, 200))
    assert {(c.seats, c.min_buy_in, c.max_buy_in) for c in configs} == {(6, 4000, 20000)}
    assert [c.game.key for c in configs] == EIGHT


def test_m7_a_mix_table_is_not_bigger_than_its_smallest_game() -> None:
    with pytest.raises(InvalidConfigError, match="2 to 6 seats"):
        mix("8game").config("nlhe", (100, 200), seats=8)


def test_a_mix_config_of_a_game_not_in_it_is_refused() -> None:
    with pytest.raises(InvalidConfigError, match="HORSE has no game 'nlhe'"):
        mix("horse").config("nlhe", (100, 200))


# -- rotation --------------------------------------------------------------------------


def test_m6_horse_changes_game_every_eight_hands_and_starts_over() -> None:
    played = play(Rotation(mix("horse")), 48, seats=[0, 1, 2, 3], table_seats=8)
    assert played == [k for k in HORSE for _ in range(8)] + ["flhe"] * 8


def test_horse_every_three_hands() -> None:
    played = play(Rotation(mix("horse").every(3)), 15, seats=[0, 1, 2, 3, 4, 5], table_seats=8)
    assert played == [k for k in HORSE for _ in range(3)]


def test_m6_horse_by_orbit_plays_one_hand_per_player() -> None:
    rotation = Rotation(mix("horse").every(None))
    played = play(rotation, 25, seats=[1, 3, 4, 6, 7], table_seats=8)
    assert played == [k for k in HORSE for _ in range(5)]


def test_m6_an_orbit_ends_when_the_button_would_pass_its_first_seat() -> None:
    rotation = Rotation(mix("horse").every(None))
    rotation = rotation.after_hand(button=2, seats=[0, 2, 4, 6], table_seats=8)
    rotation = rotation.after_hand(button=4, seats=[0, 2, 4, 6], table_seats=8)
    assert rotation.game.key == "flhe"
    # The player in seat 0 busts: the button goes from 6 to 2, past nobody left of 2.
    rotation = rotation.after_hand(button=6, seats=[2, 4, 6], table_seats=8)
    assert (rotation.game.key, rotation.hands) == ("flo8", 0)


def test_hands_left_counts_down() -> None:
    rotation = Rotation(mix("8game"))
    assert rotation.hands_left == 6
    rotation = rotation.after_hand(button=0, seats=[0, 1], table_seats=6)
    assert rotation.hands_left == 5
    assert Rotation(mix("horse").every(None)).hands_left is None


def test_m6_dealers_choice_waits_for_the_button_to_pick() -> None:
    rotation = Rotation(dealers_choice(["nlhe", "plo", "razz"]))
    assert rotation.needs_choice
    with pytest.raises(InvalidConfigError, match="before its pick"):
        rotation.after_hand(button=0, seats=[0, 1], table_seats=6)
    rotation = rotation.choose("razz")
    assert (rotation.game.key, rotation.needs_choice) == ("razz", False)
    rotation = rotation.after_hand(button=0, seats=[0, 1], table_seats=6)
    assert (rotation.game.key, rotation.needs_choice) == ("razz", True)


def test_dealers_choice_for_an_orbit() -> None:
    rotation = Rotation(dealers_choice(["flhe", "stud"], hands=None)).choose("stud")
    for button in (0, 1):
        assert not rotation.needs_choice
        rotation = rotation.after_hand(button=button, seats=[0, 1, 2], table_seats=6)
    rotation = rotation.after_hand(button=2, seats=[0, 1, 2], table_seats=6)
    assert rotation.needs_choice


def test_dealers_choice_refuses_a_game_off_its_list_or_a_second_pick() -> None:
    rotation = Rotation(dealers_choice(["nlhe", "plo"]))
    with pytest.raises(InvalidConfigError, match="has no game 'razz'"):
        rotation.choose("razz")
    with pytest.raises(InvalidConfigError, match="the game is picked"):
        rotation.choose("plo").choose("nlhe")
    with pytest.raises(InvalidConfigError, match="not dealer's choice"):
        Rotation(mix("horse")).choose("razz")


def test_a_rotation_mix_changes_by_hands_by_default() -> None:
    assert mix("horse").change is GameChange.HANDS
    assert mix("horse").every(None).change is GameChange.ORBIT


# -- a table changing game -------------------------------------------------------------


def seated(config: TableConfig, stacks: dict[int, int]) -> Table:
    table = Table(config)
    for seat, stack in stacks.items():
        table.sit_down(seat, stack)
    return table


def act(table: Table, rng: random.Random) -> None:
    """One random legal action of any game: a draw throws away up to its limit."""
    seat = table.to_act
    assert seat is not None
    menu = table.legal_actions(seat)
    assert menu is not None
    r = rng.random()
    if menu.can_draw:
        cards = table.view(seat).seats
        mine = next(s for s in cards if s.seat == seat).cards or ()
        table.apply(Draw(seat, tuple(mine[: rng.randint(0, min(menu.max_discard, len(mine)))])))
    elif menu.can_bring_in and r < 0.5:
        table.apply(BringIn(seat))
    elif menu.can_raise and r < 0.3:
        table.apply(BetOrRaiseTo(seat, rng.choice([menu.min_raise_to, menu.max_raise_to])))
    elif menu.can_fold and r < 0.5:
        table.apply(Fold(seat))
    elif menu.can_call:
        table.apply(CheckOrCall(seat))
    else:  # a bring-in is due and may not be folded: complete
        table.apply(BetOrRaiseTo(seat, menu.min_raise_to))


def chips(table: Table) -> int:
    """Every chip at the table: stacks, and during a hand what each player put in."""
    view = table.public_view()
    live = table.hand_in_progress
    return sum(s.stack + (s.hand_total if live else 0) for s in view.seats)


def test_set_config_changes_the_game_between_hands() -> None:
    horse = mix("horse")
    table = seated(horse.config("flhe", (20, 40)), {0: 2000, 1: 2000})
    table.set_config(horse.config("razz", (20, 40)))
    assert table.config.game.key == "razz"
    table.start_hand(Deck.shuffled(random.Random(1)))
    assert table.hand is not None
    assert table.hand.game.key == "razz"


def test_m8_set_config_refuses_during_a_hand() -> None:
    horse = mix("horse")
    table = seated(horse.config("flhe", (20, 40)), {0: 2000, 1: 2000})
    table.start_hand(Deck.shuffled(random.Random(1)))
    with pytest.raises(IllegalActionError, match="between hands"):
        table.set_config(horse.config("razz", (20, 40)))
    assert table.config.game.key == "flhe"


def test_set_config_refuses_other_seats() -> None:
    table = seated(mix("horse").config("flhe", (20, 40)), {0: 2000, 1: 2000})
    with pytest.raises(SeatingError, match="the table has 8 seats; a config of 6"):
        table.set_config(mix("horse").config("razz", (20, 40), seats=6))


def test_set_config_refuses_a_game_seating_fewer_than_are_seated() -> None:
    # A config that says 8 seats for a 6-seat game cannot be built, so the check is on
    # the players seated: forge one past TableConfig's own check.
    table = seated(mix("horse").config("flhe", (20, 40)), dict.fromkeys(range(8), 2000))
    small = TableConfig(game=game("27td"), small_blind=10, big_blind=20, seats=6)
    forged = replace(small, seats=6)
    object.__setattr__(forged, "seats", 8)
    with pytest.raises(SeatingError, match="seats 6, and 8 players are seated"):
        table.set_config(forged)


def test_m8_the_button_moves_one_seat_into_and_out_of_stud() -> None:
    horse = mix("horse")
    rng = random.Random(3)
    table = seated(horse.config("flhe", (20, 40)), dict.fromkeys((0, 2, 4, 6), 4000))
    buttons = []
    for key in ("flhe", "flhe", "stud", "stud", "flhe"):
        table.set_config(horse.config(key, (20, 40)))
        table.start_hand(Deck.shuffled(rng))
        buttons.append(table.button)
        while table.hand_in_progress:
            act(table, rng)
    assert buttons == [0, 2, 4, 6, 0]


@pytest.mark.parametrize("change", [8, None])
def test_a_table_plays_a_horse_rotation_with_chips_conserved(change: int | None) -> None:
    horse = mix("horse").every(change)
    level = (20, 40)
    rng = random.Random(19)
    table = seated(horse.config("flhe", level), dict.fromkeys((0, 1, 3, 5, 6), 2000))
    total = 5 * 2000
    rotation = Rotation(horse)
    played: list[str] = []
    while len(table.occupied()) > 1 and len(played) < 120:
        table.set_config(horse.config(rotation.game, level))
        table.start_hand(Deck.shuffled(rng))
        assert table.hand is not None
        played.append(table.hand.game.key)
        while table.hand_in_progress:
            act(table, rng)
            assert chips(table) == total
        assert sum(table.stack(s) for s in table.occupied()) == total
        assert table.button is not None
        rotation = rotation.after_hand(
            button=table.button, seats=table.occupied(), table_seats=table.config.seats
        )
    # Every game of HORSE was played, in HORSE's order.
    order = [k for i, k in enumerate(played) if i == 0 or played[i - 1] != k]
    assert order[:5] == HORSE
    if change == 8:
        assert played[:40] == [k for k in HORSE for _ in range(8)]


# -- a tournament's blind levels -------------------------------------------------------


@pytest.mark.parametrize("key", ["flhe", "flo8", "27td"])
def test_m9_a_blind_level_keeps_the_blinds_of_a_limit_game_and_bets_the_big_blind(key: str) -> None:
    stakes = stakes_for_blinds(key, 50, 100, ante=10)
    assert (stakes["small_blind"], stakes["big_blind"], stakes["ante"]) == (50, 100, 0)
    assert (stakes["small_bet"], stakes["big_bet"]) == (100, 200)


def test_m9_a_blind_level_of_stud_antes_and_brings_in_by_the_big_blind_as_small_bet() -> None:
    stakes = stakes_for_blinds("razz", 50, 100, ante=10)
    assert (stakes["ante"], stakes["bring_in"], stakes["small_bet"]) == (20, 50, 100)


def test_m9_a_blind_level_of_a_big_bet_game_is_played_as_it_is_with_its_ante() -> None:
    stakes = stakes_for_blinds("nlhe", 25, 50, ante=5)
    assert (stakes["small_blind"], stakes["big_blind"], stakes["ante"]) == (25, 50, 5)
    assert stakes["ante_kind"] is AnteKind.PER_PLAYER
    assert stakes_for_blinds("plo", 25, 50)["ante_kind"] is AnteKind.NONE


def test_m8_a_view_after_a_change_of_game_shows_no_hand_of_the_old_game() -> None:
    horse = mix("horse")
    rng = random.Random(5)
    table = seated(horse.config("flhe", (20, 40)), {0: 2000, 1: 2000})
    table.start_hand(Deck.shuffled(rng))
    while table.hand_in_progress:
        act(table, rng)
    table.set_config(horse.config("flhe", (40, 80)))  # the same game: the last hand stays
    assert table.view(0).street is not None
    table.set_config(horse.config("razz", (20, 40)))
    view = table.view(0)
    assert (table.hand, view.street, view.board, view.config.game.key) == (None, None, (), "razz")
    assert all(s.cards is None and not s.in_hand for s in view.seats)
