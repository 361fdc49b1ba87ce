"""Crafted hostile files, small on disk, for the tests, the fuzzer's seeds and the benchmarks.

Everything is written from the formats' documentation, streamed, so that a file which unpacks to
gigabytes is made with a few megabytes of memory:

* an INCEpTION project export (INCEpTION user guide, "Project export"): ``annotation/<doc>/
  <user>.zip`` archives inside the export's ZIP, each holding ``<doc>.xmi`` (UIMA CAS XMI) and
  ``TypeSystem.xml``;
* an XLSX workbook (ECMA-376 / SpreadsheetML): ``xl/sharedStrings.xml`` (``<sst>`` of ``<si>``
  strings) and ``xl/worksheets/sheet1.xml`` (``<row>`` of ``<c>`` cells).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

NER = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"

TYPESYSTEM = (
    b"<?xml version='1.0' encoding='utf-8'?>\n"
    b'<typeSystemDescription xmlns="http://uima.apache.org/resourceSpecifier"><types>'
    b"<typeDescription><name>" + NER.encode() + b"</name><description/>"
    b"<supertypeName>uima.tcas.Annotation</supertypeName><features><featureDescription>"
    b"<name>value</name><description/><rangeTypeName>uima.cas.String</rangeTypeName>"
    b"</featureDescription></features></typeDescription></types></typeSystemDescription>"
)

_XMI_HEAD = (
    b"<?xml version='1.0' encoding='UTF-8'?>\n"
    b'<xmi:XMI xmlns:xmi="http://www.omg.org/XMI" xmlns:cas="http:///uima/cas.ecore" '
    b'xmlns:type="http:///de/tudarmstadt/ukp/dkpro/core/api/ner/type.ecore" xmi:version="2.0">'
    b'<cas:NULL xmi:id="0"/>'
)

#: a document type declaring nested entities: 10 ** 9 characters if expanded ("billion laughs")
BILLION_LAUGHS = (
    b'<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(
        b'<!ENTITY lol%d "%s">' % (k, (b"&lol%d;" % (k - 1) if k > 1 else b"&lol;") * 10)
        for k in range(1, 10)
    )
    + b"]>"
)


def external_entity(target: str) -> bytes:
    """A document type whose entity ``x`` is the content of ``target`` (a file or URL)."""
    return b'<!DOCTYPE x [<!ENTITY x SYSTEM "' + target.encode() + b'">]>'


def xmi_chunks(
    text: str | Iterable[bytes],
    spans: Iterable[tuple[int, int, str]],
    doctype: bytes = b"",
    value_entity: str | None = None,
) -> Iterator[bytes]:
    """A UIMA CAS XMI document in pieces: the text (or pieces of it, already escaped) and the
    NamedEntity spans; ``doctype`` goes before the root element and ``value_entity`` (a name)
    is referred to as the first span's value."""
    head = _XMI_HEAD
    if doctype:
        head = head.replace(b"\n", b"\n" + doctype + b"\n", 1)
    yield head
    ids: list[bytes] = []
    for k, (s, e, label) in enumerate(spans):
        value = f"&{value_entity};" if value_entity and k == 0 else label
        ids.append(b"%d" % (k + 2))
        yield b'<type:NamedEntity xmi:id="%d" sofa="1" begin="%d" end="%d" value="%s"/>' % (
            k + 2,
            s,
            e,
            value.encode(),
        )
    yield b'<cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" sofaString="'
    if isinstance(text, str):
        yield text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").encode()
    else:
        yield from text
    yield b'"/><cas:View sofa="1" members="' + b" ".join(ids) + b'"/></xmi:XMI>'


def xmi(text: str, spans: Iterable[tuple[int, int, str]], **kw: object) -> bytes:
    return b"".join(xmi_chunks(text, spans, **kw))  # type: ignore[arg-type]


def user_zip(doc: str, chunks: Iterable[bytes]) -> bytes:
    """One user's ``<user>.zip`` of an export: the XMI (streamed in) and the type system."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open(f"{doc}.xmi", "w", force_zip64=True) as f:
            for c in chunks:
                f.write(c)
        z.writestr("TypeSystem.xml", TYPESYSTEM)
    return buf.getvalue()


def inception_export(path: Path, users: dict[str, dict[str, bytes]]) -> Path:
    """A project export of ``users`` → document → that user's ``<user>.zip`` bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("exportedproject.json", '{"name": "crafted"}')
        for user, docs in users.items():
            for doc, data in docs.items():
                z.writestr(f"annotation/{doc}/{user}.zip", data)
    return path


def nested_bomb(path: Path, users: int = 16, text_bytes: int = 400 * 2**20) -> Path:
    """An export whose ``users`` per-user archives each hold an XMI of ``text_bytes`` (a text of
    one repeated letter): 16 × 400 MiB = 6.4 GiB unpacked, some 40 KB on disk."""
    block = b"A" * (1 << 20)
    n, rest = divmod(text_bytes, len(block))

    def text() -> Iterator[bytes]:
        for _ in range(n):
            yield block
        yield block[:rest]

    inner = user_zip("doc.txt", xmi_chunks(text(), [(0, 4, "X")]))
    return inception_export(path, {f"user{k:02d}": {"doc.txt": inner} for k in range(users)})


def many_spans_xmi(n: int) -> Iterator[bytes]:
    """The pieces of an XMI of ``n`` spans over a text of four letters."""
    return xmi_chunks("Abcd", ((0, 4, "X") for _ in range(n)))


_XLSX_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
        'package/2006/content-types"><Default Extension="rels" ContentType="application/'
        'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
        'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType='
        '"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override '
        'PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sharedStrings+xml"/></Types>'
    ),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
        'schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
        'Target="xl/workbook.xml"/></Relationships>'
    ),
    "xl/workbook.xml": (
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.'
        'org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/'
        'officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/>'
        "</sheets></workbook>"
    ),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
        'schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target='
        '"worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.'
        'openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target='
        '"sharedStrings.xml"/></Relationships>'
    ),
}
_MAIN = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def xlsx(
    path: Path,
    rows: Iterable[tuple[str, str, str]] = (),
    extra_strings: int = 0,
    declared: int | None = None,
    doctype: bytes = b"",
    label_entity: str | None = None,
) -> Path:
    """A workbook of a table ``item, annotator, label`` and ``rows`` (inline strings), whose
    shared-strings part holds the header and ``extra_strings`` more empty strings while it
    declares ``declared`` (default: the true count); ``doctype`` goes before the shared strings'
    root element and ``label_entity`` names an entity used as the header's last cell."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in _XLSX_PARTS.items():
            z.writestr(name, text)
        n = 3 + extra_strings
        d = n if declared is None else declared
        with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as f:
            f.write(b'<?xml version="1.0" encoding="UTF-8"?>' + doctype)
            f.write(b'<sst xmlns="%s" count="%d" uniqueCount="%d">' % (_MAIN, d, d))
            last = f"&{label_entity};" if label_entity else "label"
            f.write(f"<si><t>item</t></si><si><t>annotator</t></si><si><t>{last}</t></si>".encode())
            chunk = b"<si><t/></si>" * 10_000
            k, rest = divmod(extra_strings, 10_000)
            for _ in range(k):
                f.write(chunk)
            f.write(b"<si><t/></si>" * rest + b"</sst>")
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            f.write(
                b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="%s"><sheetData>' % _MAIN
            )
            f.write(
                b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>'
                b'<c r="C1" t="s"><v>2</v></c></row>'
            )
            for r in rows:
                f.write(
                    b"<row>"
                    + b"".join(
                        b'<c t="inlineStr"><is><t>' + v.encode() + b"</t></is></c>" for v in r
                    )
                    + b"</row>"
                )
            f.write(b"</sheetData></worksheet>")
    return path
