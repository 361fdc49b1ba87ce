"""How the PDF report is rendered: charts drawn once, one layout, chart text kept as text only
where the PDF engine draws it right, one font configuration."""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from iaa_desktop.core.export import html_blocks as B
from iaa_desktop.core.export import pdf as P
from iaa_desktop.core.export import report as R
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.core.study_file import load_study
from tests.conftest import FIXTURES

EXAMPLES = Path(R.__file__).resolve().parents[2] / "resources" / "examples"


def _need_weasyprint() -> None:
    pytest.importorskip("weasyprint")
    if shutil.which("pdfinfo") is None:
        pytest.skip("pdfinfo (poppler-utils) is not installed")


@lru_cache(maxsize=4)
def _example(name: str):
    from iaa_desktop.core.kinds import detect_kind, get_kind

    (study_path,) = sorted((EXAMPLES / name).glob("*.iaa-study"))
    study = load_study(study_path)
    kind = study.kind or detect_kind(list(study.inputs))
    return run_to_end(get_kind(kind).run(list(study.inputs), study.options))


def _pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def _svg_of(figure_html: str) -> str:
    data = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', figure_html).group(1)
    return base64.b64decode(data).decode("utf-8")


def test_plain_chart_text_stays_text_and_right_to_left_text_is_drawn_by_matplotlib():
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    def chart(labels):
        fig = Figure(figsize=(3, 2), layout="constrained")
        ax = fig.add_subplot(111)
        ax.bar(range(len(labels)), [1, -2, 3][: len(labels)])
        ax.set_xticks(range(len(labels)), labels=labels)
        ax.set_title("Cohen's κ − pairs")
        return fig

    plain = _svg_of(B.figure_html(chart(["A1–A2", "A1–A3", "café"])))
    assert "<text" in plain  # drawn with the font by the PDF engine
    for labels in (["שלום", "b"], ["مرحبا", "b"], ["vn\u0304", "b"]):
        svg = _svg_of(B.figure_html(chart(labels)))
        assert "<text" not in svg, labels  # outlines laid out by matplotlib (bidi, shaping)
    assert not B._plain_text_only(chart(["$x^2$", "b"]))  # mathtext: outlines too
    assert not B._plain_char("🙂") and B._plain_char("−") and B._plain_char("κ")


def test_charts_are_drawn_once_and_the_document_laid_out_once(tmp_path, monkeypatch):
    _need_weasyprint()
    from matplotlib.figure import Figure

    result = _example("normalization")
    drawn, layouts = [], []
    savefig, render = Figure.savefig, P.render
    monkeypatch.setattr(Figure, "savefig", lambda *a, **k: drawn.append(1) or savefig(*a, **k))
    monkeypatch.setattr(P, "render", lambda *a, **k: layouts.append(1) or render(*a, **k))
    pdf = tmp_path / "report.pdf"
    R.write_report(result, pdf_path=pdf, paper="a4")
    n_charts = len(drawn)
    assert n_charts > 0 and len(layouts) == 1 and _pages(pdf) > 1
    # the charts of the PDF are the charts of the report (each drawn once, none twice)
    drawn.clear()
    built = R.build_report(result, R.ReportContext(paper="a4"))
    assert len(drawn) == n_charts == built.html.count('<figure class="chart">')


def test_one_font_configuration_serves_every_layout():
    pytest.importorskip("weasyprint")
    doc = "<html><body><p>κ = 0.61 שלום</p></body></html>"
    first = P.render(doc)
    assert P._font_config() is P._font_config()
    second = P.render(doc)
    assert len(first.pages) == len(second.pages) == 1
    assert P.pdf_bytes(second).startswith(b"%PDF")


def test_only_cells_with_a_very_long_word_may_break_anywhere():
    assert 'class="nw"' in B.text_cell("MEDIUM")
    assert "brk" not in B.text_cell("a sentence of several ordinary words")
    assert 'class="brk"' in B.text_cell("data/" + "x" * 40 + ".tsv")
    css = (Path(R.__file__).resolve().parents[2] / "resources" / "report.css").read_text()
    assert "td.brk { overflow-wrap: anywhere; }" in css


def test_rtl_fixture_pdf_still_renders(tmp_path):
    _need_weasyprint()
    from iaa_desktop.core.kinds import get_kind

    result = run_to_end(
        get_kind("table").run([FIXTURES / "report" / "rtl_emoji.tsv"], {"interval": "none"})
    )
    pdf = tmp_path / "rtl.pdf"
    R.write_report(result, pdf_path=pdf)
    assert _pages(pdf) >= 1
