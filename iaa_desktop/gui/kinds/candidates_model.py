"""The "Model" tab of candidate-pair studies: the hierarchical agreement model on demand.

Choose the models (the five nested ones, one of them, or a custom one with fixed effects and
varying intercepts among the study's factors), press *Fit*: the fit runs in a worker thread as a
generator (:func:`iaa_desktop.core.kinds.candidates.model.results.fit_models`) that yields after
every chunk of draws, so the progress bar moves per chunk and *Cancel* stops it at the next chunk
(the generator is simply not resumed). Results are cached in the user's cache folder; when a study
is opened again the cached fits of the chosen models are shown without refitting. The finished
results are attached to the study's result, so an exported report includes the model section.
"""

from __future__ import annotations

import html
import time
from typing import Any

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from iaa_desktop.core.kinds.candidates.model import INSTALL_HINT, missing_packages
from iaa_desktop.core.kinds.candidates.model.settings import MODEL_CHOICES
from iaa_desktop.gui.widgets.frame_model import DataFrameModel

CACHE_KEY = "candidates-model"
#: the model fitted unless the user asks for another (the full one of the five; "all" compares
#: the five by PSIS-LOO and takes about five times as long)
DEFAULT_MODEL = "m.klMB"


#: the pace is measured over at least this many seconds (a sampler may report a whole phase of
#: draws at once when it ends)
MIN_SPAN_S = 3.0


class FitClock:
    """The time a fit has left, estimated from the pace of its draws: the first chunk (which
    includes compiling and tuning the sampler) is left out, the pace of the chunks after it
    gives the rest; no estimate before the pace was seen over :data:`MIN_SPAN_S` seconds."""

    def __init__(self, now: float) -> None:
        self.start = now
        self.first: tuple[float, float] | None = None  # (time, fraction) at the first chunk
        self.last: tuple[float, float] | None = None

    def update(self, now: float, fraction: float) -> None:
        if fraction <= 0:
            return
        if self.first is None:
            self.first = (now, fraction)
        self.last = (now, fraction)

    def remaining(self) -> float | None:
        """Seconds left, or None before the pace is known."""
        if self.first is None or self.last is None:
            return None
        (t0, f0), (t1, f1) = self.first, self.last
        if f1 <= f0 or t1 - t0 < MIN_SPAN_S:
            return None
        return (1.0 - f1) * (t1 - t0) / (f1 - f0)

    def text(self) -> str:
        left = self.remaining()
        if left is None:
            return "estimating the time from the first draws…"
        if left < 90:
            return f"about {max(5, round(left / 5) * 5):.0f} s left"
        return f"about {left / 60:.0f} min left"


def cache_folder() -> str:
    """The user's cache folder for fitted models (Qt's standard location)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation)
    return f"{base}/candidates-model"


def _fit_run(gen: int, result: Any, opts: dict[str, Any], cache_dir: str, cache_only: bool):
    """The worker's generator: resolve the models and fit them (nothing here touches Qt).

    Everything it sends carries its generation, so the panel can drop what a cancelled run sends.
    """
    from iaa_desktop.core.kinds.candidates.model.results import fit_models, resolve_specs
    from iaa_desktop.core.kinds.candidates.model.settings import sampler_settings

    try:
        specs = resolve_specs(opts["model"], list(result.factors), opts["fixed"], opts["varying"])
        run = fit_models(
            result.pairs,
            result.annotators,
            result.categories,
            specs,
            sampler_settings(opts),
            cache_dir,
            cache_only=cache_only,
        )
        while True:
            try:
                p = next(run)
            except StopIteration as stop:
                return gen, cache_only, stop.value
            yield gen, p
    except BaseException as e:
        e.iaa_generation = gen  # type: ignore[attr-defined]
        raise


def _view(model: DataFrameModel) -> QTableView:
    """The app's table view (copy and CSV/XLSX export in its context menu)."""
    from iaa_desktop.gui.widgets.table_view import make_table

    return make_table(model, sortable=False, name="agreement_model")


class ModelPanel(QWidget):
    """Fit button, progress per chunk, Cancel, and the model's tables and figures."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: Any = None
        self.model_results: Any = None
        self._worker: Any = None
        self._generation = 0
        self.cache_dir = cache_folder()
        self.choice = QComboBox()
        self.choice.addItems([c for c in MODEL_CHOICES if c != "none"])
        self.choice.setCurrentText(DEFAULT_MODEL)
        self.choice.setToolTip(
            f"{DEFAULT_MODEL}: the full model alone; 'all' compares the five nested models "
            "(about five times as long)"
        )
        self._clock: FitClock | None = None
        self.fixed = QLineEdit(placeholderText="fixed effects, e.g. known, overlap")
        self.varying = QLineEdit(placeholderText="varying intercepts, e.g. book")
        self.draws = QSpinBox(minimum=50, maximum=20000, singleStep=250, value=1000)
        self.warmup = QSpinBox(minimum=50, maximum=20000, singleStep=250, value=1000)
        self.chains = QSpinBox(minimum=1, maximum=16, value=4)
        self.seed = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        self.method = QComboBox()
        self.method.addItems(["nuts", "variational"])
        self.fit_button = QPushButton("Fit")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setFormat("%p%")  # what is being done is in the status line below
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.fit_button.clicked.connect(self.start_fit)
        self.cancel_button.clicked.connect(self.cancel)
        self.choice.currentTextChanged.connect(self._on_choice_changed)
        row = self._controls_row()
        from iaa_desktop.core.kinds.candidates.model.report import ELPD_HEADERS, KAPPA_HEADERS

        self.elpd_model = DataFrameModel(parent=self, digits=2, headers=ELPD_HEADERS)
        self.kappa_model = DataFrameModel(parent=self, headers={"table": "Table", **KAPPA_HEADERS})
        self.coef_model = DataFrameModel(parent=self, digits=2)
        self.views: list[QTableView] = []
        left = QSplitter(Qt.Orientation.Vertical)
        self.kappa_reason = QLabel()  # why it is not the headline's multi-κ, beside the number
        self.kappa_reason.setWordWrap(True)
        self.kappa_reason.setStyleSheet("color: #444")
        for title, m in (
            ("Model comparison (PSIS-LOO)", self.elpd_model),
            ("Posterior multi-κ (overlap at its mean)", self.kappa_model),
            ("Coefficients, standard deviations, correlations", self.coef_model),
        ):
            box = QWidget()
            v = QVBoxLayout(box)
            v.setContentsMargins(0, 0, 0, 0)
            v.addWidget(QLabel(f"<b>{title}</b>"))
            if m is self.kappa_model:
                v.addWidget(self.kappa_reason)
            view = _view(m)
            self.views.append(view)
            v.addWidget(view, 1)
            left.addWidget(box)
        left.setSizes([200, 300, 230])
        self.figures = QScrollArea()
        self.figures.setWidgetResizable(True)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.figures)
        split.setSizes([640, 640])
        lay = QVBoxLayout(self)
        lay.addLayout(row)
        lay.addWidget(self.status)
        lay.addWidget(split, 1)
        self._on_choice_changed(self.choice.currentText())
        missing = missing_packages()
        if missing:
            self.fit_button.setEnabled(False)
            self.status.setText(f"<b>The agreement model is not available.</b> {INSTALL_HINT}")

    def _controls_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        for label, w in (
            ("Models", self.choice),
            ("", self.fixed),
            ("", self.varying),
            ("chains", self.chains),
            ("warm-up", self.warmup),
            ("draws", self.draws),
            ("seed", self.seed),
            ("", self.method),
        ):
            if label:
                row.addWidget(QLabel(label))
            row.addWidget(w)
        row.addWidget(self.fit_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress, 1)
        return row

    # ------------------------------------------------------------------ state

    def options(self) -> dict[str, Any]:
        return {
            "model": self.choice.currentText(),
            "fixed": self.fixed.text(),
            "varying": self.varying.text(),
            "model_chains": self.chains.value(),
            "model_warmup": self.warmup.value(),
            "model_draws": self.draws.value(),
            "model_seed": self.seed.value(),
            "model_method": self.method.currentText(),
        }

    @property
    def running(self) -> bool:
        return self._worker is not None

    def set_result(self, result: Any) -> None:
        """A new result of the study: show its cached fits, if any (nothing is fitted)."""
        if result is self.result:
            return
        self.cancel()
        self.result = result
        self.model_results = getattr(result, "model", None)
        self._suggest_preview(result)
        if self.model_results is not None:
            self._show(self.model_results)
        elif not missing_packages():
            self._start(cache_only=True)

    def _suggest_preview(self, result: Any) -> None:
        """Large studies: say that NUTS takes long and offer the variational preview."""
        from iaa_desktop.core.kinds.candidates.model.results import LARGE_OUTCOMES

        labelled = (result.pairs[list(result.annotators)].astype(str) != "").sum(axis=1)
        n = int((labelled * (labelled - 1) // 2).sum())
        if n > LARGE_OUTCOMES:
            self.method.setCurrentText("variational")
            self.status.setText(
                f"{n:,} pairwise outcomes: the full sampler (nuts) takes long on a study this "
                "large. The variational preview is selected for a first look; choose nuts for "
                "the intervals you report."
            )

    def _on_choice_changed(self, text: str) -> None:
        self.fixed.setVisible(text == "custom")
        self.varying.setVisible(text == "custom")

    # ------------------------------------------------------------------ the worker

    def start_fit(self) -> None:
        self._start(cache_only=False)

    def _start(self, cache_only: bool) -> None:
        from superqt.utils import create_worker

        if self.result is None:
            return
        self.cancel()
        self._generation += 1
        gen = self._generation
        worker = create_worker(
            _fit_run,
            gen,
            self.result,
            self.options(),
            self.cache_dir,
            cache_only,
            _start_thread=False,
            _ignore_errors=True,
        )
        # bound methods, not lambdas: Qt drops the connections if the panel is destroyed first
        worker.yielded.connect(self._on_progress)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        worker.finished.connect(self._on_finished)
        self._worker = worker
        if not cache_only:
            self.fit_button.setEnabled(False)
            self.cancel_button.setEnabled(True)
            self.progress.setValue(0)
            self.progress.setFormat("%p%")
            self._clock = FitClock(time.monotonic())
            self.status.setText(
                f"Fitting {html.escape(self.choice.currentText())}… {self._clock.text()}"
            )
        worker.start()

    def cancel(self) -> None:
        """Stop the fit: the generator is not resumed after the chunk it is in."""
        if self._worker is None:
            return
        self._generation += 1
        self._worker.quit()
        self._worker = None
        self.fit_button.setEnabled(not missing_packages())
        self.cancel_button.setEnabled(False)
        self.progress.setValue(0)
        self._clock = None
        self.status.setText("Cancelled.")

    def _on_progress(self, item: tuple) -> None:
        gen, p = item
        if gen != self._generation:
            return
        self.progress.setValue(int(1000 * p.fraction))
        self.progress.setTextVisible(True)
        if self._clock is not None:  # a fit (not a look into the cache)
            self._clock.update(time.monotonic(), p.fraction)
            self.status.setText(f"{html.escape(p.message)} — {self._clock.text()}")

    def _on_returned(self, item: tuple) -> None:
        gen, cache_only, results = item
        if gen != self._generation:
            return
        if results is None:
            if cache_only:
                self.status.setText(
                    f"Press Fit to fit the agreement model ({DEFAULT_MODEL}, the full model; "
                    "'all' compares the five). The time it takes is estimated from its first "
                    "draws and shown while it runs."
                )
            return
        self.model_results = results
        if self.result is not None:
            self.result.model = results  # the exported report includes the model section
        self._show(results)

    def _on_errored(self, exc: BaseException) -> None:
        if getattr(exc, "iaa_generation", None) != self._generation:
            return
        self.status.setText(f"<b>The fit failed:</b> {exc}")

    def _on_finished(self) -> None:
        if self._worker is not None and self.sender() is self._worker.signals:
            self._worker = None
            self.fit_button.setEnabled(not missing_packages())
            self.cancel_button.setEnabled(False)

    # ------------------------------------------------------------------ showing results

    def _kappa_reason(self, results: Any) -> str:
        """Why the model's multi-κ is not the headline's (written next to the number)."""
        headline = dict(self.result.headline()) if self.result is not None else {}
        observed = next((v for k, v in headline.items() if "multi-κ" in str(k)), None)
        than = f" (the status bar's {observed})" if observed is not None else ""
        return (
            f"Not the headline multi-κ{than}: that one is the agreement observed over every "
            "pair of the data; this one is the model's prediction for a typical pair, with the "
            "lexical overlap at its mean and, with varying intercepts, a new book, against the "
            f"chance agreement of the whole data set (A_e = {results.chance_eq8:.3f}, Eq. 8)."
        )

    def _show(self, results: Any) -> None:
        import pandas as pd

        from iaa_desktop.core.kinds.candidates.model.report import KAPPA_HEADERS
        from iaa_desktop.core.kinds.candidates.model.tables import kappa_frame

        tables = results.tables()
        fit = results.main
        cmp = tables["model_elpd"]
        self.elpd_model.set_frame(
            cmp[["model", "elpd", "se", "p_loo", "elpd_diff", "se_diff", "pareto_k_bad"]]
        )
        kf = kappa_frame(results)
        self.kappa_model.set_frame(kf[["table", *KAPPA_HEADERS]])
        coef = tables["model_coefficients"]
        coef = coef[coef["model"] == fit.spec.name][["term", "logit", "median", "low95", "high95"]]
        corr = tables["model_correlations"]
        if len(corr):
            corr = corr[corr["model"] == fit.spec.name]
            corr = corr.rename(columns={"factor": "term", "logits": "logit"})
            coef = pd.concat([coef, corr[["term", "logit", "median", "low95", "high95"]]])
        self.coef_model.set_frame(coef)
        for view in self.views:
            view.resizeColumnsToContents()
        warnings = results.warnings()
        cached = " (from the cache)" if all(f.cached for f in results.fits.values()) else ""
        text = (
            f"Best model: <b>{html.escape(fit.spec.name)}</b>{cached} · "
            f"<code>{html.escape(fit.spec.formula())}</code> · chance agreement A_e = "
            f"{results.chance_eq8:.3f} (Eq. 8, whole data set; “cond” columns: each condition's "
            "own). Intervals with varying intercepts draw a new book per draw: wide, and can go "
            "below 0."
        )
        if warnings:
            text += (
                "<br><span style='color:#b00020'><b>Check:</b> "
                + "<br>".join(html.escape(w) for w in warnings[:2])
                + (f" (and {len(warnings) - 2} more: see the report)" if len(warnings) > 2 else "")
                + "</span>"
            )
        self.status.setText(text)
        self.kappa_reason.setText(self._kappa_reason(results))
        self.progress.setValue(1000)
        self.progress.setFormat("done")
        self._clock = None
        self._show_figures(results)

    def _show_figures(self, results: Any) -> None:
        from iaa_desktop.core.kinds.candidates.model import charts
        from iaa_desktop.gui import presentation
        from iaa_desktop.gui.widgets.chart_canvas import chart_canvas

        fit = results.main
        figs = [charts.kappa_forest_figure(fit, width=6.2)]
        if fit.curves:
            figs.append(charts.kappa_curves_figure(fit, width=6.2, row_height=1.4))
        if len(results.fits) > 1:
            figs.append(charts.elpd_figure(results.comparison(), width=6.2))
        box = QWidget()
        v = QVBoxLayout(box)
        for fig in figs:
            v.addWidget(chart_canvas(fig, min_width_share=0.85))  # the pane scrolls
        v.addStretch(1)
        self.figures.setWidget(box)
        presentation.rescale(box)  # at the zoom of the window


def model_panel(result: Any, context: Any) -> ModelPanel:
    """The Model tab for a candidates result (one widget kept across results in the cache)."""
    cache = getattr(context, "cache", None)
    panel = cache.get(CACHE_KEY) if isinstance(cache, dict) else None
    if not isinstance(panel, ModelPanel):
        panel = ModelPanel()
        if isinstance(cache, dict):
            cache[CACHE_KEY] = panel
    panel.set_result(result)
    return panel
