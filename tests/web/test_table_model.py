"""The browser client's table model (server/web/model.js) against the engine, outside the
browser: Node runs the module itself, with no DOM and no server. Fed the events of many
random sessions (antes of both kinds, dead buttons and dead blinds, newcomers, players
sitting out and back in, all-ins, side pots, folds, uncalled bets), each batch with the
state the server sends after it (whose turn it is, the pots, the street), it must show
the stacks, bets and folds the engine's own view gives, and the server's turn and pots,
after every change. So must it in every other game the engine plays (Omaha, stud, draw
games with their bets kept through each draw, Kuhn and Leduc, jokers, dice), and draw the
cards the engine deals: how many each seat holds, which are face up, and our own."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import (
    Action,
    ActionMenu,
    AnteKind,
    BetOrRaiseTo,
    BringIn,
    ButtonRule,
    CheckOrCall,
    Deck,
    Draw,
    EngineError,
    Event,
    Fold,
    Game,
    Table,
    TableConfig,
    redact,
)
from server import protocol
from server.bots.strategies import RandomBot

WEB = Path(__file__).resolve().parents[2] / "server" / "web"
MODEL = WEB / "model.js"

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


def random_session(rng: random.Random, hands: int) -> dict[str, Any]:
    """``hands`` hands at a 6-seat table of a random ante kind and button rule, played by
    random bots, with players of short and deep stacks coming (posting at once or waiting
    for the big blind), sitting out and back in (posting what they owe or not) and busting
    between hands: the view before, and after each change its events and the view."""
    stacks = [60, 150, 400, 1_000, 2_500, 10_000]
    ante_kind = rng.choice(list(AnteKind))
    table = Table(
        TableConfig(
            small_blind=50, big_blind=100, seats=6, min_buy_in=50, max_buy_in=10_000,
            ante=0 if ante_kind is AnteKind.NONE else rng.choice([10, 25, 100]),
            ante_kind=ante_kind, button_rule=rng.choice(list(ButtonRule)),
        )
    )  # fmt: skip
    for seat in rng.sample(range(6), rng.randint(2, 6)):
        table.sit_down(seat, rng.choice(stacks))
    before = protocol.view_body(table.view(None), NAMES)
    steps: list[dict[str, Any]] = []

    def step(events: list[Event]) -> None:
        bodies = [protocol.event_body(e) for e in events]
        state = protocol.state_body(table.public_state())
        steps.append({"events": bodies, "state": state, "view": public_view(table)})

    bot = RandomBot(seed=rng.randrange(1 << 30))
    for _ in range(hands):
        free = [s for s in range(6) if s not in table.occupied()]
        if free and rng.random() < 0.3:
            step(table.sit_down(rng.choice(free), rng.choice(stacks),
                                wait_for_big_blind=rng.random() < 0.5))  # fmt: skip
        for seat in table.occupied():
            if rng.random() < 0.1:
                if table.is_sitting_out(seat):
                    step(table.sit_in(seat, post=rng.random() < 0.5))
                else:
                    step(table.sit_out(seat))
        try:
            step(table.start_hand(Deck.shuffled(rng)))
        except EngineError:
            continue  # fewer than two players can play this time
        while table.hand_in_progress and table.to_act is not None:
            menu = table.legal_actions(table.to_act)
            assert menu is not None
            step(table.apply(bot.act(table.view(menu.seat), menu)))
    return {"before": before, "steps": steps}


def run_model(script: str, payload: Any) -> Any:
    """Run ``script``, the body of an ES module, in Node with ``TableModel`` imported from
    server/web/model.js, the server's catalogue loaded (``/catalogue.json``) and ``input``
    the JSON ``payload`` (sent on stdin); what it prints is the answer, as JSON."""
    node = shutil.which("node")
    if node is None:  # never a skip: CI must run this test
        pytest.fail(
            "node is missing: the table model's tests run server/web/model.js in Node "
            "(as root: apt-get install --no-install-recommends nodejs)",
            pytrace=False,
        )
    module = f"""
import {{ TableModel }} from {json.dumps(MODEL.as_uri())};
import {{ catalogue }} from {json.dumps((WEB / "format.js").as_uri())};
Object.assign(catalogue, {json.dumps(protocol.catalogue_body())});  // as the page loads it
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
{script}
"""
    done = subprocess.run(
        [node, "--input-type=module", "--eval", module],
        input=json.dumps(payload), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


SHOWN = """console.log(JSON.stringify(input.map((session) => {
  const t = new TableModel("t");
  t.setSnapshot({ seq: 0, summary: null, view: session.before });
  return session.steps.map((step) => {
    const last = step.events.length - 1;
    step.events.forEach((e, i) => t.apply(e, i === last ? step.state : undefined));
    const v = t.view;
    return {
      to_act: v.hand_in_progress ? v.to_act : null,
      pots: v.pots,
      seats: v.seats.map((s) => [s.seat, s.stack, s.street_total,
        v.hand_in_progress ? s.hand_total : null, s.folded, s.all_in]),
    };
  });
})));"""


def test_the_table_model_matches_the_engine_action_after_action() -> None:
    rng = random.Random(54)
    sessions = [random_session(rng, hands=12) for _ in range(60)]
    shown = run_model(SHOWN, sessions)
    seen_kinds: Counter[str] = Counter()
    for n, (session, seen) in enumerate(zip(sessions, shown, strict=True)):
        for k, (step, view) in enumerate(zip(session["steps"], seen, strict=True)):
            assert view == step["view"], f"session {n}, step {k}: {step['events']}"
            kinds = [e.get("kind") for e in step["events"]]
            seen_kinds["side pots"] += len(step["view"]["pots"]) > 1
            seen_kinds["dead blinds"] += "dead_blind" in kinds
            seen_kinds["big-blind antes"] += kinds.count("ante") == 1
            seen_kinds["antes"] += kinds.count("ante") > 1
    assert min(seen_kinds.values()) >= 3, seen_kinds  # the sessions had each of them


DOM = re.compile(r"\b(?:document|window|localStorage|sessionStorage|location|WebSocket|"
                 r"requestAnimationFrame|HTMLElement|Node)\b")  # fmt: skip


def test_the_model_and_what_it_imports_never_touch_the_page() -> None:
    """Static, for the branches the sessions above may not reach: no name of the
    browser's page, storage or network in the model's modules (comments aside)."""
    todo, seen = ["model.js"], set()
    while todo:
        name = todo.pop()
        seen.add(name)
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", (WEB / name).read_text(), flags=re.S)
        assert not DOM.search(code), (name, DOM.findall(code))
        todo += [i for i in re.findall(r'from "\./([\w.]+)"', code) if i not in seen]
    assert seen == {"model.js", "format.js"}


# -- every game ------------------------------------------------------------------------------

GAMES = ("plo", "plo5", "plo6", "flo8", "plo8", "flhe", "shortdeck", "stud", "stud8", "razz",
         "27td", "27sd", "5cd", "badugi", "kuhn", "kuhn3", "leduc", "dice", "5cd-bug",
         "nlhe-wild2")  # fmt: skip


def stakes(game: Game) -> dict[str, Any]:
    """Blinds of 50/100 in games with blinds; else an ante of 10 and bets of 100/200, with
    a bring-in of 25 in stud."""
    if game.blinds:
        return {"small_blind": 50, "big_blind": 100}
    bring_in = 25 if game.bring_in else 0
    return {"ante": 10, "ante_kind": AnteKind.PER_PLAYER, "small_bet": 100, "big_bet": 200,
            "bring_in": bring_in}  # fmt: skip


def any_action(rng: random.Random, table: Table, menu: ActionMenu) -> Action:
    """A random legal action: a draw of random cards (or dice), a bring-in or a completion,
    a fold, check, call, bet or raise of a random size."""
    if menu.can_draw:
        hand = table.view(menu.seat).seats
        cards = next(s.cards for s in hand if s.seat == menu.seat) or ()
        picked = rng.sample(range(len(cards)), rng.randint(0, min(menu.max_discard, len(cards))))
        return Draw(menu.seat, tuple(cards[i] for i in sorted(picked)))
    roll = rng.random()
    if menu.can_bring_in and roll < 0.6:
        return BringIn(menu.seat)
    if menu.can_raise and roll < 0.3:
        return BetOrRaiseTo(menu.seat, rng.randint(menu.min_raise_to, menu.max_raise_to))
    if menu.can_fold and roll > 0.85:
        return Fold(menu.seat)
    if menu.can_call:
        return CheckOrCall(menu.seat)
    return Fold(menu.seat) if menu.can_fold else BetOrRaiseTo(menu.seat, menu.min_raise_to)


def cards_shown(table: Table, viewer: int) -> dict[str, Any]:
    """What the page must draw of each seat still in the hand: how many cards it holds
    and which are face up (public); and the viewer's own cards, all of them."""
    public = table.view(None)
    seats = []
    for s in public.seats:
        if not (s.in_hand and not s.folded and s.has_cards):
            continue
        own = next(o for o in table.view(s.seat).seats if o.seat == s.seat)
        seats.append([s.seat, len(own.cards or ()), [str(c) for c in s.up_cards]])
    mine = next((s for s in table.view(viewer).seats if s.seat == viewer), None)
    own_cards = [str(c) for c in mine.cards] if mine and mine.cards and not mine.folded else None
    return {"seats": seats, "mine": own_cards}


def game_session(rng: random.Random, key: str, hands: int) -> dict[str, Any]:
    """``hands`` hands of game ``key`` between random players, some short-stacked, seen
    from the first seat (its own cards, everyone else's face down): the view before, and
    after each change its events and what the page must show."""
    game = engine.game(key)
    seats = min(6, game.max_players)
    table = Table(TableConfig(game=game, seats=seats, min_buy_in=50, max_buy_in=20_000,
                              **stakes(game)))  # fmt: skip
    stacks = [300, 1_000, 2_500, 10_000]
    for seat in range(seats):
        if seat == 0 or rng.random() < 0.8:
            table.sit_down(seat, rng.choice(stacks))
    if len(table.occupied()) < 2:
        table.sit_down(1, 10_000)
    viewer = 0
    names = {s: f"p{s}" for s in range(seats)}
    before = protocol.view_body(table.view(viewer), names)
    steps: list[dict[str, Any]] = []

    def step(events: Sequence[Event]) -> None:
        bodies = [protocol.event_body(redact(e, viewer)) for e in events]
        cards = cards_shown(table, viewer) if table.hand_in_progress else None
        state = protocol.state_body(table.public_state())
        steps.append({"events": bodies, "state": state, "view": public_view(table), "cards": cards})

    for _ in range(hands):
        for seat in range(seats):
            if seat not in table.occupied() and rng.random() < 0.5:
                step(table.sit_down(seat, rng.choice(stacks)))
        try:
            step(table.start_hand(Deck.shuffled(rng, game.deck)))
        except EngineError:
            continue
        while table.hand_in_progress and table.to_act is not None:
            menu = table.legal_actions(table.to_act)
            assert menu is not None
            step(table.apply(any_action(rng, table, menu)))
    return {"game": game.to_dict(), "before": before, "steps": steps}


SHOWN_CARDS = """console.log(JSON.stringify(input.map((session) => {
  const t = new TableModel("t");
  t.setSnapshot({ seq: 0, summary: { game: session.game }, view: session.before });
  return session.steps.map((step) => {
    const last = step.events.length - 1;
    step.events.forEach((e, i) => t.apply(e, i === last ? step.state : undefined));
    const v = t.view;
    const me = t.seat(0);
    return {
      to_act: v.hand_in_progress ? v.to_act : null,
      pots: v.pots,
      seats: v.seats.map((s) => [s.seat, s.stack, s.street_total,
        v.hand_in_progress ? s.hand_total : null, s.folded, s.all_in]),
      cards: v.hand_in_progress ? {
        seats: v.seats.filter((s) => s.in_hand && !s.folded && s.hand.length)
          .map((s) => [s.seat, s.hand.length, s.hand.filter((c) => c.up).map((c) => c.card)]),
        mine: me && me.in_hand && !me.folded && me.hand.length ? me.hand.map((c) => c.card) : null,
      } : null,
    };
  });
})));"""


@pytest.mark.parametrize("key", GAMES)
def test_the_table_model_plays_every_game_like_the_engine(key: str) -> None:
    """The chips (bets kept through a draw until its betting opens), the server's turn and
    pots, and each seat's cards: how many, which face up, and all of our own."""
    rng = random.Random(f"model-{key}")
    sessions = [game_session(rng, key, hands=8) for _ in range(12)]
    shown = run_model(SHOWN_CARDS, sessions)
    for n, (session, seen) in enumerate(zip(sessions, shown, strict=True)):
        for k, (step, view) in enumerate(zip(session["steps"], seen, strict=True)):
            expected = {**step["view"], "cards": step["cards"]}
            assert view == expected, f"{key} session {n}, step {k}: {step['events']}"
