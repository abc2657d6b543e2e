"""The fair shuffle: seed, commitment, the deck it gives, and checking a hand against it.

The deck is pinned three ways: a known-answer vector (also printed in docs/fairness.md,
and reproduced there by an independent JavaScript verifier), a transcription of the
documented algorithm that uses nothing of ours, and a uniformity check over 20,000 seeds.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import math
import random
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

import engine
from engine import Card, Hand, Table, TableConfig, history
from server import fairness
from server.fairness import (
    HandIdentity,
    SeedStream,
    Shuffle,
    UnverifiableError,
    commitment,
    deck_from_seed,
    new_seed,
    verify_history,
    verify_stored,
)
from server.hosting import house_config
from server.store import Store, hand_rows
from tests.helpers import play_out

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"

# The known-answer vector: docs/fairness.md prints the same values.
KAT_SEED = bytes(range(32))
KAT_IDENTITY = HandIdentity("example", 1)
KAT_COMMITMENT = "a9ddf05322a4df0e4d9ede83c501dc1917adabc4dac1a8de0f0fc5d19ea608f2"
KAT_BLOCK0 = "664fcada6ac96f343b2c56799470f36c04a91c22b2ba356efdbb7d9659ad47b1"
KAT_FIRST9 = "Qc 2s Qs Jd 7d 6s 2c 6c 3d"
KAT_DECK = (
    "Qc 2s Qs Jd 7d 6s 2c 6c 3d 5d Ac 2d 4c Tc 6h Ks 9d 8s 3h 2h 4s Js 9h 5c Ad As "
    "Kh Jc 6d 9s Ts 7s Ah Td 8c 5h 3s 8d Kd Th 9c Qd 3c 7c 7h Kc 4d Qh 8h 4h 5s Jh"
)


def reference_deck(seed: bytes, table: str, hand_number: int) -> list[str]:
    """docs/fairness.md's algorithm, transcribed with nothing but hashlib."""
    identity = f"pokerroom/v1/{table}/{hand_number}".encode()
    pending = bytearray()
    counter = 0

    def next_byte() -> int:
        nonlocal counter
        if not pending:
            pending.extend(hashlib.sha256(seed + identity + counter.to_bytes(8, "big")).digest())
            counter += 1
        return pending.pop(0)

    cards = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    for i in range(51, 0, -1):
        width = (i + 1).bit_length()
        j = next_byte() & ((1 << width) - 1)
        while j > i:
            j = next_byte() & ((1 << width) - 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def names(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


# -- seed, identity, commitment ------------------------------------------------------------


def test_new_seed_is_32_fresh_bytes() -> None:
    seeds = {new_seed() for _ in range(100)}
    assert len(seeds) == 100 and all(len(s) == 32 for s in seeds)


def test_identity_is_versioned_utf8_of_table_and_hand_number() -> None:
    assert HandIdentity("main", 7).to_bytes() == b"pokerroom/v1/main/7"
    assert HandIdentity("café/2", 12).to_bytes() == "pokerroom/v1/café/2/12".encode()
    assert str(HandIdentity("main", 7)) == "pokerroom/v1/main/7"


@pytest.mark.parametrize(
    ("table", "number"), [("main", -1), ("main", True), ("main", 1.0), (3, 1), ("main", "1")]
)
def test_identity_rejects_what_is_not_a_table_name_and_hand_number(
    table: object, number: object
) -> None:
    with pytest.raises(ValueError, match=r"table name|hand number"):
        HandIdentity(table, number)  # type: ignore[arg-type]


def test_commitment_is_sha256_of_identity_newline_seed() -> None:
    seed = new_seed()
    identity = HandIdentity("main", 3)
    expected = hashlib.sha256(b"pokerroom/v1/main/3\n" + seed).hexdigest()
    assert commitment(seed, identity) == expected


def test_commitment_changes_with_seed_table_and_hand_number() -> None:
    seed = new_seed()
    other = bytes([seed[0] ^ 1]) + seed[1:]
    base = commitment(seed, HandIdentity("main", 3))
    changed = {
        commitment(other, HandIdentity("main", 3)),
        commitment(seed, HandIdentity("main", 4)),
        commitment(seed, HandIdentity("main2", 3)),
        commitment(seed, HandIdentity("mai", 3)),
    }
    assert base not in changed and len(changed) == 4


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(33), "00" * 32])
def test_a_seed_is_exactly_32_bytes(seed: object) -> None:
    with pytest.raises(ValueError, match="a seed is 32 bytes"):
        commitment(seed, KAT_IDENTITY)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a seed is 32 bytes"):
        SeedStream(seed, KAT_IDENTITY)  # type: ignore[arg-type]


# -- the stream and the deck ---------------------------------------------------------------


def test_stream_is_sha256_in_counter_mode() -> None:
    stream = SeedStream(KAT_SEED, KAT_IDENTITY)
    prefix = KAT_SEED + b"pokerroom/v1/example/1"
    blocks = b"".join(hashlib.sha256(prefix + i.to_bytes(8, "big")).digest() for i in range(3))
    assert blocks[:32].hex() == KAT_BLOCK0
    assert stream.read(40) == blocks[:40]
    assert stream.read(56) == blocks[40:96]


def test_getrandbits_takes_whole_big_endian_bytes_and_keeps_the_low_bits() -> None:
    stream = SeedStream(KAT_SEED, KAT_IDENTITY)
    data = bytes.fromhex(KAT_BLOCK0)
    assert stream.getrandbits(0) == 0  # takes nothing
    assert stream.getrandbits(6) == data[0] & 0b111111
    assert stream.getrandbits(8) == data[1]
    assert stream.getrandbits(12) == int.from_bytes(data[2:4], "big") & 0xFFF
    assert stream.getrandbits(1) == data[4] & 1
    stream.read(26)  # to the end of block 0: the next draw spans two blocks
    block1 = hashlib.sha256(KAT_SEED + b"pokerroom/v1/example/1" + bytes(7) + b"\x01").digest()
    assert stream.getrandbits(16) == int.from_bytes(data[31:] + block1[:1], "big")
    with pytest.raises(ValueError, match="non-negative"):
        stream.getrandbits(-1)


def test_known_answer_vector() -> None:
    assert commitment(KAT_SEED, KAT_IDENTITY) == KAT_COMMITMENT
    deck = deck_from_seed(KAT_SEED, KAT_IDENTITY)
    assert names(deck.cards[:9]) == KAT_FIRST9
    assert names(deck.cards) == KAT_DECK


def test_docs_print_the_known_answer_vector() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for value in (KAT_SEED.hex(), KAT_COMMITMENT, KAT_BLOCK0, KAT_FIRST9, KAT_DECK):
        assert value in " ".join(text.split()), value


def test_deck_is_the_documented_algorithm() -> None:
    rng = random.Random(2026)
    for number in range(300):
        seed = rng.randbytes(32)
        table = rng.choice(["main", "t/2", "Zoë"])
        expected = reference_deck(seed, table, number)
        assert names(deck_from_seed(seed, HandIdentity(table, number)).cards).split() == expected


def test_same_seed_and_identity_give_the_same_deck_anything_else_another() -> None:
    seed = new_seed()
    deck = deck_from_seed(seed, HandIdentity("main", 1))
    assert deck == deck_from_seed(seed, HandIdentity("main", 1))
    assert Shuffle(HandIdentity("main", 1), seed).deck() == deck
    others = [
        deck_from_seed(seed, HandIdentity("main", 2)),
        deck_from_seed(seed, HandIdentity("other", 1)),
        deck_from_seed(new_seed(), HandIdentity("main", 1)),
    ]
    assert all(other != deck for other in others)


# -- uniformity ----------------------------------------------------------------------------

UNIFORMITY_DECKS = 20_000


def chi_square_bound(df: int, x: float = 30.0) -> float:
    """A value a chi-square variable with ``df`` degrees of freedom exceeds with
    probability at most e^-x (Laurent and Massart 2000, Lemma 1:
    P(X >= df + 2 sqrt(df x) + 2 x) <= e^-x). With x = 30 that is below 1e-13."""
    return df + 2 * math.sqrt(df * x) + 2 * x


def position_counts(deal: Callable[[bytes], list[int]]) -> list[list[int]]:
    """counts[card code][position] over UNIFORMITY_DECKS fixed seeds."""
    counts = [[0] * 52 for _ in range(52)]
    for i in range(UNIFORMITY_DECKS):
        for position, code in enumerate(deal(i.to_bytes(32, "big"))):
            counts[code][position] += 1
    return counts


def chi_squares(counts: list[list[int]]) -> tuple[float, float]:
    """Pearson's statistic per card (51 degrees of freedom; the largest of the 52), and
    over the whole card-by-position table ((52-1)^2 degrees of freedom: every row and
    column sums to the number of decks)."""
    expected = UNIFORMITY_DECKS / 52  # about 385 a cell: the chi-square approximation holds
    per_card = [sum((o - expected) ** 2 / expected for o in row) for row in counts]
    return max(per_card), sum(per_card)


UNIFORMITY_IDENTITY = HandIdentity("uniformity", 1)


def test_every_card_is_equally_likely_in_every_position() -> None:
    counts = position_counts(
        lambda seed: [c.code for c in deck_from_seed(seed, UNIFORMITY_IDENTITY).cards]
    )
    worst_card, overall = chi_squares(counts)
    # Thresholds: about 189 and 3,220, where the means are 51 and 2,601; the largest of
    # 52 statistics at most multiplies the tail by 52. The seeds are fixed, so this never
    # flakes; a uniform shuffle would fail it with other seeds with probability < 1e-11.
    assert worst_card < chi_square_bound(51)
    assert overall < chi_square_bound(51 * 51)


def _biased(kind: str) -> Callable[[bytes], list[int]]:
    def deal(seed: bytes) -> list[int]:
        stream = SeedStream(seed, UNIFORMITY_IDENTITY)
        cards = list(range(52))
        if kind == "swap with any card":  # the classic naive shuffle
            for i in range(51, -1, -1):
                j = stream.getrandbits(6)
                while j > 51:
                    j = stream.getrandbits(6)
                cards[i], cards[j] = cards[j], cards[i]
            return cards
        bits = 6 if kind == "modulo 64" else 8
        for i in range(51, 0, -1):
            j = stream.getrandbits(bits) % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    return deal


@pytest.mark.parametrize("kind", ["swap with any card", "modulo 64", "modulo 256"])
def test_the_uniformity_check_catches_biased_shuffles(kind: str) -> None:
    _, overall = chi_squares(position_counts(_biased(kind)))
    assert overall > chi_square_bound(51 * 51)


# -- hands played from a seed --------------------------------------------------------------

NAMES = [f"player{i}" for i in range(6)]


def play(
    count: int, rng: random.Random, *, table_name: str = "main", showdown: bool = False
) -> Iterator[tuple[Hand, Shuffle]]:
    """Hands at one six-seat table, each dealt from its own Shuffle. The seeds come from
    ``rng`` so that a failure reproduces; the server draws them with Shuffle.new."""
    table = Table(TableConfig(small_blind=50, big_blind=100, seats=6, min_buy_in=100))
    for _ in range(count):
        for chair in range(6):
            if chair not in table.occupied():
                # Newcomers post at once: waiting for the big blind could leave one player.
                table.sit_down(chair, rng.choice([300, 2_000, 10_000]), wait_for_big_blind=False)
        shuffle = Shuffle(HandIdentity(table_name, table.hand_number + 1), rng.randbytes(32))
        table.start_hand(shuffle.deck())
        assert table.hand is not None and table.hand_number == shuffle.identity.hand_number
        if showdown:
            play_out(table, rng, raise_share=0, fold_share=0)
        else:
            play_out(table, rng)
        yield table.hand, shuffle


def phh(hand: Hand, shuffle: Shuffle) -> str:
    """The hand's PHH as the server stores it: with the shuffle's fields."""
    hh = history.from_hand(hand, players=[NAMES[s] for s in hand.seats])
    hh.fields.update(shuffle.phh_fields())
    return history.dump(hh)


@pytest.fixture
def showdown_text() -> str:
    """One hand checked down to a showdown: hole cards, a full board, cards shown."""
    hand, shuffle = next(play(1, random.Random(5), showdown=True))
    return phh(hand, shuffle)


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def field(text: str, name: str) -> str:
    found = re.search(rf'^{name} = "([^"]*)"$', text, re.MULTILINE)
    assert found is not None
    return found.group(1)


def test_shuffle_fields_and_repr_keep_the_seed_until_asked() -> None:
    shuffle = Shuffle.new("main", 9)
    assert shuffle.seed.hex() not in repr(shuffle)
    assert shuffle.phh_fields() == {
        "table": "main",
        "hand": 9,
        "_deck_commitment": commitment(shuffle.seed, HandIdentity("main", 9)),
        "_seed": shuffle.seed.hex(),
    }
    assert Shuffle.new("main", 9).seed != shuffle.seed


def test_played_hands_round_trip_through_phh_and_verify() -> None:
    shown = 0
    for hand, shuffle in play(60, random.Random(11)):
        text = phh(hand, shuffle)
        shown += text.count(" sm ")
        result = verify_history(history.load(text))
        assert result.ok, result.message
        assert result.identity == shuffle.identity
        assert result.commitment == shuffle.commitment
        assert result.cards_checked >= 2 * len(hand.seats) + len(hand.board)
        assert result.message.startswith("verified: the seed matches commitment")
    assert shown > 0  # showdowns were checked too


def game_hand(key: str, rng: random.Random) -> tuple[Hand, Shuffle]:
    """A hand of game ``key`` dealt from its own Shuffle of the game's cards."""
    config = house_config(engine.game(key), seats=3)
    table = Table(config)
    for chair in range(config.seats):
        table.sit_down(chair, 50 * config.unit)
    shuffle = Shuffle(HandIdentity(f"t-{key}", 1), rng.randbytes(32))
    table.start_hand(shuffle.deck(config.game.deck))
    play_out(table, rng, fold_share=0.05)
    assert table.hand is not None
    return table.hand, shuffle


@pytest.mark.parametrize("key", [k for k in engine.GAMES if k != "nlhe"])
def test_every_games_hands_verify_against_their_seed(key: str) -> None:
    rng = random.Random(key)
    for _ in range(5):
        hand, shuffle = game_hand(key, rng)
        result = verify_history(history.load(phh(hand, shuffle)))
        assert result.ok, result.message
        assert result.cards_checked >= sum(len(h) for h in hand.holes) + len(hand.board)


def tamper_a_dealt_card(key: str, text: str) -> str | None:
    """The history with one of p1's dealt cards swapped for one nobody holds, where that
    card is seen nowhere else (not drawn away, not shown); None if every one is."""
    dealt = re.search(r'"d dh p1 (\S+)"', text)
    assert dealt is not None
    width = 1 if key == "dice" else 2
    cards = [dealt.group(1)[i : i + width] for i in range(0, len(dealt.group(1)), width)]
    deck = [str(c) for c in engine.game(key).deck.cards]
    for k, card in enumerate(cards):
        if text.count(card) == 1 or (key == "dice" and text.count(dealt.group(1)) == 1 and k == 0):
            other = next(c for c in deck if c != card and (key == "dice" or c not in text))
            swapped = "".join([*cards[:k], other, *cards[k + 1 :]])
            return text.replace(dealt.group(0), f'"d dh p1 {swapped}"', 1)
    return None


@pytest.mark.parametrize("key", ["stud", "27td", "razz", "plo8"])
def test_a_card_the_seed_did_not_deal_is_named_in_any_game(key: str) -> None:
    rng = random.Random(3)
    tampered = None
    while tampered is None:
        hand, shuffle = game_hand(key, rng)
        tampered = tamper_a_dealt_card(key, phh(hand, shuffle))
    result = verify_history(history.load(tampered))
    assert not result.ok and result.problem == "card"
    assert "p1's down cards" in result.message and "the seed's deck deals" in result.message


def test_pokerkit_reads_the_fields_as_phh_user_defined_fields(showdown_text: str) -> None:
    from pokerkit import HandHistory

    hh = HandHistory.loads(showdown_text)  # an unexpected field would warn: an error here
    assert set(hh.user_defined_fields) == {"_deck_commitment", "_seed"}
    assert hh.table == "main" and hh.hand == 1


def test_a_tampered_seed_fails_the_commitment(showdown_text: str) -> None:
    seed = field(showdown_text, "_seed")
    flipped = seed[:-1] + ("0" if seed[-1] != "0" else "1")
    result = verify_history(history.load(edit(showdown_text, seed, flipped)))
    assert not result.ok and result.problem == "commitment"
    assert result.message.startswith(
        "commitment mismatch: SHA-256 of 'pokerroom/v1/main/1', a newline and the seed is "
    )
    assert result.found == field(showdown_text, "_deck_commitment")
    assert result.expected != result.found


def test_a_tampered_commitment_fails(showdown_text: str) -> None:
    recorded = field(showdown_text, "_deck_commitment")
    forged = ("f" if recorded[0] != "f" else "e") + recorded[1:]
    result = verify_history(history.load(edit(showdown_text, recorded, forged)))
    assert not result.ok and result.problem == "commitment"
    assert (result.expected, result.found) == (recorded, forged)
    assert f"but the hand's commitment is {forged}" in result.message


def test_another_hand_number_fails_the_commitment(showdown_text: str) -> None:
    result = verify_history(history.load(edit(showdown_text, "\nhand = 1\n", "\nhand = 2\n")))
    assert not result.ok and result.problem == "commitment"
    assert "'pokerroom/v1/main/2'" in result.message


def test_swapped_hole_cards_name_the_first_wrong_card(showdown_text: str) -> None:
    hh = history.load(showdown_text)
    first, second = hh.actions[0], hh.actions[1]
    assert first.startswith("d dh p1 ") and second.startswith("d dh p2 ")
    p1_cards, p2_cards = first.split()[3], second.split()[3]
    hh.actions[0], hh.actions[1] = f"d dh p1 {p2_cards}", f"d dh p2 {p1_cards}"
    result = verify_history(hh)
    assert not result.ok and result.problem == "card"
    assert (result.action, result.deck_position) == (1, 0)
    assert (result.expected, result.found) == (p1_cards[:2], p2_cards[:2])
    assert result.message == (
        f"action 1 ('d dh p1 {p2_cards}'): p1's first hole card is {p2_cards[:2]}, "
        f"but the seed's deck has {p1_cards[:2]} there (deck[0])"
    )


def test_a_swapped_board_card_names_its_deck_position(showdown_text: str) -> None:
    hh = history.load(showdown_text)
    n = len(hh.starting_stacks)
    index = next(i for i, a in enumerate(hh.actions) if a.startswith("d db "))
    flop = hh.actions[index].split()[2]
    turn_index = next(i for i, a in enumerate(hh.actions) if i > index and a.startswith("d db "))
    turn = hh.actions[turn_index].split()[2]
    # Swap the second flop card with the turn: both are dealt, neither where the deck says.
    hh.actions[index] = f"d db {flop[:2]}{turn}{flop[4:]}"
    hh.actions[turn_index] = f"d db {flop[2:4]}"
    result = verify_history(hh)
    assert not result.ok and result.problem == "card"
    assert (result.action, result.deck_position) == (index + 1, 2 * n + 1)
    assert (result.expected, result.found) == (flop[2:4], turn)
    assert f"board card 2 is {turn}, but the seed's deck has {flop[2:4]} there" in result.message
    assert result.cards_checked == 2 * n + 1


def test_shown_cards_must_be_the_dealt_ones(showdown_text: str) -> None:
    hh = history.load(showdown_text)
    index = next(i for i, a in enumerate(hh.actions) if re.fullmatch(r"p\d sm \S+", a))
    who, _, cards = hh.actions[index].split()
    other = next(c for c in ("2c", "3c", "4c") if c not in cards)
    hh.actions[index] = f"{who} sm {cards[:2]}{other}"
    result = verify_history(hh)
    assert not result.ok and result.problem == "card" and result.action == index + 1
    assert (result.expected, result.found) == (cards, other)
    assert f"{who} shows {other}, but the seed's deck dealt {who} " in result.message


def test_a_seed_that_matches_its_commitment_but_not_the_deal_fails_on_a_card(
    showdown_text: str,
) -> None:
    # A server that dealt some other deck and then made up a seed and a commitment for
    # it after the fact: the commitment checks, the cards do not.
    made_up = Shuffle(HandIdentity("main", 1), new_seed())
    text = edit(showdown_text, field(showdown_text, "_seed"), made_up.seed.hex())
    text = edit(text, field(showdown_text, "_deck_commitment"), made_up.commitment)
    result = verify_history(history.load(text))
    assert not result.ok and result.problem == "card" and result.action == 1


def test_unknown_cards_are_skipped_and_the_rest_checked(showdown_text: str) -> None:
    hh = history.load(showdown_text)
    cards = hh.actions[2].split()[3]
    hh.actions[2] = hh.actions[2].replace(cards, "????")
    full = verify_history(history.load(showdown_text))
    result = verify_history(hh)
    assert result.ok and result.cards_checked == full.cards_checked - 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("_seed = ", "_sead = "), "no _seed field: the history does not record the revealed seed"),
        (("_deck_commitment = ", "_other = "), "no _deck_commitment field"),
        (("table = ", "tables = "), "no table field: the hand's identity is its table and"),
        (("\nhand = 1", "\nhands = 1"), "no hand field"),
        (("\nhand = 1", '\nhand = "1"'), "hand must be an int >= 0, got '1'"),
        (('_seed = "', '_seed = "x'), "_seed must be 64 hex digits"),
        (('variant = "NT"', 'variant = "XX"'), "variant 'XX' is not a game we play"),
        (("d db ", "d db Xx"), "action 13: invalid card"),
    ],
)
def test_a_hand_missing_what_verification_needs_is_unverifiable(
    showdown_text: str, change: tuple[str, str], message: str
) -> None:
    text = showdown_text.replace(*change, 1)
    with pytest.raises(UnverifiableError, match=re.escape(message)):
        verify_history(history.load(text))


# -- pokerroom verify ----------------------------------------------------------------------

CliRun = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRun:
    """``pokerroom`` through server.cli.main."""
    import server.cli

    def run(*argv: str) -> tuple[int, str, str]:
        code = server.cli.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_verify_a_phh_file(cli: CliRun, tmp_path: Path, showdown_text: str) -> None:
    path = tmp_path / "hand.phh"
    path.write_text(showdown_text)
    code, out, err = cli("verify", str(path))
    assert (code, err) == (0, "")
    assert out.startswith(f"{path}: verified: the seed matches commitment ")
    code, out, _ = cli("verify", "--json", str(path))
    data = json.loads(out)
    assert code == 0 and data["ok"] is True and data["source"] == str(path)
    assert (data["table"], data["hand"], data["identity"]) == ("main", 1, "pokerroom/v1/main/1")
    assert data["commitment"] == field(showdown_text, "_deck_commitment")


def test_verify_a_tampered_file_exits_1(cli: CliRun, tmp_path: Path, showdown_text: str) -> None:
    hh = history.load(showdown_text)
    hh.actions[0], hh.actions[1] = hh.actions[1].replace("p2", "p1"), hh.actions[0]
    path = tmp_path / "hand.phh"
    path.write_text(history.dump(hh))
    code, out, _ = cli("verify", str(path))
    assert code == 1
    assert out.startswith(f"{path}: action 1 (")
    assert "p1's first hole card is" in out
    code, out, _ = cli("verify", "--json", str(path))
    data = json.loads(out)
    assert code == 1 and data["ok"] is False
    assert (data["problem"], data["action"], data["deck_position"]) == ("card", 1, 0)


def test_verify_a_phhs_file_checks_every_hand(cli: CliRun, tmp_path: Path) -> None:
    hands = [history.load(phh(h, s)) for h, s in play(3, random.Random(3))]
    hands[1].fields["_seed"] = new_seed().hex()
    path = tmp_path / "session.phhs"
    path.write_text(history.dump_all(hands))
    code, out, _ = cli("verify", str(path))
    lines = out.splitlines()
    assert code == 1 and len(lines) == 3
    assert lines[0].startswith(f"{path}[1]: verified")
    assert lines[1].startswith(f"{path}[2]: commitment mismatch")
    assert lines[2].startswith(f"{path}[3]: verified")


def test_verify_bad_input_exits_2(cli: CliRun, tmp_path: Path, showdown_text: str) -> None:
    missing = tmp_path / "nope.phh"
    code, _, err = cli("verify", str(missing))
    assert code == 2
    assert err == (
        f"pokerroom verify: error: {str(missing)!r} is neither a file nor a stored hand's id\n"
    )
    broken = tmp_path / "broken.phh"
    broken.write_text("variant = ")
    code, _, err = cli("verify", str(broken))
    assert code == 2 and err.startswith(f"pokerroom verify: error: {broken}: not valid PHH")
    unseeded = tmp_path / "unseeded.phh"
    unseeded.write_text(showdown_text.replace("_seed = ", "_sead = "))
    code, _, err = cli("verify", str(unseeded))
    assert code == 2
    assert err == (
        f"pokerroom verify: error: {unseeded}: "
        "no _seed field: the history does not record the revealed seed\n"
    )


# -- stored hands ----------------------------------------------------------------------------


def store(url: str, hands: list[tuple[Hand, str | None, str | None, str | None]]) -> list[int]:
    """Write ``(hand, history text, deck_commitment, seed)`` hands at table "main"."""

    async def go() -> list[int]:
        async with Store.open(url) as db:
            ids = await db.ensure_players(NAMES)
            table_id = await db.ensure_table("main", {})
            written = []
            for hand, text, deck_commitment, seed in hands:
                now = dt.datetime.now(dt.UTC)
                rows = hand_rows(
                    hand,
                    table_id=table_id,
                    player_ids=[ids[NAMES[s]] for s in hand.seats],
                    names=[NAMES[s] for s in hand.seats],
                    started_at=now,
                    ended_at=now,
                    history_text=text,
                    deck_commitment=deck_commitment,
                    seed=seed,
                )
                written.append(await db.write_hand(rows))
            return written

    return asyncio.run(go())


@pytest.fixture
def stored(tmp_path: Path) -> tuple[str, list[int], list[Shuffle]]:
    """Four hands: stored as the server stores them; without the PHH fields (columns
    only); with no seed at all; with a seed column that is not the history's."""
    url = f"sqlite+aiosqlite:///{tmp_path}/x.db"
    played = list(play(4, random.Random(8)))
    (h1, s1), (h2, s2), (h3, _), (h4, s4) = played
    other = Shuffle(s4.identity, new_seed())
    ids = store(
        url,
        [
            (h1, phh(h1, s1), s1.commitment, s1.seed.hex()),
            (h2, None, s2.commitment, s2.seed.hex()),
            (h3, None, None, None),
            (h4, phh(h4, s4), other.commitment, other.seed.hex()),
        ],
    )
    return url, ids, [s for _, s in played]


def test_verify_a_stored_hand(cli: CliRun, stored: tuple[str, list[int], list[Shuffle]]) -> None:
    url, ids, shuffles = stored
    code, out, err = cli("verify", str(ids[0]), "--db", url)
    assert (code, err) == (0, "")
    assert out.startswith(f"hand {ids[0]}: verified: the seed matches commitment")
    assert f"for 'pokerroom/v1/main/{shuffles[0].identity.hand_number}'" in out


def test_a_stored_hand_without_the_fields_uses_the_columns(
    cli: CliRun, stored: tuple[str, list[int], list[Shuffle]]
) -> None:
    url, ids, shuffles = stored
    code, out, _ = cli("verify", "--json", str(ids[1]), "--db", url)
    data = json.loads(out)
    assert code == 0 and data["ok"] is True
    assert (data["table"], data["hand"]) == ("main", shuffles[1].identity.hand_number)
    assert data["commitment"] == shuffles[1].commitment


def test_a_stored_hand_without_a_seed_is_bad_input(
    cli: CliRun, stored: tuple[str, list[int], list[Shuffle]]
) -> None:
    url, ids, _ = stored
    code, _, err = cli("verify", str(ids[2]), "--db", url)
    assert code == 2
    assert err.startswith(f"pokerroom verify: error: hand {ids[2]}: no _seed field")
    code, _, err = cli("verify", "999", "--db", url)
    assert (code, err) == (2, "pokerroom verify: error: no hand with id 999\n")


def test_a_seed_column_that_is_not_the_historys_fails(
    cli: CliRun, stored: tuple[str, list[int], list[Shuffle]]
) -> None:
    url, ids, shuffles = stored
    code, out, _ = cli("verify", "--json", str(ids[3]), "--db", url)
    data = json.loads(out)
    assert code == 1 and data["problem"] == "record"
    assert data["message"].startswith(
        "the stored record disagrees with itself: the history's _seed is "
        f"{shuffles[3].seed.hex()}, the seed column "
    )


def test_verify_stored_returns_the_result(stored: tuple[str, list[int], list[Shuffle]]) -> None:
    url, ids, shuffles = stored

    async def go() -> fairness.VerifyResult:
        async with Store.open(url) as db:
            return await verify_stored(db, ids[0])

    result = asyncio.run(go())
    assert result.ok and result.identity == shuffles[0].identity
    assert result.commitment == shuffles[0].commitment and result.problem is None
