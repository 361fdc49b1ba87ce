"""Labelled spans view: each annotator's spans one above the other, line by line, with the
disagreements listed worst first (filter by label, kind and annotator pair; N/P to step)."""

from __future__ import annotations

import html
import textwrap
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.spans.measures import KINDS
from iaa_desktop.core.metrics import catalogue
from iaa_desktop.gui.widgets.annotators import StudyAnnotatorsPanel, has_study_annotators
from iaa_desktop.gui.widgets.colours import MARKABLE
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.occurrences import OccurrencesPanel
from iaa_desktop.gui.widgets.short_text import add_names, html_name, shown
from iaa_desktop.gui.widgets.short_text import tip as short_tip
from iaa_desktop.gui.widgets.table_view import fit_columns, make_table
from iaa_desktop.gui.widgets.text import is_rtl as _is_rtl
from iaa_desktop.gui.widgets.timeline import TimelineData, TimelineView
from iaa_desktop.gui.widgets.unit_player import UnitPlayer, media_file

#: agreement mark after each span, by the kind of its group
MARKS = {
    "agree": ("✓", "#2e7d32"),
    "boundary": ("↔", "#1f3fbf"),
    "label": ("≠", "#c00000"),
    "boundary and label": ("≠↔", "#c00000"),
    "only some": ("◐", "#8e24aa"),
}
#: longest stretch of text shown on one row before it is cut at a space outside every span
MAX_CHUNK = 220


def chunks(text: str, starts: np.ndarray, ends: np.ndarray) -> list[tuple[int, int]]:
    """Rows of the document: lines, long lines cut at a space that no span group covers."""
    inside = np.zeros(len(text) + 1, dtype=np.int64)
    np.add.at(inside, starts, 1)
    np.add.at(inside, ends, -1)
    covered = np.cumsum(inside)[: len(text)] > 0
    out, a = [], 0
    for k, ch in enumerate(text):
        if ch == "\n":
            out.append((a, k))
            a = k + 1
        elif k - a >= MAX_CHUNK and ch == " " and not covered[k]:
            out.append((a, k + 1))
            a = k + 1
    out.append((a, len(text)))
    return [(s, e) for s, e in out if e > s]


def render_row(
    text: str,
    a: int,
    b: int,
    spans: list[tuple[int, int, str, str, int]],
    colour: dict,
    selected: int,
) -> str:
    """Text ``[a, b)`` with one annotator's spans (start, end, label, kind, group) marked."""
    pieces, pos = [], a
    for s, e, label, kind, g in spans:
        if e <= a or s >= b or s < pos:
            continue  # outside the row, or inside a span already shown (the outer one is shown)
        s, e = max(s, a), min(e, b)
        pieces.append(html.escape(text[pos:s]))
        mark, mcol = MARKS.get(kind, ("", "#000"))
        style = f"background-color:{colour.get(label, '#e0e0e0')};"
        if g == selected:
            style += "font-weight:bold; text-decoration:underline;"
        tip = html.escape(f"{short_tip(label)} — {kind}")  # a label of any length, shortened
        pieces.append(
            f"<a name='g{g}'></a><span style='{style}' title='{tip}'>{html.escape(text[s:e])}</span>"
            f"<sup style='color:{mcol}'>{mark}</sup><sub style='color:#555'>{html_name(label)}</sub>"
        )
        pos = e
    pieces.append(html.escape(text[pos:b]))
    return "".join(pieces)


def render_document(result: Any, d: int, selected: int = -1) -> str:
    """The document as a table: per row of text, one line per annotator (code-point offsets)."""
    corpus, groups = result.corpus, result.groups
    text = corpus.texts[d] or ""
    colour = {lab: MARKABLE[k % len(MARKABLE)] for k, lab in enumerate(corpus.labels)}
    per_ann: list[list[tuple[int, int, str, str, int]]] = [[] for _ in corpus.annotators]
    for i in np.flatnonzero(corpus.doc == d).tolist():
        g = int(groups.of_span[i])
        kind = KINDS[int(groups.kind[g])]
        for s, e in corpus.spans[i].fragments:
            per_ann[int(corpus.ann[i])].append((s, e, corpus.spans[i].label, kind, g))
    for lst in per_ann:
        lst.sort(key=lambda t: (t[0], -t[1]))
    in_doc = groups.doc == d
    direction = "rtl" if _is_rtl(text) else "ltr"
    align = "right" if direction == "rtl" else "left"
    rows = []
    for a, b in chunks(text, groups.start[in_doc], groups.end[in_doc]):
        for x, name in enumerate(corpus.annotators):
            if not corpus.has[x, d]:
                body = "<i>— no annotation of this document —</i>"
            else:
                body = render_row(text, a, b, per_ann[x], colour, selected)
            top = "border-top:1px solid #bbb;" if x == 0 else ""
            rows.append(
                f"<tr><td style='color:#666; padding-right:6px; {top}'>{html_name(name)}</td>"
                f"<td dir='{direction}' align='{align}' style='{top}'>{body}</td></tr>"
            )
    return (
        "<table cellspacing='0' cellpadding='2' width='100%' style='font-size:12pt'>"
        + "".join(rows)
        + "</table>"
    )


class SpansPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: Any = None
        self.current_doc = -1
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        legend = QLabel(
            "Colour = label · marks: "
            + " · ".join(
                f"<span style='color:{c}'>{html.escape(m)}</span> {html.escape(k)}"
                for k, (m, c) in MARKS.items()
            )
            + " · N / P: next / previous disagreement"
        )
        legend.setTextFormat(Qt.TextFormat.RichText)
        legend.setWordWrap(True)
        outer.addWidget(legend)
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(QLabel("Documents (lowest exact F1 first)"))
        self.doc_model = DataFrameModel(severity_column="exact_f1", headers=HEADERS)
        self.doc_view = make_table(self.doc_model)
        self.doc_view.setObjectName("documents")
        self.doc_view.selectionModel().currentRowChanged.connect(lambda *_: self._on_document())
        ll.addWidget(self.doc_view, 1)
        filters = QHBoxLayout()
        self.label_combo, self.kind_combo, self.pair_combo = QComboBox(), QComboBox(), QComboBox()
        for combo in (self.label_combo, self.kind_combo, self.pair_combo):
            combo.activated.connect(lambda _i: self._apply_filters())
            filters.addWidget(combo, 1)
        ll.addWidget(QLabel("Disagreements, worst first"))
        ll.addLayout(filters)
        self.dis_model = DataFrameModel(severity_column="score")
        self.dis_view = make_table(self.dis_model, sortable=False)
        self.dis_view.setObjectName("disagreements")
        self.dis_view.selectionModel().currentRowChanged.connect(lambda *_: self._on_disagreement())
        ll.addWidget(self.dis_view, 2)
        nav = QHBoxLayout()
        self.prev_button, self.next_button = (
            QPushButton("◀ Previous (P)"),
            QPushButton("Next (N) ▶"),
        )
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.position = QLabel()
        nav.addWidget(self.prev_button)
        nav.addWidget(self.position, 1)
        nav.addWidget(self.next_button)
        ll.addLayout(nav)
        split.addWidget(left)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        rl.addWidget(self.title)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        rl.addWidget(self.text, 1)
        # recordings (ELAN, Praat): the annotators' units on a timeline instead of the text
        self.timeline = TimelineView()
        self.timeline.unit_clicked.connect(self._on_unit_clicked)
        self.timeline.hide()
        rl.addWidget(self.timeline, 1)
        # the selected unit's stretch of the recording the ELAN file links
        self.player = UnitPlayer()
        self.player.hide()
        self.timeline.play_requested.connect(self.player.play)
        rl.addWidget(self.player)
        self._media: dict[tuple[int, int], tuple[Any, str]] = {}
        split.addWidget(right)
        split.setSizes([560, 720])
        outer.addWidget(split, 1)
        for view in (self.doc_view, self.dis_view):
            view.installEventFilter(self)  # a table would take N and P for its keyboard search
        for key, step in (("N", 1), ("P", -1)):
            sc = QShortcut(QKeySequence(key), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(lambda step=step: self.step(step))

    def eventFilter(self, obj: Any, event: Any) -> bool:
        from PySide6.QtCore import QEvent

        if (
            event.type() == QEvent.Type.KeyPress
            and obj in (self.doc_view, self.dis_view)
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
            and event.key() in (Qt.Key.Key_N, Qt.Key.Key_P)
        ):
            self.step(1 if event.key() == Qt.Key.Key_N else -1)
            return True
        return super().eventFilter(obj, event)

    # -- data -----------------------------------------------------------------------------------

    def set_result(self, result: Any) -> None:
        self.result = result
        docs = result.frames["documents"]
        keep = ["document", "exact_f1", "overlap_f1", "unitizing_alpha", "disagreements"]
        frame = docs[keep].sort_values(["exact_f1", "document"], na_position="first", kind="stable")
        self.doc_model.set_frame(frame.reset_index(drop=True))
        fit_columns(self.doc_view)
        unsorted(self.doc_view)
        self._fill_combo(
            self.label_combo, "every label", [(lab, k) for k, lab in enumerate(result.labels)]
        )
        kinds = [(k, k) for k in KINDS if k != "agree"]
        self._fill_combo(self.kind_combo, "every kind", kinds)
        names = result.annotators
        pairs = [
            (f"{names[x]} ↔ {names[y]}", (x, y))
            for x in range(len(names))
            for y in range(x + 1, len(names))
        ]
        self._fill_combo(self.pair_combo, "every pair", pairs)
        self.current_doc = -1
        self.timeline.document = -1
        self._media = {}
        self._apply_filters()
        if self.doc_model.rowCount() and not self.dis_model.rowCount():
            self.doc_view.setCurrentIndex(self.doc_model.index(0, 0))

    @staticmethod
    def _fill_combo(combo: QComboBox, everything: str, items: list[tuple[str, Any]]) -> None:
        current = combo.currentData()
        combo.clear()
        combo.addItem(everything, None)
        for text, data in items:
            combo.addItem(shown(text), data)
        combo.setCurrentIndex(max(0, combo.findData(current)) if current is not None else 0)

    def _apply_filters(self) -> None:
        if self.result is None:
            return
        dis = self.result.frames["disagreements"]
        groups = self.result.groups
        mask = np.ones(len(dis), dtype=bool)
        g = dis["group"].to_numpy(dtype=np.int64) if len(dis) else np.zeros(0, dtype=np.int64)
        label = self.label_combo.currentData()
        if label is not None:
            mask &= (groups.labels[g] >> min(int(label), 62)) & 1 == 1
        kind = self.kind_combo.currentData()
        if kind is not None:
            mask &= dis["kind"].to_numpy() == kind
        pair = self.pair_combo.currentData()
        if pair is not None:
            a, b = (self.result.annotators[i] for i in pair)
            mask &= dis[a].to_numpy() != dis[b].to_numpy()
        shown = dis[mask][["document", "kind", "score", "labels", "start", "group"]]
        self.dis_model.set_frame(shown.reset_index(drop=True))
        fit_columns(self.dis_view)
        self.dis_view.setColumnHidden(len(shown.columns) - 1, True)  # the group: for navigation
        if len(shown):
            self.dis_view.setCurrentIndex(self.dis_model.index(0, 0))
        self._update_position()

    # -- navigation -----------------------------------------------------------------------------

    def step(self, delta: int) -> None:
        n = self.dis_model.rowCount()
        if not n:
            return
        row = self.dis_view.currentIndex().row()
        row = min(max(0, (row if row >= 0 else -1) + delta), n - 1)
        self.dis_view.setCurrentIndex(self.dis_model.index(row, 0))

    def _update_position(self) -> None:
        n = self.dis_model.rowCount()
        row = self.dis_view.currentIndex().row()
        self.position.setText(f"{row + 1} of {n}" if n and row >= 0 else f"{n} disagreements")

    def _on_document(self) -> None:
        idx = self.doc_view.currentIndex()
        if self.result is None or not idx.isValid():
            return
        name = self.doc_model.frame["document"].iloc[idx.row()]
        self.show_document(self.result.corpus.names.index(name))

    def _on_disagreement(self) -> None:
        idx = self.dis_view.currentIndex()
        self._update_position()
        if self.result is None or not idx.isValid():
            return
        rec = self.dis_model.frame.iloc[idx.row()]
        d = self.result.corpus.names.index(rec["document"])
        self.show_document(d, int(rec["group"]))

    def show_document(self, d: int, group: int = -1) -> None:
        corpus = self.result.corpus
        self.current_doc = d
        rec = self.result.frames["documents"].iloc[d]
        self.title.setText(
            f"<b>{html.escape(corpus.names[d])}</b> — exact F1 {rec['exact_f1']:.3f}, "
            f"{int(rec['disagreements'])} disagreements"
        )
        timed = bool(corpus.time_unit)
        if timed:
            self.title.setText(
                self.title.text() + " · Ctrl + wheel or + / −: zoom · click a unit: its row"
            )
        self.text.setVisible(not timed)
        self.timeline.setVisible(timed)
        self.player.setVisible(timed)
        if timed:
            if self.timeline.document != d:
                self.timeline.set_data(timeline_data(self.result, d))
                self.timeline.document = d
            self.timeline.select(group, scroll=group >= 0)
            self._update_player()
            return
        self.text.setHtml(render_document(self.result, d, group))
        if group >= 0:
            self.text.scrollToAnchor(f"g{group}")

    def _on_unit_clicked(self, group: int) -> None:
        """A unit clicked on the timeline: its disagreement selected in the table (when the
        filters show it)."""
        self._update_player()
        frame = self.dis_model.frame
        if frame is None or "group" not in frame:
            return
        rows = np.flatnonzero(frame["group"].to_numpy(dtype=np.int64) == group)
        if len(rows):
            self.dis_view.setCurrentIndex(self.dis_model.index(int(rows[0]), 0))
        else:
            self.dis_view.clearSelection()

    def _update_player(self) -> None:
        """The Play button for the timeline's selected unit: the clicked block's (or the group's
        first block's) stretch of the recording its annotator's file links."""
        data, d = self.timeline.data, self.timeline.document
        if data is None or d < 0:
            self.player.set_unit(None, 0, 0, "Select a unit on the timeline.")
            return
        ix = np.flatnonzero(data.group == self.timeline.selected)
        if not len(ix):
            self.player.set_unit(None, 0, 0, "Select a unit on the timeline.")
            return
        k = self.timeline.selected_block if self.timeline.selected_block in ix else int(ix[0])
        lane = int(data.lane[k])
        if (d, lane) not in self._media:
            corpus = self.result.corpus
            doc = corpus.docs.get(corpus.names[d], {}).get(data.lanes[lane])
            meta = doc.meta if doc is not None else {}
            self._media[d, lane] = media_file(meta.get("media", ()), meta.get("source"))
        path, why = self._media[d, lane]
        self.player.set_unit(path, int(data.start[k]), int(data.end[k]), why)


def timeline_data(result: Any, d: int) -> TimelineData:
    """Recording ``d``'s units for the timeline: a lane per annotator, the label's colour, the
    border of the group's kind of agreement (the marks' colours)."""
    corpus, groups = result.corpus, result.groups
    colour = {lab: MARKABLE[k % len(MARKABLE)] for k, lab in enumerate(corpus.labels)}
    ix = np.flatnonzero(corpus.doc == d)
    g = groups.of_span[ix].astype(np.int64)
    kinds = [KINDS[int(k)] for k in groups.kind[g]]
    spans = [corpus.spans[i] for i in ix.tolist()]
    return TimelineData(
        lanes=list(corpus.annotators),
        duration=int(corpus.lengths[d]),
        lane=corpus.ann[ix].astype(np.int64),
        start=np.array([s.start for s in spans], dtype=np.int64),
        end=np.array([s.end for s in spans], dtype=np.int64),
        label=[s.label for s in spans],
        fill=[colour.get(s.label, "#e0e0e0") for s in spans],
        border=[MARKS.get(k, ("", "#000"))[1] for k in kinds],
        group=g,
        note=kinds,
        agree_colour=MARKS["agree"][1],
    )


def unsorted(view: Any) -> None:
    """No sort arrow: the frame comes in its own order (worst first), not by the first column."""
    view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)


#: what each figure of the Figures tab is (its tooltip, with the interval's text)
EXPLAIN = {
    "exact_f1": "Exact-match span F1, micro: a span counts as matched when the other annotator "
    "has one with the same start, end (every fragment) and label; F1 = 2TP / (|A| + |B|) over "
    "all labels, then the mean over annotator pairs.",
    "exact_f1_macro": "Exact-match span F1, macro: F1 per label, its mean over the labels either "
    "annotator of a pair used, then the mean over annotator pairs.",
    "overlap_f1": "Overlap span F1, micro: spans sharing a character and the label match, one "
    "to one (maximum bipartite matching); mean over annotator pairs.",
    "overlap_f1_macro": "Overlap span F1, macro: per label, mean over the labels, then over "
    "annotator pairs.",
    "token_f1": "Token-level span F1 as bratiaa computes it: every span split into one piece "
    "per token it overlaps (tokens: runs of non-space characters), F1 = 2TP / (|A| + |B|) over "
    "these (label, token) multisets; mean over annotator pairs.",
    "lenient_f1": "Lenient overlap span F1: a span counts as found when the other annotator has "
    "a span of the same label sharing a character with it, not one to one; F1 of the two "
    "shares; mean over annotator pairs.",
    "char_fleiss_kappa": "Fleiss' κ over characters, each character's value the label of the "
    "span covering it or 'no label'.",
    "char_krippendorff_alpha": "Krippendorff's nominal α over characters ('no label' a value).",
    "token_fleiss_kappa": "Fleiss' κ over tokens ('no label' a value).",
    "token_krippendorff_alpha": "Krippendorff's nominal α over tokens ('no label' a value).",
    "unitizing_alpha": "Krippendorff's unitizing α (αU, as DKPro Statistics computes it): where "
    "the spans begin and end and their labels, against chance placements, with the documents "
    "concatenated in input order (the files, or the records of an export).",
    "gamma": "Mathet et al.'s γ: disorder of the best alignment of the units against that of "
    "sampled random continua.",
    "gamma_cat": "Mathet's γ-cat: the labels of the units aligned together, weighted by how well "
    "they are positioned, against sampled random continua.",
}


def interval_note(result: Any, key: str) -> str:
    """How the interval of a figure was computed (the second half of its tooltip)."""
    iv = result.interval
    if key == "gamma":
        return (
            "Interval: γ for a 2% relative error of its sampled expected disorder (the precision "
            f"level; seed {iv.seed}), not the variation between documents."
        )
    if key == "gamma_cat":
        return "No interval: γ-cat would have to be aligned again for every resample."
    if key in ("token_f1", "lenient_f1"):
        return "No interval: as bratiaa reports it, the mean and SD over the annotator pairs."
    note = (
        f"Interval: 95% percentile bootstrap over documents ({iv.resamples:,} "
        f"resamples, seed {iv.seed}): the documents are drawn with replacement and "
        "the figure computed again from each resample's counts"
    )
    if key == "unitizing_alpha":
        note += (
            " (αU exactly, from its sums per document weighted by the draws, with gaps closed at"
            " each document's end; the interval is moved by the difference this makes on the data)"
        )
    return note + "; none with fewer than two documents."


def figures_frame(result: Any) -> pd.DataFrame:
    """The Figures tab: title, value, interval, and a hidden tooltip per figure."""
    from iaa_desktop.core.kinds.spans.report import SUMMARY

    titles = {k: t for k, t, _ in SUMMARY}
    rows = [
        {
            "figure": titles.get(k, k),
            "value": v.get("value"),
            "ci_low": v.get("ci_low"),
            "ci_high": v.get("ci_high"),
            "sd": v.get("sd"),
            "explanation": "\n\n".join(
                textwrap.fill(t, 72) for t in (EXPLAIN.get(k, k), interval_note(result, k))
            ),
        }
        for k, v in result.overall.items()
    ]
    return pd.DataFrame(rows, columns=["figure", "value", "ci_low", "ci_high", "sd", "explanation"])


#: figures of the pairs table whose 95% interval is the tooltip of their cells
PAIR_FIGURES = (
    "exact_f1",
    "exact_f1_macro",
    "overlap_f1",
    "overlap_f1_macro",
    "char_cohen_kappa",
    "token_cohen_kappa",
    "unitizing_alpha",
)


#: column titles of the tables: the metrics catalogue's symbols
HEADERS = {
    **{c: catalogue.get(c).symbol for c in PAIR_FIGURES},
    "token_f1": "token F1",
    "lenient_f1": "lenient F1",
    "n_a": "spans a",
    "n_b": "spans b",
    **{f"{c}_f1_sd": f"{c} SD" for c in ("exact", "overlap", "token", "lenient")},
    **{
        f"{c}_ci_{end}": end
        for c in ("exact_f1", "overlap_f1", "unitizing_alpha")
        for end in ("low", "high")
    },
}


def pairs_frame(pairs: pd.DataFrame) -> pd.DataFrame:
    """The pairs table: the figures, each interval a hidden column shown as the cell's tooltip."""
    out = pairs.drop(columns=[c for c in pairs.columns if c.endswith(("_ci_low", "_ci_high"))])
    for c in PAIR_FIGURES:
        if f"{c}_ci_low" in pairs:
            out[f"{c}__tip"] = [
                f"95% bootstrap interval over documents: [{lo:.3f}, {hi:.3f}]"
                if np.isfinite(lo) and np.isfinite(hi)
                else "no interval (fewer than two documents, or too few defined resamples)"
                for lo, hi in zip(pairs[f"{c}_ci_low"], pairs[f"{c}_ci_high"])
            ]
    return out


class _Tables(QWidget):
    """The tables page: a model and a view per table."""

    models: list[DataFrameModel]
    views: list[Any]


class _Summary(QWidget):
    """The figures page: a note above the table of figures."""

    note: QLabel
    model: DataFrameModel
    view: Any


def create_panels(result: Any, context: Any) -> list[tuple[str, QWidget]]:
    panel = context.cache.get("spans_panel") or SpansPanel()
    context.cache["spans_panel"] = panel
    panel.set_result(result)
    tables: _Tables | None = context.cache.get("spans_tables")
    if tables is None:
        tables = _Tables()
        lay = QVBoxLayout(tables)
        tables.models, tables.views = [], []
        for title in (
            "Annotator pairs (hover a figure for its 95% interval)",
            "Labels, worst first (F1: mean and SD over pairs)",
            "Span F1 per annotator pair and label",
            "Boundaries and labels",
            "Label confusion",
        ):
            lay.addWidget(QLabel(title))
            model = (
                DataFrameModel(
                    headers=HEADERS,
                    hidden=[f"{c}__tip" for c in PAIR_FIGURES],
                    cell_tooltips={c: f"{c}__tip" for c in PAIR_FIGURES},
                )
                if title.startswith("Annotator pairs")
                else DataFrameModel(headers=HEADERS)
            )
            view = make_table(model)
            view.horizontalHeader().setStretchLastSection(False)  # the last figure stays narrow
            lay.addWidget(view, 1)
            tables.models.append(model)
            tables.views.append(view)
        context.cache["spans_tables"] = tables
    f = result.frames
    pairs = pairs_frame(f["pairs"])
    for model, view, frame in zip(
        tables.models,
        tables.views,
        (
            pairs,
            f["labels"],
            f.get("per_pair_label", pd.DataFrame()),
            f["pair_disagreements"],
            f["confusion"],
        ),
    ):
        model.set_frame(frame)
        fit_columns(view)
        unsorted(view)
    summary: _Summary | None = context.cache.get("spans_summary")
    if summary is None:
        summary = _Summary()
        lay = QVBoxLayout(summary)
        summary.note = QLabel()
        summary.note.setTextFormat(Qt.TextFormat.PlainText)
        summary.note.setWordWrap(True)
        lay.addWidget(summary.note)
        summary.model = DataFrameModel(
            hidden=["explanation"],
            headers={"ci_low": "95% low", "ci_high": "95% high", "sd": "SD over pairs"},
            cell_tooltips={
                c: "explanation" for c in ("figure", "value", "ci_low", "ci_high", "sd")
            },
        )
        summary.view = make_table(summary.model)
        summary.view.horizontalHeader().setStretchLastSection(False)
        lay.addWidget(summary.view, 1)
        context.cache["spans_summary"] = summary
    summary.model.set_frame(figures_frame(result))
    fit_columns(summary.view)
    unsorted(summary.view)
    summary.note.setText(
        "Figures over all annotators (F1: mean over pairs), 95% bootstrap intervals over documents "
        "(hover a figure for what it is and how its interval was computed). " + result.gamma_note
    )
    first = (
        "Timeline"
        if result.corpus is not None and result.corpus.time_unit
        else "Spans side by side"
    )
    out: list[tuple[str, QWidget]] = [(first, panel), ("Figures", summary), ("Tables", tables)]
    if getattr(result, "relations", None) is not None:
        relations = context.cache.get("spans_relations") or RelationsPanel()
        context.cache["spans_relations"] = relations
        relations.set_result(result)
        out.insert(1, ("Relations", relations))
    if result.occurrences is not None:
        occurrences = context.cache.get("spans_occurrences") or OccurrencesPanel()
        context.cache["spans_occurrences"] = occurrences
        occurrences.set_occurrences(result.occurrences, "label")
        out.append(("Occurrences", occurrences))
    if has_study_annotators(result):
        annotators = context.cache.get("spans_annotators") or StudyAnnotatorsPanel()
        context.cache["spans_annotators"] = annotators
        annotators.set_result(result)
        out.append(("Annotators", annotators))
    return out


#: headers of the relation tables' columns that the span tables name otherwise
RELATION_HEADERS = {
    "n_a": "relations of a",
    "n_b": "relations of b",
    "n_of_a": "relations of a",
    "n_of_b": "relations of b",
    "n_units": "argument pairs both linked",
    "n_relations": "relations",
}

#: colour of a relation's arc by how it stands with the other annotators
ARC_COLOURS = {
    "matched": "#2e7d32",
    "argument not annotated by the other": "#8e24aa",
    "argument boundary differs": "#1f3fbf",
    "different label": "#c00000",
    "link in the other direction": "#e65100",
    "no link": "#616161",
}


class RelationsPanel(QWidget):
    """Relations as arcs over each annotator's text (one document at a time), the relation
    tables beside."""

    def __init__(self, parent: QWidget | None = None) -> None:
        from PySide6.QtWidgets import QScrollArea

        from iaa_desktop.gui.widgets.arcs import ArcView

        super().__init__(parent)
        self.result: Any = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        legend = QLabel(
            "Arcs: source → target, coloured by how each stands with the other annotators: "
            + " · ".join(
                f"<span style='color:{c}'>■</span> {html.escape(k)}" for k, c in ARC_COLOURS.items()
            )
            + " (dashed: not shared)"
        )
        legend.setTextFormat(Qt.TextFormat.RichText)
        legend.setWordWrap(True)
        outer.addWidget(legend)
        top = QHBoxLayout()
        top.addWidget(QLabel("Document:"))
        self.doc_combo = QComboBox()
        self.doc_combo.setObjectName("relation_documents")
        self.doc_combo.currentIndexChanged.connect(lambda _i: self.show_document())
        top.addWidget(self.doc_combo, 1)
        outer.addLayout(top)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.arcs = ArcView()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.arcs)
        split.addWidget(scroll)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.models: list[DataFrameModel] = []
        self.views: list[Any] = []
        for title in (
            "Relation F1 per annotator pair",
            "Relation F1 per label",
            "Relation labels (κ on the links both drew)",
            "Relations one drew and the other did not",
        ):
            rl.addWidget(QLabel(title))
            model = DataFrameModel(headers={**HEADERS, **RELATION_HEADERS})
            view = make_table(model)
            rl.addWidget(view, 1)
            self.models.append(model)
            self.views.append(view)
        split.addWidget(right)
        split.setSizes([760, 500])
        outer.addWidget(split, 1)

    def set_result(self, result: Any) -> None:
        self.result = result
        f = result.relations.frames
        for model, view, name in zip(
            self.models,
            self.views,
            (
                "relations_pairs",
                "relations_per_label",
                "relations_label_kappa",
                "relations_disagreements",
            ),
        ):
            frame = f[name]
            shown = [c for c in frame.columns if not c.endswith(("_low", "_high"))]
            # the figures before the counts, so that a narrow table still shows them
            shown = [c for c in shown if not c.startswith("n_")] + [
                c for c in shown if c.startswith("n_")
            ]
            model.set_frame(frame[shown])
            fit_columns(view)
        self.doc_combo.blockSignals(True)
        self.doc_combo.clear()
        add_names(self.doc_combo, list(result.corpus.names))
        self.doc_combo.blockSignals(False)
        self.show_document()

    def show_document(self) -> None:
        from iaa_desktop.core.kinds.spans.relation_figures import document_relations
        from iaa_desktop.gui.widgets.arcs import Arc, ArcBlock

        corpus = self.result.corpus
        d = max(0, self.doc_combo.currentIndex())
        text = corpus.texts[d] or ""
        colour = {lab: MARKABLE[k % len(MARKABLE)] for k, lab in enumerate(corpus.labels)}
        blocks = []
        for name, rows in document_relations(corpus, d):
            sd = corpus.docs[corpus.names[d]][name]
            spans = [
                ((a, b), colour.get(s.label, "#dddddd")) for s in sd.spans for a, b in s.fragments
            ]
            arcs = [
                Arc(
                    (r[1][0][0], r[1][-1][1]),
                    (r[2][0][0], r[2][-1][1]),
                    r[0],
                    ARC_COLOURS.get(status, "#616161"),
                    dashed=status != "matched",
                )
                for r, status in rows
            ]
            blocks.append(ArcBlock(name, text, spans, arcs))
        self.arcs.set_blocks(blocks)
