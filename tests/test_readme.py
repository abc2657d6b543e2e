"""The README's hand-tool and hand-history examples run from a fresh clone and print what
the README shows.

Each ``$ .venv/bin/pokerroom ...`` line of the ``console`` blocks under "The hand tools"
and "Hand histories" runs in-process from the repository root, on the samples in
``examples/data`` (never ``../shared/data``). The lines under a command are the start of
what it prints: a line ``...`` ends the part the README shows, and dates and times are
compared as ``<time>`` since they are the moment of the import. Commands that write do so
in a temporary folder: the database through ``POKERROOM_DB``, ``-o`` files there too.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from server.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PROGRAM = ".venv/bin/pokerroom"
TIME = re.compile(r"\d{4}([-/])\d{2}\1\d{2} \d{1,2}:\d{2}(:\d{2})?")


@dataclass
class Example:
    argv: list[str]
    shown: list[str] = field(default_factory=list)  # the first lines it prints

    def __str__(self) -> str:
        return shlex.join(self.argv)


def examples(section: str) -> list[Example]:
    """The commands of the console blocks of README section ``section``, in order."""
    text = README.read_text()
    start = text.index(f"\n## {section}\n")
    end = text.find("\n## ", start + 1)
    found: list[Example] = []
    shown_ended = True
    for block in re.findall(r"```console\n(.*?)```", text[start:end], re.DOTALL):
        for line in block.splitlines():
            if line.startswith("$ "):
                words = shlex.split(line[2:], comments=True)
                assert words[0] == PROGRAM, line
                found.append(Example(words[1:]))
                shown_ended = False
            elif not line.strip() or line == "...":
                shown_ended = True
            elif not shown_ended:
                found[-1].shown.append(line)
    return found


HAND_TOOLS = examples("The hand tools")
HAND_HISTORIES = examples("Hand histories")


def normalised(lines: list[str]) -> list[str]:
    return [TIME.sub("<time>", line) for line in lines]


def run(
    example: Example, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> tuple[int, str, str]:
    """Run ``example`` with any ``-o FILE`` moved into ``tmp_path``; its output names the
    file as the README does."""
    argv = list(example.argv)
    moved = {}
    for i, word in enumerate(argv[:-1]):
        if word in ("-o", "--output"):
            moved[str(tmp_path / argv[i + 1])] = argv[i + 1]
            argv[i + 1] = str(tmp_path / argv[i + 1])
    code = main(argv)
    out, err = capsys.readouterr()
    for path, name in moved.items():
        out = out.replace(path, name)
    return code, out, err


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The repository root as the working directory, with a database in ``tmp_path``."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("POKERROOM_DB", f"sqlite:///{tmp_path / 'pokerroom.db'}")
    return tmp_path


def test_the_examples_are_found_and_read_only_the_checkout() -> None:
    assert len(HAND_TOOLS) >= 6
    assert [e.argv[:2] for e in HAND_HISTORIES][:2] == [["hands", "import"], ["hands", "list"]]
    for example in HAND_TOOLS + HAND_HISTORIES:
        assert "--db" not in example.argv, example  # it would write outside the tmp folder
        assert not any("shared" in word for word in example.argv), example
    assert any("examples/data/" in word for e in HAND_TOOLS for word in e.argv)


@pytest.mark.parametrize("example", HAND_TOOLS, ids=str)
def test_hand_tool_example_prints_what_the_readme_shows(
    example: Example, capsys: pytest.CaptureFixture[str], in_root: Path
) -> None:
    code, out, err = run(example, capsys, in_root)
    assert code == 0, err
    assert normalised(out.splitlines()[: len(example.shown)]) == normalised(example.shown)


def test_hand_history_examples_print_what_the_readme_shows_in_order(
    capsys: pytest.CaptureFixture[str], in_root: Path
) -> None:
    for example in HAND_HISTORIES:
        code, out, err = run(example, capsys, in_root)
        assert code == 0, f"{example}: {err}"
        shown = normalised(out.splitlines()[: len(example.shown)])
        assert shown == normalised(example.shown), str(example)
    assert (in_root / "pokerroom.db").exists()
    assert not (ROOT / "all.phhs").exists()
