"""View of a spelling-normalization study (kind ``normalization``).

Tabs:

* **Interlinear** — the historical text of one text id with every annotator's normalization
  under each token (tokens where they disagree are tinted), the character grid of the selected
  token (one column per historical unit, one row per annotator; Full or Diff labels, cells where
  annotators differ highlighted, the modernization layer beneath) and the disagreement list.
  Keys: ``N`` / ``F8`` next disagreement, ``P`` / ``Shift+F8`` previous.
* **Agreement** — word- and character-based tables (overall, per text), pairwise matrices and
  the modernization results.

Everything shown comes from the finished :class:`NormalizationResult`; the only work done here is
looking up a token's (cached) alignment and building HTML for one text.
"""

from __future__ import annotations

import html
import math
import unicodedata
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.normalization.compare import SUBSETS, NormalizationResult

__all__ = [
    "create_panels",
    "NormalizationPanel",
    "AgreementPanel",
    "CharacterGridModel",
    "FrameModel",
]

DISAGREE_BG = QColor("#ffd9d6")
DISAGREE_TOKEN = "#fde2df"
SELECTED_TOKEN = "#ffe58a"
MOD_BG = QColor("#eef3ff")
MOD_DISAGREE_BG = QColor("#f3d0ff")


def _is_rtl(text: str) -> bool:
    """Whether the first strong character of ``text`` is right-to-left (Hebrew, Arabic ...)."""
    for ch in text:
        d = unicodedata.bidirectional(ch)
        if d in ("R", "AL"):
            return True
        if d == "L":
            return False
    return False


# ---------------------------------------------------------------------------------------------
# models


class FrameModel(QAbstractTableModel):
    """Read-only model over a DataFrame snapshot; sorting is done in pandas."""

    def __init__(self, frame: pd.DataFrame | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self._df = pd.DataFrame() if frame is None else frame.reset_index(drop=True)
        self._values = self._df.to_numpy(dtype=object)

    def set_frame(self, frame: pd.DataFrame) -> None:
        self.beginResetModel()
        self._df = frame.reset_index(drop=True)
        self._values = self._df.to_numpy(dtype=object)
        self.endResetModel()

    @property
    def frame(self) -> pd.DataFrame:
        return self._df

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._df)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._df.columns)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        v = self._values[index.row(), index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            if isinstance(v, float | np.floating):
                return "–" if not math.isfinite(v) else f"{v:.4f}"
            if isinstance(v, bool | np.bool_):
                return "yes" if v else ""
            return "" if v is None else str(v)
        if (
            role == Qt.ItemDataRole.TextAlignmentRole
            and isinstance(v, int | float | np.number)
            and not isinstance(v, bool | np.bool_)
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return str(self._df.columns[section]) if section < len(self._df.columns) else None
        return str(section + 1)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if column < 0 or column >= len(self._df.columns):
            return
        self.layoutAboutToBeChanged.emit()
        self._df = self._df.sort_values(
            self._df.columns[column], ascending=order == Qt.SortOrder.AscendingOrder, kind="stable"
        ).reset_index(drop=True)
        self._values = self._df.to_numpy(dtype=object)
        self.layoutChanged.emit()


class CharacterGridModel(QAbstractTableModel):
    """One column per historical unit, one row per annotator (then the modernization rows)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._units: list[str] = []
        self._rows: list[tuple[str, list[str], list[str], bool]] = []  # name, full, diff, is_mod
        self._differs: dict[bool, np.ndarray] = {}
        self.mode = "diff"

    def set_token(self, info: dict[str, Any] | None, mode: str | None = None) -> None:
        self.beginResetModel()
        if mode:
            self.mode = mode
        self._units, self._rows = [], []
        if info is not None:
            self._units = list(info["units"])
            anns = info["annotators"]
            for name, a in anns.items():
                self._rows.append((name, a["full"], a["diff"], False))
            if any(a["mod"] for a in anns.values()):
                for name, a in anns.items():
                    # no modernization: the modernized form is the normalization (Bollmann, Dipper & Petran 2016)
                    full = a["mod_full"] if a["mod_full"] is not None else a["full"]
                    diff = a["mod_diff"] if a["mod_diff"] is not None else a["diff"]
                    self._rows.append((f"{name} · mod", full, diff, True))
        for layer in (False, True):
            rows = [r[1] for r in self._rows if r[3] == layer]
            if rows:
                arr = np.array(rows, dtype=object)
                self._differs[layer] = (arr != arr[:1]).any(axis=0)
            else:
                self._differs[layer] = np.zeros(len(self._units), bool)
        self.endResetModel()

    def set_mode(self, mode: str) -> None:
        self.beginResetModel()
        self.mode = mode
        self.endResetModel()

    def differs(self, column: int, modernization: bool = False) -> bool:
        return bool(self._differs.get(modernization, np.zeros(0, bool))[column])

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._units)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        name, full, diff, is_mod = self._rows[index.row()]
        c = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (diff if self.mode == "diff" else full)[c]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{name}: unit '{self._units[c]}' → Full '{full[c]}', Diff '{diff[c]}'"
        if role == Qt.ItemDataRole.BackgroundRole:
            if self.differs(c, is_mod):
                return QBrush(MOD_DISAGREE_BG if is_mod else DISAGREE_BG)
            return QBrush(MOD_BG) if is_mod else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._units[section] if section < len(self._units) else None
        return self._rows[section][0] if section < len(self._rows) else None


# ---------------------------------------------------------------------------------------------
# the interlinear panel


class NormalizationPanel(QWidget):
    """Interlinear text, character grid and disagreement list of a normalization result."""

    token_selected = Signal(int)

    #: most tokens rendered at once in the interlinear view
    MAX_PAGE_TOKENS = 1500

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: NormalizationResult | None = None
        self._resize_pending = True
        self._rendered_chars = 0
        self._anchor_ranges: dict[int, list[tuple[int, int]]] = {}
        self.current: int | None = None
        self._disagree = np.zeros(0, bool)

        self.text_combo = QComboBox()
        self.subset_combo = QComboBox()
        self.subset_combo.addItems(list(SUBSETS))
        self.mod_combo = QComboBox()
        self.mod_combo.addItems(["any", "with modernization", "without modernization"])
        self.mode_combo = QComboBox()
        self.mode_combo.addItems(["Diff", "Full"])
        self.prev_button = QPushButton("◀ Previous")
        self.next_button = QPushButton("Next ▶")
        self.prev_button.setToolTip("Previous disagreement (P, Shift+F8)")
        self.next_button.setToolTip("Next disagreement (N, F8)")
        self.type_tint = QCheckBox("tint type-only disagreements")
        self.type_tint.setToolTip(
            "also tint tokens whose normalizations agree but whose modernization types differ"
        )

        bar = QHBoxLayout()
        for label, w in (
            ("Text", self.text_combo),
            ("Subset", self.subset_combo),
            ("Modernization", self.mod_combo),
            ("Grid", self.mode_combo),
        ):
            bar.addWidget(QLabel(label))
            bar.addWidget(w)
        bar.addWidget(self.type_tint)
        bar.addStretch(1)
        bar.addWidget(self.prev_button)
        bar.addWidget(self.next_button)

        self.text_view = QTextBrowser()
        self.text_view.setOpenLinks(False)
        self.text_view.setOpenExternalLinks(False)
        self.text_view.anchorClicked.connect(self._on_anchor_clicked)

        self.token_label = QLabel("Select a token.")
        self.token_label.setTextFormat(Qt.TextFormat.RichText)
        self.token_label.setWordWrap(True)
        self.grid_model = CharacterGridModel(self)
        self.grid = QTableView()
        self.grid.setModel(self.grid_model)
        self.grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.grid.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        big = QFont(self.grid.font())
        big.setPointSizeF(big.pointSizeF() * 1.3)
        self.grid.setFont(big)
        self.grid.horizontalHeader().setFont(big)

        self.dis_model = FrameModel(parent=self)
        self.dis_view = QTableView()
        self.dis_view.setModel(self.dis_model)
        # no initial sort: the list comes ranked by disagreement; headers sort on click
        self.dis_view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.dis_view.setSortingEnabled(True)
        self.dis_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.dis_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.dis_view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.dis_view.clicked.connect(self._on_disagreement_clicked)
        self.dis_count = QLabel()

        grid_box = QWidget()
        gl = QVBoxLayout(grid_box)
        gl.setContentsMargins(0, 0, 0, 0)
        gl.addWidget(self.token_label)
        gl.addWidget(self.grid, 1)
        dis_box = QWidget()
        dl = QVBoxLayout(dis_box)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.dis_count)
        dl.addWidget(self.dis_view, 1)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(grid_box)
        right.addWidget(dis_box)
        right.setSizes([300, 400])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.text_view)
        split.addWidget(right)
        split.setSizes([760, 640])

        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(split, 1)

        self.text_combo.currentIndexChanged.connect(self._on_filter_changed)
        self.subset_combo.currentIndexChanged.connect(self._on_filter_changed)
        self.mod_combo.currentIndexChanged.connect(self._on_filter_changed)
        self.mode_combo.currentIndexChanged.connect(self._on_mode_changed)
        self.type_tint.toggled.connect(self._on_filter_changed)
        self.next_button.clicked.connect(self.next_disagreement)
        self.prev_button.clicked.connect(self.previous_disagreement)
        # an event filter rather than QShortcut: the keys must work whichever child has the focus
        # (a table would otherwise use letters for its keyboard search)
        for w in (self, self.text_view, self.grid, self.dis_view, self.text_view.viewport()):
            w.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key, mods = event.key(), event.modifiers()
            plain = mods in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
            if (key == Qt.Key.Key_N and plain) or (key == Qt.Key.Key_F8 and plain):
                self.next_disagreement()
                return True
            if (key == Qt.Key.Key_P and plain) or (
                key == Qt.Key.Key_F8 and mods == Qt.KeyboardModifier.ShiftModifier
            ):
                self.previous_disagreement()
                return True
        return super().eventFilter(watched, event)

    # -- data ---------------------------------------------------------------------------------

    def set_result(self, result: NormalizationResult) -> None:
        """Show a (new) result, keeping the selected text and token when they still exist."""
        old_text = self.text_combo.currentText()
        old_key = None
        if (
            self.result is not None
            and self.current is not None
            and self.current < self.result.n_tokens
        ):
            old_key = (self.result.text_ids[self.current], self.result.token_ids[self.current])
        self.result = result
        self._resize_pending = True
        self._disagree = result.token_agreement < 1.0
        self._mod_tokens = np.isin(result.types, ("INFL", "SEM", "EXT")).any(axis=1)
        self._type_disagree = (
            (result.types != result.types[:, :1]).any(axis=1)
            if result.n_tokens
            else np.zeros(0, bool)
        )
        self._text_arr = np.asarray(result.text_ids, dtype=object)
        self.text_combo.blockSignals(True)
        self.text_combo.clear()
        self.text_combo.addItems(["(all texts)", *result.texts])
        k = self.text_combo.findText(old_text)
        self.text_combo.setCurrentIndex(k if k >= 0 else (1 if len(result.texts) else 0))
        self.text_combo.blockSignals(False)
        self.current = None
        if old_key is not None:
            hits = np.flatnonzero(
                (self._text_arr == old_key[0])
                & (np.asarray(result.token_ids, dtype=object) == old_key[1])
            )
            self.current = int(hits[0]) if len(hits) else None
        self._refresh()

    def _subset_mask(self) -> np.ndarray:
        r = self.result
        assert r is not None
        subset = self.subset_combo.currentText()
        if subset == "MEDIUM":
            m = r.changed.any(axis=1)
        elif subset == "STRICT":
            m = r.changed.all(axis=1)
        else:
            m = np.ones(r.n_tokens, bool)
        mod = self.mod_combo.currentIndex()
        if mod == 1:
            m = m & self._mod_tokens
        elif mod == 2:
            m = m & ~self._mod_tokens
        return m

    def _text_mask(self) -> np.ndarray:
        r = self.result
        assert r is not None
        if self.text_combo.currentIndex() <= 0:
            return np.ones(r.n_tokens, bool)
        return self._text_arr == self.text_combo.currentText()

    def disagreement_indices(self) -> np.ndarray:
        """Tokens (in text order) with a disagreement that pass the text/subset/modernization filters."""
        if self.result is None:
            return np.zeros(0, dtype=int)
        return np.flatnonzero(
            (self._disagree | self._type_disagree) & self._subset_mask() & self._text_mask()
        )

    def _refresh(self) -> None:
        r = self.result
        if r is None:
            return
        dis = r.disagreements
        if len(dis):
            keep = np.isin(dis["index"].to_numpy(), self.disagreement_indices())
            dis = dis[keep]
        self.dis_model.set_frame(dis)
        self.dis_view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        if self._resize_pending:
            # measure a few hundred rows only: the list may hold tens of thousands
            self.dis_view.horizontalHeader().setResizeContentsPrecision(300)
            self.dis_view.resizeColumnsToContents()
            self._resize_pending = False
        self.dis_count.setText(f"{len(dis):,} tokens with disagreement (most disagreeing first)")
        self._render_text()
        self._show_token(self.current)

    # -- interlinear text -----------------------------------------------------------------------

    def _visible_tokens(self) -> np.ndarray:
        r = self.result
        assert r is not None
        idx = np.flatnonzero(self._text_mask())
        # "(all texts)" on a large study: show the first tokens only (the list and the keys reach
        # every token; selecting one elsewhere switches to its text)
        return idx[: self.MAX_PAGE_TOKENS]

    def _render_text(self) -> None:
        r = self.result
        assert r is not None
        idx = self._visible_tokens()
        sub = self._subset_mask()
        names = r.annotators
        # Qt's rich text ignores dir= on tables: a right-to-left text gets its cells reversed
        rtl = _is_rtl("".join(r.orig[i] for i in idx[:50]))
        max_chars = self._line_chars()
        parts = [
            "<html><body style='font-size:11pt'>",
            "<p style='color:#555'>Historical text with each annotator's normalization beneath "
            f"({', '.join(html.escape(n) for n in names)}). Tinted: annotators disagree; "
            "click a token for its character grid.</p>",
        ]
        line: list[int] = []
        width = 0

        def flush() -> None:
            if not line:
                return
            align = " align='right'" if rtl else ""
            parts.append(
                f"<table{align} cellspacing='0' cellpadding='3' style='margin-bottom:8px'>"
            )
            order = line[::-1] if rtl else line
            blank = "<td style='color:#999'>&nbsp;</td>"
            # historical row, then one row per annotator (name at the end of the line)
            cells = [self._cell(i, r.orig[i], True, sub[i]) for i in order]
            parts.append("<tr>" + "".join([blank, *cells] if rtl else [*cells, blank]) + "</tr>")
            for x, name in enumerate(names):
                cells = [self._cell(i, r.norm[i, x], False, sub[i], x) for i in order]
                tag = f"<td style='color:#999; font-size:8pt; white-space:nowrap'>{html.escape(name)}</td>"
                parts.append("<tr>" + "".join([tag, *cells] if rtl else [*cells, tag]) + "</tr>")
            parts.append("</table>")
            line.clear()

        last_text = None
        for i in idx:
            if r.text_ids[i] != last_text:
                flush()
                width = 0
                last_text = r.text_ids[i]
                parts.append(f"<h3>{html.escape(str(last_text))}</h3>")
            w = max(len(r.orig[i]), *(len(v) for v in r.norm[i])) + 2
            if width + w > max_chars and line:
                flush()
                width = 0
            line.append(int(i))
            width += w
        flush()
        parts.append("</body></html>")
        bar = self.text_view.verticalScrollBar()
        pos = bar.value()
        self._rendered_chars = max_chars
        self.text_view.setHtml("".join(parts))
        self._index_anchors()
        self._highlight_current()
        bar.setValue(pos)

    def _line_chars(self) -> int:
        """Characters that fit on one interlinear line of the text view (roughly)."""
        fm = self.text_view.fontMetrics()
        avg = max(1, fm.averageCharWidth())
        width = self.text_view.viewport().width() - 90  # room for the annotator names
        return max(20, int(width / (avg * 1.05)))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if self.result is not None and abs(self._line_chars() - self._rendered_chars) > 4:
            self._render_text()

    def _cell(
        self, i: int, text: str, historical: bool, in_subset: bool, x: int | None = None
    ) -> str:
        r = self.result
        assert r is not None
        bg = ""
        if in_subset and (
            self._disagree[i] or (self.type_tint.isChecked() and self._type_disagree[i])
        ):
            bg = DISAGREE_TOKEN
        style = "white-space:nowrap;" + (f"background-color:{bg};" if bg else "")
        t = html.escape(text)
        if historical:
            # not bold: bold fallback fonts break emoji modifier sequences apart
            style += "font-size:12pt;"
            return f"<td style='{style}'><a name='t{i}' href='tok:{i}' style='color:#000; text-decoration:none'>{t}</a></td>"
        # annotator rows: grey when identical to the first annotator, red when different
        differs = x is not None and x > 0 and r.norm[i, x] != r.norm[i, 0]
        color = "#b00020" if differs or (self._disagree[i] and x == 0) else "#555"
        if x is not None and r.types[i, x] in ("INFL", "SEM", "EXT"):
            t += f"<sup style='color:#3050c0'>{html.escape(str(r.types[i, x]))}</sup>"
        return f"<td style='{style} color:{color}; font-size:10pt'><a href='tok:{i}' style='color:{color}; text-decoration:none'>{t}</a></td>"

    # -- selection -------------------------------------------------------------------------------

    def select_token(self, i: int | None) -> None:
        """Select token ``i``: show its character grid and mark it in the text."""
        r = self.result
        if r is None:
            return
        self.current = i
        if i is not None and i not in self._anchor_ranges:
            # not on the page: show its text (the only case that re-renders the document)
            self.text_combo.blockSignals(True)
            self.text_combo.setCurrentIndex(self.text_combo.findText(str(r.text_ids[i])))
            self.text_combo.blockSignals(False)
            self._refresh()
        else:
            self._highlight_current()
            self._show_token(i)
        if i is not None:
            self.text_view.scrollToAnchor(f"t{i}")
            self.token_selected.emit(i)

    def _index_anchors(self) -> None:
        """Document ranges of every token's cells (for highlighting without re-rendering)."""
        ranges: dict[int, list[tuple[int, int]]] = {}
        block = self.text_view.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                if frag.isValid():
                    fmt = frag.charFormat()
                    href = fmt.anchorHref() if fmt.isAnchor() else ""
                    if href.startswith("tok:"):
                        ranges.setdefault(int(href[4:]), []).append(
                            (frag.position(), frag.position() + frag.length())
                        )
                it += 1
            block = block.next()
        self._anchor_ranges = ranges

    def _highlight_current(self) -> None:
        sels = []
        for start, end in (
            self._anchor_ranges.get(self.current, []) if self.current is not None else []
        ):
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.text_view.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            sel.format.setBackground(QColor(SELECTED_TOKEN))
            sels.append(sel)
        self.text_view.setExtraSelections(sels)

    def _show_token(self, i: int | None) -> None:
        r = self.result
        if r is None or i is None or i >= r.n_tokens:
            self.grid_model.set_token(None, self._mode())
            self.token_label.setText(
                "Select a token (click it in the text or in the list; N / P jump between disagreements)."
            )
            return
        info = r.token_units(i)
        self.grid_model.set_token(info, self._mode())
        rtl = _is_rtl(r.orig[i])
        self.grid.setLayoutDirection(
            Qt.LayoutDirection.RightToLeft if rtl else Qt.LayoutDirection.LeftToRight
        )
        names = r.annotators
        norms = ", ".join(
            f"{html.escape(n)}: <b>{html.escape(r.norm[i, x])}</b>"
            + (
                f" → {html.escape(r.mod[i, x])} ({r.types[i, x]})"
                if r.mod[i, x]
                else f" ({r.types[i, x]})"
            )
            for x, n in enumerate(names)
        )
        self.token_label.setText(
            f"<b>{html.escape(str(r.text_ids[i]))} / {html.escape(str(r.token_ids[i]))}</b> "
            f"<span style='font-size:14pt'>{html.escape(r.orig[i])}</span> — {norms}"
        )

    def _mode(self) -> str:
        return "diff" if self.mode_combo.currentText() == "Diff" else "full"

    def next_disagreement(self) -> None:
        idx = self.disagreement_indices()
        if not len(idx):
            return
        cur = -1 if self.current is None else self.current
        k = np.searchsorted(idx, cur, side="right")
        self.select_token(int(idx[k % len(idx)]))

    def previous_disagreement(self) -> None:
        idx = self.disagreement_indices()
        if not len(idx):
            return
        cur = idx[-1] + 1 if self.current is None else self.current
        k = np.searchsorted(idx, cur, side="left") - 1
        self.select_token(int(idx[k % len(idx)]))

    # -- slots ------------------------------------------------------------------------------------

    def _on_anchor_clicked(self, url: QUrl) -> None:
        s = url.toString()
        if s.startswith("tok:"):
            self.select_token(int(s[4:]))

    def _on_disagreement_clicked(self, index: QModelIndex) -> None:
        df = self.dis_model.frame
        if index.isValid() and "index" in df.columns:
            self.select_token(int(df["index"].iloc[index.row()]))

    def _on_filter_changed(self, *_: Any) -> None:
        self._refresh()

    def _on_mode_changed(self, *_: Any) -> None:
        self.grid_model.set_mode(self._mode())


# ---------------------------------------------------------------------------------------------
# agreement tables


class AgreementPanel(QWidget):
    """All agreement tables of the result, one below the other."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.browser = QTextBrowser()
        lay = QVBoxLayout(self)
        lay.addWidget(self.browser)

    def set_result(self, result: NormalizationResult) -> None:
        tables = result.tables()

        def table(df: pd.DataFrame, title: str) -> str:
            fmt = df.copy()
            for col in fmt.columns:
                if fmt[col].dtype.kind == "f":
                    fmt[col] = fmt[col].map(lambda v: "–" if not math.isfinite(v) else f"{v:.4f}")
            return f"<h3>{html.escape(title)}</h3>" + fmt.to_html(
                index=False, border=0, na_rep="–", escape=True
            )

        parts = [
            "<html><head><style>table{border-collapse:collapse} td,th{padding:2px 8px; border-bottom:1px solid #ddd}"
            " th{background:#f0f0f0}</style></head><body>"
        ]
        for name, value in result.headline():
            parts.append(f"<p><b>{html.escape(name)}</b>: {html.escape(value)}</p>")
        parts.append(table(tables["word"], "Word-based agreement"))
        parts.append(table(tables["character"], "Character-based agreement (Diff labels)"))
        pt = tables["per_text"]
        if len(pt):
            wide = pt[pt["subset"] == "ALL"].pivot_table(
                index="text",
                columns="level",
                values=["percent_agreement", "pi", "alpha_nld"],
                sort=False,
            )
            wide.columns = [f"{lvl} {m}" for m, lvl in wide.columns]
            order = [
                f"{lvl} {m}"
                for lvl in ("word", "character")
                for m in ("percent_agreement", "pi", "alpha_nld")
            ]
            wide = wide[[c for c in order if c in wide.columns]]
            parts.append(table(wide.reset_index(), "Per text (ALL tokens)"))
        for key in (
            "pairwise_word_agreement",
            "pairwise_word_pi",
            "pairwise_character_agreement",
            "pairwise_character_pi",
        ):
            parts.append(table(tables[key], key.replace("_", " ").capitalize()))
        parts.append(
            table(tables["modernization"], "Modernization type (π* over ORIG/NORM/INFL/SEM/EXT)")
        )
        parts.append(
            table(tables["modernization_confusion"], "Type confusion, summed over annotator pairs")
        )
        parts.append(
            table(
                tables["modernization_by_type"],
                "Character-based agreement of modernized forms, by agreed type",
            )
        )
        if result.errors:
            parts.append("<h3>Input problems</h3><ul>")
            parts.extend(f"<li>{html.escape(str(e))}</li>" for e in result.errors[:200])
            parts.append("</ul>")
        parts.append("</body></html>")
        self.browser.setHtml("".join(parts))


# ---------------------------------------------------------------------------------------------


def create_panels(result: NormalizationResult, context: Any) -> list[tuple[str, QWidget]]:
    """Tabs for a normalization result; widgets are kept in ``context.cache`` across results."""
    cache = getattr(context, "cache", None)
    if cache is None:
        cache = {}
    panels = cache.get("normalization")
    if panels is None:
        panels = (NormalizationPanel(), AgreementPanel())
        cache["normalization"] = panels
    inter, agreement = panels
    inter.set_result(result)
    agreement.set_result(result)
    return [("Interlinear", inter), ("Agreement", agreement)]


def _demo_tabs(result: NormalizationResult) -> QTabWidget:  # pragma: no cover - manual use
    tabs = QTabWidget()
    for title, w in create_panels(result, type("Ctx", (), {"cache": {}, "session": None})()):
        tabs.addTab(w, title)
    return tabs
