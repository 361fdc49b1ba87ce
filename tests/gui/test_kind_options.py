"""Changing the kind in the settings panel keeps the settings the new kind shares and brings back
what the user set for that kind before (remembered in QSettings, across windows)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.kinds.spec import Setting
from iaa_desktop.gui.app import create_main_window
from iaa_desktop.gui.kind_options import MISSING, carried_options, coerce
from tests.gui import user

RATINGS = "item,coder,label\n1,a,1\n1,b,1\n2,a,2\n2,b,3\n3,a,3\n3,b,3\n4,a,4\n4,b,2\n"


def test_shared_settings_keep_their_values_others_are_recalled_or_default():
    old = [
        Setting("level", "", "nominal", str, ("nominal", "ordinal", "ratio")),
        Setting("seed", "", 0, int),
        Setting("scale", "", ""),
    ]
    new = [
        Setting("level", "", "ordinal", str, ("ordinal", "nominal")),
        Setting("seed", "", 0.0, float),
        Setting("top", "", 100, int),
        Setting("bins", "", 5, int),
    ]
    got = carried_options(old, new, {"level": "nominal", "seed": 7, "scale": "1-5"}, {"top": "12"})
    # level: same name and type, a value the new kind accepts; seed: another type, not carried;
    # top: remembered (as the settings file gives it back, a string); bins: default (left out)
    assert got == {"level": "nominal", "top": 12}
    # a value the new kind does not accept is not carried (its remembered one is used instead)
    got = carried_options(old, new, {"level": "ratio"}, {"level": "nominal"})
    assert got == {"level": "nominal"}


@pytest.mark.parametrize(
    ("setting", "raw", "value"),
    [
        (Setting("b", "", False, bool), "true", True),
        (Setting("b", "", False, bool), "false", False),
        (Setting("b", "", False, bool), "maybe", MISSING),
        (Setting("i", "", 0, int), "42", 42),
        (Setting("i", "", 0, int), "4.5", MISSING),
        (Setting("f", "", 0.0, float), "0.25", 0.25),
        (Setting("f", "", 0.0, float), 3, 3.0),
        (Setting("c", "", "a", str, ("a", "b")), "c", MISSING),
        (Setting("c", "", "a", str, ("a", "b")), "b", "b"),
    ],
)
def test_remembered_values_are_read_back_as_their_setting_takes_them(setting, raw, value):
    got = coerce(setting, raw)
    assert got is value if value is MISSING else (got == value and type(got) is type(value))


def _choose_kind(qtbot, window, kind: str | None) -> None:
    with qtbot.waitSignal(window.session.study_changed, timeout=10000):
        user.choose(qtbot, window.settings_panel.kind_combo, kind)


def test_changing_the_kind_keeps_shared_settings_and_recalls_the_rest(qtbot, tmp_path, settings):
    data = tmp_path / "ratings.csv"
    data.write_text(RATINGS, encoding="utf-8")
    w = create_main_window(settings=settings, data_dir=tmp_path / "user-data")
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.session.results_ready, timeout=60000):
        w.open_inputs([data], "table", {"interval": "none"})
    panel = w.settings_panel
    user.click_tab(qtbot, w, "Settings")
    # the user sets three table settings; two of them (level, encoding) the graded-pairs kind has
    user.choose(qtbot, panel.editor("level"), "interval")
    user.type_text(qtbot, panel.editor("encoding"), "utf-8")
    user.type_number(qtbot, panel.editor("seed"), "11")
    qtbot.waitUntil(lambda: w.session.study.options.get("seed") == 11)
    _choose_kind(qtbot, w, "durel")
    options = w.session.study.options
    assert w.session.study.kind == "durel"
    assert options["level"] == "interval" and options["encoding"] == "utf-8"
    assert "seed" not in options and "interval" not in options
    assert panel.editor("level").currentText() == "interval"  # the form shows them
    # back to the table: level and encoding carried, seed as the user set it for the table
    _choose_kind(qtbot, w, "table")
    options = w.session.study.options
    assert options["level"] == "interval" and options["seed"] == 11
    assert "interval" not in options  # given when opening, never set in the panel: its default
    w.session.cancel()
    # a new window (same settings file) recalls what was set for the table kind
    settings.sync()
    w2 = create_main_window(settings=QSettings(settings.fileName(), QSettings.Format.IniFormat))
    qtbot.addWidget(w2)
    assert w2.kind_memory.recall("table")["seed"] in (11, "11")
    got = carried_options([], get_kind("table").settings, {}, w2.kind_memory.recall("table"))
    assert got == {"level": "interval", "encoding": "utf-8", "seed": 11}


def test_detect_from_the_inputs_starts_from_the_defaults(qtbot, tmp_path, settings):
    data = tmp_path / "ratings.csv"
    data.write_text(RATINGS, encoding="utf-8")
    w = create_main_window(settings=settings, data_dir=Path(tmp_path / "user-data"))
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.session.results_ready, timeout=60000):
        w.open_inputs([data], "table", {"interval": "none", "level": "ordinal"})
    user.click_tab(qtbot, w, "Settings")
    _choose_kind(qtbot, w, None)
    assert w.session.study.kind is None and w.session.study.options == {}
    w.session.cancel()
