"""The Settings panel changed with real key presses and clicks, for every kind's example.

Each editor is changed the way a person changes it (combo: arrow keys and Return; spin box: select
all, type, Return; line edit: type, Tab; check box: click), so the editor's own event handler is on
the stack when the change reaches the session and the study is recomputed.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QComboBox

from iaa_desktop.core.study_file import load_study
from iaa_desktop.gui.start_page import examples_dir
from tests.gui import user


def open_example(qtbot, window, folder: str):
    path = next((examples_dir() / folder).glob("*.iaa-study"))
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        window.open_study(load_study(path), path)
    user.click_tab(qtbot, window, "Settings")
    qtbot.waitUntil(lambda: window.settings_panel.isVisible())
    return blocker.args[0]


def test_each_editor_type_survives_a_change_made_by_hand(qtbot, window):
    """The form used to be rebuilt from inside the editor's own handler (a crash in Qt)."""
    first = open_example(qtbot, window, "judgments")
    panel = window.settings_panel
    level = panel.editor("level")
    assert isinstance(level, QComboBox)
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        user.type_number(qtbot, panel.editor("n_resamples"), "500")
    assert window.session.study.options["n_resamples"] == 500
    assert panel.editor("n_resamples").hasFocus()  # the editor the user typed into is still there
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        user.choose(qtbot, level, "nominal")
    nominal = blocker.args[0]
    assert nominal.level == "nominal"
    alpha = "krippendorff_alpha"
    assert nominal.overall[alpha].value != pytest.approx(first.overall[alpha].value, abs=1e-6)
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        user.type_text(qtbot, panel.editor("missing"), "3")
    assert window.session.study.options["missing"] == "3"
    assert window.session.result.n_items != first.n_items or (
        window.session.result.overall[alpha].value != nominal.overall[alpha].value
    )
