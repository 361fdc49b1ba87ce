"""pytest-qt: the inferred label (Dawid & Skene 1979) in the adjudication window: shown above
the unit, and chosen as the automatic merge from the toolbar's list by a person."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore, units_for
from iaa_desktop.core.adjudication.model import Strategy, auto_merge
from iaa_desktop.gui.adjudication import AdjudicationPanel
from tests.core.test_adjudication_inferred import durel_study, multilabel_study
from tests.gui import user


def _panel(qtbot, result, tmp_path: Path) -> AdjudicationPanel:
    session = AdjudicationSession(
        units_for(result), AdjudicationStore.open(tmp_path / "s.adjudication.sqlite")
    )
    panel = AdjudicationPanel(session)
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def test_suggestion_shown_and_inferred_merge_chosen_from_the_list(qtbot, tmp_path) -> None:
    panel = _panel(qtbot, multilabel_study(tmp_path), tmp_path)
    s = panel.session
    m = s.model
    # the unit shown carries its suggestion above the context; nothing decided by it
    i = panel.current
    assert i is not None
    hint = m.suggestion(i)
    assert hint is not None and hint.text.startswith("Dawid–Skene: Complication ")
    assert "Suggested (not decided): " + hint.text in panel.context_view.toPlainText()
    assert not s.is_decided(i) and str(s.strategy) == "unanimous"
    assert panel.decision_label.text() == f"Undecided · suggested (not decided): {hint.text}"
    done = s.progress()[0]
    # the person opens the merge list and picks "inferred label, posterior ≥ 0.90"
    combo = panel.toolbar.strategy_combo
    assert combo.itemText(combo.findData("inferred:0.9")) == "inferred label, posterior ≥ 0.90"
    user.choose(qtbot, combo, "inferred:0.9")
    qtbot.waitUntil(lambda: str(s.strategy) == "inferred:0.9")
    want = auto_merge(m, Strategy.parse("inferred:0.9"))
    assert list(s.auto) == list(want)
    assert s.progress()[0] > done
    for k in range(m.n_units):
        if want[k] is not None:
            assert s.gold[k] == m.suggestion(k).value and m.suggestion(k).posterior >= 0.9
    # and back to the plain inferred label: every unit with a value taken
    user.choose(qtbot, combo, "inferred")
    qtbot.waitUntil(lambda: str(s.strategy) == "inferred")
    assert list(s.gold) == [m.suggestion(k).value for k in range(m.n_units)]


def test_no_inferred_merge_offered_without_competence(qtbot, tmp_path) -> None:
    panel = _panel(qtbot, durel_study(tmp_path, competence=False), tmp_path)
    combo = panel.toolbar.strategy_combo
    assert combo.findData("inferred") < 0 and combo.findData("inferred:0.9") < 0
    assert "Suggested" not in panel.context_view.toPlainText()
