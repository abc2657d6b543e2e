"""The browser client's table model against the engine: fed the events of many random
hands (all-ins, side pots, folds, uncalled bets), the page must show the pots, stacks,
bets and the player to act that the engine's own view gives, after every action."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page

from engine import Deck, Table, TableConfig
from server import protocol
from server.bots.strategies import RandomBot
from tests.web.conftest import LiveServer

NAMES = {s: f"p{s}" for s in range(6)}


def public_view(table: Table) -> dict[str, Any]:
    """What the page must show: the player to act, the pots, and each seat's chips."""
    view = protocol.view_body(table.view(None), NAMES)
    playing = view["hand_in_progress"]  # after a hand, what each put in is of no interest
    return {
        "to_act": view["to_act"] if playing else None,
        "pots": view["pots"],
        "seats": [
            [s["seat"], s["stack"], s["street_total"], s["hand_total"] if playing else None,
             s["folded"], s["all_in"]]
            for s in view["seats"]
        ],
    }  # fmt: skip


def random_hands(count: int, seed: int) -> list[dict[str, Any]]:
    """Hands at a 6-seat table with short and deep stacks, played by random bots: for
    each, the view before it and, after each action, the events and the view."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        table = Table(
            TableConfig(small_blind=50, big_blind=100, seats=6, min_buy_in=50, max_buy_in=10_000)
        )
        players = rng.sample(range(6), rng.randint(2, 6))
        for seat in players:  # short stacks go all in from the blinds or soon after
            table.sit_down(seat, rng.choice([60, 150, 400, 1_000, 2_500, 10_000]))
        before = protocol.view_body(table.view(None), NAMES)
        steps = [table.start_hand(Deck.shuffled(rng))]
        views = [public_view(table)]
        bot = RandomBot(seed=rng.randrange(1 << 30))
        while table.hand_in_progress and table.to_act is not None:
            menu = table.legal_actions(table.to_act)
            assert menu is not None
            steps.append(table.apply(bot.act(table.view(menu.seat), menu)))
            views.append(public_view(table))
        hands.append(
            {
                "before": before,
                "steps": [
                    {"events": [protocol.event_body(e) for e in events], "view": view}
                    for events, view in zip(steps, views, strict=True)
                ],
            }
        )
    return hands


SHOWN = """(hands) => hands.map((hand) => {
  const t = new TableModel("t");
  t.setSnapshot({ seq: 0, summary: null, view: hand.before });
  return hand.steps.map((step) => {
    for (const e of step.events) t.apply(e);
    const v = t.view;
    return {
      to_act: v.hand_in_progress ? v.to_act : null,
      pots: v.pots,
      seats: v.seats.map((s) => [s.seat, s.stack, s.street_total,
        v.hand_in_progress ? s.hand_total : null, s.folded, s.all_in]),
    };
  });
})"""


def test_the_pages_table_model_matches_the_engine_hand_after_hand(
    live_server: LiveServer, page: Page
) -> None:
    page.goto(live_server.url)
    hands = random_hands(500, seed=54)
    shown = page.evaluate(SHOWN, hands)
    side_pots = 0
    for n, (hand, seen) in enumerate(zip(hands, shown, strict=True)):
        for k, (step, view) in enumerate(zip(hand["steps"], seen, strict=True)):
            assert view == step["view"], f"hand {n}, after action {k}: {step['events']}"
            side_pots += len(step["view"]["pots"]) > 1
    assert side_pots > 20  # the hands did make side pots
