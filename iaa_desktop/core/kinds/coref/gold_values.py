"""How a coreference unit's versions and gold are written: ``keep`` / ``drop`` for a mention, a
chain as its mentions (``type start end``) joined by ``;``."""

from __future__ import annotations

Mention = tuple[str, int, int]  # (type, start, end): characters (brat) or tokens (CoNLL)
KEEP, DROP = "keep", "drop"


def mention_text(m: Mention) -> str:
    return f"{m[0]} {m[1]} {m[2]}"


def encode_class(c: frozenset[Mention] | set[Mention]) -> str:
    return ";".join(mention_text(m) for m in sorted(c, key=lambda m: (m[1], m[2], m[0])))


def decode_class(v: str) -> frozenset[Mention]:
    out = set()
    for part in v.split(";"):
        if part.strip():
            t, s, e = part.rsplit(" ", 2)
            out.add((t, int(s), int(e)))
    return frozenset(out)
