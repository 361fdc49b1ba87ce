"""Coreference side by side: two annotators' documents with matched classes coloured alike,
nested mentions drawn inside their outer mention, the class table of the document."""

from __future__ import annotations

import html
from typing import Any

import pandas as pd
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QTextBrowser,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.gui.kinds.coref.render import (
    ONLY_ONE,
    OTHER_CLASS,
    SINGLETON,
    UNMATCHED,
    render_document,
)
from iaa_desktop.gui.widgets.colours import MARKABLE
from iaa_desktop.gui.widgets.frame_model import DataFrameModel
from iaa_desktop.gui.widgets.short_text import shown
from iaa_desktop.gui.widgets.table_view import ListBar, fit_columns, make_table, select_row
from iaa_desktop.gui.widgets.zoom import TextZoom

#: the class matching's figures (Kopeć & Ogrodniczuk's L, M, R; METHODS' D and d)
MATCH_TOOLTIPS = {
    "class_a": "the first annotator's class (C1… in file order; S = mentions in no class; - = none)",
    "class_b": "the second annotator's class matched to it",
    "L": "L: mentions only in the first annotator's class",
    "M": "M: mentions both classes hold",
    "R": "R: mentions only in the second annotator's class",
    "D": "D = L + R: mentions the two classes disagree on",
    "d": "d = D / (L + M + R), 0–1: the share of the pair's mentions they disagree on "
    "(0 = identical classes, 1 = disjoint); rows are tinted by it",
    "study": "⚑ = the document's d reaches the study threshold (a text to look at)",
}
#: the matching's letters stay letters in the narrow headers; the tooltip says what each counts
SYMBOL_HEADERS = {"L": "L", "M": "M", "R": "R", "D": "D", "d": "d"}
LEGEND = (
    "Same colour = matched class pair · "
    f"<u><i><span style='color:{ONLY_ONE}'>only one annotator has the mention</span></i></u> · "
    f"<u><span style='color:{OTHER_CLASS}'>in a class matched to a different one</span></u> · "
    "grey = S (in no class) · [ ]<sub>C3</sub> = a nested mention and its class · "
    "hover a mention for its class on each side · Ctrl + / Ctrl − zoom"
)


class CorefPanel(QWidget):
    """Documents and classes (left); the two annotators' texts (right)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: Any = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(QLabel("Annotators"))
        self.pair_combo = QComboBox()
        self.pair_combo.activated.connect(lambda _i: self._fill_documents())
        top.addWidget(self.pair_combo)
        legend = QLabel(LEGEND)
        legend.setTextFormat(Qt.TextFormat.RichText)
        legend.setWordWrap(True)
        top.addWidget(legend, 1)
        outer.addLayout(top)
        split = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(QLabel("Documents, d of the chosen pair"))
        self.doc_model = DataFrameModel(
            severity_column="d", tooltips=MATCH_TOOLTIPS, headers=SYMBOL_HEADERS, digits=4
        )
        self.doc_view = make_table(self.doc_model, name="documents")
        self.doc_view.setObjectName("documents")
        self.doc_view.selectionModel().currentRowChanged.connect(lambda *_: self._show_document())
        ll.addWidget(self.doc_view, 1)
        ll.addWidget(QLabel("Classes of the document, most disagreement first"))
        self.class_model = DataFrameModel(
            severity_column="d", tooltips=MATCH_TOOLTIPS, headers=SYMBOL_HEADERS, digits=4
        )
        self.class_bar = ListBar(self.class_model, noun="classes", placeholder="Filter classes…")
        ll.addWidget(self.class_bar)
        self.class_view = make_table(self.class_model, name="classes")
        self.class_view.setObjectName("classes")
        self.class_view.selectionModel().currentRowChanged.connect(lambda *_: self._highlight_row())
        ll.addWidget(self.class_view, 2)
        split.addWidget(left)
        texts = QSplitter(Qt.Orientation.Horizontal)
        self.text_a, self.text_b = QTextBrowser(), QTextBrowser()
        for t in (self.text_a, self.text_b):
            t.setOpenLinks(False)
            t.viewport().setMouseTracking(True)
            t.viewport().installEventFilter(self)
        self.zoom = TextZoom(self, [self.text_a, self.text_b])
        self.label_a, self.label_b = QLabel(), QLabel()
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
            lambda _v: self._sync(self.text_a, self.text_b)
        )
        self.text_b.verticalScrollBar().valueChanged.connect(
            lambda _v: self._sync(self.text_b, self.text_a)
        )
        split.addWidget(texts)
        split.setSizes([400, 560])
        outer.addWidget(split, 1)

    def eventFilter(self, obj, event) -> bool:
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

    # -- result -------------------------------------------------------------------------------

    def set_result(self, result: Any) -> None:
        self.result = result
        current = self.pair_combo.currentData()
        self.pair_combo.clear()
        pairs = sorted(
            {(p.a, p.b) for d in result.documents for p in d.pairs},
            key=lambda ab: (result.annotators.index(ab[0]), result.annotators.index(ab[1])),
        )
        for a, b in pairs:
            self.pair_combo.addItem(shown(f"{a} ↔ {b}"), (a, b))
        self.pair_combo.setCurrentIndex(max(0, self.pair_combo.findData(current)))
        self._fill_documents()

    def _fill_documents(self) -> None:
        r = self.result
        ab = self.pair_combo.currentData()
        rows = []
        for d in r.documents:
            p = next((p for p in d.pairs if ab and (p.a, p.b) == tuple(ab)), d.pairs[0])
            t = p.total
            rows.append(
                {
                    "document": d.name,
                    "L": t.L,
                    "M": t.M,
                    "R": t.R,
                    "D": t.D,
                    "d": round(t.d, 4),
                    "study": "⚑" if t.d >= r.study_threshold else "",
                }
            )
        keep = self._current()[0]
        self.doc_model.set_frame(pd.DataFrame(rows))
        fit_columns(self.doc_view, max_width=160)
        row = self.doc_model.row_where("document", keep.name) if keep is not None else -1
        if self.doc_model.rowCount():
            select_row(self.doc_view, max(0, row))
        self._show_document()

    def _current(self):
        r = self.result
        if r is None or not r.documents or not self.doc_model.rowCount():
            return None, None
        row = max(0, self.doc_view.currentIndex().row())
        name = self.doc_model.value(row, "document")
        doc = next((d for d in r.documents if d.name == name), None)
        ab = self.pair_combo.currentData()
        if doc is None:
            return None, None
        pair = next((p for p in doc.pairs if ab and (p.a, p.b) == tuple(ab)), doc.pairs[0])
        return doc, pair

    def _colours(self, pair: Any) -> tuple[dict, dict, dict]:
        colour_a, colour_b = {"S": SINGLETON}, {"S": SINGLETON}
        k = 0
        for r in pair.rows:
            has_a, has_b = r.class_a not in ("-", "S"), r.class_b not in ("-", "S")
            if has_a and has_b and r.M > 0:
                colour = MARKABLE[k % len(MARKABLE)]
                k += 1
                colour_a[r.class_a] = colour
                colour_b[r.class_b] = colour
                continue
            # a class left over (or paired by the matching with one sharing no mention): the
            # same colour would say both annotators marked one entity, so it shows as unmatched
            if has_a:
                colour_a[r.class_a] = UNMATCHED
            if has_b:
                colour_b[r.class_b] = UNMATCHED
        partner = {r.class_a: r.class_b for r in pair.rows if r.class_a != "-"}
        return colour_a, colour_b, partner

    def _show_document(self, selected_row: Any = None) -> None:
        from iaa_desktop.core.kinds.coref.compare import sets_of

        doc, pair = self._current()
        if doc is None or pair is None:
            return
        da, db = doc.docs[pair.a], doc.docs[pair.b]
        sa, na = sets_of(da)
        sb, nb = sets_of(db)
        class_a = {m: n for s, n in zip(sa, na) for m in s}
        class_b = {m: n for s, n in zip(sb, nb) for m in s}
        colour_a, colour_b, partner = self._colours(pair)
        back = {v: k2 for k2, v in partner.items()}
        marks_a = {
            m: "only" if m not in db.mentions else "other"
            for m in da.mentions
            if m not in db.mentions or partner.get(class_a.get(m, "S")) != class_b.get(m, "S")
        }
        marks_b = {
            m: "only" if m not in da.mentions else "other"
            for m in db.mentions
            if m not in da.mentions or back.get(class_b.get(m, "S")) != class_a.get(m, "S")
        }
        sel_a, sel_b = set(), set()
        if selected_row is not None:
            sel_a = {m for s, n in zip(sa, na) if n == selected_row[0] for m in s}
            sel_b = {m for s, n in zip(sb, nb) if n == selected_row[1] for m in s}
        self.label_a.setText(f"<b>{html.escape(pair.a)}</b> — {html.escape(doc.name)}")
        self.label_b.setText(f"<b>{html.escape(pair.b)}</b> — {html.escape(doc.name)}")
        bars = (self.text_a.verticalScrollBar().value(), self.text_b.verticalScrollBar().value())
        other_a = {m: f"{pair.b} {class_b.get(m, 'S')}" for m in da.mentions if m in db.mentions}
        other_b = {m: f"{pair.a} {class_a.get(m, 'S')}" for m in db.mentions if m in da.mentions}
        self.text_a.setHtml(render_document(da, class_a, colour_a, marks_a, sel_a, pair.a, other_a))
        self.text_b.setHtml(render_document(db, class_b, colour_b, marks_b, sel_b, pair.b, other_b))
        if selected_row is None:
            frame = pd.DataFrame([r.to_json() for r in pair.rows])
            frame = frame.sort_values(["d", "D"], ascending=False, kind="stable")
            self.class_model.set_frame(frame)
            self.class_bar.reapply()
            fit_columns(self.class_view, max_width=120)
            return
        self.text_a.verticalScrollBar().setValue(bars[0])
        self.text_b.verticalScrollBar().setValue(bars[1])
        first = sorted(sel_a | sel_b, key=lambda m: m[1])
        if first:
            anchor = f"m{first[0][1]}_{first[0][2]}"
            self.text_a.scrollToAnchor(anchor)
            self.text_b.scrollToAnchor(anchor)

    def _highlight_row(self) -> None:
        idx = self.class_view.currentIndex()
        if not idx.isValid():
            return
        rec = self.class_model.record(idx.row())
        self._show_document((rec["class_a"], rec["class_b"]))
