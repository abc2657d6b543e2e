import pickle
import random

import pytest

from engine import Card, DuplicateCardError, InvalidCardError, Rank, Suit, parse_cards
from engine.cards import to_cards
from engine.deck import KUHN, LEDUC, SHORT, STANDARD, WITH_TWO_JOKERS, Deck, DeckSpec


def texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def test_parse_cards_accepts_every_rank_spelling_and_case() -> None:
    assert texts(parse_cards("As Kd 10h 9♣ tc")) == ["As", "Kd", "Th", "9c", "Tc"]
    assert texts(parse_cards("aS kD qH jC")) == ["As", "Kd", "Qh", "Jc"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("A♠ K♥ Q♦ J♣", ["As", "Kh", "Qd", "Jc"]), ("A♠️ K♥️ Q♦️ J♣️", ["As", "Kh", "Qd", "Jc"])],
)
def test_parse_cards_accepts_suit_symbols_with_or_without_variation_selector(
    text: str, expected: list[str]
) -> None:
    assert texts(parse_cards(text)) == expected


def test_parse_cards_reads_concatenated_cards_and_commas() -> None:
    assert texts(parse_cards("AhKh,2d 10s9s")) == ["Ah", "Kh", "2d", "Ts", "9s"]


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("As Xs", "Xs", 2),
        ("1h", "1h", 1),
        ("As Kd Qz", "Qz", 3),
        ("As A", "A", 2),
        ("Ahh", "Ahh", 1),
    ],
)
def test_bad_token_names_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(InvalidCardError, match=f"invalid card '{token}' at position {position}"):
        parse_cards(text)


def test_repeated_card_names_the_card() -> None:
    with pytest.raises(DuplicateCardError, match="card 'Ks' appears more than once"):
        parse_cards("Ks Qd ks")


def test_repeats_allowed_when_not_distinct() -> None:
    assert len(parse_cards("Ks Ks", distinct=False)) == 2


def test_codes_are_0_to_51_and_round_trip() -> None:
    cards = [Card.from_code(c) for c in range(52)]
    assert [c.code for c in cards] == list(range(52))
    assert len({str(c) for c in cards}) == 52
    assert all(Card.parse(str(c)) is c for c in cards)


def test_code_layout_rank_times_four_plus_suit() -> None:
    card = Card.parse("Qh")
    assert card.rank is Rank.QUEEN and card.suit is Suit.HEARTS
    assert card.code >> 2 == Rank.QUEEN - 2 and card.code & 3 == Suit.HEARTS.index


def test_cards_order_by_rank_then_suit() -> None:
    assert Card.parse("2s") < Card.parse("3c") < Card.parse("3d") < Card.parse("As")


def test_card_is_a_singleton_through_pickle() -> None:
    card = Card.parse("Td")
    assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize("code", [-1, 60, 100])
def test_from_code_rejects_out_of_range(code: int) -> None:
    with pytest.raises(InvalidCardError, match=f"card code {code} is not in 0..59"):
        Card.from_code(code)


def test_to_cards_mixes_cards_strings_and_codes() -> None:
    assert texts(to_cards(["As", 0, Card.parse("Kd")])) == ["As", "2c", "Kd"]


@pytest.mark.parametrize("bad", [[True], [60], ["AsKs"], [1.5]])
def test_to_cards_rejects_non_cards_with_position(bad: list[object]) -> None:
    with pytest.raises(InvalidCardError, match="at position 1"):
        to_cards(bad)  # type: ignore[arg-type]


def test_card_parse_wants_exactly_one_card() -> None:
    with pytest.raises(InvalidCardError, match="expected one card"):
        Card.parse("As Ks")


@pytest.mark.parametrize("spec", [STANDARD, SHORT, KUHN, LEDUC, WITH_TWO_JOKERS], ids=str)
def test_shuffled_deals_what_random_shuffle_would_from_the_same_seed(spec: DeckSpec) -> None:
    # Seeded deals are reproducible with the standard library's own shuffle.
    for seed in range(50):
        expected = list(spec.cards)
        random.Random(seed).shuffle(expected)
        assert Deck.shuffled(random.Random(seed), spec).cards == tuple(expected)
