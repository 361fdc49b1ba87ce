"""The agreement report (issue 8): HTML building, PDF text and fonts, CLI options.

The PDF checks use poppler-utils (``pdftotext``, ``pdffonts``) and skip when they or the typst package
are missing. Figures are checked "to the printed precision": every number of ``headline()`` must
appear in the PDF's text exactly as printed.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from iaa_desktop.core.export import report as R
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES, shared_path

RTL_FIXTURE = FIXTURES / "report" / "rtl_emoji.tsv"


def _need_pdf_tools() -> None:
    pytest.importorskip("typst")
    for tool in ("pdftotext", "pdffonts"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} (poppler-utils) is not installed")


def pdf_text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def pdf_fonts(path: Path) -> list[list[str]]:
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    return [line.split() for line in out.splitlines()[2:] if line.strip()]


def colour_glyphs(fonts: list[list[str]]) -> bool:
    """Whether the PDF has a font of colour glyphs: the typesetter writes a colour emoji font's
    bitmaps as a Type 3 font (pdffonts lists it without a name)."""
    return any(f[0] == "[none]" and f[1:3] == ["Type", "3"] for f in fonts)


def headline_numbers(result) -> list[str]:
    nums = []
    for _name, value in result.headline():
        nums += re.findall(r"-?\d[\d,]*(?:\.\d+)?%?", value)
    return nums


@lru_cache(maxsize=8)
def _run(kind: str, *inputs: str, **options):
    return run_to_end(get_kind(kind).run([Path(p) for p in inputs], dict(options)))


# --------------------------------------------------------------------------------- unit parts


def test_interpretation_bands_are_the_published_conventions():
    assert R.interpretation(-0.1, "kappa") == "poor (L&K)"
    assert R.interpretation(0.15, "kappa") == "slight (L&K)"
    assert R.interpretation(0.40, "kappa") == "fair (L&K)"
    assert R.interpretation(0.55, "kappa") == "moderate (L&K)"
    assert R.interpretation(0.70, "kappa") == "substantial (L&K)"
    assert R.interpretation(0.95, "kappa") == "almost perfect (L&K)"
    assert R.interpretation(0.80, "alpha").startswith("≥ .800")
    assert R.interpretation(0.70, "alpha").startswith(".667")
    assert R.interpretation(0.5, "alpha").startswith("< .667")
    assert R.interpretation(0.5, None) == "–"
    assert R.interpretation(math.nan, "kappa") == "–"


def test_text_direction_and_paper_from_locale():
    assert R.text_dir("שלום world") == "rtl"
    assert R.text_dir("123 مرحبا") == "rtl"
    assert R.text_dir("hello שלום") == "ltr"
    assert R.default_paper({"LANG": "en_US.UTF-8"}) == "letter"
    assert R.default_paper({"LC_PAPER": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}) == "a4"
    assert R.default_paper({"LANG": "fr_CA.UTF-8"}) == "letter"
    assert R.default_paper({"LANG": "C.UTF-8"}) == "a4"


def test_chart_labels_are_not_reordered_twice():
    """matplotlib ≥ 3.11 lays text out with libraqm (bidi included): the label must then stay in
    logical order, or the right-to-left text would come out reversed (a bug seen in the PDF)."""
    pytest.importorskip("matplotlib")
    from iaa_desktop.core.export import charts

    s = "חיובי"
    if charts._mpl_does_bidi():
        assert charts._short(s) == s
    else:
        assert charts._short(s) in (s[::-1], s)  # visual order (python-bidi) or left as is
    assert charts._short("plain text") == "plain text"


def test_format_and_tables_escape_html():
    import pandas as pd

    assert R.fmt(0.12345) == "0.123"
    assert R.fmt(0.9275, 4, percent=True) == "92.75%"
    assert R.fmt(float("nan")) == "–"
    html = R.table_html(pd.DataFrame({"item": ["<b>x</b>", "שלום"], "v": [0.5, float("nan")]}))
    assert "&lt;b&gt;" in html and 'dir="rtl"' in html and "–" in html


def test_html_report_of_the_table_kind_has_every_part(tmp_path):
    result = _run("table", str(RTL_FIXTURE), interval="none")
    built = R.build_report(result, R.ReportContext(title="Fixture study"))
    html = built.html
    for part in (
        "Fixture study",
        "Methods",
        "Summary",
        "Annotator pairs",
        "Items, most disagreeing first",
        "Landis &amp; Koch",
        "Krippendorff, K. (2011)",
        R.sha256(RTL_FIXTURE),
        "data:image/svg+xml;base64,",
    ):
        assert part in html, part
    # the interpretation column follows the conventions
    alpha = result.overall["krippendorff_alpha"].value
    assert R.interpretation(alpha, "alpha") in set(built.summary["interpretation"])


def test_adjudication_section_is_optional():
    result = _run("table", str(RTL_FIXTURE), interval="none")
    adj = R.AdjudicationSummary(
        resolved=5,
        open=3,
        overruled={"A": 1, "B": 2},
        agreement_with_gold={"A": ("Cohen's κ", 0.8), "B": ("Cohen's κ", 0.6)},
    )
    html = R.build_report(result, R.ReportContext(adjudication=adj)).html
    assert "Adjudication" in html and "5 of 8 units resolved" in html and "0.800" in html
    assert "Adjudication" not in R.build_report(result).html.split("<body>")[1].split("Methods")[0]


# --------------------------------------------------------------------------------- PDF output


def test_rtl_and_emoji_render_with_embedded_fonts(tmp_path):
    _need_pdf_tools()
    result = _run("table", str(RTL_FIXTURE), interval="none")
    pdf = tmp_path / "rtl.pdf"
    R.write_report(result, pdf_path=pdf, paper="a4")
    fonts = pdf_fonts(pdf)
    names = " ".join(f[0] for f in fonts)
    assert "Hebrew" in names and "Arabic" in names, names
    assert colour_glyphs(fonts), fonts  # the emoji, drawn from the colour font's bitmaps
    for f in fonts:  # every font embedded (no missing glyphs replaced by a viewer's font)
        assert "yes" in f[-5:-2], f
    text = pdf_text(pdf)
    assert "שלום עולם" in text and "مرحبا بالعالم" in text
    assert "😀" in text and "🙏" in text


def test_cli_writes_pdf_html_and_report_tables(tmp_path):
    _need_pdf_tools()
    from iaa_desktop.cli import main

    pdf, html, csv = tmp_path / "r.pdf", tmp_path / "r.html", tmp_path / "csv"
    code = main(
        [
            "report",
            "--kind",
            "table",
            "--interval",
            "none",
            str(RTL_FIXTURE),
            "--pdf",
            str(pdf),
            "--html",
            str(html),
            "--csv",
            str(csv),
            "--paper",
            "letter",
            "--title",
            "Psalm study",
        ]
    )
    assert code == 0
    assert pdf.read_bytes()[:5] == b"%PDF-"
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert "letter" in info
    assert "Psalm study" in html.read_text(encoding="utf-8")
    assert (csv / "report_summary.csv").exists() and (csv / "overall.csv").exists()
    assert "interpretation" in (csv / "report_summary.csv").read_text(encoding="utf-8")


def test_csv_alone_holds_the_report_tables(tmp_path):
    """``--csv DIR`` without --pdf/--html still writes the tables behind the report."""
    from iaa_desktop.cli import main

    csv = tmp_path / "csv"
    code = main(
        ["report", "--kind", "table", "--interval", "none", str(RTL_FIXTURE), "--csv", str(csv)]
    )
    assert code == 0
    names = {p.name for p in csv.iterdir()}
    assert {"overall.csv", "report_summary.csv"} <= names, names
    assert "interpretation" in (csv / "report_summary.csv").read_text(encoding="utf-8")


SHARED = [
    ("durel", [("trotr",)], {}),
    ("candidates", [("candidates",)], {}),
    ("normalization", [("normalization",)], {}),
    ("multilabel", [("multilabel", "annotations.tsv")], {}),
    ("coref", [("psalms-coref", "A"), ("psalms-coref", "B")], {}),
]


@pytest.mark.shared
@pytest.mark.parametrize("kind,parts,options", SHARED, ids=[s[0] for s in SHARED])
def test_shared_study_pdf_contains_the_headline_figures(tmp_path, kind, parts, options):
    _need_pdf_tools()
    paths = [str(shared_path(*p)) for p in parts]
    result = _run(kind, *paths, **options)
    pdf = tmp_path / f"{kind}.pdf"
    R.write_report(result, pdf_path=pdf, paper="a4")
    text = pdf_text(pdf)
    missing = [n for n in headline_numbers(result) if n not in text]
    assert not missing, missing
    assert "Page 1 of" in text and "Methods" in text and "Contents" in text
    # an interpretation column where a convention exists; none of dashes where it does not
    assert "Interpretation" in text or "no published interpretation" in text
    pages = int(
        re.search(
            r"Pages:\s+(\d+)",
            subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout,
        ).group(1)
    )
    if pages > R.TOC_MIN_PAGES:
        assert "Contents" in text


@pytest.mark.shared
def test_trotr_pair_with_emoji_is_in_the_pdf(tmp_path):
    _need_pdf_tools()
    result = _run("durel", str(shared_path("trotr")))
    pdf = tmp_path / "trotr.pdf"
    R.write_report(result, pdf_path=pdf)
    assert colour_glyphs(pdf_fonts(pdf))
    assert "😍" in pdf_text(pdf)


def test_coref_sections_follow_the_documented_json_layout():
    """The coref kind's sections read only the README's JSON layout and the result's options."""
    from dataclasses import dataclass, field

    from iaa_desktop.core.kinds.coref.options import CorefOptions
    from iaa_desktop.core.kinds.spec import TaskResult

    @dataclass
    class FakeCoref(TaskResult):
        chosen: CorefOptions = field(default_factory=CorefOptions)

        def to_json(self):
            row = {"class_a": "אדני", "class_b": "יהוה", "L": 1, "M": 3, "R": 0, "D": 1, "d": 0.25}
            docs = [
                {
                    "name": f"Psalm {i}",
                    "pairs": [
                        {
                            "a": "A",
                            "b": "B",
                            "rows": [row],
                            "L": 1,
                            "M": 3,
                            "R": i % 3,
                            "D": 1 + i % 3,
                            "d": (1 + i % 3) / (4 + i % 3),
                        }
                    ],
                }
                for i in range(1, 8)
            ]
            return {
                "documents": docs,
                "total": {
                    "pairs": [{"a": "A", "b": "B", "L": 7, "M": 21, "R": 7, "D": 14, "d": 0.4}]
                },
                "scores": [
                    {
                        "a": "A",
                        "b": "B",
                        "muc": {"recall": 0.8, "precision": 0.7, "f1": 0.7467},
                        "conll": {"f1": 0.7123},
                    }
                ],
            }

        def tables(self):
            return {}

        def headline(self):
            return [("δ corpus", "0.400")]

    from iaa_desktop.core.kinds import KINDS

    FakeCoref.spec = KINDS["coref"]
    html = R.build_report(FakeCoref(kind="coref", inputs=())).html
    assert "Psalm 2" in html and "אדני" in html and "0.712" in html and "Classes of Psalm" in html


def test_adjudication_record_from_a_store(tmp_path):
    from iaa_desktop.cli import main
    from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore, units_for
    from iaa_desktop.core.adjudication.session import decide_all

    result = _run("table", str(RTL_FIXTURE), interval="none")
    store_path = tmp_path / "study.adjudication.sqlite"
    store = AdjudicationStore.open(store_path)
    session = AdjudicationSession(units_for(result), store, seed=1)
    decide_all(session, session.queue()[:3])
    expected = R.adjudication_from_session(session)
    store.close()
    assert expected.resolved >= 3 and expected.resolved + expected.open == 8
    assert sum(expected.overruled.values()) > 0

    html = tmp_path / "r.html"
    assert (
        main(
            [
                "report",
                "--kind",
                "table",
                "--interval",
                "none",
                str(RTL_FIXTURE),
                "--html",
                str(html),
                "--adjudication",
                str(store_path),
            ]
        )
        == 0
    )
    text = html.read_text(encoding="utf-8")
    assert f"{expected.resolved:,} of 8 units resolved" in text and "Overruled by the gold" in text


def test_groups_worst_first_with_bayes_intervals():
    result = _run(
        "table",
        str(FIXTURES / "report" / "grouped.tsv"),
        group_by="doc",
        interval="bayes",
        metadata="doc",
    )
    built = R.build_report(result)
    groups = built.kind_report.tables["groups_worst_first"]
    assert list(groups["group"])[0] == "Psalm 2"  # the noisy document comes first
    assert groups["value"].is_monotonic_increasing
    assert groups[["low", "high"]].notna().all().all()
    assert "Per doc" in built.html and "multi-κ per doc" in built.html


def test_numeric_categories_print_as_integers():
    from iaa_desktop.core.kinds.table.report import category_label

    assert [category_label(c) for c in (1.0, "2.0", "-1.0", 2.5, "b", "1.05")] == [
        "1",
        "2",
        "-1",
        "2.5",
        "b",
        "1.05",
    ]


def test_cover_holds_the_summary_and_the_contents_and_no_column_is_empty(tmp_path):
    result = _run("table", str(RTL_FIXTURE), interval="none")
    html = R.build_report(result, R.ReportContext(title="Fixture study")).html
    cover = html[html.index('<header class="title-block">') : html.index("</header>")]
    assert "Headline figures" in cover and "Summary" in cover and 'class="toc"' in cover
    # no interval was computed: no interval column of dashes
    assert "95% interval" not in cover and "Interpretation" in cover
    # headers are titles, not column names
    body = html[html.index("</header>") :]
    assert "n_labels" not in body and "disagreement</th>" not in body


def test_summary_table_leaves_out_empty_columns():
    rows = [R.SummaryRow("δ, corpus", 0.3555, digits=4), R.SummaryRow("MUC F1", 0.855)]
    html = R.summary_table_html(rows)
    assert "Interpretation" not in html and "95% interval" not in html and "<th>n</th>" not in html
    assert "0.3555" in html and "no published interpretation" in html
