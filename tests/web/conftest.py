"""Browser tests: a real pokerroom server in a thread of its own, and Debian's headless
Chromium (``/usr/bin/chromium``, which ``make test`` installs) driven by Playwright.

Fixtures:

- ``live_server`` -> :class:`LiveServer`: a server on 127.0.0.1 (a free port) with the
  demo table of ``pokerroom serve --demo`` (five house bots, seat 5 free). ``.url`` is
  ``http://127.0.0.1:PORT/``; ``.call``/``.run``/``.wait_until`` look at the server's
  state from its own loop; ``.drop_connections()`` cuts every websocket. Other tables:
  ``with serve_in_thread(tmp_path / "x.db", bots=..., decision_seconds=...) as live:``.
- ``browser``: headless Chromium, one for the whole package.
- ``page``: a fresh page in a fresh browser context (its own storage: a new visitor);
  ``new_page()`` makes more, each in its own context (two people at one table). Every
  page's console, errors, requests and websockets are recorded: ``PageLog.of(page)``.
  A failed test leaves ``artifacts/screenshots/failed-<test>.png`` (and ``.txt``, the
  page's log) of each of its pages.
- ``screenshot(page, "lobby")`` writes ``artifacts/screenshots/lobby.png``; the folder
  is emptied when the run's first browser starts (under pytest-xdist each worker starts
  one), so it holds this run's pictures only.

Why the sync API: the tests are plain ``def`` functions, outside pytest-asyncio, whose
auto mode would otherwise give each async test its own event loop, while a browser kept
for many tests belongs to the loop it was started on (an async session-wide browser
needs every test marked with the session's loop scope, and fails obscurely without).
The server runs on a loop in its own thread, so the browser and the server never share
a loop and a test blocks on neither. One catch: between its calls, the sync API leaves
its loop marked as running in the test's thread, and an async test there would fail
with "Runner.run() cannot be called from a running event loop". So the browser lives for
this package only (stopped before any other test runs) and async tests are refused here.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import fcntl
import inspect
import logging
import re
import shutil
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Coroutine, Generator, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, TypeVar
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    ViewportSize,
    WebSocket,
    expect,
    sync_playwright,
)

from engine import TableConfig
from server.app import PokerServer, ServerSettings
from server.bots import Bot, load_bot
from server.hosting import DEMO_BOTS
from server.store import Store
from server.tables import TableRunner

T = TypeVar("T")

CHROMIUM = Path("/usr/bin/chromium")  # Debian's; never a browser Playwright downloads
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
TIMEOUT_MS = 5_000
"""How long a page action or ``expect`` waits: a broken page fails in seconds."""
NAVIGATION_TIMEOUT_MS = 10_000
SERVER_TIMEOUT = 10.0  # seconds to start or stop the server, or to run a call on its loop
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}


# -- the server ----------------------------------------------------------------------------


class _Errors(logging.Handler):
    """Collects what the server logs at ERROR and above (a crashed table, a failed answer)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class LiveServer:
    """A running server and its demo table, seen from the test's thread."""

    url: str
    """``http://127.0.0.1:PORT/``: the browser client."""
    ws_url: str
    """``ws://127.0.0.1:PORT/ws``."""
    server: PokerServer
    runner: TableRunner
    """The demo table's runner; read it through :meth:`call`, on the server's loop."""
    loop: asyncio.AbstractEventLoop
    errors: list[logging.LogRecord] = field(default_factory=list)
    """What the server logged at ERROR: the fixture fails the test if any is left."""
    _stop: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def table_id(self) -> str:
        return self.runner.settings.table_id

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = SERVER_TIMEOUT) -> T:
        """Run a coroutine on the server's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, fn: Callable[[], T], timeout: float = SERVER_TIMEOUT) -> T:
        """Call ``fn()`` on the server's loop (where the tables' state may be read
        safely), e.g. ``live.call(lambda: live.runner.core.table.hand_number)``."""

        async def call() -> T:
            return fn()

        return self.run(call(), timeout)

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait until ``predicate()``, called on the server's loop, is true."""
        deadline = time.monotonic() + timeout
        while not self.call(predicate):
            if time.monotonic() > deadline:
                raise AssertionError(f"the server's state did not come true in {timeout} s")
            time.sleep(0.02)

    def drop_connections(self, *, abort: bool = True) -> int:
        """Drop every websocket connection the server has; returns how many. ``abort``:
        cut the TCP connection with no close frame (a lost network or a crashed server:
        the browser sees close code 1006); otherwise close it cleanly with 1001 (going
        away). The server then treats the players as disconnected: their seats wait
        ``reconnect_grace_seconds`` for them to come back."""

        async def drop() -> int:
            sessions = list(self.server.sessions)
            if abort:
                for session in sessions:
                    session.websocket.transport.abort()
            else:
                await asyncio.gather(
                    *(s.websocket.close(1001, "going away") for s in sessions),
                    return_exceptions=True,
                )
            return len(sessions)

        return self.run(drop())


@contextlib.contextmanager
def serve_in_thread(
    db: Path,
    *,
    bots: Mapping[int, str | Bot] = DEMO_BOTS,
    seats: int = 6,
    stack: int = 10_000,
    settings: ServerSettings | None = None,
    config: TableConfig | None = None,
    **clock: float,
) -> Iterator[LiveServer]:
    """A server on 127.0.0.1 and a free port, on an event loop in a thread of its own, with
    table "Demo" (id ``demo``, blinds 50/100, ``seats`` seats; or of ``config``, any game
    and stakes) and house bots ``{seat: strategy}`` (a built-in strategy's name, or a
    bot) named ``house-<seat + 1>`` (as ``pokerroom serve --demo``) with ``stack`` chips
    each. ``clock``: the table's ``decision_seconds``, ``time_bank_seconds``.
    ``settings``: the server's (its port is ignored: always free).
    Fails the test if the server logged an error, or if it could not stop."""
    settings = dataclasses.replace(settings or ServerSettings(), host="127.0.0.1", port=0)
    started: concurrent.futures.Future[LiveServer] = concurrent.futures.Future()
    crashed: list[BaseException] = []
    errors = _Errors()

    async def main() -> None:
        async with Store.open(f"sqlite+aiosqlite:///{db}") as store:
            app = PokerServer(store, settings)
            async with app.running() as ws_server:
                table = config or TableConfig(small_blind=50, big_blind=100, seats=seats)
                runner = await app.hosting.create_table("Demo", table, **clock)
                house = {
                    s: (f"house-{s + 1}", load_bot(kind) if isinstance(kind, str) else kind)
                    for s, kind in bots.items()
                }
                await app.hosting.add_house_bots(runner, house, stack=stack)
                port = next(iter(ws_server.sockets)).getsockname()[1]
                live = LiveServer(
                    url=f"http://127.0.0.1:{port}/",
                    ws_url=f"ws://127.0.0.1:{port}/ws",
                    server=app,
                    runner=runner,
                    loop=asyncio.get_running_loop(),
                    errors=errors.records,
                )
                started.set_result(live)
                await live._stop.wait()

    def thread_main() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # handed to the test's thread, never lost
            if started.done():
                crashed.append(exc)
            else:
                started.set_exception(exc)

    loggers = [logging.getLogger(name) for name in ("pokerroom", "websockets")]
    for logger in loggers:
        logger.addHandler(errors)
    thread = threading.Thread(target=thread_main, name="pokerroom server", daemon=True)
    thread.start()
    try:
        live = started.result(SERVER_TIMEOUT)
        try:
            yield live
        finally:
            live.loop.call_soon_threadsafe(live._stop.set)
            thread.join(SERVER_TIMEOUT)
        if thread.is_alive():
            raise AssertionError(f"the server did not stop in {SERVER_TIMEOUT} s")
        if crashed:
            raise crashed[0]
        if live.errors:
            lines = "\n".join(f"{r.name}: {r.getMessage()}" for r in live.errors)
            raise AssertionError(f"the server logged errors:\n{lines}")
    finally:
        for logger in loggers:
            logger.removeHandler(errors)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A fresh server with the demo table (five house bots, seat 5 free), its own SQLite
    database, for this test only."""
    with serve_in_thread(tmp_path / "web.db") as live:
        yield live


# -- the browser ---------------------------------------------------------------------------


@dataclass
class PageLog:
    """What a page did: its console messages, uncaught errors, requests and websockets."""

    console: list[str] = field(default_factory=list)
    """Every console message, as ``"type: text (url:line)"``."""
    errors: list[str] = field(default_factory=list)
    """Console errors and uncaught exceptions (``pageerror``)."""
    requests: list[str] = field(default_factory=list)
    """The URL of every request the page made (websockets are in ``websockets``)."""
    websockets: list[str] = field(default_factory=list)

    _logs: ClassVar[weakref.WeakKeyDictionary[Page, PageLog]] = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, page: Page) -> PageLog:
        """The log of a page from the ``page`` fixture or ``new_page()``."""
        return cls._logs[page]

    @classmethod
    def watch(cls, page: Page) -> PageLog:
        log = cls._logs[page] = cls()

        def on_console(message: ConsoleMessage) -> None:
            where = message.location
            text = f"{message.type}: {message.text} ({where['url']}:{where['lineNumber']})"
            log.console.append(text)
            if message.type == "error":
                log.errors.append(text)

        def on_websocket(ws: WebSocket) -> None:
            log.websockets.append(ws.url)

        def on_request(request: Request) -> None:
            log.requests.append(request.url)

        page.on("console", on_console)
        page.on("pageerror", lambda error: log.errors.append(f"pageerror: {error}"))
        page.on("request", on_request)
        page.on("websocket", on_websocket)
        return log

    def foreign(self, base_url: str) -> list[str]:
        """Requests and websockets to anywhere but ``base_url``'s host and port (``data:``
        and ``blob:`` URLs are the page's own)."""
        home = urlsplit(base_url).netloc
        return [
            url
            for url in self.requests + self.websockets
            if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).netloc != home
        ]

    def assert_clean(self, base_url: str) -> None:
        """No console error, no uncaught exception, nothing fetched from elsewhere."""
        assert not self.errors, "the page reported errors:\n" + "\n".join(self.errors)
        foreign = self.foreign(base_url)
        assert not foreign, "the page reached beyond the server:\n" + "\n".join(foreign)

    def text(self) -> str:
        sections = {"errors": self.errors, "console": self.console}
        sections |= {"requests": self.requests, "websockets": self.websockets}
        return "\n".join(f"{k}:\n" + "".join(f"  {v}\n" for v in vs) for k, vs in sections.items())


def screenshot(page: Page, name: str, *, full_page: bool = True) -> Path:
    """Write ``artifacts/screenshots/<name>.png`` (an artifact of the test run)."""
    path = SCREENSHOTS / (name if name.endswith(".png") else f"{name}.png")
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=path, full_page=full_page, animations="disabled")
    return path


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    if not CHROMIUM.exists():  # never a skip: CI must run these tests
        pytest.fail(
            f"{CHROMIUM} is missing: `make test` installs Debian's chromium "
            "(or, as root: apt-get install --no-install-recommends chromium)",
            pytrace=False,
        )
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as pw:
        yield pw


_RUN = uuid.uuid4().hex
"""This run's id when it is one process; pytest-xdist's workers share their controller's."""


def empty_screenshots_once(config: pytest.Config) -> None:
    """Empty :data:`SCREENSHOTS` at the start of this run's browser tests, once. Under
    pytest-xdist every worker starts a browser: the first empties the folder and writes the
    run's id in the lock file beside it; the others, finding that id, keep what is there."""
    run = getattr(config, "workerinput", {}).get("testrunuid", _RUN)
    SCREENSHOTS.parent.mkdir(parents=True, exist_ok=True)
    with (SCREENSHOTS.parent / ".screenshots-run").open("a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        lock.seek(0)
        if lock.read() != run:
            shutil.rmtree(SCREENSHOTS, ignore_errors=True)
            lock.truncate(0)
            lock.write(run)
        SCREENSHOTS.mkdir(exist_ok=True)


@pytest.fixture(scope="package")
def browser(playwright: Playwright, request: pytest.FixtureRequest) -> Iterator[Browser]:
    """Debian's Chromium, headless; no sandbox, as CI runs as root in a container."""
    empty_screenshots_once(request.config)  # this run's screenshots only
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        chromium_sandbox=False,  # Chromium refuses to run as root with its sandbox
        args=["--disable-dev-shm-usage"],  # containers often have a tiny /dev/shm
        timeout=30_000,
    )
    try:
        yield browser
    finally:
        browser.close()


_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item,
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:  # set up or run: the pages are saved when the fixture tears down
        item.stash[_FAILED] = True
    return report


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if (
            isinstance(item, pytest.Function)
            and item.path.is_relative_to(here)
            and inspect.iscoroutinefunction(item.function)
        ):
            raise pytest.UsageError(
                f"{item.nodeid}: browser tests are plain functions (Playwright's sync API; "
                "see tests/web/conftest.py)"
            )


@pytest.fixture
def new_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Callable[[], Page]]:
    """Makes pages, each in a fresh context (cookies and storage of its own: another
    person), with short timeouts and a :class:`PageLog`. A failed test saves a
    screenshot and the log of each."""
    pages: list[Page] = []

    def make() -> Page:
        context = browser.new_context(viewport=VIEWPORT)
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        page = context.new_page()
        PageLog.watch(page)
        pages.append(page)
        return page

    yield make
    failed = request.node.stash.get(_FAILED, False)
    for n, page in enumerate(pages):
        if failed:
            name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name) + (f"-{n}" if n else "")
            with contextlib.suppress(Exception):  # the page may be gone: keep the log
                screenshot(page, f"failed-{name}")
            (SCREENSHOTS / f"failed-{name}.txt").write_text(PageLog.of(page).text())
        page.context.close()


@pytest.fixture
def page(new_page: Callable[[], Page]) -> Page:
    """A fresh page in a fresh context; its log is ``PageLog.of(page)``."""
    return new_page()
