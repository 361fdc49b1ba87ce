"""Coreference view: two annotators' documents side by side with matched classes coloured alike."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.gui.kinds.table import fit_columns, make_table
from iaa_desktop.gui.widgets.frame_model import DataFrameModel

# light backgrounds only, so the marks (text colour, underline) stay readable on every class colour
PALETTE = [
    "#8dd3c7",
    "#ffffb3",
    "#bebada",
    "#fbb4ae",
    "#b3cde3",
    "#fed9a6",
    "#b3de69",
    "#fccde5",
    "#decbe4",
    "#ccebc5",
    "#ffed6f",
    "#a6cee3",
    "#b2df8a",
    "#fdbf6f",
    "#cab2d6",
    "#e5c494",
]
ONLY_ONE = "#c00000"  # a mention only this annotator has: red, italic, underlined
OTHER_CLASS = "#1f3fbf"  # in a class matched to a different one: blue, underlined


def _is_rtl(text: str) -> bool:
    strong = [c for c in text if c.isalpha()]
    if not strong:
        return False
    rtl = sum(1 for c in strong if "\u0590" <= c <= "\u08ff" or "\ufb1d" <= c <= "\ufefc")
    return rtl > len(strong) / 2


def render_document(
    doc,
    class_of: dict,
    colour_of: dict,
    marks: dict,
    selected: set,
    side: str,
    other_side: dict | None = None,
) -> str:
    """HTML of a document with every mention as a coloured span (offsets are code points)."""
    text = doc.text or ""
    other_side = other_side or {}
    mentions = sorted(doc.mentions, key=lambda k: (k[1], -k[2]))
    out, pos = [], 0
    direction = "rtl" if _is_rtl(text) else "ltr"
    for m in mentions:
        _t, s, e = m
        if s < pos or e > len(text):
            continue  # nested or overlapping mentions: the outer one is shown
        out.append(html.escape(text[pos:s]))
        cls = class_of.get(m, "S")
        colour = colour_of.get(cls, "#e0e0e0")
        style = f"background-color:{colour};"
        mark = marks.get(m)
        # Qt's rich text has no borders: colour and underline carry the marks
        if mark == "only":
            style += f"color:{ONLY_ONE}; text-decoration:underline; font-style:italic;"
        elif mark == "other":
            style += f"color:{OTHER_CLASS}; text-decoration:underline;"
        if m in selected:
            style += "font-weight:bold; text-decoration:underline;"
        tip = html.escape(
            f"{side}: {cls}; other annotator: {other_side.get(m, '— (no such mention)')}"
            + (" — only this annotator has it" if mark == "only" else "")
        )
        out.append(
            f"<a name='m{s}_{e}'></a><span style='{style}' title='{tip}'>{html.escape(text[s:e])}</span>"
        )
        pos = e
    out.append(html.escape(text[pos:]))
    body = "".join(out).replace("\n", "<br/>")
    return f"<div dir='{direction}' style='font-size:13pt; line-height:150%'>{body}</div>"


class CorefPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(QLabel("Annotators"))
        self.pair_combo = QComboBox()
        self.pair_combo.activated.connect(lambda _i: self._show_document())
        top.addWidget(self.pair_combo)
        legend = QLabel(
            "Same colour = matched class pair · "
            f"<u><i><span style='color:{ONLY_ONE}'>mention only one annotator has</span></i></u> · "
            f"<u><span style='color:{OTHER_CLASS}'>mention in a class matched to a different one</span></u> · "
            "grey = S (in no class) · hover a mention for its class on each side"
        )
        legend.setTextFormat(Qt.TextFormat.RichText)
        legend.setWordWrap(True)
        top.addWidget(legend, 1)
        outer.addLayout(top)
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(QLabel("Documents (d; ⚑ = d ≥ study threshold)"))
        self.doc_model = DataFrameModel(tint_column="d")
        self.doc_view = make_table(self.doc_model)
        self.doc_view.setObjectName("documents")
        self.doc_view.selectionModel().currentRowChanged.connect(lambda *_: self._show_document())
        ll.addWidget(self.doc_view, 1)
        ll.addWidget(QLabel("Classes, worst first"))
        self.class_model = DataFrameModel(tint_column="d")
        self.class_view = make_table(self.class_model)
        self.class_view.setObjectName("classes")
        self.class_view.selectionModel().currentRowChanged.connect(lambda *_: self._highlight_row())
        ll.addWidget(self.class_view, 2)
        split.addWidget(left)
        texts = QSplitter(Qt.Orientation.Horizontal)
        self.text_a = QTextBrowser()
        self.text_b = QTextBrowser()
        for t in (self.text_a, self.text_b):
            t.setOpenLinks(False)
            t.viewport().setMouseTracking(True)
            t.viewport().installEventFilter(self)
        self.label_a = QLabel()
        self.label_b = QLabel()
        for label, view in ((self.label_a, self.text_a), (self.label_b, self.text_b)):
            box = QWidget()
            bl = QVBoxLayout(box)
            bl.setContentsMargins(0, 0, 0, 0)
            bl.addWidget(label)
            bl.addWidget(view, 1)
            texts.addWidget(box)
        # synchronised scrolling (proportional, so different lengths still line up)
        self._syncing = False
        self.text_a.verticalScrollBar().valueChanged.connect(
            lambda v: self._sync(self.text_a, self.text_b)
        )
        self.text_b.verticalScrollBar().valueChanged.connect(
            lambda v: self._sync(self.text_b, self.text_a)
        )
        split.addWidget(texts)
        split.setSizes([470, 930])  # wide enough for every column of both tables
        outer.addWidget(split, 1)

    def eventFilter(self, obj, event) -> bool:
        from PySide6.QtCore import QEvent
        from PySide6.QtWidgets import QToolTip

        if event.type() == QEvent.Type.ToolTip:
            for view in (self.text_a, self.text_b):
                if obj is view.viewport():
                    tip = view.cursorForPosition(event.pos()).charFormat().toolTip()
                    if tip:
                        QToolTip.showText(event.globalPos(), tip, view)
                    else:
                        QToolTip.hideText()
                    return True
        return super().eventFilter(obj, event)

    def _sync(self, src: QTextBrowser, dst: QTextBrowser) -> None:
        if self._syncing:
            return
        self._syncing = True
        s, d = src.verticalScrollBar(), dst.verticalScrollBar()
        if s.maximum() > 0:
            d.setValue(round(s.value() / s.maximum() * d.maximum()))
        self._syncing = False

    def set_result(self, result) -> None:
        import pandas as pd

        self.result = result
        current = self.pair_combo.currentData()
        self.pair_combo.clear()
        pairs = sorted(
            {(p.a, p.b) for d in result.documents for p in d.pairs},
            key=lambda ab: (result.annotators.index(ab[0]), result.annotators.index(ab[1])),
        )
        for a, b in pairs:
            self.pair_combo.addItem(f"{a} ↔ {b}", (a, b))
        idx = self.pair_combo.findData(current)
        self.pair_combo.setCurrentIndex(max(0, idx))
        rows = []
        for d in result.documents:
            p = d.pairs[0]
            t = p.total
            rows.append(
                {
                    "document": d.name,
                    "L": t.L,
                    "M": t.M,
                    "R": t.R,
                    "D": t.D,
                    "d": round(t.d, 4),
                    "study": "⚑" if t.d >= result.study_threshold else "",
                }
            )
        self.doc_model.set_frame(pd.DataFrame(rows))
        fit_columns(self.doc_view)
        if self.doc_model.rowCount():
            self.doc_view.setCurrentIndex(self.doc_model.index(0, 0))
        self._show_document()

    def _current(self):
        if self.result is None or not self.result.documents:
            return None, None
        row = max(0, self.doc_view.currentIndex().row())
        name = self.doc_model.frame["document"].iloc[row] if self.doc_model.rowCount() else None
        doc = next((d for d in self.result.documents if d.name == name), None)
        ab = self.pair_combo.currentData()
        pair = (
            next((p for p in doc.pairs if (p.a, p.b) == tuple(ab)), doc.pairs[0])
            if doc and ab
            else (doc.pairs[0] if doc else None)
        )
        return doc, pair

    def _show_document(self, selected_row: Any = None) -> None:
        import pandas as pd

        from iaa_desktop.core.kinds.coref.compare import sets_of

        doc, pair = self._current()
        if doc is None or pair is None:
            return
        da, db = doc.docs[pair.a], doc.docs[pair.b]
        sa, na = sets_of(da)
        sb, nb = sets_of(db)
        class_a = {m: n for s, n in zip(sa, na) for m in s}
        class_b = {m: n for s, n in zip(sb, nb) for m in s}
        colour_a, colour_b = {"S": "#e6e6e6"}, {"S": "#e6e6e6"}
        k = 0
        for r in pair.rows:
            if r.class_a not in ("-", "S") and r.class_b not in ("-", "S"):
                colour = PALETTE[k % len(PALETTE)]
                k += 1
                colour_a[r.class_a] = colour
                colour_b[r.class_b] = colour
            elif r.class_a not in ("-", "S"):
                colour_a[r.class_a] = "#d9d9d9"
            elif r.class_b not in ("-", "S"):
                colour_b[r.class_b] = "#d9d9d9"
        partner = {r.class_a: r.class_b for r in pair.rows if r.class_a != "-"}
        marks_a, marks_b = {}, {}
        for m in da.mentions:
            if m not in db.mentions:
                marks_a[m] = "only"
            elif partner.get(class_a.get(m, "S")) != class_b.get(m, "S"):
                marks_a[m] = "other"
        back = {v: k2 for k2, v in partner.items()}
        for m in db.mentions:
            if m not in da.mentions:
                marks_b[m] = "only"
            elif back.get(class_b.get(m, "S")) != class_a.get(m, "S"):
                marks_b[m] = "other"
        sel_a, sel_b = set(), set()
        if selected_row is not None:
            sel_a = {m for s, n in zip(sa, na) if n == selected_row[0] for m in s}
            sel_b = {m for s, n in zip(sb, nb) if n == selected_row[1] for m in s}
        self.label_a.setText(f"<b>{html.escape(pair.a)}</b> — {html.escape(doc.name)}")
        self.label_b.setText(f"<b>{html.escape(pair.b)}</b> — {html.escape(doc.name)}")
        bar_a, bar_b = (
            self.text_a.verticalScrollBar().value(),
            self.text_b.verticalScrollBar().value(),
        )
        other_a = {m: f"{pair.b} {class_b.get(m, 'S')}" for m in da.mentions if m in db.mentions}
        other_b = {m: f"{pair.a} {class_a.get(m, 'S')}" for m in db.mentions if m in da.mentions}
        self.text_a.setHtml(render_document(da, class_a, colour_a, marks_a, sel_a, pair.a, other_a))
        self.text_b.setHtml(render_document(db, class_b, colour_b, marks_b, sel_b, pair.b, other_b))
        if selected_row is None:
            rows = [r.to_json() for r in pair.rows]
            frame = pd.DataFrame(rows).sort_values(["d", "D"], ascending=False, kind="stable")
            self.class_model.set_frame(frame)
            fit_columns(self.class_view)
        else:
            first = sorted(sel_a | sel_b, key=lambda m: m[1])
            self.text_a.verticalScrollBar().setValue(bar_a)
            self.text_b.verticalScrollBar().setValue(bar_b)
            if first:
                anchor = f"m{first[0][1]}_{first[0][2]}"
                self.text_a.scrollToAnchor(anchor)
                self.text_b.scrollToAnchor(anchor)

    def _highlight_row(self) -> None:
        idx = self.class_view.currentIndex()
        if not idx.isValid():
            return
        rec = self.class_model.frame.iloc[idx.row()]
        self._show_document((rec["class_a"], rec["class_b"]))


def create_panels(result, context) -> list[tuple[str, QWidget]]:
    import pandas as pd

    panel = context.cache.get("coref_panel") or CorefPanel()
    context.cache["coref_panel"] = panel
    panel.set_result(result)
    scores = context.cache.get("coref_scores")
    if scores is None:
        scores = QWidget()
        lay = QVBoxLayout(scores)
        lay.addWidget(
            QLabel(
                "Scores per annotator pair over all documents (first annotator as key), and corpus totals"
            )
        )
        scores.model = DataFrameModel()  # type: ignore[attr-defined]
        scores.view = make_table(scores.model)  # type: ignore[attr-defined]
        lay.addWidget(scores.view, 1)  # type: ignore[attr-defined]
        scores.totals_model = DataFrameModel()  # type: ignore[attr-defined]
        scores.totals_view = make_table(scores.totals_model)  # type: ignore[attr-defined]
        lay.addWidget(scores.totals_view, 1)  # type: ignore[attr-defined]
        context.cache["coref_scores"] = scores
    rows = []
    for (a, b), s in result.corpus_scores.items():
        for metric, vals in s.to_json().items():
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "metric": metric,
                    "recall": vals.get("recall"),
                    "precision": vals.get("precision"),
                    "f1": vals["f1"],
                }
            )
    scores.model.set_frame(pd.DataFrame(rows))  # type: ignore[attr-defined]
    scores.totals_model.set_frame(result.tables()["totals"])  # type: ignore[attr-defined]
    return [("Side by side", panel), ("Scores", scores)]


__all__ = ["CorefPanel", "create_panels", "QTableView"]
