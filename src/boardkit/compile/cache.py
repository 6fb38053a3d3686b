"""The compiled-rules cache: a ruleset compiled once is loaded from the user's cache directory.

An entry holds the generated module's source and code object and the checked model without
its expressions (the code has them; the runtime reads only declarations, instructions and
spans). It is keyed by the rule file's name and text and the engine (boardkit's version and files), and it lists
the files it extends with a hash of each, checked on every load: an edited base is a miss.

Nothing here trusts what it reads. Entries are marshal data (no pickle), read only from a
directory and files that the user owns and that no one else may write; a file that does not
decode to what this version writes is ignored and written again (see `boardkit.diskcache`).
"""

from __future__ import annotations

import functools
import marshal
import os
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import attrs

from boardkit import diskcache, errors, source
from boardkit._version import __version__
from boardkit.model import defs, expr, fields_getter

if TYPE_CHECKING:
    from collections.abc import Callable

# Bumped whenever what an entry holds changes shape.
FORMAT = 2
_MAGIC = "boardkit-compiled-rules"

_CLASSES: dict[str, type] = {c.__name__: c for mod in (defs, source, errors) for c in vars(mod).values()
                             if isinstance(c, type) and attrs.has(c) and c.__module__ == mod.__name__}
# What `_encode` makes of the model: data marshal writes.
_Marshal: TypeAlias = bool | int | float | str | list[Any] | tuple[Any, ...] | dict[Any, Any] | None
_EXPRESSIONS = tuple(c for c in vars(expr).values() if isinstance(c, type) and attrs.has(c)
                     and c.__module__ == expr.__name__)


@attrs.frozen
class Cached:
    """What an entry gives back: the checked model (without its expressions) and the module."""

    game: defs.GameDef
    python_source: str
    code: CodeType


@functools.cache
def engine_id() -> str:
    """The version, and the size and time of every file of the installed package.

    Code that changed since an entry was written (an editable install, a patched one) makes a miss.
    """
    parts = [__version__]

    def scan(directory: str, relative: str) -> None:
        with os.scandir(directory) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        scan(entry.path, f"{relative}{entry.name}/")
                elif entry.name.endswith((".py", ".lark")):
                    st = entry.stat()
                    parts.append(f"{relative}{entry.name}:{st.st_size}:{st.st_mtime_ns}")

    scan(str(Path(__file__).resolve().parents[1]), "")
    return diskcache.digest(*parts)


def _entry(filename: str, text: str) -> str:
    return f"{diskcache.digest(str(FORMAT), engine_id(), filename, text)[:40]}.bkc"


def load(filename: str, text: str) -> Cached | None:
    """The compiled rules of `text` (named `filename`), if the cache holds them; else None.

    They must still be true to every file they were compiled from.
    """
    blob = diskcache.read(_entry(filename, text))
    if blob is None:
        return None
    try:
        data = marshal.loads(blob)  # noqa: S302 - a private file of ours, its contents checked below
        magic, version, fmt, name, text_hash, bases, python_source, code, model = data
        expected = (_MAGIC, engine_id(), FORMAT, filename, diskcache.digest(text))
        if (magic, version, fmt, name, text_hash) != expected or any(
                diskcache.digest(Path(base).read_text(encoding="utf-8")) != base_hash for base, base_hash in bases):
            return None
        game = _decode(model)
        if not isinstance(game, defs.GameDef) or not isinstance(code, CodeType) or not isinstance(python_source, str):
            return None
    except Exception:  # noqa: BLE001 - a damaged or foreign entry is a miss, never an error
        return None
    return Cached(game, python_source, code)


def store(filename: str, text: str, game: defs.GameDef, python_source: str, code: CodeType) -> None:
    """Keeps compiled rules for the next load; a cache that cannot be written is skipped."""
    bases = [(name, diskcache.digest(src.text)) for name, src in sorted(game.sources.items()) if name != filename]
    data = (_MAGIC, engine_id(), FORMAT, filename, diskcache.digest(text), bases, python_source, code, _encode(game))
    try:
        blob = marshal.dumps(data)
    except ValueError:
        return
    diskcache.write(_entry(filename, text), blob)


def _encode(value: object) -> _Marshal:
    """The model as marshal data: a node is a list [class name, fields...].

    Expressions are left out (None), since the generated code carries them.
    """
    cls = value.__class__
    get = _GETTERS.get(cls)
    if get is None:
        if cls in _PLAIN:
            return cast("_Marshal", value)  # a number, text or None: marshal refuses anything else
        if cls is tuple:
            return tuple(map(_encode, cast("tuple[object, ...]", value)))
        if cls is dict:
            return {k: _encode(v) for k, v in cast("dict[object, object]", value).items()}
        if isinstance(value, _EXPRESSIONS):
            return None
        if not attrs.has(cls):
            return cast("_Marshal", value)
        get = _GETTERS[cls] = fields_getter([f.name for f in attrs.fields(cls)])
    plain = _PLAIN
    return [cls.__name__, *[v if v.__class__ in plain else _encode(v) for v in get(value)]]


# Per model class, its fields' values in order (classes of the model are told apart by exact class: fast).
_GETTERS: dict[type, Callable[[object], tuple[object, ...]]] = {}
_PLAIN = frozenset({int, str, bool, float, type(None)})


def _decode(value: Any) -> Any:  # noqa: ANN401 - marshal data of any shape, told apart by exact class (fast)
    """The model back from marshal data: what `_encode` wrote, expressions left out."""
    c = value.__class__
    if c is list:
        return _CLASSES[value[0]](*map(_decode, value[1:]))
    if c is tuple:
        return tuple(map(_decode, value))
    if c is dict:
        return {k: _decode(v) for k, v in value.items()}
    return value
