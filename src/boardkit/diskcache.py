"""The user's cache directory, and files in it that only the user can have written.

Compiled rules and the parser's tables are kept there. What is read back is trusted only as far
as its owner and mode say: a file someone else could have written is a miss. Set
BOARDKIT_CACHE_DIR to choose the directory, BOARDKIT_NO_CACHE=1 to turn caching off.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path


def cache_dir() -> Path | None:
    """Where boardkit keeps what it built, or None when caching is off."""
    if os.environ.get("BOARDKIT_NO_CACHE") == "1":
        return None
    chosen = os.environ.get("BOARDKIT_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "boardkit"


def digest(*parts: str) -> str:
    """A hex digest of texts, told apart even when one ends where the next begins."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def private(path: Path) -> bool:
    """Whether only the current user can have written `path`."""
    try:
        st = path.stat()
    except OSError:
        return False
    getuid = getattr(os, "getuid", None)
    if getuid is not None and st.st_uid != getuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read(name: str) -> bytes | None:
    """The bytes of cache file `name`, or None when caching is off, it is missing, or others could have written it."""
    directory = cache_dir()
    if directory is None:
        return None
    path = directory / name
    if not (private(directory) and private(path)):
        return None
    try:
        return path.read_bytes()
    except OSError:
        return None


def write(name: str, data: bytes) -> None:
    """Keeps `data` as cache file `name`, whole or not at all; a cache that cannot be written is skipped."""
    directory = cache_dir()
    if directory is None:
        return
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not private(directory):
            return
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        Path(tmp).replace(directory / name)
    except OSError:
        return
