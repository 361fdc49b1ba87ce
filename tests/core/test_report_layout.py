"""The PDF/HTML report as a person reads it: Hebrew and Arabic stretches with their offsets in
the right order on any line, every shortened list says so, no key names."""

from __future__ import annotations

from pathlib import Path

from iaa_desktop.core.export.html_blocks import anchor_isolates, shown_note, text_cell, text_dir

LRM, FSI, PDI = "\u200e", "\u2068", "\u2069"


def test_text_inside_an_isolate_does_not_decide_the_cell_direction() -> None:
    assert text_dir(f"‘{FSI}נשיא צרפת{PDI}’@19") == "ltr"
    assert text_dir(f"LOC ‘{FSI}الدوحة{PDI}’@24") == "ltr"
    assert text_dir("ראש הממשלה") == "rtl"


def test_isolates_are_anchored_in_the_cell_direction() -> None:
    cell = f"PER ‘{FSI}נשיא צרפת{PDI}’@19"
    anchored = anchor_isolates(cell, "ltr")
    # a line broken inside the stretch keeps "@19" after it: an LRM follows the isolate
    assert anchored == f"PER ‘{LRM}{FSI}נשיא צרפת{PDI}{LRM}’@19"
    assert LRM in text_cell(cell)
    assert anchor_isolates("no isolate here", "ltr") == "no isolate here"


def test_a_shortened_list_says_what_is_shown_and_where_the_rest_is() -> None:
    note = shown_note(5, 13, "documents", "with most disagreement")
    assert "Shown: the 5 of 13 documents with most disagreement; the CSV export has all." in note
    assert shown_note(5, 5, "documents", "with most disagreement") == ""


def test_candidates_report_names_no_keys_and_boxes_shared_words(tmp_path: Path) -> None:
    from iaa_desktop.core.export.report import write_report
    from iaa_desktop.core.kinds.candidates.compare import KIND
    from iaa_desktop.core.progress import run_to_end
    from tests.conftest import FIXTURES

    result = run_to_end(KIND.run([FIXTURES / "candidates"], {"bayes_draws": 200}))
    out = tmp_path / "report.html"
    write_report(result, html_path=str(out))
    html = out.read_text(encoding="utf-8")
    assert "overlap_bin" not in html
    assert 'class="shared"' in html
    assert "among equal disagreement, highest lexical overlap first" in html
