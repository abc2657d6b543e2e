from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import IO

import pytest

# Real data nobody here wrote, beside the checkout (CI has it there too); never copied in.
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


class TakingTurns:
    """Under pytest-xdist (``make test`` runs ``pytest -n auto``), a test marked ``alone``
    runs while no other worker runs a test: it measures a rate or a time that another
    test's CPU would change (a table's pace before and during a flood, say). The other
    tests hold a shared lock while they run, an ``alone`` test the exclusive one; a
    turnstile in front lets a waiting ``alone`` test in before the next shared holder.
    The lock files are in the run's temporary folder, which every worker of the run shares
    (and no other run). In one process, every test runs alone already: nothing to do."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.turnstile: IO[bytes] = (folder / "turnstile.lock").open("ab")
        self.tests: IO[bytes] = (folder / "tests.lock").open("ab")

    @contextlib.contextmanager
    def turn(self, alone: bool) -> Iterator[None]:
        fcntl.flock(self.turnstile, fcntl.LOCK_EX)
        if not alone:
            fcntl.flock(self.turnstile, fcntl.LOCK_UN)
        fcntl.flock(self.tests, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(self.tests, fcntl.LOCK_UN)
            if alone:
                fcntl.flock(self.turnstile, fcntl.LOCK_UN)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        # Set-up and tear-down included: a fixture's server or browser is part of the load.
        with self.turn(item.get_closest_marker("alone") is not None):
            return (yield)


def pytest_configure(config: pytest.Config) -> None:
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:
        return
    # xdist gives each worker <the run's folder>/popen-gwN as its basetemp.
    folder = Path(config.option.basetemp).parent / "turns"
    # Registered as a plugin, not a hook of this conftest: the engine's doctests, outside
    # tests/, take their turns too.
    config.pluginmanager.register(TakingTurns(folder), "pokerroom-taking-turns")
