"""Loading a bot for the SDK: by built-in name, by ``module:Class``, or from a file
(``path/to/file.py:Class``), for ``pokerroom bot`` and ``pokerroom tournament --bot``.

>>> type(load_bot_spec("calling-station")).__name__
'CallingStation'
>>> load_bot_spec("no/such/file.py:Bot")
Traceback (most recent call last):
...
ValueError: bot file 'no/such/file.py' not found
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from server.bots.strategies import Bot, load_bot

__all__ = ["load_bot_spec"]


def load_bot_spec(spec: str) -> Bot:
    """A bot from a built-in name, ``module:Class``, or ``path/to/file.py:Class``.

    A ``module:Class`` whose module cannot be imported but names a file under the current
    folder (``examples.my_bot`` -> ``examples/my_bot.py``) is loaded from that file: another
    installed package of the same name (PyPokerEngine installs ``examples``) cannot hide
    it. Raises :class:`ValueError` saying what is wrong.
    """
    module_name, colon, class_name = spec.rpartition(":")
    if colon and (module_name.endswith(".py") or "/" in module_name or "\\" in module_name):
        return _load_from_file(Path(module_name), class_name, spec)
    try:
        return load_bot(spec)
    except ValueError as exc:
        candidate = Path(*module_name.split(".")).with_suffix(".py") if module_name else None
        if colon and candidate is not None and candidate.is_file() and "not found" in str(exc):
            return _load_from_file(candidate, class_name, spec)
        raise


def _load_from_file(path: Path, class_name: str, spec: str) -> Bot:
    if not path.is_file():
        raise ValueError(f"bot file {str(path)!r} not found")
    if not class_name:
        raise ValueError(f"bot {spec!r} must look like 'path/to/file.py:Class'")
    module_name = "_pokerroom_bot_" + re.sub(r"\W", "_", path.stem)
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise ValueError(f"bot file {str(path)!r} cannot be loaded")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module
    try:
        loader_spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(module_name, None)
        raise ValueError(f"bot file {str(path)!r} cannot be imported: {exc}") from exc
    try:
        return load_bot(f"{module_name}:{class_name}")
    except ValueError as exc:  # name the file, not the module name made up for it
        raise ValueError(str(exc).replace(module_name, str(path))) from exc
