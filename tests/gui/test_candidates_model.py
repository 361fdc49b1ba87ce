"""The Model tab of candidate-pair studies: a fit runs in a worker, the window stays responsive,
Cancel takes effect at the next chunk of draws, and a finished fit shows its tables and figures."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QStandardPaths, QTimer

from iaa_desktop.core.kinds.candidates.compare import KIND as CANDIDATES
from iaa_desktop.core.kinds.candidates.model import available
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.gui.kinds.candidates_model import ModelPanel
from iaa_desktop.gui.kinds.pairs import create_panels
from tests.conftest import FIXTURES
from tests.gui import user

needs_model = pytest.mark.skipif(not available(), reason="the optional model packages are absent")


@pytest.fixture(scope="module")
def cand_result():
    return run_to_end(CANDIDATES.run([FIXTURES / "candidates"], {"bayes_draws": 200}))


@pytest.fixture
def panel(qtbot, tmp_path):
    QStandardPaths.setTestModeEnabled(True)
    p = ModelPanel()
    p.cache_dir = str(tmp_path / "cache")
    qtbot.addWidget(p)
    p.resize(1280, 720)
    p.show()
    return p


def test_candidates_studies_get_a_model_tab(qtbot, cand_result):
    ctx = SimpleNamespace(session=None, cache={})
    tabs = dict(create_panels(cand_result, ctx))
    for w in tabs.values():
        qtbot.addWidget(w)
    assert list(tabs) == ["Pairs", "Agreement", "Model"]
    assert isinstance(tabs["Model"], ModelPanel)
    # the same widget serves the next result of the study
    assert dict(create_panels(cand_result, ctx))["Model"] is tabs["Model"]
    if not available():
        assert not tabs["Model"].fit_button.isEnabled()
        assert "pip install" in tabs["Model"].status.text()


@needs_model
def test_fit_is_cancelled_promptly_and_the_gui_stays_responsive(qtbot, panel, cand_result):
    panel.set_result(cand_result)
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)  # the cache look-up
    user.choose_text(qtbot, panel.choice, "m")
    user.type_number(qtbot, panel.chains, "2")
    user.type_number(qtbot, panel.warmup, "3000")
    user.type_number(qtbot, panel.draws, "3000")
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(20)
    user.press(qtbot, panel.fit_button)
    assert panel.running and not panel.fit_button.isEnabled() and panel.cancel_button.isEnabled()
    # the first chunks of draws arrive while the event loop keeps running
    qtbot.waitUntil(lambda: panel.progress.value() > 0, timeout=300_000)
    n_ticks = len(ticks)
    qtbot.wait(300)
    assert len(ticks) > n_ticks  # the GUI thread was not blocked by the sampler
    worker = panel.tasks.worker
    user.press(qtbot, panel.cancel_button)
    # the panel is idle at once; the worker stops at the end of its chunk, not after 12,000 draws
    assert not panel.running and panel.fit_button.isEnabled()
    assert panel.status.text() == "Cancelled."
    qtbot.waitUntil(lambda: not worker.is_running, timeout=300_000)
    assert panel.model_results is None and getattr(cand_result, "model", None) is None
    timer.stop()


@needs_model
def test_finished_fit_shows_tables_and_figures_and_is_cached(qtbot, panel, cand_result):
    panel.set_result(cand_result)
    qtbot.waitUntil(lambda: not panel.running, timeout=60_000)
    user.choose_text(qtbot, panel.choice, "m")
    user.type_number(qtbot, panel.chains, "1")
    user.type_number(qtbot, panel.warmup, "100")
    user.type_number(qtbot, panel.draws, "100")
    user.press(qtbot, panel.fit_button)
    qtbot.waitUntil(lambda: not panel.running, timeout=600_000)
    assert panel.model_results is not None, panel.status.text()
    assert panel.elpd_model.rowCount() == 1 and panel.kappa_model.rowCount() >= 1
    assert panel.figures.widget() is not None
    assert "A_e" in panel.status.text() and "One chain only" in panel.status.text()
    # the reason the model's κ is not the status bar's multi-κ, next to the number
    assert "Not the headline multi-κ" in panel.kappa_reason.text()
    assert panel.kappa_reason.isVisible()
    assert cand_result.model is panel.model_results  # the report will include the model
    # a new panel (the study reopened) shows the cached fit without fitting
    other = ModelPanel()
    qtbot.addWidget(other)
    other.show()
    other.cache_dir = panel.cache_dir
    for name, value in (("chains", "1"), ("warmup", "100"), ("draws", "100")):
        user.type_number(qtbot, getattr(other, name), value)
    user.choose_text(qtbot, other.choice, "m")
    fresh = run_to_end(CANDIDATES.run([FIXTURES / "candidates"], {"bayes_draws": 200}))
    other.set_result(fresh)
    qtbot.waitUntil(lambda: other.model_results is not None, timeout=60_000)
    assert all(f.cached for f in other.model_results.fits.values())
    cand_result.model = None


def test_large_studies_get_the_variational_preview_offered(qtbot, panel, cand_result, monkeypatch):
    from iaa_desktop.core.kinds.candidates.model import results

    monkeypatch.setattr(results, "LARGE_OUTCOMES", 10)
    panel.set_result(cand_result)  # the window gives the panel a large study
    assert panel.method.currentText() == "variational"
    assert "pairwise outcomes" in panel.status.text() and "nuts" in panel.status.text()


def test_the_full_model_alone_is_fitted_unless_asked(qtbot, panel) -> None:
    assert panel.choice.currentText() == "m.klMB"


def test_the_time_left_comes_from_the_pace_after_the_first_chunk() -> None:
    from iaa_desktop.gui.kinds.candidates_model import FitClock

    clock = FitClock(0.0)
    assert clock.remaining() is None and "estimating" in clock.text()
    clock.update(30.0, 0.05)  # the first chunk: compiling and tuning included
    assert clock.remaining() is None
    clock.update(30.01, 0.1)  # a phase of draws reported at once when it ends: no pace yet
    assert clock.remaining() is None
    clock.update(40.0, 0.15)  # then 10 % in 10 s: 85 s for the remaining 85 %
    assert clock.remaining() == pytest.approx(85.0)
    assert clock.text() == "about 85 s left"
    clock.update(400.0, 0.5)
    assert clock.text() == "about 7 min left"  # 0.45 in 370 s: 411 s for the last half
