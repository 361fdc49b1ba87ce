"""Passages as laid-out text with boxes: the reused span bold, words both passages share boxed,
and the Smith–Waterman (1981) local alignment over tokens (matches boxed, gaps underlined,
mismatches red).

Text is laid out by Qt's text engine (QTextDocument), so emoji, right-to-left scripts and
combining marks render; the boxes are painted over the laid-out glyph runs.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextBrowser, QWidget

from iaa_desktop.core.kinds.use_pairs import PairDetail
from iaa_desktop.gui.widgets.short_text import PASSAGE_CHARS

MATCH_BOX = QColor("#1f5fa8")
SHARED_BOX = QColor("#7a7a7a")
MISMATCH_RED = QColor("#c62828")


class BoxedTextView(QTextBrowser):
    """Read-only rich text with boxes painted around character ranges.

    Qt's rich text has no borders on inline text, so the boxes are drawn over the laid-out
    lines (``QTextLine.cursorToX``), which keeps Qt's own shaping, bidi and emoji rendering.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setLineWrapMode(QTextBrowser.LineWrapMode.WidgetWidth)
        #: (document start, document end, colour, dashed)
        self.boxes: list[tuple[int, int, QColor, bool]] = []

    def set_segments(self, paragraphs: list[list[tuple[str, dict[str, Any]]]]) -> None:
        """Show paragraphs of ``(text, style)`` segments.

        ``style`` keys: ``bold``, ``underline``, ``color`` (QColor), ``box`` (QColor),
        ``dashed`` (bool), ``italic``, ``small``.
        """
        self.clear()
        self.boxes = []
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()  # one layout for every segment, not one per segment
        for k, para in enumerate(paragraphs):
            if k:
                cursor.insertBlock()
            room = PASSAGE_CHARS  # a passage of a megabyte is shown shortened
            for text, style in para:
                if room <= 0:
                    total = sum(len(t) for t, _s in para)
                    cursor.insertText(f" … ({total:,} characters)", self._note_format())
                    break
                text = text[:room]
                room -= len(text)
                fmt = QTextCharFormat()
                if style.get("bold"):
                    fmt.setFontWeight(QFont.Weight.Bold)
                if style.get("underline"):
                    fmt.setFontUnderline(True)
                if style.get("italic"):
                    fmt.setFontItalic(True)
                if style.get("color") is not None:
                    fmt.setForeground(style["color"])
                if style.get("small"):
                    fmt.setFontPointSize(max(6.0, self.font().pointSizeF() * 0.85))
                start = cursor.position()
                cursor.insertText(text, fmt)
                if style.get("box") is not None:
                    self.boxes.append(
                        (start, cursor.position(), style["box"], bool(style.get("dashed")))
                    )
        cursor.endEditBlock()
        self.moveCursor(QTextCursor.MoveOperation.Start)
        self.viewport().update()

    def _note_format(self) -> QTextCharFormat:
        fmt = QTextCharFormat()
        fmt.setFontItalic(True)
        fmt.setForeground(QColor("gray"))
        return fmt

    def box_rects(self) -> list[tuple[QRectF, QColor, bool]]:
        """Rectangles (viewport coordinates) of every box, one per line a range spans."""
        doc = self.document()
        dx, dy = self.horizontalScrollBar().value(), self.verticalScrollBar().value()
        out = []
        for start, end, colour, dashed in self.boxes:
            block = doc.findBlock(start)
            layout = block.layout()
            if layout is None:
                continue
            origin = layout.position()
            rs, re_ = start - block.position(), end - block.position()
            for n in range(layout.lineCount()):
                line = layout.lineAt(n)
                ls = line.textStart()
                a, b = max(rs, ls), min(re_, ls + line.textLength())
                if a >= b:
                    continue
                x1, x2 = _x(line.cursorToX(a)), _x(line.cursorToX(b))
                rect = QRectF(min(x1, x2) - 1.0, line.y() + 1, abs(x2 - x1) + 2, line.height() - 1)
                out.append((rect.translated(origin + QPointF(-dx, -dy)), colour, dashed))
        return out

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self.boxes:
            return
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for rect, colour, dashed in self.box_rects():
            pen = QPen(colour, 1.3)
            if dashed:
                pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.drawRoundedRect(rect, 2.0, 2.0)
        painter.end()


def _x(v: Any) -> float:
    # PySide6 returns (x, cursor position) from QTextLine.cursorToX
    return float(v[0] if isinstance(v, tuple | list) else v)


def passage_segments(d: PairDetail, side: str) -> list[tuple[str, dict[str, Any]]]:
    """Segments of one passage: reused span bold, tokens shared with the other passage boxed."""
    text = d.text_a if side == "a" else d.text_b
    toks = d.tokens_a if side == "a" else d.tokens_b
    span = d.span_a if side == "a" else d.span_b
    cuts = {0, len(text)}
    if span is not None:
        cuts.update(span)
    for s, e in zip(toks.starts, toks.ends):
        cuts.update((s, e))
    shared_at = {s: e for s, e, k in zip(toks.starts, toks.ends, toks.keys) if k in d.shared}
    points = sorted(c for c in cuts if 0 <= c <= len(text))
    segs = []
    for a, b in zip(points, points[1:]):
        if a == b:
            continue
        style: dict[str, Any] = {}
        if span is not None and span[0] <= a and b <= span[1]:
            style["bold"] = True
        if a in shared_at and shared_at[a] == b:
            style["box"] = SHARED_BOX
        segs.append((text[a:b], style))
    return segs or [("(no text)", {"italic": True, "color": QColor("gray")})]


def alignment_segments(d: PairDetail, side: str) -> list[tuple[str, dict[str, Any]]]:
    """The aligned stretch of one passage (Smith & Waterman 1981): matches boxed, tokens facing a
    gap underlined, mismatches red (the text between tokens is kept as written)."""
    text = d.text_a if side == "a" else d.text_b
    toks = d.tokens_a if side == "a" else d.tokens_b
    ops = d.alignment.ops_a() if side == "a" else d.alignment.ops_b()
    if not ops:
        return [
            (
                "(no local alignment: the passages share no word)",
                {"italic": True, "color": QColor("gray")},
            )
        ]
    first, last = min(ops), max(ops)
    segs: list[tuple[str, dict[str, Any]]] = []
    for t in range(first, last + 1):
        if t > first:
            gap_text = text[toks.ends[t - 1] : toks.starts[t]]
            segs.append((gap_text if gap_text.strip() else " ", {}))
        op = ops.get(t, "gap")
        style: dict[str, Any] = {}
        if op == "match":
            style["box"] = MATCH_BOX
        elif op == "mismatch":
            style["color"] = MISMATCH_RED
        else:
            style["underline"] = True
        segs.append((text[toks.starts[t] : toks.ends[t]], style))
    return segs
