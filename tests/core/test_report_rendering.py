"""How the PDF report is rendered: charts drawn once, one typesetting pass, chart text kept as
text only where the PDF engine draws it right, the HTML written as Typst without ever reading
the data as markup."""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from iaa_desktop.core.export import html_blocks as B
from iaa_desktop.core.export import report as R
from iaa_desktop.core.export import typst_pdf as T
from iaa_desktop.core.progress import run_to_end
from iaa_desktop.core.study_file import load_study
from tests.conftest import FIXTURES

EXAMPLES = Path(R.__file__).resolve().parents[2] / "resources" / "examples"


def _need_typst() -> None:
    pytest.importorskip("typst")
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
    _need_typst()
    from matplotlib.figure import Figure

    result = _example("normalization")
    drawn, layouts = [], []
    savefig, typeset = Figure.savefig, T.pdf_from_html
    monkeypatch.setattr(Figure, "savefig", lambda *a, **k: drawn.append(1) or savefig(*a, **k))
    monkeypatch.setattr(T, "pdf_from_html", lambda *a, **k: layouts.append(1) or typeset(*a, **k))
    pdf = tmp_path / "report.pdf"
    R.write_report(result, pdf_path=pdf, paper="a4")
    n_charts = len(drawn)
    assert n_charts > 0 and len(layouts) == 1 and _pages(pdf) > 1
    # the charts of the PDF are the charts of the report (each drawn once, none twice)
    drawn.clear()
    built = R.build_report(result, R.ReportContext(paper="a4"))
    assert len(drawn) == n_charts == built.html.count('<figure class="chart">')


def _text(pdf: bytes, tmp_path: Path, name: str = "t.pdf") -> str:
    path = tmp_path / name
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def test_text_of_the_data_is_printed_as_written_never_read_as_typst_markup(tmp_path):
    _need_typst()
    hostile = [
        '#import "x.typ": *',
        "*not bold* _not emphasised_ $x^2$",
        'a ] b [ c \\ d " e',
        "= not a heading",
        "@ref <label> // not a comment",
        "#pagebreak()",
    ]
    cells = "".join(f"<tr><td>{B.esc(h)}</td></tr>" for h in hostile)
    doc = f'<html><body><h1 class="study">T</h1><table class="data">{cells}</table></body></html>'
    text = _text(T.pdf_from_html(doc), tmp_path)
    flat = re.sub(r"\s+", "", text)  # pdftotext guesses spaces from gaps (narrow around brackets)
    for h in hostile:
        assert re.sub(r"\s+", "", h) in flat, h
    assert "Page 1 of 1" in text


def test_contents_give_the_page_of_each_section_and_the_header_names_it(tmp_path):
    _need_typst()
    result = _example("normalization")
    built = R.build_report(result, R.ReportContext(paper="a4"))
    pdf = tmp_path / "r.pdf"
    pdf.write_bytes(T.pdf_from_html(built.html, "a4"))
    pages = [
        subprocess.run(
            ["pdftotext", "-f", str(i), "-l", str(i), "-layout", str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for i in range(1, _pages(pdf) + 1)
    ]
    listed = re.findall(r"^(\S.*?)\s*(?:\.\s*){3,}(\d+)\s*$", pages[0], re.M)
    assert [t for t, _ in listed] == [s.title for s in built.sections]
    for title, page in listed:
        body = pages[int(page) - 1]
        # the section begins on that page (its heading is there) and the page's header names it
        # when it is the first section begun there
        assert re.search(rf"^{re.escape(title)}\s*$", body, re.M), (title, page)
    for text in pages[1:]:
        header = text.splitlines()[0]
        assert header.strip().startswith(R.study_title(result)[:20]), header


def test_every_example_report_is_typeset_with_its_charts_as_vectors(tmp_path):
    _need_typst()
    for folder in sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir()):
        built = R.build_report(_example(folder), R.ReportContext(paper="letter"))
        source, images = T.to_typst(built.html, "letter")
        assert len(images) == built.html.count("data:image/svg+xml"), folder
        assert 'paper: "us-letter"' in source
        pdf = tmp_path / f"{folder}.pdf"
        pdf.write_bytes(T.pdf_from_html(built.html, "letter"))
        assert _pages(pdf) >= 2, folder


def test_a_pdf_without_the_typesetter_is_a_clear_error(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_typst(name, *a, **k):
        if name == "typst":
            raise ImportError("No module named 'typst'")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_typst)
    with pytest.raises(T.PdfEngineError, match="pip install typst"):
        T.pdf_from_html("<p>x</p>")


def test_only_cells_with_a_very_long_word_may_break_anywhere():
    assert 'class="nw"' in B.text_cell("MEDIUM")
    assert "brk" not in B.text_cell("a sentence of several ordinary words")
    assert 'class="brk"' in B.text_cell("data/" + "x" * 40 + ".tsv")
    css = (Path(R.__file__).resolve().parents[2] / "resources" / "report.css").read_text()
    assert "td.brk { overflow-wrap: anywhere; }" in css


def test_rtl_fixture_pdf_still_renders(tmp_path):
    _need_typst()
    from iaa_desktop.core.kinds import get_kind

    result = run_to_end(
        get_kind("table").run([FIXTURES / "report" / "rtl_emoji.tsv"], {"interval": "none"})
    )
    pdf = tmp_path / "rtl.pdf"
    R.write_report(result, pdf_path=pdf)
    assert _pages(pdf) >= 1


def test_a_study_whose_names_and_labels_are_typst_syntax_prints_them(tmp_path):
    """Items, labels and annotators written in Typst's own syntax, with bidirectional controls,
    a word longer than a page and a control character, are printed as text (never typeset as markup)."""
    _need_typst()
    from iaa_desktop.core.kinds import get_kind

    items = ["#set page(width: 1cm)", ']) #panic("x") [(', "\u202eevil\u202c שלום", "x" * 3000]
    labels = ["$a$", "<lab>", "= h", "*b*"]
    rows = ["item\tannotator\tlabel"]
    for i, item in enumerate(items):
        for a, who in enumerate(("A \\ B", "C#D", "E\x07F")):
            rows.append(f"{item}\t{who}\t{labels[(i + a) % len(labels)]}")
    data = tmp_path / "hostile.tsv"
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = run_to_end(get_kind("table").run([data], {"interval": "none"}))
    pdf = tmp_path / "hostile.pdf"
    R.write_report(result, pdf_path=pdf, paper="a4")
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = re.sub(r"\s+", "", text)
    for s in ['#panic("x")', "#setpage(width:1cm)", "$a$", "<lab>", "*b*", "C#D", "A\\B"]:
        assert s in flat, s
    assert _pages(pdf) >= 2
    assert "x" * 1000 in flat  # the long word is broken into lines (its first 1,000 characters)
    # and nothing runs past the right margin (A4: 595 pt wide, 16 mm margins)
    boxes = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    right = max(
        float(x) for x in re.findall(r'<word xMin="[\d.]+" yMin="[\d.]+" xMax="([\d.]+)"', boxes)
    )
    assert right <= 595 - 16 / 25.4 * 72 + 1, right


def test_a_label_of_a_megabyte_is_shortened_in_the_report_and_whole_in_the_csv(tmp_path):
    _need_typst()
    from iaa_desktop.core.kinds import get_kind

    huge = "a " * 500_000
    rows = ["item\tannotator\tlabel"]
    for i in range(6):
        for a in ("A", "B"):
            rows.append(f"i{i}\t{a}\t{huge if (i, a) == (3, 'A') else 'pos'}")
    data = tmp_path / "huge.tsv"
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = run_to_end(get_kind("table").run([data], {"interval": "none"}))
    pdf, html = tmp_path / "r.pdf", tmp_path / "r.html"
    R.write_report(result, pdf_path=pdf, html_path=html)
    assert html.stat().st_size < 100_000 and _pages(pdf) <= 6
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert f"({len(huge.strip()):,} characters; the CSV export has all)" in re.sub(
        r"\s+", " ", text
    )
    # the study's own tables (the CSV export of results) keep the label whole
    assert any((t.astype(str) == huge.strip()).to_numpy().any() for t in result.tables().values())


def test_the_pdf_prints_at_most_a_few_thousand_characters_of_one_text():
    doc = f"<html><body><p>{'x' * (T.TEXT_CHARS + 7)}</p></body></html>"
    source, _ = T.to_typst(doc)
    assert "x" * T.TEXT_CHARS + "… [7 more characters]" in source
    assert "x" * (T.TEXT_CHARS + 1) not in source


def test_a_chart_draws_at_most_a_few_hundred_characters_of_one_text():
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from iaa_desktop.core.export.charts import CHART_TEXT_MAX, shorten_texts

    fig = Figure()
    ax = fig.add_subplot()
    name = "a " * 100_000
    ax.plot([0, 1], [0, 1], label=name)
    ax.legend()
    ax.set_yticks([0, 1], labels=[name, "b"])
    ax.set_title(name)
    shorten_texts(fig)
    texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    assert max(len(t) for t in texts) == CHART_TEXT_MAX
    svg = _svg_of(B.figure_html(fig))  # the tick labels are drawn shortened too
    assert len(svg) < 200_000 and "a a a" in svg and ">b<" in svg.replace(" ", "")


def test_chart_text_in_other_scripts_takes_glyphs_from_installed_noto_fonts():
    pytest.importorskip("matplotlib")
    import warnings

    from matplotlib import font_manager
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from iaa_desktop.core.export.charts import shorten_texts

    if "Noto Sans Devanagari" not in {f.name for f in font_manager.fontManager.ttflist}:
        pytest.skip("Noto Sans Devanagari (fonts-noto-core) is not installed")

    def missing_glyphs(prepare: bool) -> list[str]:
        fig = Figure(figsize=(3, 2))
        ax = fig.add_subplot()
        ax.set_title("नमस्ते दुनिया")
        ax.set_xticks([0, 1], labels=["ไทย", "ქართული"])
        if prepare:
            shorten_texts(fig)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            FigureCanvasAgg(fig).draw()
        return [str(w.message) for w in seen if "missing from font" in str(w.message)]

    assert missing_glyphs(False)  # DejaVu Sans alone has no Devanagari, Thai or Georgian
    assert missing_glyphs(True) == []


def test_control_characters_in_chart_text_are_shown_as_control_pictures():
    pytest.importorskip("matplotlib")
    import warnings

    from matplotlib.figure import Figure

    fig = Figure(figsize=(3, 2))
    ax = fig.add_subplot()
    ax.set_title("a\tb\x0bc")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        B.figure_html(fig)
    assert ax.get_title() == "a\u2409b\u240bc"
