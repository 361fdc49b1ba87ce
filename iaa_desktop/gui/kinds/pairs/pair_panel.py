"""The pair list beside the selected pair (kinds ``durel`` and ``candidates``).

The list shows every annotator's judgment side by side, each value in its colour (a ramp on the
DURel scale), rows tinted by severity; filter by factor level or text, *disagreements only*;
``N`` / ``P`` (or ``Alt+Down`` / ``Alt+Up``) step through the disagreeing pairs in list order.
The selected pair shows both passages side by side (the reused span bold, words both share
boxed), their token alignment, and every annotator's judgment with comments.
"""

from __future__ import annotations

import html
import re
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.annotators.models import HUMAN_MAJORITY
from iaa_desktop.gui.kinds.pairs.passages import (
    BoxedTextView,
    alignment_segments,
    passage_segments,
)
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.short_text import add_names
from iaa_desktop.gui.widgets.table_view import (
    FrameTableView,
    ListBar,
    compact_columns,
    fit_columns,
    make_table,
    select_row,
)
from iaa_desktop.gui.widgets.unit_detail import labels_html
from iaa_desktop.gui.widgets.zoom import TextZoom

PAIR_TOOLTIPS = {
    "pair": "the two uses (DURel) or the candidate pair; hover for the full identifiers",
    "severity": "Severity, 0–1: mean distance between the judgments of the pair's annotator pairs "
    "over the largest distance of the scale (the distance of the level of measurement, as "
    "Krippendorff's α uses it); rows are tinted by it",
    "mean": "Mean of the valid judgments (1–4 on the DURel scale; can't decide = 0 left out)",
    "range": "Range: the highest minus the lowest valid judgment",
    "kept": "Filter: yes = the DURel/TRoTR filter keeps the pair for the gold set (range below "
    "the setting, mean outside the dropped middle band); no = dropped",
    "overlap": "Lexical overlap of the two passages (weighted Jaccard of their words), 0–1",
    "overlap_bin": "Overlap quartile of the pair",
    "n_judgments": "Judgments: how many annotators judged the pair",
}
FILTER_LEGEND = (
    "filter: kept = the TRoTR filter keeps the pair (range below the setting and mean outside the "
    "dropped middle band); dropped = left out of the filtered figures"
)


#: a judgment cell whose annotator could not decide (DURel's 0); a pair the annotator did not
#: judge is left empty
CANT_DECIDE = "?"
JUDGMENT_LEGEND = "? = can't decide · empty = not judged"


def mark_judgments(table: pd.DataFrame, names: list[str], judgments: Any) -> None:
    """Put :data:`CANT_DECIDE` in the cells of ``table`` (one row per item, in item order) where
    the annotator judged "can't decide", and ``None`` where they did not judge the pair: both
    are missing values of the figures, told apart on screen."""
    for a in names:
        col = table[a].astype(object).where(table[a].notna(), None)
        if judgments is not None and len(judgments):
            mine = judgments[(judgments["annotator"].astype(str) == a) & judgments["value"].isna()]
            rows = mine["item"].to_numpy(dtype=int)
            col.iloc[rows[rows < len(col)]] = CANT_DECIDE
        table[a] = col


def hint_text(graded: bool) -> str:
    """The legend under the pair list."""
    cells = f"one colour per value ({JUDGMENT_LEGEND})" if graded else "one colour per value"
    return (
        f"N / P: next / previous disagreement · judgment cells: {cells} · rows: tinted by severity"
    )


def short_pair(pair: str) -> str:
    """``562_(Philippians 4:13)-c2 × 563_(Philippians 4:13)-c1`` → ``562-c2 × 563-c1``."""
    return re.sub(r"_\([^)]*\)", "", pair)


#: how many model annotators differ from the human majority on the pair
MODEL_DISAGREES = "model_disagrees"
PAIR_TOOLTIPS[MODEL_DISAGREES] = (
    "Models differing from the human majority: how many model annotators gave the pair another "
    "judgment than the most frequent human one (pairs where the humans tie have no majority); "
    "these pairs are listed first"
)
PAIR_TOOLTIPS[HUMAN_MAJORITY] = (
    "The most frequent judgment of the human annotators (none where two judgments tie); the "
    "model annotators are compared with it and never counted among the humans"
)


def model_names(result: Any) -> list[str]:
    """The study's model annotators (none unless the options name some)."""
    figures = getattr(result, "annotator_figures", None)
    js = figures.to_json() if figures is not None else {}
    return list(dict.fromkeys(str(m["name"]) for m in js.get("model_annotators", [])))


def with_model_columns(table: pd.DataFrame, models: list[str]) -> tuple[pd.DataFrame, list[str]]:
    """The pair table with each model's column marked ("gpt (model)") and the number of models
    that differ from the human majority per pair; the marked columns, in order."""
    present = [m for m in models if m in table.columns]
    if not present or HUMAN_MAJORITY not in table.columns:
        return table, []
    majority = table[HUMAN_MAJORITY]
    differ = np.zeros(len(table), dtype=np.int64)

    def given(col: pd.Series) -> Any:  # NaN (judgments) or "" (labels): none given
        return col.notna() & (col.astype(str) != "")

    for m in present:  # judgments (numbers) or labels (text): missing on either side is no
        v = table[m]
        both = (given(v) & given(majority)).to_numpy()
        differ += (both & (v.astype(str) != majority.astype(str)).to_numpy()).astype(np.int64)
    shown = {m: f"{m} (model)" for m in present}
    out = table.rename(columns=shown)
    for c in [*shown.values(), HUMAN_MAJORITY]:  # NaN: not judged (shown empty)
        out[c] = out[c].astype(object).where(out[c].notna(), None)
    out[MODEL_DISAGREES] = differ
    return out, [*shown.values(), HUMAN_MAJORITY, MODEL_DISAGREES]


class PairListView(FrameTableView):
    """The pair list; ``N``/``P`` and ``Alt+Down``/``Alt+Up`` step through disagreeing pairs
    (handled here because an item view takes printable keys for its keyboard search)."""

    def __init__(self, step: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent, name="pairs")
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


class PairPanel(QWidget):
    """List of pairs beside the selected pair (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: Any = None
        self.shown: Any = None
        self._all = pd.DataFrame()
        #: the model annotators' columns ("gpt (model)") and the human majority's, when shown
        self.marked: list[str] = []
        self.model = DataFrameModel(
            parent=self,
            severity_column="severity",
            tooltips=PAIR_TOOLTIPS,
            hidden=("#", "full_pair", "disagreement"),
            cell_tooltips={"pair": "full_pair"},
            headers={
                "n_judgments": "Judgments",
                "kept": "Filter keeps",
                MODEL_DISAGREES: "models ≠ majority",
            },
        )
        self.list_view = make_table(self.model, view=PairListView(self.step_disagreement))
        self.bar = ListBar(self.model, noun="pairs", placeholder="Filter pairs…")
        self.filters_box = QWidget()
        self.filters_layout = QGridLayout(self.filters_box)
        self.filters_layout.setContentsMargins(0, 0, 0, 0)
        self.filters: dict[str, QComboBox] = {}

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.filters_box)
        lv.addWidget(self.bar)
        lv.addWidget(self.list_view, 1)
        hint = self.hint = QLabel(hint_text(graded=False))
        hint.setWordWrap(True)
        hint.setStyleSheet("color: gray")
        lv.addWidget(hint)
        left.setMinimumWidth(280)

        right = self._build_pair()
        split = self.split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([430, 530])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)

        self.list_view.selectionModel().currentRowChanged.connect(self._on_current_changed)
        for keys, step in ((("N", "Alt+Down"), 1), (("P", "Alt+Up"), -1)):
            for key in keys:
                sc = QShortcut(QKeySequence(key), self)
                sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                sc.activated.connect(lambda s=step: self.step_disagreement(s))

    def _build_pair(self) -> QWidget:
        """The selected pair: title, warning, both passages, judgments, alignment."""
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
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
            lab.setMinimumWidth(40)
        self.text_a, self.text_b = BoxedTextView(), BoxedTextView()
        self.alignment = BoxedTextView()
        self.align_caption = QLabel()
        self.align_caption.setWordWrap(True)
        self.judgments = QTextBrowser()
        self.judgments.setObjectName("judgments")
        self.zoom = TextZoom(self, [self.text_a, self.text_b, self.alignment, self.judgments])

        grid = QGridLayout()
        grid.addWidget(self.label_a, 0, 0)
        grid.addWidget(self.label_b, 0, 1)
        grid.addWidget(self.text_a, 1, 0)
        grid.addWidget(self.text_b, 1, 1)
        grid.setContentsMargins(0, 0, 0, 0)
        texts = QWidget()
        texts.setLayout(grid)
        align_box = QWidget()
        av = QVBoxLayout(align_box)
        av.setContentsMargins(0, 0, 0, 0)
        av.addWidget(self.align_caption)
        av.addWidget(self.alignment, 1)
        right_split = QSplitter(Qt.Orientation.Vertical)
        right_split.addWidget(texts)
        right_split.addWidget(self.judgments)
        right_split.addWidget(align_box)
        right_split.setSizes([260, 170, 120])
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(self.title)
        rv.addWidget(self.warning)
        rv.addWidget(right_split, 1)

        return right

    # -- data ---------------------------------------------------------------------------------

    def set_result(self, result: Any) -> None:
        from iaa_desktop.core.adjudication.severity import label_severity, value_severity

        keep = self.current_item()
        self.result = result
        table = result.pair_table().copy()
        table.insert(0, "#", np.arange(len(table)))
        names = [str(a) for a in result.annotators]
        graded = bool(result.graded)
        scale = None
        self.hint.setText(hint_text(graded))
        if graded:
            level = result.chosen.level
            values = table[names].to_numpy(dtype=float)
            table["severity"] = value_severity(values, level)
            scale = sorted(set(values[np.isfinite(values)].tolist()))
            mark_judgments(table, names, getattr(result, "judgments", None))
        else:
            table["severity"] = label_severity(table[names].to_numpy(dtype=object))
        table["full_pair"] = table["pair"].astype(str)
        table["pair"] = table["pair"].astype(str).map(short_pair)
        table, marked = with_model_columns(table, model_names(result))
        first = [
            "#",
            "pair",
            *[c for c in ("target",) if c in table],
            *names,
            *marked,
            "severity",
        ]
        table = table[first + [c for c in table.columns if c not in first]]
        # the pairs where a model differs from the human majority first, then the most severe,
        # then in file order
        keys = [k for k in (MODEL_DISAGREES, "severity") if k in table]
        table = table.sort_values(
            [*keys, "#"],
            ascending=[*(False for _ in keys), True],
            na_position="last",
            kind="stable",
        ).reset_index(drop=True)
        self._all = table
        if marked and not self.marked:  # the list gains three columns: it gets the room
            total = sum(self.split.sizes()) or 960
            self.split.setSizes([total * 5 // 8, total - total * 5 // 8])
        self.marked = [c for c in marked if c != MODEL_DISAGREES]
        self._build_filters(result.filter_columns())
        self.model.set_frame(
            table,
            label_columns=[*names, *self.marked],
            ordered_labels=graded,
            label_values=scale,
        )
        self.apply_filters(keep)

    def _build_filters(self, columns: list[str]) -> None:
        old = {c: cb.currentData() for c, cb in self.filters.items()}
        while self.filters_layout.count():
            item = self.filters_layout.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        self.filters = {}
        from iaa_desktop.core.export.titles import column_title

        for k, c in enumerate(col for col in columns if col in self._all.columns):
            cb = QComboBox()
            cb.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            cb.setMinimumContentsLength(8)
            levels = sorted({str(v) for v in self._all[c]})
            cb.addItem(f"{column_title(c)}: all")
            add_names(cb, levels)
            if old.get(c) in levels:
                cb.setCurrentIndex(cb.findData(old[c]))
            cb.setToolTip(f"show only pairs with this {column_title(c).lower()}")
            cb.currentIndexChanged.connect(lambda _i: self.apply_filters())
            self.filters_layout.addWidget(cb, k // 3, k % 3)
            self.filters[c] = cb

    def apply_filters(self, keep: int | None = None) -> None:
        keep = self.current_item() if keep is None else keep
        mask = np.ones(len(self._all), bool)
        for c, cb in self.filters.items():
            if cb.currentIndex() > 0:
                mask &= (self._all[c].astype(str) == cb.currentData()).to_numpy()
        self.model.set_row_mask(mask if not mask.all() else None, name="factors")
        self.bar.reapply()
        fit_columns(self.list_view, max_width=150)
        if self.result is not None:  # every annotator's judgment in view, four or five of them
            names = [str(a) for a in self.result.annotators]
            # a model's column as wide as its name (its header wraps before "(model)")
            models = {c: min(max(len(c) - len(" (model)"), 5), 12) for c in self.marked}
            compact_columns(
                self.list_view,
                {
                    "target": 12,
                    **dict.fromkeys(names, 5),
                    **models,
                    HUMAN_MAJORITY: 8,
                    MODEL_DISAGREES: 8,
                },
            )
        if keep is None or not self.select_item(keep):
            if self.model.rowCount():
                select_row(self.list_view, 0)

    # -- selection ----------------------------------------------------------------------------

    def current_item(self) -> int | None:
        idx = self.list_view.currentIndex()
        if not idx.isValid() or not self.model.rowCount():
            return None
        return int(self.model.value(idx.row(), "#"))

    def select_item(self, item: int) -> bool:
        row = self.model.row_where("#", item)
        if row < 0:
            return False
        select_row(self.list_view, row)
        return True

    def step_disagreement(self, step: int) -> None:
        """Select the next (``step`` = 1) or previous (−1) pair in the list with disagreement;
        the list's selection follows."""
        n = self.model.rowCount()
        if not n:
            return
        dis = np.nan_to_num(self.model.frame["severity"].to_numpy(dtype=float)) > 0
        row = self.list_view.currentIndex().row()
        rng = range(row + 1, n) if step > 0 else range(row - 1, -1, -1)
        for r in rng:
            if dis[r]:
                select_row(self.list_view, r)
                return

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid() or self.result is None:
            return
        self.show_pair(int(self.model.value(current.row(), "#")))

    def show_pair(self, item: int) -> None:
        d = self.result.pair_detail(item)
        self.shown = d
        self.title.setText(d.title)
        self.warning.setText("⚠ " + " ".join(d.span_warnings) if d.span_warnings else "")
        self.warning.setVisible(bool(d.span_warnings))
        self.label_a.setText(d.label_a)
        self.label_b.setText(d.label_b)
        self.label_a.setToolTip(d.label_a)
        self.label_b.setToolTip(d.label_b)
        self.text_a.set_segments([passage_segments(d, "a")])
        self.text_b.set_segments([passage_segments(d, "b")])
        grey = {"small": True, "color": QColor("gray")}
        self.alignment.set_segments(
            [
                [(f"{short_pair(d.label_a)}:  ", grey), *alignment_segments(d, "a")],
                [(f"{short_pair(d.label_b)}:  ", grey), *alignment_segments(d, "b")],
            ]
        )
        al = d.alignment
        self.align_caption.setText(
            f"Smith–Waterman alignment over tokens: score {al.score:g}, {al.n_matches} matching "
            "(boxed = match, underlined = gap, red = mismatch) · lexical overlap (weighted "
            f"Jaccard) {d.overlap:.3f} · grey boxes above: words both passages share"
        )
        self._show_judgments(d)

    def _show_judgments(self, d: Any) -> None:
        models = {c[: -len(" (model)")] for c in self.marked if c.endswith(" (model)")}
        names = [f"{j[0]} (model)" if j[0] in models else j[0] for j in d.judgments]
        values = [j[1] for j in d.judgments]
        out = [labels_html(names, values, self.model.colours)]
        comments = [(a, c) for a, _v, c in d.judgments if c]
        for a, c in comments:
            out.append(f"<p><i>{html.escape(a)}</i>: {html.escape(c)}</p>")
        summary = " · ".join(f"{k}: {html.escape(str(v))}" for k, v in d.summary)
        out.append(f"<p style='color:#333'>{summary}</p>")
        if any(k == "filter" for k, _v in d.summary):
            out.append(f"<p style='color:#666; font-size:small'>{html.escape(FILTER_LEGEND)}</p>")
        self.judgments.setHtml("".join(out))
