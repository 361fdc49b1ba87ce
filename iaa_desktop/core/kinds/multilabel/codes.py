"""Label codes of the multi-label kind: their names, the S1 option, and how κ is shown.

A code is a k-bit number, the first label being the leftmost bit (Levi & Shenhav 2022).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.errors import OptionError


def code_name(code: int, labels: Sequence[str]) -> str:
    """``101`` with labels (Complication, Resolution, Success) → ``Complication + Success``."""
    k = len(labels)
    names = [lab for j, lab in enumerate(labels) if (code >> (k - 1 - j)) & 1]
    return " + ".join(names) if names else "(none)"


def parse_s1(spec: str | Sequence[str] | None, labels: Sequence[str]) -> NDArray[Any]:
    """Codes of S1 from ``"000"``, ``"101,010"`` or label names joined by ``+``.

    Empty → ``{000…0}`` ("any label at all?"). Raises :class:`OptionError` for bad codes.
    """
    k = len(labels)
    n_codes = 2**k
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        parts = ["0" * k]
    elif isinstance(spec, str):
        parts = [p.strip() for p in spec.split(",") if p.strip()]
    else:
        parts = [str(p).strip() for p in spec if str(p).strip()]
    s1 = np.zeros(n_codes, dtype=bool)
    index = {lab.lower(): j for j, lab in enumerate(labels)}
    for part in parts:
        if len(part) == k and set(part) <= {"0", "1"}:
            s1[int(part, 2)] = True
        elif part.lower() in ("none", "{}", "()"):
            s1[0] = True
        else:
            names = [n.strip().lower() for n in part.split("+")]
            if not all(n in index for n in names):
                raise OptionError(
                    f"S1: '{part}' is neither a {k}-bit code (like {'1' + '0' * (k - 1)}) nor label "
                    f"names joined by '+' ({', '.join(labels)})."
                )
            s1[sum(1 << (k - 1 - index[n]) for n in names)] = True
    if s1.all():
        raise OptionError("S1 holds every code; S2 would be empty.")
    return s1


def codes_of(mask: NDArray[Any]) -> list[int]:
    return [int(c) for c in np.flatnonzero(mask)]


def null_nan(o: Any) -> Any:
    """Undefined κ (NaN) becomes ``None`` (JSON ``null``), as Levi & Shenhav (2022) leave it undefined."""
    if isinstance(o, float | np.floating):
        return float(o) if np.isfinite(o) else None
    if isinstance(o, dict):
        return {k: null_nan(v) for k, v in o.items()}
    if isinstance(o, list | tuple):
        return [null_nan(v) for v in o]
    return o


def fmt(v: float, digits: int = 3) -> str:
    """κ with `digits` decimals, or "undefined"."""
    return "undefined" if v is None or not np.isfinite(v) else f"{v:.{digits}f}"
