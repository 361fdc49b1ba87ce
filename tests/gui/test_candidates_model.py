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
    panel.choice.setCurrentText("m")
    panel.chains.setValue(2)
    panel.warmup.setValue(3000)
    panel.draws.setValue(3000)
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(20)
    panel.fit_button.click()
    assert panel.running and not panel.fit_button.isEnabled() and panel.cancel_button.isEnabled()
    # the first chunks of draws arrive while the event loop keeps running
    qtbot.waitUntil(lambda: panel.progress.value() > 0, timeout=300_000)
    n_ticks = len(ticks)
    qtbot.wait(300)
    assert len(ticks) > n_ticks  # the GUI thread was not blocked by the sampler
    worker = panel.tasks.worker
    panel.cancel_button.click()
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
    panel.choice.setCurrentText("m")
    panel.chains.setValue(1)
    panel.warmup.setValue(100)
    panel.draws.setValue(100)
    panel.fit_button.click()
    qtbot.waitUntil(lambda: not panel.running, timeout=600_000)
    assert panel.model_results is not None, panel.status.text()
    assert panel.elpd_model.rowCount() == 1 and panel.kappa_model.rowCount() >= 1
    assert panel.figures.widget() is not None
    assert "A_e" in panel.status.text() and "One chain only" in panel.status.text()
    assert cand_result.model is panel.model_results  # the report will include the model
    # a new panel (the study reopened) shows the cached fit without fitting
    other = ModelPanel()
    qtbot.addWidget(other)
    other.cache_dir = panel.cache_dir
    for name, value in (("chains", 1), ("warmup", 100), ("draws", 100)):
        getattr(other, name).setValue(value)
    other.choice.setCurrentText("m")
    fresh = run_to_end(CANDIDATES.run([FIXTURES / "candidates"], {"bayes_draws": 200}))
    other.set_result(fresh)
    qtbot.waitUntil(lambda: other.model_results is not None, timeout=60_000)
    assert all(f.cached for f in other.model_results.fits.values())
    cand_result.model = None


def test_large_studies_get_the_variational_preview_offered(qtbot, panel, cand_result, monkeypatch):
    from iaa_desktop.core.kinds.candidates.model import results

    monkeypatch.setattr(results, "LARGE_OUTCOMES", 10)
    panel._suggest_preview(cand_result)
    assert panel.method.currentText() == "variational"
    assert "pairwise outcomes" in panel.status.text() and "nuts" in panel.status.text()
