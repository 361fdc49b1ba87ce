"""brat standoff (https://brat.nlplab.org/standoff.html): what its readers share.

A text-bound annotation is one line ``T<n><TAB><type> <start> <end>[;<start> <end>…]<TAB><text>``:
an id, a type (an entity label or a mention type), one or more character fragments (offsets in
code points of the ``.txt`` beside the ``.ann``, end exclusive) and the text they cover. The
coreference and spans readers read such lines; each checks the offsets against its own text.
"""

from __future__ import annotations

import re

#: a text-bound annotation line: groups id, type, fragments (``"0 5;10 15"``), covered text
T_LINE = re.compile(r"^(T\d+)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)\t?(.*)$")


def text_bound(line: str) -> tuple[str, str, str, str] | None:
    """``(id, type, fragments, covered text)`` of a text-bound line, or None when it is not one."""
    m = T_LINE.match(line)
    if m is None:
        return None
    tid, kind, fragments, covered = m.groups()
    return tid, kind, fragments, covered
