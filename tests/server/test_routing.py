"""The routing table, the protocol's types and docs/protocol.md say the same thing."""

from __future__ import annotations

import inspect
import re
import typing
from pathlib import Path

from engine import TableConfig
from server import app, protocol, routing
from server.tables import TableCore, TableSettings
from server.tables.messages import TableMessage

DOC = Path(__file__).parents[2] / "docs" / "protocol.md"


def _doc_rows() -> dict[str, str]:
    """The client messages table of docs/protocol.md: ``type`` -> schema name."""
    text = DOC.read_text()
    section = text.split("## Client messages", 1)[1]
    table = section.split("| `type` | schema |", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| `([A-Za-z]+)` \|", table, re.MULTILINE)
    return dict(rows)


def _wire_type(model: type[protocol.ClientMessageBase]) -> str:
    (literal,) = typing.get_args(model.model_fields["type"].annotation)
    return str(literal)


def test_every_client_message_has_one_handler_and_one_row_in_the_docs() -> None:
    union = typing.get_args(typing.get_args(protocol.ClientMessage)[0])
    assert set(routing.ROUTES) == set(union)
    documented = {_wire_type(m): m.__name__ for m in routing.ROUTES}
    assert _doc_rows() == documented


def test_each_handler_takes_the_message_it_is_routed() -> None:
    for model, handler in routing.ROUTES.items():
        hints = typing.get_type_hints(handler, vars(protocol) | vars(routing) | vars(app))
        params = list(inspect.signature(handler).parameters)
        if handler in (routing._table, routing._said_hello):  # the table routes it by type
            continue
        assert hints[params[-1]] is model, (handler.__name__, model.__name__)


def test_every_message_a_table_takes_reaches_one_part_of_it() -> None:
    """What routing hands a table (``_table`` and ``submit``) is in the table's messages,
    and the table core has a route for each of its messages: no name to misspell."""
    core = TableCore(TableSettings("t", "T", TableConfig(small_blind=1, big_blind=2)), 0.0)
    messages = set(typing.get_args(TableMessage))
    assert set(core.routes) == messages
    for model, handler in routing.ROUTES.items():
        if handler in (routing._table, routing._said_hello):
            assert model in messages, model.__name__


def test_every_host_action_has_one_control() -> None:
    """The host's controls are a table keyed by the wire's action, every one of them
    (``house_bot`` comes with its bot, as AddHouseBot)."""
    core = TableCore(TableSettings("t", "T", TableConfig(small_blind=1, big_blind=2)), 0.0)
    (actions,) = [typing.get_args(protocol.Host.model_fields["action"].annotation)]
    assert set(core.host.controls) | {"house_bot"} == set(actions)
