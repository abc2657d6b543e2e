"""Playing a bot in a tournament on a server, over the websocket (docs/tournaments.md).

:class:`TournamentClient` says hello, registers for the tournament, and plays whatever
table the tournament seats it at: each ``tournament_seat`` starts a :class:`TableMirror`
of that table, each ``event`` keeps it current, and each ``action_request`` is answered
with the bot's action on the mirror's view, the view an in-process bot would get. It
returns the final standings.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from server.bots.errors import BotClientError
from server.bots.mirror import TableMirror
from server.bots.strategies import Bot
from server.bots.wire import act_message, menu_from_json

log = logging.getLogger("pokerroom.bot")

__all__ = ["TournamentClient", "TournamentOutcome"]


@dataclass
class TournamentOutcome:
    """How the tournament ended for this bot, and for everyone."""

    state: str
    """``finished``, or ``cancelled`` (too few registered), or ``failed``."""
    standings: list[dict[str, Any]]
    decisions: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)


class TournamentClient:
    """One bot in one tournament: ``await TournamentClient(bot, url, 7, name="x").run()``."""

    def __init__(
        self, bot: Bot, url: str, tournament: int, *, name: str | None = None,
        token: str | None = None,
    ) -> None:  # fmt: skip
        if (name is None) == (token is None):
            raise ValueError("give a guest name or an account token")
        self.bot, self.url, self.tournament = bot, url, tournament
        self.name, self.token = name, token
        self.mirrors: dict[str, TableMirror] = {}
        self.outcome = TournamentOutcome("running", [])
        self._ids = 0

    async def run(self) -> TournamentOutcome:
        async with connect(self.url, max_size=2**22) as ws:
            who = {"name": self.name} if self.name is not None else {"token": self.token}
            await self._send(ws, {"type": "hello", "id": "hello", "bot": True, **who})
            await self._send(ws, {"type": "register", "id": "register",
                                  "tournament": self.tournament})  # fmt: skip
            async for raw in ws:
                message = json.loads(raw)
                if await self._on_message(ws, message):
                    return self.outcome
        raise BotClientError("the server closed the connection before the tournament ended")

    async def _send(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        await ws.send(json.dumps(message))

    async def _on_message(self, ws: ClientConnection, m: dict[str, Any]) -> bool:
        """Handle one message; True once the tournament is over."""
        match m.get("type"):
            case "error":
                self.outcome.errors.append(m)
                if m.get("re") in ("hello", "register"):
                    raise BotClientError(f"{m['re']} refused: {m['code']}: {m['message']}")
                log.warning("%s: the server says %s: %s", self.name, m["code"], m["message"])
            case "tournament_seat":
                self.mirrors[m["table"]] = TableMirror.from_snapshot(m["snapshot"])
            case "event":
                mirror = self.mirrors.get(m["table"])
                if mirror is not None:
                    mirror.apply(m["event"], m.get("state"))
            case "action_request":
                await self._act(ws, m)
            case "tournament_standings":
                self.outcome.standings = m["standings"]
            case "tournament_finished":
                self.outcome.state, self.outcome.standings = m["state"], m["standings"]
                return True
        return False

    async def _act(self, ws: ClientConnection, m: dict[str, Any]) -> None:
        mirror = self.mirrors[m["table"]]
        seat = int(m["seat"])
        menu = menu_from_json(seat, m["menu"])
        action = self.bot.act(mirror.view(legal=menu), menu)
        self._ids += 1
        self.outcome.decisions += 1
        await self._send(ws, act_message(m["table"], f"d{self._ids}", action, menu, m["seq"]))
