"""docs/protocol.md and docs/protocol.schema.json, checked against a real server.

Every example in the document is played against a server on 127.0.0.1 (the document's
"About the examples" describes its table and the notation), and every message either way
is validated against the schema. The schema's client part is generated from
``server.protocol.client_schema()``; after changing ``server/protocol.py``, rewrite it with

    PYTHONPATH=. python tests/server/test_protocol_doc.py --write-schema
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import re
import sqlite3
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal

import jsonschema
import pytest
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from engine import MIXES, TableConfig, dealers_choice
from server import connections, hosting
from server.app import PokerServer, ServerSettings
from server.bots import load_bot
from server.errors import Code
from server.fairness import HandIdentity, Shuffle, commitment, deck_from_seed, verify_stored
from server.protocol import client_schema
from server.store import Store
from server.tables import TableRunner, TableSettings
from tests.server.clients import connect

DOCS = Path(__file__).resolve().parents[2] / "docs"
DOC = DOCS / "protocol.md"
SCHEMA = DOCS / "protocol.schema.json"
TIMEOUT = 10.0
"""Seconds an example waits for a documented message."""


class Mismatch(Exception):
    """The document, the schema and the server disagree (raised inside a running server,
    reported by the test outside it)."""


# -- the schema ------------------------------------------------------------------------------

HAND_WRITTEN = ("ServerMessage", "Event")
HAND_WRITTEN_PREFIXES = ("server.", "event.", "wire.")


def is_hand_written(name: str) -> bool:
    return name in HAND_WRITTEN or name.startswith(HAND_WRITTEN_PREFIXES)


def client_part() -> dict[str, Any]:
    """The schema's client definitions, as the server generates them now: the
    discriminated union ``ClientMessage`` and one definition per client message."""
    generated = client_schema()
    definitions = generated.pop("$defs")
    return {"ClientMessage": generated, **definitions}


def up_to_date(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its client part replaced by what the server generates now."""
    kept = {name: d for name, d in schema["$defs"].items() if is_hand_written(name)}
    return {**schema, "$defs": {**client_part(), **kept}}


@functools.cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@functools.cache
def validator(definition: str) -> Any:
    """A validator for one of the schema's definitions."""
    return jsonschema.Draft202012Validator(
        {"$ref": f"#/$defs/{definition}", "$defs": schema()["$defs"]}
    )


def problem(definition: str, message: Any) -> str | None:
    error = jsonschema.exceptions.best_match(validator(definition).iter_errors(message))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "the message"
    return f"{where}: {error.message}"


def client_definition(message: dict[str, Any]) -> str:
    mapping = schema()["$defs"]["ClientMessage"]["discriminator"]["mapping"]
    return str(mapping[message["type"]]).removeprefix("#/$defs/")


def check_client_message(message: Any, where: str) -> None:
    found = problem("ClientMessage", message)
    if found is None:
        return
    types = schema()["$defs"]["ClientMessage"]["discriminator"]["mapping"]
    if isinstance(message, dict) and message.get("type") in types:  # a clearer reason
        found = problem(client_definition(message), message) or found
    raise Mismatch(f"{where}: the client message does not fit the schema: {found}\n  {message}")


def check_server_message(message: Any, where: str) -> None:
    kind = message.get("type") if isinstance(message, dict) else None
    definition = f"server.{kind}"
    if definition not in schema()["$defs"]:
        raise Mismatch(f"{where}: no schema for a server message of type {kind!r}: {message}")
    found = problem(definition, message) or problem("ServerMessage", message)
    if found is not None:
        raise Mismatch(
            f"{where}: the server's message does not fit the schema: {found}\n  {message}"
        )


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_client_part_of_the_schema_is_what_the_server_generates() -> None:
    assert not any(is_hand_written(name) for name in client_part())
    assert schema() == up_to_date(schema()), (
        "docs/protocol.schema.json is stale: run "
        "PYTHONPATH=. python tests/server/test_protocol_doc.py --write-schema"
    )


def test_the_unions_name_every_server_message_and_event() -> None:
    defs = schema()["$defs"]
    for union, prefix in (("ServerMessage", "server."), ("Event", "event.")):
        listed = [d["$ref"].removeprefix("#/$defs/") for d in defs[union]["oneOf"]]
        assert sorted(listed) == sorted(name for name in defs if name.startswith(prefix))
        for name in listed:
            assert defs[name]["properties"]["type"] == {"const": name.removeprefix(prefix)}


# -- the document's examples ---------------------------------------------------------------

ELLIPSIS = "…"
YOU = "you"
EXAMPLE = re.compile(r"<!-- example: ([a-z0-9-]+) -->")
END = "<!-- end example -->"
CLOSE = re.compile(r"<!-- close(?: ([a-z]+))? -->")
DATABASE = re.compile(r"<!-- database (away|back) -->")
LABEL = re.compile(r"(client|server)(?: ([a-z]+))?(?: \((later|invalid)\))?:")
SAMPLE = "<!-- sample bot -->"


@dataclass(frozen=True)
class Step:
    kind: Literal["send", "send_raw", "expect", "close", "database"]
    connection: str
    line: int
    message: Any = None
    later: bool = False


@dataclass
class Example:
    name: str
    line: int
    steps: list[Step] = field(default_factory=list)


@dataclass
class Doc:
    examples: list[Example] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    sample_bot: str = ""


def read_doc(text: str) -> Doc:
    """The examples in the document, and whatever breaks its notation."""
    doc = Doc()
    lines = text.splitlines()
    current: Example | None = None
    previous = ""  # the last non-blank line before a fence
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("```"):
            end = i + 1
            while end < len(lines) and not lines[end].strip().startswith("```"):
                end += 1
            body = "\n".join(lines[i + 1 : end])
            language = line[3:].strip()
            _read_block(doc, current, language=language, label=previous, body=body, line=i + 1)
            i, previous = end + 1, ""
            continue
        if found := EXAMPLE.fullmatch(line):
            if current is not None:
                doc.problems.append(f"line {i + 1}: an example starts inside {current.name!r}")
            current = Example(found[1], i + 1)
            doc.examples.append(current)
        elif line == END:
            if current is None:
                doc.problems.append(f"line {i + 1}: an end marker outside an example")
            current = None
        elif found := CLOSE.fullmatch(line):
            if current is None:
                doc.problems.append(f"line {i + 1}: a close marker outside an example")
            else:
                current.steps.append(Step("close", found[1] or YOU, i + 1))
        elif found := DATABASE.fullmatch(line):
            if current is None:
                doc.problems.append(f"line {i + 1}: a database marker outside an example")
            else:  # the connection field says which: away or back
                current.steps.append(Step("database", found[1], i + 1))
        if line:
            previous = line
        i += 1
    if current is not None:
        doc.problems.append(f"example {current.name!r} has no end marker")
    names = [e.name for e in doc.examples]
    doc.problems += [f"two examples are called {n!r}" for n in set(names) if names.count(n) > 1]
    return doc


def _read_block(
    doc: Doc, current: Example | None, *, language: str, label: str, body: str, line: int
) -> None:
    if language == "python" and label == SAMPLE:
        doc.sample_bot = body
    found = LABEL.fullmatch(label)
    role, name, mode = (found[1], found[2] or YOU, found[3]) if found else ("", YOU, None)
    if language == "text" and (role, mode) == ("client", "invalid") and current is not None:
        current.steps.append(Step("send_raw", name, line, body))
        return
    if language != "json":
        return
    if current is None or not role or mode == "invalid":
        doc.problems.append(f"line {line}: a json block that is not a labelled step of an example")
        return
    try:
        message = json.loads(body)
    except ValueError as exc:
        doc.problems.append(f"line {line}: not JSON: {exc}")
        return
    if role == "client" and mode == "later":
        doc.problems.append(f"line {line}: '(later)' is for server messages")
    kind: Literal["send", "expect"] = "send" if role == "client" else "expect"
    current.steps.append(Step(kind, name, line, message, mode == "later"))


DOCUMENT = read_doc(DOC.read_text(encoding="utf-8"))


def match(expected: Any, actual: Any, captures: dict[str, Any], path: str = "") -> str | None:
    """Why ``actual`` does not match the documented ``expected``, or None if it does.

    Objects must have exactly the documented keys. ``"…"`` matches any value; ``"…name"``
    matches any value and remembers it as ``name`` (the same value again where ``name``
    appears again); a list ending in ``"…"`` matches any list that starts with its items.
    """
    here = path or "the message"
    if isinstance(expected, str) and expected.startswith(ELLIPSIS):
        name = expected.removeprefix(ELLIPSIS)
        if name:
            if name in captures and captures[name] != actual:
                return f"{here}: {actual!r} is not {expected} ({captures[name]!r})"
            captures[name] = actual
        return None
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{here}: the server sent {actual!r}, not an object"
        missing, extra = expected.keys() - actual.keys(), actual.keys() - expected.keys()
        if missing or extra:
            return f"{here}: the server left out {sorted(missing)} and added {sorted(extra)}"
        for key, value in expected.items():
            found = match(value, actual[key], captures, f"{path}.{key}" if path else key)
            if found is not None:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{here}: the server sent {actual!r}, not a list"
        open_ended = bool(expected) and expected[-1] == ELLIPSIS
        items = expected[:-1] if open_ended else expected
        if len(actual) < len(items) or (len(actual) != len(items) and not open_ended):
            return f"{here}: the server sent {len(actual)} items, the doc {len(items)}"
        for n, (e, a) in enumerate(zip(items, actual, strict=False)):
            found = match(e, a, captures, f"{here}[{n}]")
            if found is not None:
                return found
        return None
    if isinstance(expected, bool) or isinstance(actual, bool):
        same = type(expected) is type(actual) and expected == actual
    elif isinstance(expected, int | float) and isinstance(actual, int | float):
        same = expected == actual
    else:
        same = type(expected) is type(actual) and expected == actual
    return None if same else f"{here}: the server sent {actual!r}, the doc says {expected!r}"


def substitute(message: Any, captures: dict[str, Any], where: str) -> Any:
    """A documented client message with each ``"…name"`` replaced by what it stands for."""
    if isinstance(message, dict):
        return {k: substitute(v, captures, where) for k, v in message.items()}
    if isinstance(message, list):
        return [substitute(v, captures, where) for v in message]
    if isinstance(message, str) and message.startswith(ELLIPSIS):
        name = message.removeprefix(ELLIPSIS)
        if name not in captures:
            raise Mismatch(f"{where}: {message!r} names nothing the server has sent yet")
        return captures[name]
    return message


def placeholders(message: Any) -> dict[str, Any]:
    """A value that fits for each ``"…name"`` in a documented client message (the
    session and account tokens the server sends are strings of 16 to 128 characters)."""
    if isinstance(message, dict):
        return {k: v for value in message.values() for k, v in placeholders(value).items()}
    if isinstance(message, list):
        return {k: v for value in message for k, v in placeholders(value).items()}
    if isinstance(message, str) and message.startswith(ELLIPSIS) and message != ELLIPSIS:
        return {message.removeprefix(ELLIPSIS): "t" * 32}
    return {}


def fixed_shuffle(table: str, hand_number: int) -> Shuffle:
    """Hand ``n``'s seed is SHA-256 of the text ``"{table} {n}"``, as the document says."""
    seed = hashlib.sha256(f"{table} {hand_number}".encode()).digest()
    return Shuffle(HandIdentity(table, hand_number), seed)


def seeded_runner(*args: Any, **kwargs: Any) -> TableRunner:
    """A table whose seeds are :func:`fixed_shuffle`'s, from before its first hand."""
    runner = TableRunner(*args, **kwargs)
    runner.core.new_shuffle = fixed_shuffle
    return runner


@contextlib.asynccontextmanager
async def example_server(tmp_path: Path, **settings: Any) -> AsyncIterator[str]:
    """The document's server: table "demo" (3 seats, blinds 50/100, buy-ins 4,000 to
    20,000), house bot "house-0", a calling station, in seat 0, the seeds of every table
    fixed (those players create too), and tables players create closing after a second
    idle. ``settings`` change the server's settings (tests other than the examples)."""
    options = {"port": 0, "house_think_seconds": 0.0, "idle_table_seconds": 1.0, **settings}
    async with (
        Store.open(f"sqlite+aiosqlite:///{tmp_path / 'doc.db'}") as store,
        contextlib.AsyncExitStack() as stack,
    ):
        patch = stack.enter_context(pytest.MonkeyPatch.context())
        patch.setattr(hosting, "TableRunner", seeded_runner)
        app = PokerServer(store, ServerSettings(**options))
        async with app.running() as ws_server:
            runner = await app.hosting.create_table(
                "Demo", TableConfig(small_blind=50, big_blind=100, seats=3)
            )
            bot = {0: ("house-0", load_bot("calling-station"))}
            await app.hosting.add_house_bots(runner, bot, stack=10_000)
            port = next(iter(ws_server.sockets)).getsockname()[1]
            yield f"127.0.0.1:{port}"


async def expect(ws: ClientConnection, step: Step, captures: dict[str, Any], where: str) -> None:
    """Read until the documented message comes: it must be the next one, or with
    ``(later)`` any later one (but no error may come first)."""
    skipped: list[Any] = []
    try:
        async with asyncio.timeout(TIMEOUT):
            while True:
                message = json.loads(await ws.recv())
                check_server_message(message, where)
                trial = dict(captures)
                found = match(step.message, message, trial)
                if found is None:
                    captures.update(trial)
                    return
                if not step.later:
                    raise Mismatch(f"{where}: {found}\n  the server sent: {json.dumps(message)}")
                if message["type"] == "error":
                    raise Mismatch(f"{where}: an error came first: {json.dumps(message)}")
                skipped.append(message)
    except TimeoutError:
        recent = "\n  ".join(json.dumps(m) for m in skipped[-5:])
        raise Mismatch(
            f"{where}: no such message in {TIMEOUT} s; the last ones:\n  {recent}"
        ) from None


async def play(example: Example, address: str, database: Path) -> None:
    connections: dict[str, ClientConnection] = {}
    captures: dict[str, Any] = {}
    holder: sqlite3.Connection | None = None  # holds the database's write lock: away
    try:
        for step in example.steps:
            where = f"docs/protocol.md line {step.line} ({example.name}, {step.connection})"
            if step.kind == "database":  # another process holds the write lock, or not
                if step.connection == "away":
                    holder = sqlite3.connect(database, isolation_level=None)
                    holder.execute("BEGIN IMMEDIATE")
                elif holder is not None:
                    holder.close()
                    holder = None
            elif step.kind == "close":
                await connections.pop(step.connection).close()
            elif step.kind in ("send", "send_raw"):
                if step.connection not in connections:
                    connections[step.connection] = await connect(f"ws://{address}/ws")
                if step.kind == "send_raw":
                    await connections[step.connection].send(step.message)
                    continue
                message = substitute(step.message, captures, where)
                check_client_message(message, where)
                await connections[step.connection].send(json.dumps(message))
            elif step.connection not in connections:
                raise Mismatch(f"{where}: {step.connection!r} has sent nothing yet")
            else:
                await expect(connections[step.connection], step, captures, where)
    finally:
        if holder is not None:
            holder.close()
        for ws in connections.values():
            await ws.close()


def test_the_document_follows_its_notation() -> None:
    assert DOCUMENT.problems == []
    assert len(DOCUMENT.examples) >= 5
    assert DOCUMENT.sample_bot


@pytest.mark.parametrize("example", DOCUMENT.examples, ids=lambda e: e.name)
async def test_the_example_runs_against_a_real_server(example: Example, tmp_path: Path) -> None:
    failure = None
    async with example_server(tmp_path) as address:
        try:
            await play(example, address, tmp_path / "doc.db")
        except Mismatch as exc:
            failure = str(exc)
    if failure is not None:
        pytest.fail(failure, pytrace=False)


def documented(kind: Literal["send", "expect"]) -> list[dict[str, Any]]:
    return [
        step.message
        for example in DOCUMENT.examples
        for step in example.steps
        if step.kind == kind and isinstance(step.message, dict)
    ]


def test_every_client_example_fits_the_schema() -> None:
    for example in DOCUMENT.examples:
        for step in example.steps:
            if step.kind == "send_raw":  # shown as invalid: the schema must reject it too
                try:
                    raw = json.loads(step.message)
                except ValueError:
                    continue
                assert problem("ClientMessage", raw) is not None, f"line {step.line}"
            elif step.kind == "send":
                # A "…name" stands for a value the server sent; try it with one that fits.
                fits = placeholders(step.message)
                message = substitute(step.message, fits, f"line {step.line}")
                check_client_message(message, f"docs/protocol.md line {step.line}")


def test_the_examples_show_every_message_and_every_event() -> None:
    defs = schema()["$defs"]
    sent = {m["type"] for m in documented("send")}
    assert sent == set(defs["ClientMessage"]["discriminator"]["mapping"])
    received = {m["type"] for m in documented("expect")}
    assert received == {n.removeprefix("server.") for n in defs if n.startswith("server.")}
    events = {m["event"]["type"] for m in documented("expect") if m["type"] == "event"}
    assert events == {n.removeprefix("event.") for n in defs if n.startswith("event.")}
    errors = {m["code"] for m in documented("expect") if m["type"] == "error"}
    assert len(errors) >= 10


HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def seeds_carried(message: Any, seeds: frozenset[str] = frozenset(), path: str = "") -> list[str]:
    """Where ``message`` carries a seed: a ``deck_revealed`` message, a ``seed`` field at
    any depth, one of ``seeds`` (hex) anywhere, or any 64-hex-digit value that is not a
    ``commitment``. The seed rebuilds the whole deck, hole cards included: no message may
    carry it, to a player or a spectator (docs/protocol.md, Fairness)."""
    found = []
    if isinstance(message, dict):
        if message.get("type") == "deck_revealed":
            found.append(f"{path or 'the message'}: a deck_revealed")
        for key, value in message.items():
            where = f"{path}.{key}" if path else key
            if key == "seed":
                found.append(where)
            elif key == "commitment" and isinstance(value, str):
                if value.lower() in seeds:
                    found.append(where)
            else:
                found += seeds_carried(value, seeds, where)
    elif isinstance(message, list):
        for n, value in enumerate(message):
            found += seeds_carried(value, seeds, f"{path}[{n}]")
    elif isinstance(message, str) and (message.lower() in seeds or HEX64.fullmatch(message)):
        found.append(path or "the message")
    return found


def test_no_example_carries_a_seed() -> None:
    # The examples deal a few hands each: these are their seeds, and more.
    seeds = frozenset(fixed_shuffle("demo", n).seed.hex() for n in range(1, 10))
    for example in DOCUMENT.examples:
        for step in example.steps:
            if step.kind == "expect":
                assert seeds_carried(step.message, seeds) == [], f"line {step.line}"
    text = DOC.read_text(encoding="utf-8")
    assert "deck_revealed" not in text
    assert not any(seed in text for seed in seeds)


def test_the_fairness_example_checks_out() -> None:
    session = next(e for e in DOCUMENT.examples if e.name == "session")
    shown = [step.message for step in session.steps if step.kind == "expect"]
    committed = {m["hand_number"]: m["commitment"] for m in shown if m["type"] == "deck_commitment"}
    assert sorted(committed) == [1, 2]
    for number, sent in committed.items():
        seed = fixed_shuffle("demo", number).seed
        assert seed == hashlib.sha256(f"demo {number}".encode()).digest()
        assert commitment(seed, HandIdentity("demo", number)) == sent
    # Heads-up, p1 (left of the button) gets deck[0] and deck[2], the button deck[1] and
    # deck[3]; the board is deck[4:9].
    first = fixed_shuffle("demo", 1).seed
    seed_hex, sent = first.hex(), committed[1]
    deck = [str(c) for c in deck_from_seed(first, HandIdentity("demo", 1)).cards]
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert f"is `{seed_hex[:4]}…{seed_hex[-4:]}`" in text
    assert f"the commitment `{sent[:4]}…{sent[-4:]}` sent before the deal" in text
    assert f"deals `{deck[0]} {deck[2]}` to Alice" in text
    assert f"`{' '.join(deck[4:9])}` to the board" in text
    assert f"`{deck[1]} {deck[3]}` to the bot, which mucked them unseen" in text
    assert {"type": "cards_mucked", "seat": 0} in [m.get("event") for m in shown]


def test_the_error_codes_are_one_list_in_the_server_the_document_and_the_schema() -> None:
    """server/errors.py's Code is the list: docs/protocol.md's table of codes and the
    schema's enum say the same codes, no more and no fewer."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("\n| code | meaning |\n", 1)[1].split("\n\n", 1)[0]
    documented = re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M)
    assert documented == [code.value for code in Code]  # in the server's order, once each
    assert sorted(schema()["$defs"]["server.error"]["properties"]["code"]["enum"]) == sorted(Code)


def test_the_limits_table_gives_the_servers_numbers() -> None:
    server, table = ServerSettings(), TableSettings("t", "t", TableConfig(1, 2))
    size = server.max_message_bytes
    rows = [
        f"| message size | {size // 1024} KiB ({size:,} bytes) |",
        f"| messages | {server.messages_per_second:g} a second, bursts of {server.burst} |",
        f"| error replies on one connection in a minute | {server.errors_before_close} |",
        f"| bytes waiting for a slow client | {server.outbox_bytes >> 20} MiB |",
        f"| decision time (default) | {table.decision_seconds:g} s |",
        f"| time bank (default) | {table.time_bank_seconds:g} s |",
        f"| timeouts in a row before sitting out | {table.timeouts_to_sit_out} |",
        f"| reconnection grace | {server.reconnect_grace_seconds:g} s |",
        f"| hands kept for `resume` | {table.hands_kept} |",
        f"| tables you create | {server.tables_per_player} |",
        f"| tables players at one address create | {server.tables_per_address} |",
        f"| tables players create, in all | {server.max_tables:,} |",
        f"| accounts one address creates in an hour | {server.accounts_per_address} |",
        f"| a created table nobody has sat at yet | {server.unused_table_seconds:g} s |",
        f"| a created table with nobody seated or waiting | {server.idle_table_seconds:g} s |",
    ]
    text = DOC.read_text(encoding="utf-8")
    assert [row for row in rows if row not in text] == []


def test_the_mixes_table_gives_the_engines_hands_and_seats() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Mixed games\n", 1)[1].split("\n## ", 1)[0]
    for key, mix in MIXES.items():
        row = next(line for line in section.splitlines() if line.startswith(f"| `{key}` |"))
        assert row.endswith(f"| every {mix.hands} hands | {mix.max_players} |"), row
    assert dealers_choice(["nlhe", "razz"]).hands == 1  # "every hand: the next dealer picks"
    assert "| `choice` | `games`: 2 to 20 presets' keys, each once | every hand:" in section


# -- a real session against the schema -------------------------------------------------------


@dataclass
class Busy:
    address: str
    store: Store
    seeds: set[str] = field(default_factory=set)
    """Every seed drawn so far (hex)."""


@contextlib.asynccontextmanager
async def busy_server(tmp_path: Path) -> AsyncIterator[Busy]:
    """Six seats, four house bots of three kinds (so hands fold, raise and bust); the
    bots buy in for 2,000 and a player may bring 100,000, more than they can win from
    it in a few hands. Its seeds are random, as in a real server, and recorded."""
    async with Store.open(f"sqlite+aiosqlite:///{tmp_path / 'busy.db'}") as store:
        app = PokerServer(store, ServerSettings(port=0, house_think_seconds=0.0))
        async with app.running() as ws_server:
            runner = await app.hosting.create_table(
                "Demo",
                TableConfig(
                    small_blind=50, big_blind=100, seats=6, min_buy_in=1_000, max_buy_in=100_000
                ),
            )
            port = next(iter(ws_server.sockets)).getsockname()[1]
            busy = Busy(f"127.0.0.1:{port}", store)

            def recorded(table: str, hand_number: int) -> Shuffle:
                shuffle = Shuffle.new(table, hand_number)
                busy.seeds.add(shuffle.seed.hex())
                return shuffle

            runner.core.new_shuffle = recorded  # before anyone sits: no hand has started
            kinds = ("random", "calling-station", "tight-aggressive", "random")
            bots = {seat: (f"house-{seat}", load_bot(kind)) for seat, kind in enumerate(kinds)}
            await app.hosting.add_house_bots(runner, bots, stack=2_000)
            yield busy


@dataclass
class Seen:
    messages: list[dict[str, Any]] = field(default_factory=list)

    def committed(self) -> dict[int, str]:
        return {
            m["hand_number"]: m["commitment"]
            for m in self.messages
            if m["type"] == "deck_commitment"
        }

    def events(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "event"]

    def hands_ended(self, seat: int | None = None) -> int:
        return sum(
            m["event"]["type"] == "hand_ended"
            and (seat is None or seat in [s for s, _ in m["event"]["stacks"]])
            for m in self.events()
        )


async def read_all(ws: ClientConnection, seen: Seen, done: Callable[[], bool], who: str) -> None:
    while not done():
        message = json.loads(await ws.recv())
        check_server_message(message, who)
        seen.messages.append(message)
        if message["type"] == "action_request":
            action = "check" if message["menu"]["can_check"] else "call"
            act_id = f"{message['hand_number']}-{message['seq']}"
            act = {"type": "act", "table": "demo", "action_id": act_id, "action": action}
            check_client_message(act, who)
            await ws.send(json.dumps(act))


async def test_a_real_session_fits_the_server_schemas(tmp_path: Path) -> None:
    async with (
        busy_server(tmp_path) as busy,
        connect(f"ws://{busy.address}/ws") as player,
        connect(f"ws://{busy.address}/ws") as spectator,
    ):
        for ws, greeting in (
            (player, {"type": "hello", "name": "alice"}),
            (player, {"type": "sit", "table": "demo", "seat": 5, "buy_in": 100_000}),
            (spectator, {"type": "spectate", "table": "demo", "id": "watch"}),
        ):
            check_client_message(greeting, "session")
            await ws.send(json.dumps(greeting))
        mine, watched = Seen(), Seen()

        def done() -> bool:
            return mine.hands_ended(seat=5) >= 3 and watched.hands_ended() >= 6

        failure = None
        try:
            async with asyncio.timeout(60):
                await asyncio.gather(
                    read_all(player, mine, done, "the player"),
                    read_all(spectator, watched, done, "the spectator"),
                )
        except Mismatch as exc:
            failure = str(exc)
        # The seeds stay with the server: stored with each hand, where pokerroom verify
        # checks them against the commitments everyone was sent.
        stored = [
            await verify_stored(busy.store, hand_id) for hand_id in await busy.store.hand_ids()
        ]
    if failure is not None:
        pytest.fail(failure, pytrace=False)

    kinds = {m["event"]["type"] for m in watched.events()}
    assert kinds >= {"hand_started", "forced_bet_posted", "hole_cards_dealt", "action_taken"}
    assert kinds >= {"board_dealt", "pot_awarded", "hand_ended", "player_sat"}
    for seen, seat in ((mine, 5), (watched, None)):
        # A connection's events of a table have every seq, in order.
        seqs = [m["seq"] for m in seen.events()]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        last_seq = None
        commitments: dict[int, str] = {}
        for message in seen.messages:
            if message["type"] == "event":
                last_seq = message["seq"]
                event = message["event"]
                if event["type"] == "hole_cards_dealt":
                    assert (event["cards"] is not None) == (event["seat"] == seat)
                if event["type"] == "hand_started" and commitments:
                    assert message["hand_number"] in commitments  # committed before the deal
            elif message["type"] == "action_request":
                assert message["seq"] == last_seq  # the seq of the last event before it
            elif message["type"] == "deck_commitment":
                commitments[message["hand_number"]] = message["commitment"]
    snapshot = next(m for m in watched.messages if m["type"] == "snapshot")
    assert snapshot["re"] == "watch"
    assert watched.events()[0]["seq"] == snapshot["seq"] + 1
    # The seed shows every card, folded and mucked hands included: no message carries
    # it, neither to the player dealt in nor to the spectator, during a hand or after.
    seeds = frozenset(busy.seeds)
    assert len(seeds) >= 6
    for who, seen in (("the player", mine), ("the spectator", watched)):
        for message in seen.messages:
            assert seeds_carried(message, seeds) == [], f"{who}: {message}"
    # Each hand's seed was stored with it (the last hand may not be stored yet), and
    # pokerroom verify finds it matches the commitment sent before the deal.
    dealt = sorted(
        m["hand_number"]
        for m in mine.events()
        if m["event"]["type"] == "hand_ended" and 5 in [s for s, _ in m["event"]["stacks"]]
    )
    sent = {number: c for seen in (mine, watched) for number, c in seen.committed().items()}
    verified = {result.identity.hand_number: result for result in stored}
    assert set(dealt[:-1]) <= verified.keys() & sent.keys()
    for number, result in verified.items():
        assert result.ok, result.message
        assert result.identity == HandIdentity("demo", number)
        if number in sent:  # hands dealt before anyone connected were sent to nobody
            assert result.commitment == sent[number]


# -- what the document says besides its examples -----------------------------------------------


async def test_the_sample_bot_plays(tmp_path: Path) -> None:
    namespace: dict[str, Any] = {"__name__": "sample_bot"}
    exec(compile(DOCUMENT.sample_bot, str(DOC), "exec"), namespace)
    async with example_server(tmp_path) as address, asyncio.timeout(30):
        await namespace["play"](f"ws://{address}/ws", "sample", 2)


async def closed_with(ws: ClientConnection) -> tuple[int | None, list[dict[str, Any]]]:
    """Read until the server closes the connection: its close code and what came before."""
    before: list[dict[str, Any]] = []
    try:
        async with asyncio.timeout(TIMEOUT):
            while True:
                before.append(json.loads(await ws.recv()))
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), before


async def test_a_message_over_16_kib_closes_the_connection_with_1009(tmp_path: Path) -> None:
    limit = ServerSettings().max_message_bytes
    async with example_server(tmp_path) as address, connect(f"ws://{address}/ws") as ws:
        pad = limit - len(json.dumps({"type": "ping", "id": ""}))
        await ws.send(json.dumps({"type": "ping", "id": "x" * pad}))  # the limit exactly
        assert json.loads(await ws.recv())["code"] == "bad_message"  # id: 64 characters at most
        await ws.send(json.dumps({"type": "ping", "id": "x" * (pad + 1)}))
        code, _ = await closed_with(ws)
        assert code == 1009


async def test_past_the_burst_messages_are_refused_as_rate_limited(tmp_path: Path) -> None:
    settings = ServerSettings()
    async with example_server(tmp_path) as address, connect(f"ws://{address}/ws") as ws:
        started = time.monotonic()
        for n in range(settings.burst + 20):
            await ws.send(json.dumps({"type": "ping", "id": str(n)}))
        replies = [json.loads(await ws.recv()) for _ in range(settings.burst + 20)]
        refilled = (time.monotonic() - started) * settings.messages_per_second
        pongs = [r for r in replies if r["type"] == "pong"]
        refused = [r for r in replies if r["type"] == "error"]
        assert settings.burst <= len(pongs) <= settings.burst + refilled + 1
        assert refused
        assert len(pongs) + len(refused) == len(replies)
        assert all(r["code"] == "rate_limited" and "re" not in r for r in refused)
        await asyncio.sleep(2 * 1 / settings.messages_per_second)
        await ws.send(json.dumps({"type": "ping", "id": "again"}))
        assert json.loads(await ws.recv()) == {"type": "pong", "re": "again"}


async def errors_short_of_the_limit(ws: ClientConnection) -> None:
    """As many bad frames as a connection may send, less one: each gets an error."""
    allowed = ServerSettings().errors_before_close - 1
    for _ in range(allowed):
        await ws.send("not json")
    for _ in range(allowed):
        assert json.loads(await ws.recv())["type"] == "error"


async def one_more_error_closes(ws: ClientConnection) -> None:
    """A good message is no error; then the next bad one closes the connection (1008)."""
    await asyncio.sleep(1.5)  # let the rate limiter refill: a ping is no error
    await ws.send(json.dumps({"type": "ping"}))
    assert json.loads(await ws.recv()) == {"type": "pong"}
    await ws.send("not json")
    code, _ = await closed_with(ws)
    assert code == 1008


async def test_the_hundredth_error_closes_the_connection_with_1008(tmp_path: Path) -> None:
    async with example_server(tmp_path) as address, connect(f"ws://{address}/ws") as ws:
        await errors_short_of_the_limit(ws)
        await one_more_error_closes(ws)


async def test_only_ws_healthz_and_the_browser_client_answer(tmp_path: Path) -> None:
    async with example_server(tmp_path) as address:

        def get(path: str) -> tuple[int, bytes]:
            try:
                with urllib.request.urlopen(f"http://{address}{path}") as response:
                    return response.status, response.read()
            except urllib.error.HTTPError as error:
                with error:
                    return error.code, error.read()

        assert await asyncio.to_thread(get, "/healthz") == (200, b"ok\n")
        assert (await asyncio.to_thread(get, "/"))[0] == 200  # tests/server/test_web.py
        assert (await asyncio.to_thread(get, "/ws/x"))[0] == 404
        assert (await asyncio.to_thread(get, "/index.html"))[0] == 404


async def test_errors_are_counted_a_minute_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    later = 0.0  # seconds the server's clock is ahead of the real one
    monkeypatch.setattr(
        connections, "time", SimpleNamespace(monotonic=lambda: time.monotonic() + later)
    )
    async with example_server(tmp_path) as address, connect(f"ws://{address}/ws") as ws:
        await errors_short_of_the_limit(ws)
        later = 61.0  # a minute on: the count starts again
        await errors_short_of_the_limit(ws)
        await one_more_error_closes(ws)


def hand_of(message: dict[str, Any]) -> int | None:
    """The hand a table's message belongs to (a snapshot: the table's current or last);
    None for a message about the table that names no hand (``player_joined``, chat)."""
    if message["type"] in ("snapshot", "resumed"):
        return int(message["view"]["hand_number"])
    if "hand_number" not in message:
        return None
    return int(message["hand_number"])


def hands_of(messages: list[dict[str, Any]]) -> set[int]:
    """The hands ``messages`` belong to (those that name one)."""
    return {hand for hand in map(hand_of, messages) if hand is not None}


async def until_type(ws: ClientConnection, kind: str) -> tuple[ClientConnection, dict[str, Any]]:
    """The next message of type ``kind`` on ``ws`` (and ``ws``, to tell who got it)."""
    async with asyncio.timeout(TIMEOUT):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == kind:
                return ws, message


async def quiet(ws: ClientConnection, seconds: float = 0.3) -> list[dict[str, Any]]:
    """What comes on ``ws`` until nothing has come for ``seconds``."""
    received = []
    while True:
        try:
            received.append(json.loads(await asyncio.wait_for(ws.recv(), seconds)))
        except TimeoutError:
            return received


async def play_until_asked(ws: ClientConnection, hand: int) -> dict[str, Any]:
    """Check or fold every decision until the first action request of ``hand``, which
    is returned unanswered (the hand cannot go on until it is answered)."""
    async with asyncio.timeout(TIMEOUT):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] != "action_request":
                continue
            if message["hand_number"] == hand:
                return message  # type: ignore[no-any-return]
            await answer(ws, message)


async def answer(ws: ClientConnection, request: dict[str, Any]) -> None:
    action = "check" if request["menu"]["can_check"] else "fold"
    act_id = f"{request['hand_number']}-{request['seq']}"
    act = {"type": "act", "table": "demo", "action_id": act_id, "action": action}
    await ws.send(json.dumps(act))


async def test_a_spectator_delayed_by_seconds_gets_everything_that_much_later(
    tmp_path: Path,
) -> None:
    async with (
        example_server(tmp_path) as address,
        connect(f"ws://{address}/ws") as alice,
        connect(f"ws://{address}/ws") as bob,
    ):
        await alice.send(json.dumps({"type": "hello", "name": "alice"}))
        await alice.send(json.dumps({"type": "sit", "table": "demo", "seat": 1, "buy_in": 10_000}))
        request = await play_until_asked(alice, 1)
        asked = time.monotonic()
        watch = {"type": "spectate", "table": "demo", "delay_seconds": 1, "id": "w"}
        await bob.send(json.dumps(watch))
        snapshot = json.loads(await bob.recv())
        assert snapshot["type"] == "snapshot" and snapshot["seq"] == request["seq"]
        assert snapshot["re"] == "w"  # late, but still the reply to the spectate
        assert time.monotonic() - asked >= 0.9  # the snapshot is as late as the rest
        act = {"type": "act", "table": "demo", "action_id": "a", "action": "check"}
        await alice.send(json.dumps(act))
        event = json.loads(await alice.recv())
        sent = time.monotonic()
        delayed = json.loads(await bob.recv())
        assert delayed == event
        assert time.monotonic() - sent >= 0.9


@pytest.mark.parametrize("hands", [1, 2])
async def test_a_spectator_delayed_by_k_hands_sees_hand_n_once_hand_n_plus_k_minus_1_ended(
    tmp_path: Path, hands: int
) -> None:
    async with (
        example_server(tmp_path) as address,
        connect(f"ws://{address}/ws") as alice,
        connect(f"ws://{address}/ws") as bob,
    ):
        await bob.send(json.dumps({"type": "spectate", "table": "demo", "delay_hands": hands}))
        await alice.send(json.dumps({"type": "hello", "name": "alice"}))
        await alice.send(json.dumps({"type": "sit", "table": "demo", "seat": 1, "buy_in": 10_000}))
        # Hand `hands` is being played (and waits for Alice): hands 1 .. hands - 1 are over,
        # so only what came before hand 1 (the snapshot, Alice sitting down) is shown.
        request = await play_until_asked(alice, hands)
        seen = await quiet(bob)
        assert seen and seen[0]["type"] == "snapshot"
        assert hands_of(seen) == {0}
        # One more hand over: hand 1 is shown, all of it, and nothing after it.
        await answer(alice, request)
        request = await play_until_asked(alice, hands + 1)
        seen += await quiet(bob)
        assert hands_of(seen) == {0, 1}
        assert next(m["type"] for m in seen if hand_of(m) == 1) == "deck_commitment"
        assert seen[-1]["type"] == "event" and seen[-1]["event"]["type"] == "hand_ended"
        seqs = [m["seq"] for m in seen if m["type"] == "event"]
        assert seqs == list(range(seen[0]["seq"] + 1, seen[0]["seq"] + 1 + len(seqs)))


async def test_sitting_down_ends_a_delay(tmp_path: Path) -> None:
    async with (
        example_server(tmp_path) as address,
        connect(f"ws://{address}/ws") as alice,
        connect(f"ws://{address}/ws") as bob,
    ):
        await alice.send(json.dumps({"type": "hello", "name": "alice"}))
        await alice.send(json.dumps({"type": "sit", "table": "demo", "seat": 1, "buy_in": 10_000}))
        first = await play_until_asked(alice, 1)
        await bob.send(json.dumps({"type": "spectate", "table": "demo", "delay_hands": 1}))
        await bob.send(json.dumps({"type": "hello", "name": "bob"}))
        assert json.loads(await bob.recv())["type"] == "welcome"  # the snapshot is held back
        await answer(alice, first)  # she checks; the flop comes, and her next decision
        request = await play_until_asked(alice, 1)
        sit = {"type": "sit", "table": "demo", "seat": 2, "buy_in": 10_000, "id": "s"}
        await bob.send(json.dumps(sit))
        seen: list[dict[str, Any]] = []
        async with asyncio.timeout(TIMEOUT):
            while not seen or seen[-1]["type"] != "seated":
                seen.append(json.loads(await bob.recv()))
        # First what was held back, at once: the snapshot of hand 1, then its events.
        assert seen[0]["type"] == "snapshot" and seen[0]["view"]["viewer"] is None
        assert seen[0]["seq"] == first["seq"]
        sat = next(n for n, m in enumerate(seen) if m["type"] == "snapshot" and n > 0)
        assert seen[sat]["view"]["viewer"] == 2
        held = [(m["seq"], m["event"]["type"]) for m in seen[1 : sat - 2]]
        assert held == [
            (first["seq"] + 1, "action_taken"),
            (first["seq"] + 2, "board_dealt"),
        ]
        assert request["seq"] == first["seq"] + 2
        assert seen[sat - 2]["event"] == {
            "type": "player_sat",
            "seat": 2,
            "stack": 10_000,
            "waiting_for_big_blind": True,
        }
        assert seen[sat - 1] == {
            "type": "player_joined",
            "table": "demo",
            "seat": 2,
            "name": "bob",
            "bot": False,
        }
        assert seen[-1] == {
            "type": "seated",
            "table": "demo",
            "seat": 2,
            "stack": 10_000,
            "seat_token": seen[-1]["seat_token"],
            "re": "s",
        }
        # Then live: Alice's action comes at once, in hand 1, long before it is over.
        await answer(alice, request)
        event = json.loads(await asyncio.wait_for(bob.recv(), TIMEOUT))
        assert event["hand_number"] == 1 and event["event"]["seat"] == 1


async def test_resume_sends_the_request_again_but_the_clock_runs_on(tmp_path: Path) -> None:
    decision = 1.0
    async with (
        example_server(tmp_path) as address,
        connect(f"ws://{address}/ws") as alice,
        connect(f"ws://{address}/ws") as bob,
    ):
        table = {"type": "create_table", "name": "Quick", "small_blind": 1, "big_blind": 2,
                 "decision_seconds": decision, "time_bank_seconds": 0}  # fmt: skip
        await alice.send(json.dumps({"type": "hello", "name": "alice"}))
        await alice.send(json.dumps(table))
        await until_type(alice, "table_created")
        seats = {}
        for ws, name in ((alice, "alice"), (bob, "bob")):
            await ws.send(json.dumps({"type": "hello", "name": name}))
            await ws.send(json.dumps({"type": "sit", "table": "quick", "buy_in": 100}))
            seats[(await until_type(ws, "seated"))[1]["seat"]] = ws
        # Heads-up, the button acts first before the flop.
        started = (await until_type(alice, "event"))[1]
        while started["event"]["type"] != "hand_started":
            started = (await until_type(alice, "event"))[1]
        ws, request = await until_type(seats[started["event"]["button"]], "action_request")
        asked = time.monotonic()
        await asyncio.sleep(decision / 2)
        await ws.send(json.dumps({"type": "resume", "table": "quick", "last_seq": request["seq"]}))
        assert (await until_type(ws, "resumed"))[1]["missed"] == []
        again = json.loads(await ws.recv())
        elapsed = again.pop("elapsed_seconds")  # how long the decision has run
        assert again == request  # the same request, the same numbers
        assert decision * 0.4 <= elapsed < decision
        timed_out = (await until_type(ws, "event"))[1]
        assert timed_out["event"]["type"] == "action_taken"
        assert timed_out["event"]["seat"] == request["seat"]
        assert decision * 0.9 <= time.monotonic() - asked < decision * 1.4


async def test_a_player_away_past_the_grace_period_stands_up_when_a_hand_ends(
    tmp_path: Path,
) -> None:
    grace = 0.5
    async with (
        example_server(tmp_path, reconnect_grace_seconds=grace) as address,
        connect(f"ws://{address}/ws") as alice,
        connect(f"ws://{address}/ws") as bob,
    ):
        await alice.send(json.dumps({"type": "hello", "name": "alice"}))
        session = (await until_type(alice, "welcome"))[1]["session"]
        await alice.send(json.dumps({"type": "sit", "table": "demo", "seat": 1, "buy_in": 10_000}))
        await play_until_asked(alice, 1)
        await bob.send(json.dumps({"type": "spectate", "table": "demo"}))
        await until_type(bob, "snapshot")
        await alice.close()
        gone = time.monotonic()
        # Her decision times out when the grace is over; she is sat out, and the hand
        # plays on without her (her turns time out at once) to its end; then she stands up.
        timed_out = (await until_type(bob, "event"))[1]["event"]
        assert time.monotonic() - gone >= grace * 0.9
        assert timed_out["seat"] == 1 and timed_out["kind"] == "check"
        seen = [json.loads(await asyncio.wait_for(bob.recv(), TIMEOUT))]
        while seen[-1]["event"]["type"] != "player_stood":
            seen.append(json.loads(await asyncio.wait_for(bob.recv(), TIMEOUT)))
        kinds = [m["event"]["type"] for m in seen]
        assert "player_sat_out" in kinds and "hand_ended" in kinds
        assert kinds.index("hand_ended") == len(kinds) - 2
        assert seen[-1]["event"] == {
            "type": "player_stood",
            "seat": 1,
            "stack": 10_100,
            "reason": "left",
        }
        # She comes back too late: her session is still hers, her seat is not.
        async with connect(f"ws://{address}/ws") as again:
            await again.send(json.dumps({"type": "hello", "session": session}))
            await until_type(again, "welcome")
            await again.send(json.dumps({"type": "resume", "table": "demo", "last_seq": 0}))
            resumed = (await until_type(again, "resumed"))[1]
            assert resumed["view"]["viewer"] is None
            assert [p["name"] for p in resumed["summary"]["players"]] == ["house-0"]


async def test_taking_a_seat_takes_you_off_the_waiting_list(tmp_path: Path) -> None:
    async with example_server(tmp_path) as address:
        players = {name: await connect(f"ws://{address}/ws") for name in ("al", "bo", "cy")}
        try:
            for seat, (name, ws) in enumerate(players.items(), start=1):
                await ws.send(json.dumps({"type": "hello", "name": name}))
                await ws.send(json.dumps({"type": "sit", "table": "demo", "buy_in": 10_000}))
                expected = "seated" if seat < 3 else "waiting"
                assert (await until_type(ws, expected))[1]["table"] == "demo"
            # Bo is not in the hand (he waits for the big blind): he leaves at once, and Cy,
            # on the waiting list, takes his seat herself.
            await players["bo"].send(json.dumps({"type": "leave", "table": "demo"}))
            assert (await until_type(players["bo"], "left"))[1]["seat"] == 2
            sit = {"type": "sit", "table": "demo", "seat": 2, "buy_in": 10_000}
            await players["cy"].send(json.dumps(sit))
            assert (await until_type(players["cy"], "seated"))[1]["seat"] == 2
            await players["cy"].send(json.dumps({"type": "list_tables"}))
            (summary,) = (await until_type(players["cy"], "tables"))[1]["tables"]
            assert summary["waiting"] == []
            assert [p["name"] for p in summary["players"]] == ["house-0", "al", "cy"]
        finally:
            for ws in players.values():
                await ws.close()


if __name__ == "__main__" and sys.argv[1:] == ["--write-schema"]:
    fresh = up_to_date(json.loads(SCHEMA.read_text(encoding="utf-8")))
    SCHEMA.write_text(json.dumps(fresh, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {SCHEMA}")
