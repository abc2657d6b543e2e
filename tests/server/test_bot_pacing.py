"""Pacing what the bot client sends (server.bots.pacing): a burst at once, then the rate,
and half the rate once the server has found us too fast."""

from __future__ import annotations

import asyncio

from server.bots.pacing import SendPacer


async def _time_to_send(pacer: SendPacer, count: int) -> float:
    loop = asyncio.get_running_loop()
    start = loop.time()
    for _ in range(count):
        await pacer.wait()
    return loop.time() - start


async def test_a_burst_goes_at_once_and_the_rest_at_the_rate() -> None:
    pacer = SendPacer(rate=50.0, burst=5)
    assert await _time_to_send(pacer, 5) < 0.05
    assert 0.08 <= await _time_to_send(pacer, 5) < 0.5  # five more at 50 a second


async def test_slowing_down_halves_the_rate_and_empties_the_bucket() -> None:
    pacer = SendPacer(rate=40.0, burst=5)
    await pacer.wait()  # the server says rate_limited after something was sent
    pacer.slow_down()
    assert pacer.rate == 20.0
    assert 0.12 <= await _time_to_send(pacer, 3) < 0.6  # no burst: three at 20 a second
    for _ in range(10):
        pacer.slow_down()
    assert pacer.rate == 0.5  # never slower than one message every two seconds


async def test_a_reset_starts_afresh_with_a_full_bucket() -> None:
    pacer = SendPacer(rate=40.0, burst=5)
    pacer.slow_down()
    pacer.reset(40.0, 5)
    assert pacer.rate == 40.0
    assert await _time_to_send(pacer, 5) < 0.05
