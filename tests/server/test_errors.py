"""Every refusal a client can be sent is a Refusal (server/errors.py), and one raised in
the records worker process (server/stats/worker.py) comes back to the server as itself:
its class, code, message and details."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from server import protocol
from server.errors import Code, Refusal
from server.stats.service import PrivateTableError, StatsBusyError
from server.store import StoreError, UnknownHandError
from server.tables import TableError
from server.tournaments.director import TournamentError

REFUSALS: list[Refusal] = [
    Refusal(Code.REFUSED, "no"),
    TableError(Code.ELSEWHERE, "another process hosts it", address="ws://elsewhere/ws"),
    protocol.ProtocolError(Code.BAD_MESSAGE, "a message needs a 'type'", "q1"),
    StatsBusyError(Code.TOO_MANY_EXPORTS, "at most 1 export at once"),
    PrivateTableError("table 't' is private"),
    StoreError("the name 'ann' is taken"),
    UnknownHandError("no hand 7"),
    TournamentError("a tournament needs at least two entrants"),
]


def _same(a: Refusal, b: Refusal) -> bool:
    return (type(a), a.code, str(a), a.details, vars(a)) == (type(b), b.code, str(b),
                                                             b.details, vars(b))  # fmt: skip


def test_every_kind_of_refusal_is_one() -> None:
    kinds = {type(r) for r in REFUSALS}

    def below(kind: type[Refusal]) -> set[type[Refusal]]:
        return {kind}.union(*(below(k) for k in kind.__subclasses__()))

    assert below(Refusal) <= kinds | {Refusal}, below(Refusal) - kinds  # each is tested here


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: type(r).__name__)
def test_a_refusal_survives_pickling(refusal: Refusal) -> None:
    assert _same(pickle.loads(pickle.dumps(refusal)), refusal)


def _refuse(index: int) -> None:
    raise REFUSALS[index]


def test_a_refusal_raised_in_a_worker_process_arrives_as_itself() -> None:
    context = multiprocessing.get_context("spawn")  # as the records worker is started
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        for index, refusal in enumerate(REFUSALS):
            error = pool.submit(_refuse, index).exception(timeout=60)
            assert isinstance(error, Refusal) and _same(error, refusal), (error, refusal)
