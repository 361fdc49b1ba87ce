"""The interlinear view of a normalization study: the historical text with every annotator's
normalization under each token (tokens where they disagree tinted), the selected token's line and
character grid, and the list of disagreements (its selection follows ``N`` / ``P``).

Keys: ``N`` / ``F8`` next disagreement, ``P`` / ``Shift+F8`` previous; ``Ctrl +`` / ``Ctrl −`` zoom.
Everything shown comes from the finished :class:`NormalizationResult`; the only work done here is
looking up a token's (cached) alignment and building HTML for one text.
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np
from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QUrl, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.normalization.compare import SUBSETS, NormalizationResult
from iaa_desktop.gui.kinds.normalization.grid import GRID_LEGEND, CharacterGridModel
from iaa_desktop.gui.presentation import base_font
from iaa_desktop.gui.widgets.elided_label import ElidedText
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.short_text import add_names
from iaa_desktop.gui.widgets.table_view import (
    ListBar,
    fit_columns,
    fit_height_to_rows,
    make_table,
    select_row,
)
from iaa_desktop.gui.widgets.text import is_rtl
from iaa_desktop.gui.widgets.zoom import TextZoom

DISAGREE_TOKEN = "#fde2df"
SELECTED_TOKEN = "#ffe58a"
DIS_TOOLTIPS = {
    "mean_nld": "Mean NLD, 0–1: the normalized Levenshtein distance between the normalizations, "
    "averaged over the token's annotator pairs (the distance α_NLD uses); rows are tinted by it",
    "kind": "what kind of difference: change vs no change, different changes, type only …",
    "subset": "ALL = every token; MEDIUM = some annotator changed it; STRICT = every annotator did",
    "disagreeing_pairs": "annotator pairs whose normalizations differ",
    "character_disagreement": "share of the token's characters whose Diff labels differ, 0–1",
}


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
        self._following = False
        self._disagree = np.zeros(0, bool)
        self._type_disagree = np.zeros(0, bool)
        bar = self._build_bar()
        split = self._build_views()
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

    def _build_bar(self) -> QHBoxLayout:
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
        self.type_tint = QCheckBox("type-only too")
        self.type_tint.setToolTip(
            "also tint (and step through with N / P) tokens whose normalizations agree but whose "
            "modernization types differ"
        )

        bar = QHBoxLayout()
        for w in (self.text_combo, self.subset_combo, self.mod_combo, self.mode_combo):
            w.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
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
        return bar

    def _build_views(self) -> QSplitter:
        self.text_view = QTextBrowser()
        self.text_view.setOpenLinks(False)
        self.text_view.setOpenExternalLinks(False)
        self.text_view.anchorClicked.connect(self._on_anchor_clicked)
        self.zoom = TextZoom(self)
        self.zoom.changed.connect(lambda _f: self._zoomed())

        self.token_label = QLabel("Select a token.")
        self.token_label.setTextFormat(Qt.TextFormat.RichText)
        self.token_label.setWordWrap(True)
        self.grid_model = CharacterGridModel(self)
        self.grid = QTableView()
        self.grid.setModel(self.grid_model)
        self.grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.grid.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self._grid_font = QFont(base_font())  # 100 %: the zoom factor is applied below
        self._set_grid_font()
        self.grid_legend = ElidedText(GRID_LEGEND)  # one line: the rows of the grid need the room
        self.grid_legend.setStyleSheet("color: #555")

        self.dis_model = DataFrameModel(
            parent=self,
            severity_column="mean_nld",
            hidden=("index",),
            tooltips=DIS_TOOLTIPS,
            headers={"token_id": "Token", "orig": "Historical", "mean_nld": "Mean NLD"},
            digits=3,
        )
        self.dis_bar = ListBar(
            self.dis_model, noun="tokens", placeholder="Filter tokens…", disagreements=False
        )
        self.dis_view = make_table(self.dis_model, name="disagreements")
        self.dis_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._on_disagreement_clicked(cur)
        )
        self.dis_count = QLabel()
        self.dis_count.setWordWrap(True)

        grid_box = QWidget()
        gl = QVBoxLayout(grid_box)
        gl.setContentsMargins(0, 0, 0, 0)
        gl.addWidget(self.token_label)
        gl.addWidget(self.grid, 1)
        gl.addWidget(self.grid_legend)
        dis_box = QWidget()
        dl = QVBoxLayout(dis_box)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.dis_count)
        dl.addWidget(self.dis_bar)
        dl.addWidget(self.dis_view, 1)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(grid_box)
        right.addWidget(dis_box)
        right.setSizes([300, 400])
        self.grid_split = right
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.text_view)
        split.addWidget(right)
        split.setSizes([760, 640])
        return split

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
        old_text = self.text_combo.currentData()
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
        add_names(self.text_combo, ["(all texts)", *result.texts])
        k = self.text_combo.findData(old_text) if old_text is not None else -1
        self.text_combo.setCurrentIndex(k if k >= 0 else (1 if len(result.texts) else 0))
        self.text_combo.blockSignals(False)
        self.current = None
        if old_key is not None:
            hits = np.flatnonzero(
                (self._text_arr == old_key[0])
                & (np.asarray(result.token_ids, dtype=object) == old_key[1])
            )
            self.current = int(hits[0]) if len(hits) else None
        if self.current is None:
            # open on the first disagreement of the list: its grid and line show at once
            dis = self.disagreement_indices()
            if len(result.disagreements) and len(dis):
                first = result.disagreements["index"].to_numpy()
                first = first[np.isin(first, dis)]
                self.current = int(first[0]) if len(first) else None
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
        return self._text_arr == self.text_combo.currentData()

    def _tinted(self) -> np.ndarray:
        """The tokens the text tints: a normalization differs (or, when asked, only a type)."""
        if self.type_tint.isChecked():
            return self._disagree | self._type_disagree
        return self._disagree

    def disagreement_indices(self) -> np.ndarray:
        """Tokens (in text order) with a disagreement that pass the text/subset/modernization
        filters — the tinted ones, so N / P stop exactly where the text is tinted."""
        if self.result is None:
            return np.zeros(0, dtype=int)
        return np.flatnonzero(self._tinted() & self._subset_mask() & self._text_mask())

    def _refresh(self) -> None:
        r = self.result
        if r is None:
            return
        dis = r.disagreements
        if len(dis):
            keep = np.isin(dis["index"].to_numpy(), self.disagreement_indices())
            dis = dis[keep]
        names = list(r.annotators)
        first = ["index", "text", "token_id", "orig", *names, "mean_nld"]
        dis = dis[[c for c in first if c in dis] + [c for c in dis.columns if c not in first]]
        self.dis_model.set_frame(dis, label_columns=names)
        if self._resize_pending:
            fit_columns(self.dis_view, max_width=140)
            self._resize_pending = False
        scope = (
            f"in text {self.text_combo.currentText()} (1 of {len(r.texts)} texts; choose "
            "“(all texts)” for every text)"
            if self.text_combo.currentIndex() > 0 and len(r.texts) > 1
            else f"in all {len(r.texts)} texts"
        )
        self.dis_count.setText(
            f"{len(dis):,} tokens with disagreement {scope}, most disagreeing first"
        )
        self._select_in_list(self.current)
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
        rtl = is_rtl("".join(r.orig[i] for i in idx[:50]))
        max_chars = self._line_chars()
        z = self.zoom.factor
        parts = [
            f"<html><body style='font-size:{11 * z:.1f}pt'>",
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
                tag = (  # readable from the back row: the zoom applies to the names too
                    f"<td style='color:#777; font-size:{9 * self.zoom.factor:.1f}pt; "
                    f"white-space:nowrap'>{html.escape(name)}</td>"
                )
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
        if in_subset and self._tinted()[i]:
            bg = DISAGREE_TOKEN
        style = "white-space:nowrap;" + (f"background-color:{bg};" if bg else "")
        t = html.escape(text)
        if historical:
            # not bold: bold fallback fonts break emoji modifier sequences apart
            style += f"font-size:{12 * self.zoom.factor:.1f}pt;"
            return f"<td style='{style}'><a name='t{i}' href='tok:{i}' style='color:#000; text-decoration:none'>{t}</a></td>"
        # annotator rows: grey when identical to the first annotator, red when different
        differs = x is not None and x > 0 and r.norm[i, x] != r.norm[i, 0]
        color = "#b00020" if differs or (self._disagree[i] and x == 0) else "#555"
        if x is not None and r.types[i, x] in ("INFL", "SEM", "EXT"):
            t += f"<sup style='color:#3050c0'>{html.escape(str(r.types[i, x]))}</sup>"
        size = 10 * self.zoom.factor
        return (
            f"<td style='{style} color:{color}; font-size:{size:.1f}pt'><a href='tok:{i}' "
            f"style='color:{color}; text-decoration:none'>{t}</a></td>"
        )

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
            self._select_in_list(i)
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
        fit_height_to_rows(self.grid, max(120, self.height() * 2 // 5), self.grid_split)
        rtl = is_rtl(r.orig[i])
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
            f"Text <b>{html.escape(str(r.text_ids[i]))}</b>, token "
            f"<b>{html.escape(str(r.token_ids[i]))}</b>: "
            f"<span style='font-size:large'>{html.escape(r.orig[i])}</span> — {norms}"
            f"<br/>{self._context_line(i)}"
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
        if self._following or not index.isValid():
            return
        i = int(self.dis_model.value(index.row(), "index"))
        if i != self.current:
            self.select_token(i)

    def _select_in_list(self, i: int | None) -> None:
        """The list's selection follows the token shown (N / P, a click in the text)."""
        if i is None:
            return
        row = self.dis_model.row_where("index", i)
        if row < 0 or row == self.dis_view.currentIndex().row():
            return
        self._following = True
        select_row(self.dis_view, row)
        self._following = False

    def _context_line(self, i: int, width: int = 8) -> str:
        """The token in its line: up to ``width`` tokens of the same text on each side."""
        r = self.result
        assert r is not None
        lo, hi = max(0, i - width), min(r.n_tokens, i + width + 1)
        words = []
        for j in range(lo, hi):
            if r.text_ids[j] != r.text_ids[i]:
                continue
            w = html.escape(r.orig[j])
            words.append(
                f"<span style='background:{SELECTED_TOKEN}'><b>{w}</b></span>" if j == i else w
            )
        line = " ".join(words)
        rtl = is_rtl(r.orig[i])
        return (
            f"<span style='color:#333'>{'… ' if lo > 0 else ''}{line}{' …' if hi < r.n_tokens else ''}</span>"
            if not rtl
            else f"<span dir='rtl' style='color:#333'>{line}</span>"
        )

    def _set_grid_font(self) -> None:
        f = QFont(self._grid_font)
        f.setPointSizeF(self._grid_font.pointSizeF() * 1.15 * self.zoom.factor)
        self.grid.setFont(f)
        self.grid.horizontalHeader().setFont(f)
        self.grid.verticalHeader().setFont(f)
        # three lines at most above the grid, so its rows (one per annotator) keep their room
        self.token_label.setFixedHeight(self.token_label.fontMetrics().lineSpacing() * 3 + 6)

    def _zoomed(self) -> None:
        self._set_grid_font()
        if self.result is not None:
            self._render_text()

    def _on_filter_changed(self, *_: Any) -> None:
        self._refresh()

    def _on_mode_changed(self, *_: Any) -> None:
        self.grid_model.set_mode(self._mode())
