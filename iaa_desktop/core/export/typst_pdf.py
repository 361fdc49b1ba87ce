"""The report's HTML → a PDF, typeset by Typst (https://typst.app, the ``typst`` Python package).

Typst is a compiled typesetter: a report of ten pages with its charts is laid out and written in
about a tenth of a second, where an HTML/CSS engine written in Python took a second or two. It
shapes text with HarfBuzz's algorithms (rustybuzz), applies the Unicode bidirectional algorithm
(UAX #9) per paragraph, falls back to any installed font that has a glyph (Hebrew, Arabic,
colour emoji), subsets and embeds the fonts, and draws SVG charts as vectors.

The report is written once, as HTML (the ``--html`` output and the input here); this module
reads that HTML — the small, fixed vocabulary of :mod:`iaa_desktop.core.export.html_blocks` and
the report's cover — and writes the same document as Typst markup: every text as a Typst string
(never interpreted as markup), the report's stylesheet as Typst rules, the charts as SVG images
passed beside the source. An element it does not know keeps its text.
"""

from __future__ import annotations

import base64
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

from iaa_desktop.core.errors import IaaError


class PdfEngineError(IaaError):
    """The PDF engine (the ``typst`` package) is not available or failed."""


# ------------------------------------------------------------------------------------ parsing

_VOID = frozenset({"img", "br", "meta", "hr", "input", "link", "wbr"})
_SKIP = frozenset({"head", "title", "style", "script"})


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> frozenset[str]:
        return frozenset(self.attrs.get("class", "").split())

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root")
        self.stack = [self.root]
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skipping += 1
            return
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            return
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
            return
        if tag in _VOID:
            return
        # close up to the matching element (HTML's implied ends: a stray end tag is ignored)
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not self.skipping and data:
            self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


# ------------------------------------------------------------------------------------ writing

_SPACE = re.compile(r"[ \t\n\r\f]+")
#: control characters (printed as a space) and lone surrogates (as U+FFFD, as a decoder would)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_LABEL_BAD = re.compile(r"[^A-Za-z0-9_-]")
_CELL_COLOURS = re.compile(r"(?<![-\w])(background|color)\s*:\s*(#[0-9a-fA-F]{6})\b")

#: the longest text the PDF prints in one piece (the HTML report keeps it whole)
TEXT_CHARS = 5000
#: a word longer than this in a cell that allows it may break anywhere (CSS ``overflow-wrap:
#: anywhere``): a path, a hash, an identifier
LONG_WORD = 24
#: pieces of a long word, each a box the line may break after (text extraction keeps the word)
_PIECE = 8


def _joins_previous(ch: str, prev: str) -> bool:
    """Whether a break between ``prev`` and ``ch`` would split a grapheme cluster or a joined
    script: a combining mark, a zero-width joiner, a variation selector, an emoji modifier, a
    second regional indicator, or letters of a cursive (joining) script."""
    o, p = ord(ch), ord(prev)
    return (
        unicodedata.category(ch).startswith("M")
        or ch == "\u200d"
        or prev == "\u200d"
        or 0xFE00 <= o <= 0xFE0F
        or 0x1F3FB <= o <= 0x1F3FF
        or (0x1F1E6 <= o <= 0x1F1FF and 0x1F1E6 <= p <= 0x1F1FF)
        or unicodedata.bidirectional(ch) == "AL"
    )


def _breakable(text: str) -> str:
    """``text`` as Typst markup where a word longer than :data:`LONG_WORD` characters may break
    between pieces of about :data:`_PIECE` characters (never inside a grapheme cluster; a word
    with right-to-left letters stays whole, as its pieces would be reordered as neutrals)."""
    out = []
    for word in re.split(r"( )", text):
        rtl = any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in word)
        if len(word) <= LONG_WORD or rtl:
            out.append(f"#{tstr(word)};" if word else "")
            continue
        pieces, start = [], 0
        for i in range(1, len(word)):
            if i - start >= _PIECE and not _joins_previous(word[i], word[i - 1]):
                pieces.append(word[start:i])
                start = i
        pieces.append(word[start:])
        out.append("".join(f"#box[#{tstr(p)};]" for p in pieces))
    return "".join(out)


_BLOCK = frozenset(
    {
        "html", "body", "section", "header", "nav", "div", "p", "h1", "h2", "h3", "h4",
        "table", "ul", "ol", "li", "figure", "figcaption", "caption", "main", "article",
    }
)  # fmt: skip

FONTS = '("Noto Sans", "Noto Sans Hebrew", "Noto Sans Arabic", "DejaVu Sans", "Noto Color Emoji")'
MONO = '("DejaVu Sans Mono", "Noto Sans Mono")'


def tstr(s: str) -> str:
    """``s`` as a Typst string literal (shown as text, never read as markup)."""
    s = _SURROGATE.sub("\ufffd", _CONTROL.sub(" ", s))
    s = s.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{s}"'


def _colour(c: str) -> str:
    return f'rgb("{c}")'


def _preamble(paper: str, title: str) -> str:
    size = "us-letter" if paper == "letter" else "a4"
    grey = _colour("#666")
    return f"""#set document(title: {tstr(title + " – agreement report")})
#set page(paper: "{size}", margin: (top: 20mm, bottom: 18mm, left: 16mm, right: 16mm),
  header: context {{
    if here().page() > 1 {{
      set text(7.5pt, fill: {grey})
      box(width: 60%, clip: true, {tstr(title)})
      h(1fr)
      // the section at the top of the page: the first begun on it, else the one running on
      let page = here().page()
      let on = query(heading.where(level: 1)).filter(h => h.location().page() == page)
      let before = query(heading.where(level: 1).before(here()))
      if on.len() > 0 {{ on.first().body }} else if before.len() > 0 {{ before.last().body }}
    }}
  }},
  footer: context {{
    set align(center)
    set text(8pt, fill: {_colour("#444")})
    [Page #counter(page).display() of #counter(page).final().first()]
  }})
#set text(font: {FONTS}, size: 9.5pt, fill: {_colour("#1a1a1a")}, lang: "en")
#set par(leading: 0.42em, spacing: 0.55em, justify: false)
#set heading(numbering: none)
#show heading.where(level: 1): it => block(width: 100%, above: 1.3em, below: 0.6em, sticky: true,
  stroke: (bottom: 0.75pt + {_colour("#99aabb")}), inset: (bottom: 2.5pt),
  text(13pt, weight: "bold", fill: {_colour("#112233")}, it.body))
#show heading.where(level: 2): it => block(above: 1em, below: 0.45em, sticky: true,
  text(10.5pt, weight: "bold", fill: {_colour("#112233")}, it.body))
#show raw: set text(font: {MONO})
"""


@dataclass
class _Table:
    rows: list[list[Node]]
    header_rows: int
    caption: str


class TypstWriter:
    """Writes the report's HTML tree as Typst markup; the SVG charts go to :attr:`images`."""

    def __init__(self, anchors: frozenset[str] = frozenset()) -> None:
        #: the labels of the section headings, which links and contents entries may point at
        self._anchors = anchors
        self.images: dict[str, str] = {}
        self.labels: set[str] = set()
        self.title = ""

    # -- entry ---------------------------------------------------------------------------
    def document(self, root: Node, paper: str) -> str:
        h1 = next(self._find(root, lambda n: n.tag == "h1"), None)
        self.title = _SPACE.sub(" ", h1.text()).strip() if h1 is not None else "Report"
        return _preamble(paper, self.title) + self.blocks(root.children)

    @staticmethod
    def _find(node: Node, pred: Callable[[Node], bool]) -> Iterator[Node]:
        for c in node.children:
            if isinstance(c, Node):
                if pred(c):
                    yield c
                yield from TypstWriter._find(c, pred)

    # -- blocks --------------------------------------------------------------------------
    def blocks(self, children: list[Node | str]) -> str:
        """Children of a block container: runs of inline content become paragraphs."""
        out: list[str] = []
        run: list[Node | str] = []

        def flush() -> None:
            text = self.inline(run).strip()
            if text:
                out.append(f"#block[{text}]\n")
            run.clear()

        for c in children:
            if isinstance(c, Node) and (c.tag in _BLOCK or c.tag in ("img",)):
                flush()
                out.append(self.block(c))
            else:
                run.append(c)
        flush()
        return "".join(out)

    def block(self, n: Node) -> str:
        cls, tag = n.classes, n.tag
        if "running" in cls:  # the running title: the page header prints it
            return ""
        if tag == "header" and "title-block" in cls:
            return self._cover(n)
        if tag == "nav" and "toc" in cls:
            return self._toc(n)
        if tag in ("h1", "h2", "h3", "h4"):
            return self._heading(n)
        if tag == "div":
            return self._div(n)
        if tag in ("figcaption", "caption"):
            body = self.inline(n.children).strip()
            return f'#block(above: 2pt)[#text(8pt, fill: rgb("#444444"))[{body}]]\n'
        handler = {
            "p": self._paragraph,
            "table": self._table,
            "ul": self._list,
            "ol": self._list,
            "figure": self._figure,
            "img": self._image,
        }.get(tag)
        return handler(n) if handler is not None else self.blocks(n.children)

    def _heading(self, n: Node) -> str:
        """A section heading (in the contents and the page header), or a title of the cover."""
        body = self._directed(n, self.inline(n.children).strip())
        if n.tag != "h1" and not ({"toc-title", "cover-summary"} & n.classes):
            level = 1 if n.tag == "h2" else 2
            return f"#heading(level: {level})[{body}]{self._label(n.attrs.get('id', ''))}\n"
        size = {"h1": "20pt", "h2": "13pt"}.get(n.tag, "10.5pt")
        rule = (
            ', stroke: (bottom: 0.75pt + rgb("#99aabb")), inset: (bottom: 2.5pt), width: 100%'
            if n.tag == "h2"
            else ""
        )
        return (
            f"#block(above: 0.8em, below: 0.45em, sticky: true{rule})"
            f'[#text({size}, weight: "bold", fill: rgb("#112233"))[{body}]]\n'
        )

    def _div(self, n: Node) -> str:
        cls = n.classes
        inner = self.blocks(n.children)
        if "pair" in cls:  # a candidate or use pair: a framed block kept on one page
            return (
                '#block(width: 100%, breakable: false, stroke: 0.5pt + rgb("#bbcccc"), '
                "inset: (x: 6pt, y: 4pt), above: 0.5em, below: 0.5em)"
                f"[#set text(8.5pt)\n#set par(leading: 0.6em)\n{inner}]\n"
            )
        if "tbl" in cls:  # a table with its caption; a short one stays on one page
            breakable = "false" if "small" in cls else "true"
            return f"#block(breakable: {breakable}, above: 0.3em, below: 0.5em)[{inner}]\n"
        if "head" in cls:
            inner = f'#text(weight: "bold", fill: rgb("#223344"))[{inner}]'
        if n.attrs.get("dir") == "rtl" or "rtl-block" in cls:
            inner = f"#set text(dir: rtl)\n{inner}"
        return f"#block(above: 2pt, below: 2pt)[{inner}]\n"

    def _paragraph(self, n: Node) -> str:
        cls = n.classes
        body = self._directed(n, self.inline(n.children).strip())
        if not body:
            return ""
        if "note" in cls:
            return (
                f'#block(above: 0.25em, below: 0.6em)[#text(7.8pt, fill: rgb("#555555"))[{body}]]\n'
            )
        if "caption" in cls:
            return f'#block(above: 0.6em, below: 3pt, sticky: true)[#text(8.5pt, weight: "bold")[{body}]]\n'
        if "kicker" in cls:
            return f'#block(below: 2pt)[#text(8pt, tracking: 0.08em, fill: rgb("#556677"))[#upper[{body}]]]\n'
        return f"#block(above: 0.6em, below: 0.6em)[{body}]\n"

    def _directed(self, n: Node, body: str) -> str:
        return f"#text(dir: rtl)[{body}]" if n.attrs.get("dir") == "rtl" and body else body

    def _label(self, ident: str) -> str:
        lab = _LABEL_BAD.sub("-", ident)
        if not lab or lab in self.labels:
            return ""
        self.labels.add(lab)
        return f" <{lab}>"

    # -- cover and contents --------------------------------------------------------------
    def _cover(self, n: Node) -> str:
        return (
            "#block[#set text(8.5pt)\n"
            + self.blocks(n.children).replace("#set text(8pt)", "#set text(7.5pt)")
            + "]\n#pagebreak(weak: true)\n"
        )

    def _toc(self, n: Node) -> str:
        out: list[str] = []
        for c in n.children:
            if not isinstance(c, Node):
                continue
            if c.tag in ("h2", "h3"):
                out.append(self.block(c))
            elif c.tag in ("ul", "ol"):
                for li in c.children:
                    if isinstance(li, Node) and li.tag == "li":
                        out.append(self._toc_entry(li))
        return "".join(out)

    def _toc_entry(self, li: Node) -> str:
        a = next(self._find(li, lambda x: x.tag == "a"), None)
        title = self.inline(li.children).strip()
        indent = "1.5em" if "l3" in li.classes else "0em"
        target = _LABEL_BAD.sub("-", (a.attrs.get("href", "") if a else "").lstrip("#"))
        if not target or target not in self._anchors:
            return f"#block(above: 1.5pt, below: 1.5pt, inset: (left: {indent}))[{title}]\n"
        return (
            f"#block(above: 1.5pt, below: 1.5pt, inset: (left: {indent}))"
            f"[#link(<{target}>)[{title}] #box(width: 1fr, repeat[.#h(2pt)]) "
            f"#context counter(page).at(<{target}>).first()]\n"
        )

    # -- tables --------------------------------------------------------------------------
    def _rows(self, n: Node) -> _Table:
        rows: list[list[Node]] = []
        header = 0
        caption = ""

        def walk(node: Node, in_head: bool) -> None:
            nonlocal header, caption
            for c in node.children:
                if not isinstance(c, Node):
                    continue
                if c.tag == "caption":
                    caption = self.inline(c.children).strip()
                elif c.tag in ("thead", "tbody", "tfoot"):
                    walk(c, c.tag == "thead")
                elif c.tag == "tr":
                    cells = [x for x in c.children if isinstance(x, Node) and x.tag in ("td", "th")]
                    rows.append(cells)
                    if in_head:
                        header += 1

        walk(n, False)
        return _Table(rows, header, caption)

    def _table(self, n: Node) -> str:
        cls = n.classes
        t = self._rows(n)
        if "cover-top" in cls:
            first = t.rows[0] if t.rows else []
            cols = "(58%, 1fr)" if len(first) == 2 else f"{max(1, len(first))}"
            halves = ", ".join(f"[{self.blocks(c.children)}]" for c in first)
            return f"#grid(columns: {cols}, column-gutter: 1.5em, {halves})\n"
        if not t.rows:
            return ""
        ncols = max(sum(int(c.attrs.get("colspan", "1") or 1) for c in r) for r in t.rows)
        if ncols == 0:
            return ""
        size, inset, stroke, fill = self._table_style(cls, t.header_rows)
        body: list[str] = []
        head: list[str] = []
        last_two_small = "classes" in cls
        for i, row in enumerate(t.rows):
            target = head if i < t.header_rows else body
            for j, c in enumerate(row):
                target.append(self._cell(c, cls, small=last_two_small and j >= len(row) - 2))
        parts = [f"columns: {ncols}", f"inset: {inset}", f"stroke: {stroke}", "align: start"]
        if fill:
            parts.append(f"fill: {fill}")
        if head:
            parts.append("table.header(" + ", ".join(head) + ")")
        parts.extend(body)
        caption = (
            f'#block(below: 2pt, sticky: true)[#text(weight: "bold")[{t.caption}]]\n'
            if t.caption
            else ""
        )
        return f"#block(above: 0.3em, below: 0.4em)[#set text({size})\n{caption}#table({', '.join(parts)})]\n"

    def _table_style(self, cls: frozenset[str], head: int) -> tuple[str, str, str, str]:
        """Text size, cell inset, strokes and fill of a table of these classes with ``head``
        header rows."""
        if "grid" in cls:
            return (
                "8.5pt",
                "(x: 6pt, y: 2.5pt)" if "heat" in cls else "(x: 4pt, y: 1.5pt)",
                '0.5pt + rgb("#ccccdd")',
                f'(x, y) => if y < {head} {{ rgb("#f0f3f6") }}',
            )
        if "meta" in cls:
            return ("1em", "(left: 0pt, right: 10pt, y: 1.5pt)", "none", "")
        size = "8pt"
        inset = "(x: 5pt, y: 2pt)"
        if "summary" in cls:
            size = "8.8pt"
        if "wide" in cls:
            size, inset = "7pt", "(x: 3pt, y: 1.5pt)"
        if "files" in cls:
            size = "7.5pt"
        stroke = (
            f'(x, y) => if y + 1 == {head} {{ (bottom: 0.75pt + rgb("#99aabb")) }} '
            'else { (bottom: 0.4pt + rgb("#dde3e8")) }'
        )
        return size, inset, stroke, f'(x, y) => if y < {head} {{ rgb("#e8eef3") }}'

    def _cell(self, c: Node, table_cls: frozenset[str], small: bool = False) -> str:
        cls = c.classes
        body = self.cell_body(c)
        opts: list[str] = []
        span = c.attrs.get("colspan", "")
        if span.isdigit() and int(span) > 1:
            opts.append(f"colspan: {int(span)}")
        rspan = c.attrs.get("rowspan", "")
        if rspan.isdigit() and int(rspan) > 1:
            opts.append(f"rowspan: {int(rspan)}")
        rtl = c.attrs.get("dir") == "rtl"
        if "grid" in table_cls or "c" in cls:
            opts.append("align: center")
        elif "n" in cls or rtl:
            opts.append("align: right")
        # a coloured cell (a pair matrix: its background and its ink; an alignment grid)
        style = dict(_CELL_COLOURS.findall(c.attrs.get("style", "")))
        fill = style.get("background") or (
            ("#fde0dc" if "diff" in cls else "#eef7ee" if "same" in cls else "")
            if "grid" in table_cls
            else ""
        )
        if fill:
            opts.append(f'fill: rgb("{fill}")')
        if "color" in style:
            body = f'#text(fill: rgb("{style["color"]}"))[{body}]'
        if c.tag == "th":
            colour = "#334455" if "meta" in table_cls else "#1a1a1a"
            body = f'#text(weight: "bold", fill: rgb("{colour}"))[{body}]'
        if "value" in cls:
            body = f'#text(weight: "bold")[{body}]'
        if "mono" in cls:
            body = f"#text(font: {MONO}, size: {'6.8pt' if 'files' in table_cls else '0.85em'})[{body}]"
        if "text" in cls or small:
            body = f"#text(size: 7pt)[{body}]"
        if rtl:
            body = f"#text(dir: rtl)[{body}]"
        if opts:
            return f"table.cell({', '.join(opts)})[{body}]"
        return f"[{body}]"

    def cell_body(self, c: Node) -> str:
        if any(isinstance(x, Node) and (x.tag in _BLOCK or x.tag == "img") for x in c.children):
            return self.blocks(c.children)
        return self.inline(c.children, breakable=bool({"brk", "path"} & c.classes)).strip()

    # -- lists and figures ---------------------------------------------------------------
    def _list(self, n: Node) -> str:
        items = [c for c in n.children if isinstance(c, Node) and c.tag == "li"]
        if not items:
            return ""
        func = "enum" if n.tag == "ol" else "list"
        size = "8pt" if {"refs", "problems"} & n.classes else "1em"
        body = ", ".join(f"[{self._list_item(li)}]" for li in items)
        return f"#block[#set text({size})\n#{func}(tight: true, {body})]\n"

    def _list_item(self, li: Node) -> str:
        body = self.blocks(li.children)
        if "error" in li.classes:
            body = body.replace(
                '#text(weight: "bold")', '#text(weight: "bold", fill: rgb("#aa0000"))', 1
            )
        elif "warning" in li.classes:
            body = body.replace(
                '#text(weight: "bold")', '#text(weight: "bold", fill: rgb("#aa6600"))', 1
            )
        if li.attrs.get("dir") == "rtl":
            body = f"#set text(dir: rtl)\n{body}"
        return body

    def _figure(self, n: Node) -> str:
        parts = []
        for c in n.children:
            if isinstance(c, Node) and c.tag == "img":
                parts.append(f"#align(center)[{self._image(c).strip()}]")
            elif isinstance(c, Node) and c.tag == "figcaption":
                body = self.inline(c.children).strip()
                parts.append(f'#block(above: 3pt)[#text(8pt, fill: rgb("#444444"))[{body}]]')
        return f"#block(breakable: false, width: 100%, above: 0.6em, below: 0.9em)[{chr(10).join(parts)}]\n"

    def _image(self, n: Node) -> str:
        src = n.attrs.get("src", "")
        m = re.match(r"data:image/svg\+xml;base64,(.*)", src, re.S)
        if not m:
            alt = n.attrs.get("alt", "")
            return f"#block[{tstr(alt)}]\n" if alt else ""
        key = f"img{len(self.images)}"
        self.images[key] = base64.b64decode(m.group(1)).decode("utf-8")
        size = dict(re.findall(r"(width|height):\s*([\d.]+in)", n.attrs.get("style", "")))
        dims = "".join(f", {k}: {v}" for k, v in size.items())
        return f'#image(bytes(sys.inputs.{key}), format: "svg"{dims})\n'

    # -- inline --------------------------------------------------------------------------
    def inline(self, children: list[Node | str], breakable: bool = False) -> str:
        out: list[str] = []
        for c in children:
            if isinstance(c, str):
                text = _SPACE.sub(" ", c)
                if len(text) > TEXT_CHARS:  # a text of a megabyte would take seconds and gigabytes
                    text = f"{text[:TEXT_CHARS]}… [{len(text) - TEXT_CHARS:,} more characters]"
                if text:
                    out.append(_breakable(text) if breakable else f"#{tstr(text)};")
            else:
                out.append(self._inline_node(c))
        # whitespace at the ends of a paragraph is not shown (as in HTML)
        if out and out[0].startswith('#" '):
            out[0] = '#"' + out[0][3:]
        if out and out[-1].endswith(' ";'):
            out[-1] = out[-1][:-3] + '";'
        return "".join(out)

    #: Typst's wrapper of an inline element's content (``{}``: the content)
    _INLINE = {
        "b": '#text(weight: "bold")[{}]',
        "strong": '#text(weight: "bold")[{}]',
        "i": "#emph[{}]",
        "em": "#emph[{}]",
        "sub": "#sub[{}]",
        "sup": "#super[{}]",
        "code": "#text(font: " + MONO + ", size: 0.85em)[{}]",
        # an isolate (UAX #9): the stretch's direction does not leak into what surrounds it
        "bdi": '#"\\u{{2068}}";{}#"\\u{{2069}}";',
    }

    def _inline_node(self, n: Node) -> str:
        tag, cls = n.tag, n.classes
        if tag == "br":
            return "#linebreak()"
        if tag == "img":
            return self._image(n).strip()
        body = self.inline(n.children)
        if tag in self._INLINE:
            body = self._INLINE[tag].format(body)
        elif tag == "a":
            body = self._link(n.attrs.get("href", ""), body)
        if "target" in cls:  # the target word of a use
            body = f'#highlight(fill: rgb("#fff2b3"))[{body}]'
        if "shared" in cls:  # a word both texts of a pair share
            body = (
                f'#box(stroke: 0.6pt + rgb("#4a7fb0"), radius: 1.5pt, inset: (x: 0.5pt), '
                f"outset: (y: 1.5pt))[{body}]"
            )
        if "mono" in cls:
            body = f"#text(font: {MONO}, size: 0.85em)[{body}]"
        return self._directed(n, body)

    def _link(self, href: str, body: str) -> str:
        target = _LABEL_BAD.sub("-", href.lstrip("#"))
        if href.startswith("#") and target in self._anchors:
            return f"#link(<{target}>)[{body}]"
        if re.match(r"https?://", href):
            return f"#link({tstr(href)})[{body}]"
        return body


def to_typst(doc_html: str, paper: str = "a4") -> tuple[str, dict[str, str]]:
    """The Typst source of the report and its images (name → SVG text, ``sys.inputs``)."""
    root = parse(doc_html)
    anchors = frozenset(
        _LABEL_BAD.sub("-", n.attrs["id"])
        for n in TypstWriter._find(root, lambda x: x.tag in ("h2", "h3", "h4") and "id" in x.attrs)
        if not ({"toc-title", "cover-summary"} & n.classes)
    )
    writer = TypstWriter(anchors)
    return writer.document(root, paper), writer.images


def pdf_from_html(doc_html: str, paper: str = "a4") -> bytes:
    """Typeset the report's HTML as a PDF (see the module's description)."""
    try:
        import typst
    except ImportError as e:
        raise PdfEngineError(
            f"PDF output needs the typst package ({e}); install it (pip install typst) "
            "or write the report with --html."
        ) from e
    source, images = to_typst(doc_html, paper)
    try:
        return bytes(typst.compile(source.encode("utf-8"), sys_inputs=images, pdf_tags=False))
    except Exception as e:  # typst reports layout and font problems as a plain exception
        raise PdfEngineError(f"the PDF could not be typeset: {e}") from e
