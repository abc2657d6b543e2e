"""The PNG chart of a tournament: each player's cumulative winnings, hand by hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["winnings_chart"]


def winnings_chart(
    winnings: Mapping[str, Sequence[float]], path: Path, title: str, *, unit: str = "big blinds"
) -> None:
    """Draw each player's cumulative winnings in ``unit`` (big blinds, or big bets)
    against the hands they played, to a PNG file at ``path``."""
    import matplotlib  # noqa: PLC0415  (slow to import: only when a chart is drawn)

    matplotlib.use("Agg")  # files only: no display, no GUI toolkit
    from matplotlib import pyplot  # noqa: PLC0415

    figure, axes = pyplot.subplots(figsize=(10, 6), dpi=100)
    try:
        for name, series in sorted(winnings.items(), key=lambda item: -_last(item[1])):
            axes.plot(range(1, len(series) + 1), series, label=name, linewidth=1.2)
        axes.axhline(0, color="grey", linewidth=0.8)
        axes.set_xlabel("hands played")
        axes.set_ylabel(f"cumulative winnings ({unit})")
        axes.set_title(title)
        axes.grid(alpha=0.3)
        if winnings:
            axes.legend(loc="upper left", fontsize="small", ncols=1 + len(winnings) // 16)
        figure.tight_layout()
        figure.savefig(path, format="png")
    finally:
        pyplot.close(figure)


def _last(series: Sequence[float]) -> float:
    return series[-1] if series else 0.0
