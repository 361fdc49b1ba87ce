"""The pair view (durel and candidates), standalone with pytest-qt, on real results of the kinds."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt

from iaa_desktop.core.kinds.candidates.compare import KIND as CANDIDATES
from iaa_desktop.core.kinds.durel.compare import KIND as DUREL
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.gui.kinds import VIEW_MODULES
from iaa_desktop.gui.kinds.pairs import create_panels
from tests.conftest import FIXTURES, shared_path
from tests.gui import user


@pytest.fixture(scope="module")
def durel_result():
    return run_to_end(DUREL.run([FIXTURES / "durel" / "study"], {}))


@pytest.fixture(scope="module")
def bad_result():
    return run_to_end(DUREL.run([FIXTURES / "durel" / "bad"], {}))


@pytest.fixture(scope="module")
def cand_result():
    return run_to_end(CANDIDATES.run([FIXTURES / "candidates"], {"bayes_draws": 500}))


def _panels(qtbot, result, cache=None):
    ctx = SimpleNamespace(session=None, cache={} if cache is None else cache)
    panels = dict(create_panels(result, ctx))
    for w in panels.values():
        qtbot.addWidget(w)
        w.resize(1400, 900)
        w.show()
    return ctx, panels


def test_registered():
    assert VIEW_MODULES["durel"] == VIEW_MODULES["candidates"] == "iaa_desktop.gui.kinds.pairs"


def test_models_pass_the_model_tester(qtbot, qtmodeltester, durel_result):
    _ctx, panels = _panels(qtbot, durel_result)
    qtmodeltester.check(panels["Pairs"].model)
    qtmodeltester.check(panels["Agreement"].targets_model)
    qtmodeltester.check(panels["Agreement"].summary.model)


def test_durel_pair_is_shown_with_span_shared_words_and_alignment(qtbot, durel_result):
    _ctx, panels = _panels(qtbot, durel_result)
    p = panels["Pairs"]
    assert p.model.rowCount() == 16
    # sorted by severity, most severe first; every annotator's judgment is a column
    sev = np.nan_to_num(p.model.frame["severity"].to_numpy(dtype=float), nan=-1)
    assert (np.diff(sev) <= 0).all()
    assert set(durel_result.annotators) <= set(p.model.columns())
    item = int(
        np.flatnonzero((durel_result.items["id1"] == "u1") & (durel_result.items["id2"] == "u2"))[0]
    )
    assert p.select_item(item)
    d = p.shown
    # the reused passage is bold in the document, emoji kept
    text = p.text_a.toPlainText()
    assert text == d.text_a and "🙏" in text
    bold = [f for f in _formats(p.text_a) if f[1]]
    assert any("Love is patient" in t for t, _b in bold)
    # shared words are boxed and the boxes lie inside the viewport
    assert len(p.text_a.boxes) == sum(k in d.shared for k in d.tokens_a.keys)
    rects = p.text_a.box_rects()
    assert rects and all(r.width() > 0 and r.height() > 0 for r, _c, _d in rects)
    # alignment: the matches are boxed
    assert len(p.alignment.boxes) == 2 * d.alignment.n_matches
    shown = p.judgments.toPlainText()
    assert all(a in shown for a, _v, _c in d.judgments) and "filter" in shown
    p.grab()


def test_next_previous_disagreement_by_keyboard(qtbot, durel_result):
    _ctx, panels = _panels(qtbot, durel_result)
    p = panels["Pairs"]
    user.click_row(qtbot, p.list_view, 0)
    p.list_view.setFocus()
    first = p.current_item()
    qtbot.keyClick(p.list_view, Qt.Key.Key_N)
    second = p.current_item()
    assert second != first
    assert p.model.frame.set_index("#").loc[second, "disagreement"] > 0
    qtbot.keyClick(p.list_view, Qt.Key.Key_P)
    assert p.current_item() == first


def test_filter_by_target_and_selection_survives_recompute(qtbot, durel_result):
    cache: dict = {}
    _ctx, panels = _panels(qtbot, durel_result, cache)
    p = panels["Pairs"]
    combo = p.filters["target"]
    user.choose_text(qtbot, combo, "(Genesis 1 1)")
    assert p.model.rowCount() == 6
    assert set(p.model.frame["target"]) == {"(Genesis 1 1)"}
    user.click_row(qtbot, p.list_view, 2)
    chosen = p.current_item()
    _ctx2, panels2 = _panels(qtbot, durel_result, cache)
    assert panels2["Pairs"] is p
    assert p.current_item() == chosen
    assert p.filters["target"].currentText() == "(Genesis 1 1)"


def test_span_not_matching_is_shown_with_a_warning(qtbot, bad_result):
    _ctx, panels = _panels(qtbot, bad_result)
    p = panels["Pairs"]
    item = int(
        np.flatnonzero((bad_result.items["id1"] == "b1") & (bad_result.items["id2"] == "b4"))[0]
    )
    p.select_item(item)
    assert p.warning.isVisibleTo(p) and "does not match" in p.warning.text()
    bold = [t for t, b in _formats(p.text_b) if b]
    assert bold == ["We looked"]


def test_rtl_text_is_laid_out_right_to_left(qtbot, durel_result):
    _ctx, panels = _panels(qtbot, durel_result)
    p = panels["Pairs"]
    item = int(
        np.flatnonzero((durel_result.items["id1"] == "g1") & (durel_result.items["id2"] == "g3"))[0]
    )
    p.select_item(item)
    assert "בְּרֵאשִׁית" in p.text_b.toPlainText()  # combining marks kept
    assert p.text_b.document().firstBlock().textDirection() == Qt.LayoutDirection.RightToLeft
    assert p.text_a.document().firstBlock().textDirection() == Qt.LayoutDirection.LeftToRight
    assert all(r.width() > 0 for r, _c, _d in p.text_b.box_rects())


def test_candidates_view(qtbot, qtmodeltester, cand_result):
    _ctx, panels = _panels(qtbot, cand_result)
    p = panels["Pairs"]
    assert set(p.filters) == {"method", "known", "overlap_bin"}
    user.choose_text(qtbot, p.filters["method"], "soft-cosine")
    assert set(p.model.frame["method"]) == {"soft-cosine"}
    qtmodeltester.check(panels["Agreement"].factor_model)
    assert panels["Agreement"].factor_model.rowCount() == 2 + 2 + 5
    summary = panels["Agreement"].summary.model
    assert "multi-κ" in summary.data(summary.index(0, 0))
    assert "(L&K)" in summary.frame["interpretation"].iloc[0]


def test_screenshots_of_real_pairs(qtbot, tmp_path):
    """A TRoTR pair with emoji and a candidate pair with its alignment render without error."""
    trotr = run_to_end(DUREL.run([shared_path("trotr")], {}))
    _ctx, panels = _panels(qtbot, trotr)
    p = panels["Pairs"]
    emoji = next(i for i in range(len(trotr.items)) if "😍" in trotr.pair_detail(i).text_a)
    p.select_item(emoji)
    assert p.grab().save(str(tmp_path / "trotr.png"))
    cands = run_to_end(CANDIDATES.run([shared_path("candidates")], {"bayes_draws": 500}))
    _ctx, panels = _panels(qtbot, cands)
    p = panels["Pairs"]
    i = int(cands.pairs.index[cands.pairs["pair_id"] == "P0003"][0])
    p.select_item(i)
    assert p.shown.alignment.steps
    assert p.grab().save(str(tmp_path / "candidate.png"))
    assert panels["Agreement"].grab().save(str(tmp_path / "agreement.png"))


def _formats(view):
    """(text, bold) of every fragment of the view's document."""
    out = []
    block = view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            out.append((frag.text(), frag.charFormat().fontWeight() >= 700))
            it += 1
        block = block.next()
    return out


def test_the_wheel_scrolls_a_tall_chart_and_its_legend_is_on_top(qtbot):
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication, QScrollArea

    from iaa_desktop.core.kinds.durel.charts import targets_figure
    from iaa_desktop.gui.kinds.pairs.agreement import TALL, canvas
    from tests.core.test_chart_layout import _result

    fig = targets_figure(_result(42), width=4.0)
    assert fig.get_figheight() > TALL
    area = QScrollArea()
    area.setWidgetResizable(True)
    c = canvas(fig)
    area.setWidget(c)
    qtbot.addWidget(area)
    area.resize(500, 400)
    area.show()
    qtbot.waitExposed(area)
    legend = fig.axes[0].get_legend()
    assert legend.get_bbox_to_anchor().y0 >= fig.axes[0].bbox.y1 - 1  # above the plot
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == 0
    pos = QPointF(50, 50)
    wheel = QWheelEvent(
        pos,
        QPointF(c.mapToGlobal(QPoint(50, 50))),
        QPoint(0, 0),
        QPoint(0, -120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(c, wheel)
    assert bar.value() > 0


def test_every_annotators_judgment_is_in_view(qtbot):
    from iaa_desktop.core.progress import run_to_end as run

    result = run(DUREL.run([shared_path("trotr")], {}))
    _ctx, panels = _panels(qtbot, result)
    p = panels["Pairs"]
    p.resize(1000, 700)
    qtbot.wait(50)
    view, model = p.list_view, p.model
    ch = view.fontMetrics().averageCharWidth()
    right = max(
        view.columnViewportPosition(model.column_of(str(a)))
        + view.columnWidth(model.column_of(str(a)))
        for a in result.annotators
    )
    assert len(result.annotators) == 4
    assert right <= view.viewport().width()  # the fourth annotator without scrolling
    for a in result.annotators:
        assert view.columnWidth(model.column_of(str(a))) >= ch * 3
