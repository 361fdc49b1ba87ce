"""The pair view of the passage-pair kinds (``durel`` and ``candidates``).

Two tabs:

* **Pairs** — a list of the pairs (filterable by target or factor level, sorted by disagreement;
  ``N`` / ``P`` or ``Alt+Down`` / ``Alt+Up`` jump to the next / previous disagreeing pair) beside
  the selected pair: both passages side by side, the reused passage (DURel offsets) in bold,
  words shared by both passages boxed in both (by lemma where given, else lower-cased form); under
  them the Smith–Waterman local alignment over tokens drawn as in Figure 1 of the Bernard of Clairvaux intertextuality study (matches
  boxed, gaps underlined, mismatches red) with the overlap; then every annotator's judgment
  (name, value, comment), the mean and whether the filter keeps the item. A span that does not
  match the quoted text is shown as given, with a warning.
* **Agreement** — the figures: per target before and after the filter (durel), or multi-κ
  overall, per annotator pair, per factor level and overlap bin with the forest plot and the
  agreement-against-overlap curve (candidates).

Text is laid out by Qt's text engine (QTextDocument), so emoji, right-to-left scripts and
combining marks render; the boxes are painted over the laid-out glyph runs. Nothing is computed
here beyond lookups in the finished result (a pair's alignment is computed once in the core and
cached there).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QKeySequence,
    QPainter,
    QPen,
    QShortcut,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.durel.compare import PairDetail

CACHE_KEY = "pairs"
RAW_ROLE = Qt.ItemDataRole.UserRole + 1

MATCH_BOX = QColor("#1f5fa8")
SHARED_BOX = QColor("#7a7a7a")
MISMATCH_RED = QColor("#c62828")


# ----------------------------------------------------------------------------- table model
class FrameModel(QAbstractTableModel):
    """Thin read-only model over a DataFrame snapshot; sorting happens in pandas."""

    def __init__(self, frame: pd.DataFrame | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._frame = pd.DataFrame()
        self._values = np.zeros((0, 0), dtype=object)
        self.set_frame(frame if frame is not None else pd.DataFrame())

    def set_frame(self, frame: pd.DataFrame) -> None:
        self.beginResetModel()
        self._frame = frame
        self._values = (
            frame.to_numpy(dtype=object)
            if len(frame.columns)
            else np.zeros((len(frame), 0), dtype=object)
        )
        self.endResetModel()

    @property
    def frame(self) -> pd.DataFrame:
        return self._frame

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._frame)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._frame.columns)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        v = self._values[index.row(), index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return _fmt(v)
        if role == Qt.ItemDataRole.ToolTipRole:
            return str(v) if isinstance(v, str) and len(v) > 30 else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if isinstance(v, int | float | np.integer | np.floating) and not isinstance(
                v, bool | np.bool_
            ):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == RAW_ROLE:
            return v
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return str(self._frame.columns[section]) if section < len(self._frame.columns) else None
        return str(section + 1)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self._frame.columns):
            return
        frame = self._frame.sort_values(
            self._frame.columns[column],
            ascending=order == Qt.SortOrder.AscendingOrder,
            na_position="last",
            kind="stable",
        )
        self.layoutAboutToBeChanged.emit()
        self._frame = frame
        self._values = frame.to_numpy(dtype=object)
        self.layoutChanged.emit()


def _fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool | np.bool_):
        return "yes" if v else "no"
    if isinstance(v, float | np.floating):
        if not math.isfinite(v):
            return "–"
        return str(int(v)) if float(v).is_integer() and abs(v) < 1e6 else f"{v:.3f}"
    return str(v)


def _table(
    model: QAbstractTableModel, sortable: bool = True, view: QTableView | None = None
) -> QTableView:
    view = view or QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(22)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.setSortingEnabled(sortable)
    return view


class PairListView(QTableView):
    """The pair list; ``N``/``P`` and ``Alt+Down``/``Alt+Up`` step through disagreeing pairs
    (handled here because an item view takes printable keys for its keyboard search)."""

    def __init__(self, step: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._step = step

    def keyPressEvent(self, event) -> None:
        key, mods = event.key(), event.modifiers()
        plain = mods in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
        alt = bool(mods & Qt.KeyboardModifier.AltModifier)
        if (key == Qt.Key.Key_N and plain) or (key == Qt.Key.Key_Down and alt):
            self._step(1)
        elif (key == Qt.Key.Key_P and plain) or (key == Qt.Key.Key_Up and alt):
            self._step(-1)
        else:
            super().keyPressEvent(event)


def _fit(view: QTableView, max_width: int = 320) -> None:
    view.resizeColumnsToContents()
    header = view.horizontalHeader()
    for c in range(header.count()):
        if header.sectionSize(c) > max_width:
            header.resizeSection(c, max_width)


# ----------------------------------------------------------------------------- boxed text
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
        for k, para in enumerate(paragraphs):
            if k:
                cursor.insertBlock()
            for text, style in para:
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
        self.moveCursor(QTextCursor.MoveOperation.Start)
        self.viewport().update()

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
    """The aligned stretch of one passage as in Figure 1 of the Bernard of Clairvaux intertextuality study: matches boxed, tokens facing a
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


# -------------------------------------------------------------------------------- panels
class PairPanel(QWidget):
    """List of pairs beside the selected pair (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: Any = None
        self._all = pd.DataFrame()
        self.model = FrameModel(parent=self)
        self.list_view = _table(self.model, view=PairListView(self.step_disagreement))
        self.list_view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.DescendingOrder)
        self.filters_box = QWidget()
        self.filters_layout = QHBoxLayout(self.filters_box)
        self.filters_layout.setContentsMargins(0, 0, 0, 0)
        self.filters: dict[str, QComboBox] = {}
        self.count_label = QLabel()

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.filters_box)
        lv.addWidget(self.list_view, 1)
        hint = QLabel("N / P: next / previous disagreement")
        hint.setStyleSheet("color: gray")
        lv.addWidget(self.count_label)
        lv.addWidget(hint)

        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #b26a00")
        self.label_a, self.label_b = QLabel(), QLabel()
        for lab in (self.label_a, self.label_b):
            lab.setTextFormat(Qt.TextFormat.PlainText)
            lab.setStyleSheet("color: gray")
        self.text_a, self.text_b = BoxedTextView(), BoxedTextView()
        self.alignment = BoxedTextView()
        self.align_caption = QLabel()
        self.align_caption.setWordWrap(True)
        self.judgment_model = FrameModel(parent=self)
        self.judgment_view = _table(self.judgment_model, sortable=False)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)

        grid = QGridLayout()
        grid.addWidget(self.label_a, 0, 0)
        grid.addWidget(self.label_b, 0, 1)
        grid.addWidget(self.text_a, 1, 0)
        grid.addWidget(self.text_b, 1, 1)
        texts = QWidget()
        texts.setLayout(grid)
        grid.setContentsMargins(0, 0, 0, 0)

        align_box = QWidget()
        av = QVBoxLayout(align_box)
        av.setContentsMargins(0, 0, 0, 0)
        av.addWidget(self.align_caption)
        av.addWidget(self.alignment, 1)

        judg = QWidget()
        jv = QVBoxLayout(judg)
        jv.setContentsMargins(0, 0, 0, 0)
        jv.addWidget(self.summary)
        jv.addWidget(self.judgment_view, 1)

        right_split = QSplitter(Qt.Orientation.Vertical)
        right_split.addWidget(texts)
        right_split.addWidget(align_box)
        right_split.addWidget(judg)
        right_split.setSizes([300, 130, 260])
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(self.title)
        rv.addWidget(self.warning)
        rv.addWidget(right_split, 1)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([520, 880])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)

        self.list_view.selectionModel().currentRowChanged.connect(self._on_current_changed)
        for keys, step in ((("N", "Alt+Down"), 1), (("P", "Alt+Up"), -1)):
            for key in keys:
                sc = QShortcut(QKeySequence(key), self)
                sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                sc.activated.connect(lambda s=step: self.step_disagreement(s))

    # -- data
    def set_result(self, result: Any) -> None:
        keep = self.current_item()
        self.result = result
        table = result.pair_table().copy()
        table.insert(0, "#", np.arange(len(table)))
        self._all = table
        self._build_filters(result.filter_columns())
        self.apply_filters()
        if keep is not None and keep < len(table):
            self.select_item(keep)
        elif self.model.rowCount():
            self.list_view.selectRow(0)

    def _build_filters(self, columns: list[str]) -> None:
        old = {c: cb.currentText() for c, cb in self.filters.items()}
        while self.filters_layout.count():
            w = self.filters_layout.takeAt(0).widget()
            if w is not None:
                w.deleteLater()
        self.filters = {}
        for c in columns:
            if c not in self._all.columns:
                continue
            cb = QComboBox()
            levels = sorted({str(v) for v in self._all[c]})
            cb.addItem(f"all ({c})")
            cb.addItems(levels)
            if old.get(c) in levels:
                cb.setCurrentText(old[c])
            cb.setToolTip(f"show only pairs with this {c}")
            cb.currentIndexChanged.connect(lambda _i: self.apply_filters())
            self.filters_layout.addWidget(cb)
            self.filters[c] = cb
        self.filters_layout.addStretch(1)

    def apply_filters(self) -> None:
        keep = self.current_item()
        frame = self._all
        for c, cb in self.filters.items():
            if cb.currentIndex() > 0:
                frame = frame[frame[c].astype(str) == cb.currentText()]
        # most disagreeing first, then in file order
        frame = frame.sort_values(["disagreement", "#"], ascending=[False, True], kind="stable")
        self.model.set_frame(frame)
        _fit(self.list_view, 150)
        n_dis = int((frame["disagreement"] > 0).sum())
        self.count_label.setText(
            f"{len(frame)} of {len(self._all)} pairs; {n_dis} with disagreement"
        )
        if keep is not None and not self.select_item(keep) and self.model.rowCount():
            self.list_view.selectRow(0)

    # -- selection
    def current_item(self) -> int | None:
        idx = self.list_view.currentIndex()
        if not idx.isValid() or not len(self.model.frame):
            return None
        return int(self.model.frame["#"].iloc[idx.row()])

    def select_item(self, item: int) -> bool:
        rows = np.flatnonzero(self.model.frame["#"].to_numpy() == item)
        if not len(rows):
            return False
        self.list_view.selectRow(int(rows[0]))
        self.list_view.scrollTo(self.model.index(int(rows[0]), 0))
        return True

    def step_disagreement(self, step: int) -> None:
        """Select the next (``step`` = 1) or previous (−1) pair in the list with disagreement."""
        frame = self.model.frame
        if not len(frame):
            return
        dis = frame["disagreement"].to_numpy(dtype=float) > 0
        row = self.list_view.currentIndex().row()
        rng = range(row + 1, len(frame)) if step > 0 else range(row - 1, -1, -1)
        for r in rng:
            if dis[r]:
                self.list_view.selectRow(r)
                self.list_view.scrollTo(self.model.index(r, 0))
                return

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid() or self.result is None:
            return
        self.show_pair(int(self.model.frame["#"].iloc[current.row()]))

    def show_pair(self, item: int) -> None:
        d = self.result.pair_detail(item)
        self.shown = d
        self.title.setText(d.title)
        self.warning.setText("⚠ " + " ".join(d.span_warnings) if d.span_warnings else "")
        self.warning.setVisible(bool(d.span_warnings))
        self.label_a.setText(d.label_a)
        self.label_b.setText(d.label_b)
        self.text_a.set_segments([passage_segments(d, "a")])
        self.text_b.set_segments([passage_segments(d, "b")])
        self.alignment.set_segments(
            [
                [
                    (f"{d.label_a}:  ", {"small": True, "color": QColor("gray")}),
                    *alignment_segments(d, "a"),
                ],
                [
                    (f"{d.label_b}:  ", {"small": True, "color": QColor("gray")}),
                    *alignment_segments(d, "b"),
                ],
            ]
        )
        al = d.alignment
        self.align_caption.setText(
            f"Smith–Waterman local alignment over tokens: score {al.score:g}, {al.n_matches} matching tokens "
            f"(boxed = match, underlined = gap, red = mismatch) · lexical overlap (weighted Jaccard) {d.overlap:.3f} · "
            f"grey boxes above: words both passages share"
        )
        self.judgment_model.set_frame(
            pd.DataFrame(list(d.judgments), columns=["annotator", "judgment", "comment"])
        )
        _fit(self.judgment_view, 500)
        self.summary.setText("   ".join(f"{k}: {v}" for k, v in d.summary))


class DurelAgreementPanel(QWidget):
    """Pooled and per-target figures, annotators, TRaC ranking and the per-target chart."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.overall = QLabel()
        self.overall.setTextFormat(Qt.TextFormat.RichText)
        self.targets_model = FrameModel(parent=self)
        self.annotators_model = FrameModel(parent=self)
        self.pairwise_model = FrameModel(parent=self)
        self.ranking_model = FrameModel(parent=self)
        self.chart = QScrollArea()
        self.chart.setWidgetResizable(True)
        tables = QSplitter(Qt.Orientation.Vertical)
        for title, model in (
            ("Per target (all items / after the filter)", self.targets_model),
            ("Annotators: Spearman against the mean of the others", self.annotators_model),
            ("Annotator pairs", self.pairwise_model),
            (
                "Topic variation (TRaC): targets by mean judgment, lower = more variation",
                self.ranking_model,
            ),
        ):
            box = QWidget()
            v = QVBoxLayout(box)
            v.setContentsMargins(0, 0, 0, 0)
            v.addWidget(QLabel(title))
            view = _table(model)
            v.addWidget(view, 1)
            box.view = view  # type: ignore[attr-defined]
            tables.addWidget(box)
        self._tables = tables
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(tables)
        split.addWidget(self.chart)
        split.setSizes([850, 550])
        layout = QVBoxLayout(self)
        layout.addWidget(self.overall)
        layout.addWidget(split, 1)

    def set_result(self, result: Any) -> None:
        a, f = result.overall["all"], result.overall["filtered"]

        def g(v: Any) -> str:
            return "–" if v is None or not math.isfinite(v) else f"{v:.3f}"

        self.overall.setText(
            f"<b>All {len(result.targets)} targets pooled</b> — all items: n = {a['n_items']}, "
            f"α ({result.level}) = {g(a['krippendorff_alpha'])}, Spearman = {g(a['spearman_weighted'])}; "
            f"after the filter: n = {f['n_items']} (label 0: {f['n_label0']}, label 1: {f['n_label1']}), "
            f"α = {g(f['krippendorff_alpha'])}, Spearman = {g(f['spearman_weighted'])}"
        )
        self.targets_model.set_frame(result.targets_table())
        self.annotators_model.set_frame(result.annotator_table)
        self.pairwise_model.set_frame(result.pairwise)
        self.ranking_model.set_frame(result.topic_ranking)
        for k in range(self._tables.count()):
            _fit(self._tables.widget(k).view, 200)
        from iaa_desktop.core.kinds.durel.charts import targets_figure

        self.chart.setWidget(_canvas(targets_figure(result, width=5.2)))


class CandidatesAgreementPanel(QWidget):
    """multi-κ overall, per pair, per factor level and overlap bin; forest plot and curve."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.overall = QLabel()
        self.overall.setTextFormat(Qt.TextFormat.RichText)
        self.pairwise_model = FrameModel(parent=self)
        self.factor_model = FrameModel(parent=self)
        self.pairwise_view = _table(self.pairwise_model)
        self.factor_view = _table(self.factor_model)
        self.forest = QScrollArea()
        self.forest.setWidgetResizable(True)
        self.curve_box = QVBoxLayout()
        left = QSplitter(Qt.Orientation.Vertical)
        for title, view in (
            ("Annotator pairs", self.pairwise_view),
            ("Per factor level and overlap bin", self.factor_view),
        ):
            box = QWidget()
            v = QVBoxLayout(box)
            v.setContentsMargins(0, 0, 0, 0)
            v.addWidget(QLabel(title))
            v.addWidget(view, 1)
            left.addWidget(box)
        left.setSizes([160, 600])
        curve = QWidget()
        curve.setLayout(self.curve_box)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.forest)
        right.addWidget(curve)
        right.setSizes([520, 330])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([700, 700])
        layout = QVBoxLayout(self)
        layout.addWidget(self.overall)
        layout.addWidget(split, 1)

    def set_result(self, result: Any) -> None:
        k = result.overall["multi_kappa"]

        def g(v: Any) -> str:
            return "–" if v is None or not math.isfinite(v) else f"{v:.3f}"

        self.overall.setText(
            f"<b>multi-κ</b> over {k['n_items']} pairs and {len(result.annotators)} annotators: {g(k['value'])} "
            f"(posterior median {g(k['bayes_median'])}; 89% [{g(k['bayes_89'][0])}, {g(k['bayes_89'][1])}]; "
            f"95% [{g(k['bayes_95'][0])}, {g(k['bayes_95'][1])}]) · A_o = {g(k['observed'])}, A_e = {g(k['expected'])}"
        )
        tables = result.tables()
        self.pairwise_model.set_frame(tables["pairwise"])
        self.factor_model.set_frame(tables["by_factor"])
        _fit(self.pairwise_view, 160)
        _fit(self.factor_view, 200)
        from iaa_desktop.core.kinds.durel.charts import forest_figure, overlap_curve_figure

        self.forest.setWidget(_canvas(forest_figure(result, width=6.2)))
        while self.curve_box.count():
            w = self.curve_box.takeAt(0).widget()
            if w is not None:
                w.deleteLater()
        self.curve_box.addWidget(_canvas(overlap_curve_figure(result, width=6.2, height=3.2)))


def _canvas(fig) -> QWidget:
    from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg

    canvas = FigureCanvasQTAgg(fig)
    w, h = fig.get_size_inches() * fig.dpi
    canvas.setMinimumSize(int(w * 0.6), int(h))
    return canvas


class PairsPanels:
    """The two tabs of one kind, kept across results so the selection survives a recompute."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.pairs = PairPanel()
        self.agreement: QWidget = (
            DurelAgreementPanel() if kind == "durel" else CandidatesAgreementPanel()
        )

    def set_result(self, result: Any) -> None:
        self.pairs.set_result(result)
        self.agreement.set_result(result)  # type: ignore[attr-defined]

    def panels(self) -> list[tuple[str, QWidget]]:
        return [("Pairs", self.pairs), ("Agreement", self.agreement)]


def create_panels(result: Any, context: Any) -> list[tuple[str, QWidget]]:
    """Tabs for a finished ``durel`` or ``candidates`` result (widgets kept in ``context.cache``)."""
    cache = getattr(context, "cache", None)
    key = f"{CACHE_KEY}:{result.kind}"
    panels = cache.get(key) if isinstance(cache, dict) else None
    if not isinstance(panels, PairsPanels):
        panels = PairsPanels(result.kind)
        if isinstance(cache, dict):
            cache[key] = panels
    panels.set_result(result)
    if result.kind == "candidates":  # the agreement model's tab lives in its own module
        from iaa_desktop.gui.kinds.candidates_model import model_panel

        return [*panels.panels(), ("Model", model_panel(result, context))]
    return panels.panels()
