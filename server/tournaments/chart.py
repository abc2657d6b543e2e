"""The PNG chart of a tournament: each player's cumulative winnings, hand by hand (ring
and round robin), or each player's chips through the tournament (sit-and-go and
multi-table)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["stacks_chart", "winnings_chart"]


def winnings_chart(
    winnings: Mapping[str, Sequence[float]], path: Path, title: str, *, unit: str = "big blinds"
) -> None:
    """Draw each player's cumulative winnings in ``unit`` (big blinds, or big bets)
    against the hands they played, to a PNG file at ``path``."""
    ranked = sorted(winnings.items(), key=lambda item: -_last(item[1]))
    lines = {name: (range(1, len(s) + 1), s) for name, s in ranked}
    _draw(lines, path, title, "hands played", f"cumulative winnings ({unit})")


def stacks_chart(
    stacks: Mapping[str, Sequence[Sequence[int]]], path: Path, title: str, *, starting_stack: int
) -> None:
    """Draw each player's chips against the tournament's hands (every table's, counted
    together): ``starting_stack`` at hand 0, then after every hand they played, as the
    (hand, chips) pairs of ``stacks``, down to 0 in the hand they busted; to a PNG file at
    ``path``. The legend is in finishing order: the most chips, then the last out."""
    lines = {
        name: ([0, *(p[0] for p in points)], [starting_stack, *(p[1] for p in points)])
        for name, points in stacks.items()
    }
    lines = dict(sorted(lines.items(), key=lambda item: (-_last(item[1][1]), -_last(item[1][0]))))
    _draw(lines, path, title, "tournament hands dealt (every table)", "chips")


def _draw(
    lines: Mapping[str, tuple[Sequence[int], Sequence[float]]],
    path: Path,
    title: str,
    xlabel: str,
    ylabel: str,
) -> None:
    import matplotlib  # noqa: PLC0415  (slow to import: only when a chart is drawn)

    matplotlib.use("Agg")  # files only: no display, no GUI toolkit
    from matplotlib import pyplot  # noqa: PLC0415

    figure, axes = pyplot.subplots(figsize=(10, 6), dpi=100)
    try:
        for name, (xs, ys) in lines.items():  # in the legend's order
            axes.plot(xs, ys, label=name, linewidth=1.2)
        axes.axhline(0, color="grey", linewidth=0.8)
        axes.set_xlabel(xlabel)
        axes.set_ylabel(ylabel)
        axes.set_title(title)
        axes.grid(alpha=0.3)
        if lines:
            axes.legend(loc="upper left", fontsize="small", ncols=1 + len(lines) // 16)
        figure.tight_layout()
        figure.savefig(path, format="png")
    finally:
        pyplot.close(figure)


def _last(series: Sequence[float]) -> float:
    return series[-1] if series else 0.0
