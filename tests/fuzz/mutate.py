"""A seeded mutator of input files: the damage real files suffer, and what an attacker tries.

Every operation takes the file's bytes and a :class:`random.Random` and returns new bytes; the
same seed always gives the same mutation, so a failure found by the long run is replayed by its
seed alone.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

Mutation = Callable[[bytes, random.Random], bytes]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def byte_flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return b"\xff"
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def duplicate_line(data: bytes, rng: random.Random) -> bytes:
    ls = _lines(data)
    k = rng.randrange(len(ls))
    ls.insert(rng.randrange(len(ls) + 1), ls[k])
    return b"\n".join(ls)


def delete_line(data: bytes, rng: random.Random) -> bytes:
    ls = _lines(data)
    if len(ls) > 1:
        del ls[rng.randrange(len(ls))]
    return b"\n".join(ls)


def _split_fields(line: bytes) -> tuple[bytes, list[bytes]]:
    for sep in (b"\t", b",", b";", b" "):
        if sep in line:
            return sep, line.split(sep)
    return b"\t", [line]


def duplicate_field(data: bytes, rng: random.Random) -> bytes:
    ls = _lines(data)
    k = rng.randrange(len(ls))
    sep, fs = _split_fields(ls[k])
    j = rng.randrange(len(fs))
    fs.insert(j, fs[j])
    ls[k] = sep.join(fs)
    return b"\n".join(ls)


def delete_field(data: bytes, rng: random.Random) -> bytes:
    ls = _lines(data)
    k = rng.randrange(len(ls))
    sep, fs = _split_fields(ls[k])
    if len(fs) > 1:
        del fs[rng.randrange(len(fs))]
    ls[k] = sep.join(fs)
    return b"\n".join(ls)


def wrong_delimiter(data: bytes, rng: random.Random) -> bytes:
    a, b = rng.sample([b"\t", b",", b";", b"|", b" "], 2)
    return data.replace(a, b)


def huge_number(data: bytes, rng: random.Random) -> bytes:
    nums = list(re.finditer(rb"\d+", data))
    big = str(rng.choice([10**20, 2**63, -(2**63)])).encode()
    if rng.random() < 0.6:
        big = b"9" * rng.choice([25, 400, 5000, 20000])
    if not nums:
        return data + big
    m = rng.choice(nums)
    return data[: m.start()] + big + data[m.end() :]


def invalid_utf8(data: bytes, rng: random.Random) -> bytes:
    bad = rng.choice(
        [b"\xff", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80"]
    )
    k = rng.randrange(len(data) + 1)
    return data[:k] + bad + data[k:]


def duplicate_id(data: bytes, rng: random.Random) -> bytes:
    """Give one line the first field of another (a repeated id: ``T1`` twice, an item twice)."""
    ls = _lines(data)
    if len(ls) < 3:
        return data
    a, b = rng.sample(range(1, len(ls)), 2)
    sep, fa = _split_fields(ls[a])
    _sep, fb = _split_fields(ls[b])
    fb[0] = fa[0]
    ls[b] = sep.join(fb)
    return b"\n".join(ls)


def long_line(data: bytes, rng: random.Random) -> bytes:
    n = rng.choice([70_000, 300_000, 2_000_000])
    k = rng.randrange(len(data) + 1)
    return data[:k] + (b"x" * n) + data[k:]


def long_cell(data: bytes, rng: random.Random) -> bytes:
    n = rng.choice([10_000, 200_000, 2_000_000])
    filler = rng.choice([b"lorem ipsum ", b"a ", "\u05d0 ".encode(), b"1;"])
    ls = _lines(data)
    k = rng.randrange(len(ls))
    sep, fs = _split_fields(ls[k])
    fs[rng.randrange(len(fs))] = filler * (n // len(filler))
    ls[k] = sep.join(fs)
    return b"\n".join(ls)


def many_fields(data: bytes, rng: random.Random) -> bytes:
    """A row (often the first, the header) with thousands of extra fields, some repeated."""
    ls = _lines(data)
    k = 0 if rng.random() < 0.5 else rng.randrange(len(ls))
    sep, fs = _split_fields(ls[k])
    # the same draws as ever (replays of earlier runs stay the same cases); a repeated field
    # only as many times as fit in 8 MB (after long_cell a field may be megabytes)
    if rng.random() < 0.5:
        n = rng.choice([100, 5000, 100_000])
        extra = [fs[0]] * max(1, min(n, (8 << 20) // (len(fs[0]) + 1)))
    else:
        extra = [b"c%d" % j for j in range(rng.choice([100, 5000, 50_000]))]
    ls[k] = sep.join(fs + extra)
    return b"\n".join(ls)


def formula_cells(data: bytes, rng: random.Random) -> bytes:
    ls = _lines(data)
    k = rng.randrange(len(ls))
    sep, fs = _split_fields(ls[k])
    fs[rng.randrange(len(fs))] = rng.choice(
        [b"=cmd|' /C calc'!A0", b"@SUM(1+1)", b"+1+1", b"-1", b"-2+3", b"\r=1", b'"=x"', b"a|b|c"]
    )
    ls[k] = sep.join(fs)
    return b"\n".join(ls)


def control_bytes(data: bytes, rng: random.Random) -> bytes:
    k = rng.randrange(len(data) + 1)
    return (
        data[:k]
        + rng.choice([b"\x00", b"\r", b"\x1a", b"\xef\xbb\xbf", b"\x0b", "\u2028".encode()])
        + data[k:]
    )


def empty(data: bytes, rng: random.Random) -> bytes:
    return rng.choice([b"", b"\n", b"\xef\xbb\xbf", b"\xff\xfe"])


def utf16(data: bytes, rng: random.Random) -> bytes:
    try:
        return data.decode("utf-8").encode(rng.choice(["utf-16", "utf-16-le"]))
    except UnicodeDecodeError:
        return data


def nfd_text(data: bytes, rng: random.Random) -> bytes:
    """Part of the text decomposed (NFD): labels and names that differ only in normalization."""
    import unicodedata

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    k = rng.randrange(len(text) + 1)
    return (text[:k] + unicodedata.normalize("NFD", text[k:])).encode("utf-8")


def bidi_controls(data: bytes, rng: random.Random) -> bytes:
    """A bidirectional control (an unclosed override, an isolate, a mark) inside a field."""
    ls = _lines(data)
    k = rng.randrange(len(ls))
    sep, fs = _split_fields(ls[k])
    j = rng.randrange(len(fs))
    ctl = rng.choice(["\u202e", "\u202b", "\u2066", "\u2069", "\u200f", "\u061c"]).encode()
    fs[j] = fs[j][: len(fs[j]) // 2] + ctl + fs[j][len(fs[j]) // 2 :]
    ls[k] = sep.join(fs)
    return b"\n".join(ls)


def repeat_header(data: bytes, rng: random.Random) -> bytes:
    """The first line again further down (files joined one after another)."""
    ls = _lines(data)
    ls.insert(rng.randrange(1, len(ls) + 1), ls[0])
    return b"\n".join(ls)


def reserved_names(data: bytes, rng: random.Random) -> bytes:
    """A field renamed like the columns the application makes (annotator, label, item)."""
    ls = _lines(data)
    k = rng.randrange(len(ls))
    sep, fs = _split_fields(ls[k])
    fs[rng.randrange(len(fs))] = rng.choice([b"annotator", b"label", b"item", b"__line__"])
    ls[k] = sep.join(fs)
    return b"\n".join(ls)


MUTATIONS: dict[str, Mutation] = {
    f.__name__: f
    for f in (
        byte_flip,
        truncate,
        duplicate_line,
        delete_line,
        duplicate_field,
        delete_field,
        wrong_delimiter,
        huge_number,
        invalid_utf8,
        duplicate_id,
        long_line,
        long_cell,
        many_fields,
        formula_cells,
        control_bytes,
        empty,
        utf16,
        nfd_text,
        bidi_controls,
        repeat_header,
        reserved_names,
    )
}
#: the expensive mutations (megabytes of data) are drawn less often
WEIGHTS = {
    name: (0.3 if name in ("long_line", "long_cell", "many_fields") else 1.0) for name in MUTATIONS
}


def mutate(data: bytes, rng: random.Random, n_ops: int | None = None) -> tuple[bytes, list[str]]:
    """``data`` after 1–3 random operations; the names of the operations applied."""
    names = list(MUTATIONS)
    ops = rng.choices(names, weights=[WEIGHTS[n] for n in names], k=n_ops or rng.randint(1, 3))
    for name in ops:
        data = MUTATIONS[name](data, rng)
    return data, ops


# ----------------------------------------------------------------------- XML, archives, workbooks
#: document types that expand (nested entities: "billion laughs", a quadratic blow-up) or read a
#: file or a network address (external entities); each must be refused unexpanded, unfetched
_DOCTYPES = {
    "billion_laughs": (
        b'<!DOCTYPE lolz [<!ENTITY lol "lol">'
        + b"".join(
            b'<!ENTITY lol%d "%s">' % (k, (b"&lol%d;" % (k - 1) if k > 1 else b"&lol;") * 10)
            for k in range(1, 10)
        )
        + b"]>",
        b"&lol9;",
    ),
    "quadratic": (b'<!DOCTYPE q [<!ENTITY a "' + b"a" * 50_000 + b'">]>', b"&a;" * 2000),
    "external_file": (b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', b"&e;"),
    "external_url": (b'<!DOCTYPE x [<!ENTITY e SYSTEM "http://127.0.0.1:9/x">]>', b"&e;"),
    "parameter": (b'<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:9/p.dtd"> %p;]>', b""),
}


def xml_entities(data: bytes, rng: random.Random) -> bytes:
    """A document type with entities before the root element, one referred to in the text."""
    name = rng.choice(sorted(_DOCTYPES))
    doctype, ref = _DOCTYPES[name]
    m = re.search(rb"<[A-Za-z_]", data)
    at = m.start() if m else 0
    data = data[:at] + doctype + data[at:]
    attrs = list(re.finditer(rb'="[^"<&]{1,200}"', data))
    if attrs and ref:
        a = rng.choice(attrs)
        data = data[: a.start() + 2] + ref + data[a.start() + 2 :]
    return data


def many_elements(data: bytes, rng: random.Random) -> bytes:
    """One element repeated up to a million times (an XMI of a million spans, a sheet of a
    million cells), whatever counts the file declares."""
    elems = list(re.finditer(rb"<[A-Za-z_:][^<>]{0,300}/>", data))
    if not elems:
        return data
    m = rng.choice(elems)
    n = rng.choice([1000, 100_000, 1_100_000])
    return data[: m.end()] + m.group(0) * n + data[m.end() :]


XML_MUTATIONS: dict[str, Mutation] = {f.__name__: f for f in (xml_entities, many_elements)}


def mutate_xml(data: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    """An XML file (XMI, a workbook part, a type system): an XML attack or a generic mutation."""
    if rng.random() < 0.5:
        name = rng.choice(sorted(XML_MUTATIONS))
        return XML_MUTATIONS[name](data, rng), [name]
    return mutate(data, rng)


def huge_shared_strings(data: bytes, rng: random.Random) -> bytes:
    """Millions of empty shared strings after the real ones, the declared counts left or lied."""
    n = rng.choice([10_000, 2_100_000, 3_000_000])
    end = data.rfind(b"</")
    if end < 0:
        return data
    data = data[:end] + b"<si><t/></si>" * n + data[end:]
    if rng.random() < 0.5:
        data = re.sub(rb'(uniqueCount|count)="\d+"', rb'\1="3"', data)
    return data


def many_rows(data: bytes, rng: random.Random) -> bytes:
    """The last row of a sheet repeated hundreds of thousands of times."""
    rows = list(re.finditer(rb"<row\b.*?</row>", data, re.S))
    if not rows:
        return data
    m = rows[-1]
    row = re.sub(rb' r="[A-Z]*\d+"', b"", m.group(0))  # no cell references: they'd repeat
    n = rng.choice([1000, 300_000, 600_000])
    return data[: m.end()] + row * n + data[m.end() :]


def _rezip(members: dict[str, bytes], infos: dict[str, int]) -> bytes:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in members.items():
            z.writestr(n, b, compress_type=infos.get(n, zipfile.ZIP_DEFLATED))
    return out.getvalue()


def _unzip(data: bytes) -> tuple[dict[str, bytes], dict[str, int]] | None:
    import io
    import zipfile

    try:
        src = zipfile.ZipFile(io.BytesIO(data))
        return (
            {i.filename: src.read(i.filename) for i in src.infolist()},
            {i.filename: i.compress_type for i in src.infolist()},
        )
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return None


def bomb_member(rng: random.Random) -> bytes:
    """A member that unpacks to far more than it weighs (one letter repeated, or NULs)."""
    return rng.choice([b"A", b"\0", b"<"]) * rng.choice([5 << 20, 70 << 20])


def mutate_archive(data: bytes, rng: random.Random, depth: int = 0) -> tuple[bytes, list[str]]:
    """A ZIP archive (an INCEpTION export, a per-document XMI archive, a workbook) with one
    member mutated, recursing into the archives inside it; or its structure changed: a member
    that unpacks to megabytes, the nested archives repeated (many users), a member given twice,
    a name leading out of the archive (``../``)."""
    found = _unzip(data)
    if found is None or not found[0]:
        return mutate(data, rng)
    members, infos = found
    names = sorted(members)
    r = rng.random()
    if r < 0.12:
        name = rng.choice(names)
        members[name] = bomb_member(rng)
        op = f"zip:{name}:bomb"
    elif r < 0.2:
        nested = [n for n in names if n.lower().endswith(".zip")] or names
        src = rng.choice(nested)
        k = rng.choice([20, 200])
        for j in range(k):
            members[src.replace("/", f"/copy{j}_", 1) if "/" in src else f"copy{j}_{src}"] = (
                members[src]
            )
        op = f"zip:{src}:repeat{k}"
    elif r < 0.26:
        name = rng.choice(names)
        members["../" * rng.randint(1, 3) + name.rsplit("/", 1)[-1]] = members[name]
        op = f"zip:{name}:escape"
    else:
        name = rng.choice(names)
        inner = members[name]
        if name.lower().endswith(".zip") and depth < 3:
            members[name], ops = mutate_archive(inner, rng, depth + 1)
        elif name.lower().endswith((".xml", ".xmi", ".rels")):
            members[name], ops = mutate_xml(inner, rng)
        else:
            members[name], ops = mutate(inner, rng)
        return _rezip(members, infos), [f"zip:{name}:{o}" for o in ops]
    return _rezip(members, infos), [op]


def mutate_xlsx(data: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    """A workbook with one of its XML parts mutated (the zip itself stays valid)."""
    import io
    import zipfile

    try:
        src = zipfile.ZipFile(io.BytesIO(data))
        members = {i.filename: src.read(i.filename) for i in src.infolist()}
    except zipfile.BadZipFile:
        return mutate(data, rng)
    parts = [n for n in members if n.endswith(".xml")]
    name = rng.choice([n for n in parts if "sheet" in n or "sharedStrings" in n] or parts)
    r = rng.random()
    if r < 0.1 and "sharedStrings" in name:
        members[name], ops = huge_shared_strings(members[name], rng), ["huge_shared_strings"]
    elif r < 0.2 and "sheet" in name:
        members[name], ops = many_rows(members[name], rng), ["many_rows"]
    elif r < 0.35:
        members[name], ops = mutate_xml(members[name], rng)
    else:
        members[name], ops = mutate(members[name], rng)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in members.items():
            z.writestr(n, b)
    return out.getvalue(), [f"xlsx:{name}:{op}" for op in ops]
