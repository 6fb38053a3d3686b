"""What a decision offers: its distinct values as options, and the option of not choosing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from boardkit.runtime.pieces import Piece

if TYPE_CHECKING:
    from boardkit.model.defs import ZoneDef
    from boardkit.runtime.state import State
    from boardkit.runtime.work import Value


class _Skip:
    """The option of not choosing, offered by `choose ... optional "label"`."""

    def __repr__(self) -> str:
        return "SKIP"


SKIP: Final = _Skip()
# Heads the keys `_value_key` makes without repr: equal to nothing else.
_TEXTS: Final = object()


def offered(values: Value, s: State) -> list[Value]:
    """A choice's values as options: each distinct value once."""
    if values and isinstance(values[0], (Piece, list)):
        return _distinct_options(values, s.loc, s.layout.zone_defs)
    return list(dict.fromkeys(values))


def _value_key(v: Value) -> object:
    """A key equal for alike values only: `1`, `true` and `"1"` differ (as their reprs do).

    Texts and lists of texts, the common options that are not pieces (cells, spots), need no repr.
    """
    if type(v) is str:
        return (_TEXTS, v)
    if type(v) is list and all(type(x) is str for x in v):
        return (_TEXTS, tuple(v))
    return repr(v)


def _distinct_options(values: list[Value], loc: list[int], zone_defs: list[ZoneDef]) -> list[Value]:
    """Interchangeable pieces (same type and attributes, same zone) make one option.

    Lists of pieces compare by identity. Pieces in a bag come sorted: their order there is the draw's.
    """
    out: list[Value] = []
    seen: set[object] = set()
    bagged = False
    for v in values:
        key = (v.type, tuple(v.attrs.items()), loc[v.id]) if isinstance(v, Piece) else _value_key(v)
        if key not in seen:
            seen.add(key)
            out.append(v)
            bagged = bagged or (isinstance(v, Piece) and zone_defs[loc[v.id]].kind == "bag")
    if bagged:
        out.sort(key=lambda v: (v.type, v.label, v.id) if isinstance(v, Piece) else ("", "", -1))
    return out
