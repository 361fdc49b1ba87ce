"""Relations drawn as labelled arcs over a text, as brat draws them: one block per annotator, the
spans shaded in their label's colour, each relation an arc from its source span to its target
span (arrow at the target) with its label on top, coloured by how it stands with the other
annotators.

The text is laid out by Qt's :class:`QTextLayout` (wrapping, bidirectional text, combining marks),
and the arcs are placed at the x positions it gives for the spans' offsets, so right-to-left
scripts get their arcs over the right words. An arc between two lines is drawn as two halves: from
the source to the margin on the source's line and from the margin to the target on the target's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

Bounds = tuple[int, int]
#: per line, the arcs placed on it: (left, right, level)
Levels = dict[int, list[tuple[float, float, int]]]
#: vertical room above each line for the arcs (levels) and their labels
ARC_LEVEL = 13.0
ARC_LEVELS = 3
MARGIN = 8.0


@dataclass
class Arc:
    """One relation: source and target (first and last offset of each argument), label, colour;
    ``dashed`` for a relation the other annotators do not share."""

    source: Bounds
    target: Bounds
    label: str
    colour: str
    dashed: bool = False


@dataclass
class ArcBlock:
    """One annotator's text with their spans (bounds, colour) and relations."""

    name: str
    text: str
    spans: list[tuple[Bounds, str]] = field(default_factory=list)
    arcs: list[Arc] = field(default_factory=list)


class ArcView(QWidget):
    """The blocks of :class:`ArcBlock` one above the other (put it in a scroll area)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.blocks: list[ArcBlock] = []
        self._layouts: list[QTextLayout] = []
        self._width = -1.0
        #: arcs drawn at the last paint (halves of a two-line arc count once)
        self.arcs_drawn = 0
        #: the label boxes of the last paint, per block (labels never cover one another)
        self.label_boxes: list[list[QRectF]] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setAutoFillBackground(True)

    def set_blocks(self, blocks: list[ArcBlock]) -> None:
        self.blocks = blocks
        self._width = -1.0
        self._relayout()
        self.update()

    # -- layout --------------------------------------------------------------------------------

    def _line_height(self) -> float:
        return QFontMetricsF(self.font()).height() + ARC_LEVEL * ARC_LEVELS + 6

    def _relayout(self) -> None:
        width = max(200.0, float(self.width()) - 2 * MARGIN)
        self._layouts = []
        y = MARGIN
        title = QFontMetricsF(self._bold()).height()
        for block in self.blocks:
            y += title + 4
            layout = QTextLayout(block.text.replace("\n", "\u2028"), self.font())
            opt = QTextOption()
            opt.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
            opt.setTextDirection(Qt.LayoutDirection.LayoutDirectionAuto)
            layout.setTextOption(opt)
            layout.beginLayout()
            while True:
                line = layout.createLine()
                if not line.isValid():
                    break
                line.setLineWidth(width)
                line.setPosition(
                    QPointF(
                        0, (line.lineNumber()) * self._line_height() + ARC_LEVEL * ARC_LEVELS + 4
                    )
                )
            layout.endLayout()
            layout.setPosition(QPointF(MARGIN, y))
            self._layouts.append(layout)
            y += layout.lineCount() * self._line_height() + 10
        self._width = float(self.width())
        self.setMinimumHeight(int(y + MARGIN))

    def _bold(self) -> QFont:
        f = QFont(self.font())
        f.setBold(True)
        return f

    def resizeEvent(self, event: object) -> None:
        self._relayout()

    # -- painting ------------------------------------------------------------------------------

    def _x(self, layout: QTextLayout, pos: int) -> tuple[int, float]:
        """(line number, x) of character offset ``pos``."""
        line = layout.lineForTextPosition(min(pos, max(0, len(layout.text()))))
        if not line.isValid():
            line = layout.lineAt(layout.lineCount() - 1)
        found: Any = line.cursorToX(pos)  # (x, position) in PySide6
        x = float(found[0] if isinstance(found, tuple) else found)
        return line.lineNumber(), layout.position().x() + x

    def _centre(self, layout: QTextLayout, bounds: Bounds) -> tuple[int, float]:
        (ln, a), (_ln2, b) = (
            self._x(layout, bounds[0]),
            self._x(layout, max(bounds[0], bounds[1] - 1)),
        )
        if _ln2 != ln:
            b = a + 10
        return ln, (a + b) / 2

    def _line_top(self, layout: QTextLayout, ln: int) -> float:
        line = layout.lineAt(ln)
        return layout.position().y() + line.y()

    def paintEvent(self, event: QPaintEvent) -> None:
        if abs(self._width - self.width()) > 0.5 or len(self._layouts) != len(self.blocks):
            self._relayout()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), self.palette().base())
        small = QFont(self.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.8))
        drawn = 0
        self.label_boxes = []
        for block, layout in zip(self.blocks, self._layouts):
            self.label_boxes.append([])
            p.setFont(self._bold())
            p.setPen(self.palette().text().color())
            p.drawText(QPointF(MARGIN, layout.position().y() - 4), block.name)
            for (s, e), colour in block.spans:
                self._shade(p, layout, s, e, QColor(colour))
            p.setPen(self.palette().text().color())
            p.setFont(self.font())
            layout.draw(p, QPointF(0, 0))
            p.setFont(small)
            levels: Levels = {}
            for arc in sorted(block.arcs, key=lambda a: abs(a.source[0] - a.target[0])):
                drawn += self._arc(p, layout, arc, levels)
        self.arcs_drawn = drawn
        p.end()

    def _shade(self, p: QPainter, layout: QTextLayout, s: int, e: int, colour: QColor) -> None:
        ln_s, xs = self._x(layout, s)
        ln_e, xe = self._x(layout, e)
        colour.setAlpha(110)
        for ln in range(ln_s, ln_e + 1):
            line = layout.lineAt(ln)
            top = self._line_top(layout, ln)
            left = xs if ln == ln_s else layout.position().x() + line.x()
            right = xe if ln == ln_e else layout.position().x() + line.x() + line.naturalTextWidth()
            lo, hi = min(left, right), max(left, right)
            p.fillRect(QRectF(lo, top, hi - lo, line.height()), colour)

    def _label_box(
        self, p: QPainter, label: str, x0: float, x1: float, top: float, one_line: bool
    ) -> QRectF:
        """Where an arc's label goes: over the arc, at the first place along it (middle first)
        that no label drawn before covers; crowded arcs (more than the levels hold) share a
        height, and without this their labels would be drawn over one another."""
        fm = QFontMetricsF(p.font())
        w = fm.horizontalAdvance(label) + 4
        h = min(fm.height(), ARC_LEVEL)  # labels of arcs a level apart touch, never overlap
        taken = self.label_boxes[-1] if self.label_boxes else []
        first = 0.5 if one_line else 0.35
        lo, hi = min(x0, x1), max(x0, x1)
        # along the arc, then beside its ends (never up into the line above)
        fractions = sorted((k / 24 for k in range(25)), key=lambda f: abs(f - first))
        places = [x0 + (x1 - x0) * f for f in fractions]
        places += [lo - w / 2 - 2, hi + w / 2 + 2]
        for mid in places:
            box = QRectF(mid - w / 2, top - h / 2 + 3, w, h)
            inside = box.left() >= 0 and box.right() <= self.width()
            if inside and not any(box.intersects(t) for t in taken):
                taken.append(box)
                return box
        box = QRectF(places[0] - w / 2, top - h / 2 + 3, w, h)
        taken.append(box)
        return box

    @staticmethod
    def _level(levels: Levels, ln: int, lo: float, hi: float) -> int:
        """The lowest arc level on line ``ln`` free between ``lo`` and ``hi``."""
        taken = levels.setdefault(ln, [])
        for level in range(ARC_LEVELS):
            if not any(lv == level and not (h < lo or a > hi) for a, h, lv in taken):
                taken.append((lo, hi, level))
                return level
        taken.append((lo, hi, ARC_LEVELS - 1))
        return ARC_LEVELS - 1

    def _arc(
        self,
        p: QPainter,
        layout: QTextLayout,
        arc: Arc,
        levels: Levels,
    ) -> int:
        pen = QPen(QColor(arc.colour), 1.6)
        if arc.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        p.setPen(pen)
        ln_s, xs = self._centre(layout, arc.source)
        ln_t, xt = self._centre(layout, arc.target)
        right_edge = layout.position().x() + max(200.0, float(self.width()) - 2 * MARGIN)
        left_edge = layout.position().x()
        halves = (
            [(ln_s, xs, xt, True, True)]
            if ln_s == ln_t
            else [
                (ln_s, xs, right_edge if ln_t > ln_s else left_edge, True, False),
                (ln_t, left_edge if ln_t > ln_s else right_edge, xt, False, True),
            ]
        )
        for ln, x0, x1, labelled, arrow in halves:
            base = self._line_top(layout, ln)
            level = self._level(levels, ln, min(x0, x1), max(x0, x1))
            top = base - 6 - ARC_LEVEL * (level + 1) + 4
            path = QPainterPath(QPointF(x0, base))
            path.cubicTo(QPointF(x0, top), QPointF(x1, top), QPointF(x1, base))
            p.drawPath(path)
            if arrow:
                p.drawLine(QPointF(x1, base), QPointF(x1 - 3.5, base - 6))
                p.drawLine(QPointF(x1, base), QPointF(x1 + 3.5, base - 6))
            if labelled:
                box = self._label_box(p, arc.label, x0, x1, top, ln_s == ln_t)
                p.fillRect(box, self.palette().base())
                p.drawText(box, Qt.AlignmentFlag.AlignCenter, arc.label)
        return 1
