"""A real ``pokerroom serve --demo`` in a process of its own, for the stress tests: its
own SQLite file, a free port, the in-process bus, settings from a ``[serve]`` table."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Served:
    proc: asyncio.subprocess.Process
    address: str
    """The websocket URL, ``ws://127.0.0.1:PORT/ws``."""
    log: Path
    """The server's stderr."""

    @property
    def host(self) -> str:
        return urlsplit(self.address).hostname or "127.0.0.1"

    @property
    def port(self) -> int:
        port = urlsplit(self.address).port
        assert port is not None
        return port

    def rss_kb(self) -> int:
        """The process's resident set size (VmRSS), in KB."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError(f"no VmRSS for process {self.proc.pid}")

    async def stop(self, seconds: float = 20.0) -> None:
        """SIGTERM; it must have been running, exit 0 within ``seconds`` and have logged
        no traceback."""
        assert self.proc.returncode is None, f"the server died: {self.log.read_text()[-2000:]}"
        self.proc.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(seconds):
                status = await self.proc.wait()
        except TimeoutError:
            raise AssertionError(
                f"still running {seconds:g} s after SIGTERM: {self.log.read_text()[-2000:]}"
            ) from None
        text = self.log.read_text()
        assert status == 0 and "Traceback" not in text, f"exit {status}: {text[-3000:]}"


@contextlib.asynccontextmanager
async def serve(tmp: Path, **settings: float | int) -> AsyncIterator[Served]:
    """``pokerroom serve --demo`` (the hold'em demo table alone) on SQLite in ``tmp``, port
    0, with ``settings`` (names of ServerSettings fields) in its ``--config`` file; killed
    if still running at the end."""
    config = tmp / "pokerroom.toml"
    config.write_text("[serve]\n" + "".join(f"{k} = {v!r}\n" for k, v in settings.items()))
    log = tmp / "server.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with log.open("ab") as errors:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.cli", "serve", "--port", "0", "--demo",
            "--demo-games", "nlhe", "--db", f"sqlite:///{tmp / 'pokerroom.db'}", "--bus", "local",
            "--config", str(config),
            stdout=asyncio.subprocess.PIPE, stderr=errors, env=env, cwd=ROOT,
        )  # fmt: skip
    drain: asyncio.Task[bytes] | None = None
    try:
        assert proc.stdout is not None
        address = ""
        async with asyncio.timeout(30):
            while not address:
                line = (await proc.stdout.readline()).decode()
                assert line, f"the server exited: {log.read_text()[-2000:]}"
                if line.startswith("bots and other clients: "):
                    address = line.split(": ", 1)[1].strip()
        # Whatever it prints later is read, so that a full pipe never stops it.
        drain = asyncio.create_task(proc.stdout.read())
        yield Served(proc, address, log)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        if drain is not None:
            await drain
