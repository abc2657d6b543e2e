"""The server reads in small pieces: no class over 400 lines, no function over 60.

One that must be longer says why in a comment on the line above it (or above its
decorators) that starts with ``# long:``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]
CLASS_LINES, FUNCTION_LINES = 400, 60


def too_long(source: str) -> list[tuple[str, int, int]]:
    """(name, first line, length) of each class or function over its limit without a
    ``# long:`` comment saying why."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        assert node.end_lineno is not None
        length = node.end_lineno - node.lineno + 1
        limit = CLASS_LINES if isinstance(node, ast.ClassDef) else FUNCTION_LINES
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        above = lines[first - 2].strip() if first >= 2 else ""
        if length > limit and not above.startswith("# long:"):
            found.append((node.name, node.lineno, length))
    return found


def test_no_class_or_function_in_the_server_is_too_long() -> None:
    over = [
        f"{path.relative_to(ROOT)}:{line}: {name} is {length} lines"
        for path in sorted(ROOT.glob("server/**/*.py"))
        for name, line, length in too_long(path.read_text())
    ]
    assert not over, "\n".join(over)


def test_the_check_finds_a_long_function_and_accepts_a_reason() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_LINES))
    assert too_long(f"def f():\n{body}") == [("f", 1, FUNCTION_LINES + 1)]
    assert too_long(f"# long: one table, row by row\ndef f():\n{body}") == []
