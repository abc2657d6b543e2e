"""docs/rules.md's "The games, one by one" stays true: every ``create_table`` example on
the page opens a table (read as the server reads it: the protocol's ``CreateTable``, then
``server.hosting.table_mix`` and ``table_config``), and every preset of ``engine.GAMES``
has a subsection naming its key, its code, its seats and a table of it.

An example is any JSON object on the page that starts ``{"type": "create_table"``, in a
code block or not, so none can be written in a way that escapes the check.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import GAMES, EngineError, TableConfig
from server import protocol
from server.hosting import table_config, table_mix

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
TEXT = RULES.read_text()
TITLE = "## The games, one by one"
START = re.compile(r'\{\s*"type"\s*:\s*"create_table"')


def create_tables(text: str) -> list[dict[str, Any]]:
    """Every ``create_table`` JSON object in ``text``, in order."""
    decoder = json.JSONDecoder()
    found = []
    for match in START.finditer(text):
        example, _ = decoder.raw_decode(text, match.start())
        found.append(example)
    return found


def section(text: str, title: str) -> str:
    """The ``##`` section ``title`` of ``text``, up to the next ``##`` heading."""
    start = text.index(f"\n{title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : None if end == -1 else end]


def subsections(text: str) -> dict[str, str]:
    """The ``###`` subsections of a section, by heading."""
    parts = re.split(r"^### (.+)$", text, flags=re.MULTILINE)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def build(example: dict[str, Any]) -> TableConfig:
    """The table a ``create_table`` opens, as ``Hosting.create_for`` builds it."""
    message = protocol.CreateTable.model_validate(example)
    if message.mix is not None and (message.game != "nlhe" or message.cap is not None):
        raise engine.InvalidConfigError("a mixed game takes no game or cap of its own")
    fields = message.model_dump()
    return table_config(fields, table_mix(fields))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a markdown page (a repeated heading gets ``-1``, ``-2``…)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.MULTILINE):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


EXAMPLES = create_tables(TEXT)
GAMES_SECTION = section(TEXT, TITLE)
SUBSECTIONS = subsections(GAMES_SECTION)


def test_the_page_has_an_example_for_every_preset() -> None:
    assert len(create_tables(GAMES_SECTION)) >= len(GAMES)


@pytest.mark.parametrize("example", EXAMPLES, ids=[str(e.get("name")) for e in EXAMPLES])
def test_every_create_table_example_opens_a_table(example: dict[str, Any]) -> None:
    try:
        config = build(example)
    except (EngineError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        pytest.fail(f"docs/rules.md: {json.dumps(example)} is refused: {exc}")
    assert config.seats == example.get("seats", 6)
    if "game" in example:
        assert config.game.key.startswith(engine.game(example["game"]).key)


def test_a_bad_example_would_be_caught() -> None:
    bad = '{"type": "create_table", "name": "x", "game": "plo6", "big_blind": 2, "seats": 9}'
    (example,) = create_tables(f"text `{bad}` text")
    with pytest.raises(EngineError, match="2 to 7 seats"):
        build(example)


@pytest.mark.parametrize("key", list(GAMES))
def test_every_preset_has_a_subsection_with_its_code_seats_and_a_table(key: str) -> None:
    game = GAMES[key]
    titles = [t for t, body in SUBSECTIONS.items() if f"`{key}`" in body]
    assert titles, f"no subsection of {TITLE!r} names `{key}`"
    body = SUBSECTIONS[titles[0]]
    said = re.search(rf"`{re.escape(game.code)}`[^A-Za-z]*(PHH|ours)", body)
    assert said, f"{titles[0]!r} does not give {key}'s code `{game.code}` as PHH's or ours"
    assert said[1] == ("PHH" if game.phh else "ours"), (key, game.code, said[0])
    seats = re.search(r"\*\*Seats:\*\*([^*]*)", body)
    assert seats and re.search(rf"\b{game.max_players}\b", seats[1]), (key, game.max_players)
    tables = [e for e in create_tables(body) if "game" in e]
    assert any(engine.game(e["game"]) is game for e in tables), f"no table of {key}"


def test_each_example_sits_under_its_own_game() -> None:
    for title, body in SUBSECTIONS.items():
        for example in create_tables(body):
            if "game" not in example:
                continue
            key = engine.game(example["game"]).key
            assert f"`{key}`" in body or f"`{key.split('-')[0]}`" in body, (title, key)


def test_the_jokers_subsection_names_every_game_that_takes_jokers() -> None:
    (body,) = [b for t, b in SUBSECTIONS.items() if t.startswith("Jokers")]
    takes = []
    for key, game in GAMES.items():
        try:
            game.with_jokers(1, "wild")
        except EngineError:
            continue
        takes.append(key)
    assert takes
    listed = re.search(r"for any game ranked high on the 52 cards:([^(]*)", body)
    assert listed
    assert re.findall(r"`([^`]+)`", listed[1]) == takes
    for jokers, rule in ((1, "wild"), (1, "bug"), (2, "wild"), (2, "bug")):
        variant = GAMES[takes[0]].with_jokers(jokers, rule)  # type: ignore[arg-type]
        assert f"`{variant.key.removeprefix(takes[0])}`" in body
        assert f"`{variant.code.removeprefix(GAMES[takes[0]].code)}`" in body


def test_the_section_comes_before_mixed_games_and_the_intro_links_to_it() -> None:
    assert TEXT.index(f"\n{TITLE}\n") < TEXT.index("\n## Mixed games\n")
    intro = TEXT[: TEXT.index("\n## ")]
    assert f"](#{slug(TITLE.removeprefix('## '))})" in intro


def test_the_sections_links_lead_somewhere() -> None:
    here = anchors(TEXT)
    links = re.findall(r"\]\(([^)\s]*)\)", TEXT[: TEXT.index("\n## ")] + GAMES_SECTION)
    assert links
    for link in links:
        page, _, anchor = link.partition("#")
        target = here if not page else anchors((DOCS / page).read_text())
        assert anchor in target, f"docs/rules.md links to {link!r}, which is not a heading"
