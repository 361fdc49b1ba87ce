"""Normalization kind: reader, character alignment (seed Table 4), options, disagreement list.

These run on the small fixtures in ``tests/fixtures/normalization`` (no ../shared needed).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.align.characters import (
    CharacterAligner,
    align_units,
    graphemes,
    nw_align,
)
from iaa_desktop.core.errors import IaaError
from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.kinds.normalization.compare import KIND, is_unchanged, simplify
from iaa_desktop.core.kinds.normalization.reader import read_normalization
from iaa_desktop.core.progress import run_to_end

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "normalization"


def run(folder: str, **options):
    return run_to_end(KIND.run([FIX / folder], options))


# --------------------------------------------------------------------------- alignment


def test_lingpy_examples_from_methods():
    """METHODS.md §4 step 1: LingPy's alignments of gewain."""
    assert nw_align("gewain", "geweint") == (list("gewain-"), list("geweint"))
    assert nw_align("gewain", "weinte") == (list("gewain--"), list("--weinte"))


def test_table4_bollmann_dipper_petran_2016_full_and_diff():
    """Seed Table 4: gewain normalized as geweint (A) and weinte (B)."""
    a_full, a_diff = align_units(*nw_align("gewain", "geweint"))
    b_full, b_diff = align_units(*nw_align("gewain", "weinte"))
    assert a_full == ("g", "e", "w", "e", "i", "nt")
    assert a_diff == ("_", "_", "_", "e", "_", "_t")
    assert b_full == ("", "", "w", "e", "i", "nte")
    assert b_diff == ("", "", "_", "e", "_", "_te")


def test_word_initial_insertion_merges_right():
    assert align_units(*nw_align("u", "du")) == (("du",), ("d_",))
    assert align_units(*nw_align("ab", "xxab")) == (("xxa", "b"), ("xx_", "_"))


def test_units_are_graphemes_with_combining_marks():
    assert graphemes("vn\u0304") == ("v", "n\u0304")
    assert graphemes("zu\u0366") == ("z", "u\u0366")
    # flags, emoji with modifiers and ZWJ sequences are one unit each
    assert len(graphemes("🇩🇪")) == 1
    assert len(graphemes("👍🏽a")) == 2
    assert len(graphemes("👩\u200d💻")) == 1
    # decomposed input is NFC-normalised first
    assert graphemes("u\u0308ber") == ("ü", "b", "e", "r")
    al = CharacterAligner()
    t = al.align("vn\u0304", "und")
    assert t.units == ("v", "n\u0304")
    assert t.full == ("u", "nd") and t.diff == ("u", "nd")
    # a dropped mark is a substitution of the whole unit, never a split unit
    assert al.align("zu\u0366", "zu").diff == ("_", "u")


def test_hebrew_and_arabic_units():
    al = CharacterAligner()
    t = al.align("שָׁלוֹם", "שלום")
    assert t.units[0] == "שָׁ" and len(t.units) == 4
    assert al.align("كتاب", "كتب").full == ("ك", "ت", "", "ب")


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet="abcdeſn\u0304", min_size=1, max_size=8),
    st.text(alphabet="abcdens", min_size=1, max_size=9),
)
def test_aligner_equals_lingpy_on_random_strings(a, b):
    from iaa_desktop.core.align.characters import lingpy_nw_align

    ua, ub = graphemes(a), graphemes(b)
    if not ua or not ub:
        return
    assert nw_align(ua, ub) == lingpy_nw_align(ua, ub)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(alphabet="abcdeſn\u0304", min_size=1, max_size=40),
            st.text(alphabet="abcdens", min_size=1, max_size=70),
        ),
        min_size=1,
        max_size=25,
    )
)
def test_batch_alignment_equals_lingpy_pair_by_pair(pairs):
    """Many pairs of mixed lengths in one batch (several length buckets, padding, wide scores)."""
    from iaa_desktop.core.align.characters import lingpy_nw_align
    from iaa_desktop.core.align.needleman_wunsch import nw_align_many

    seqs = [(graphemes(a), graphemes(b)) for a, b in pairs]
    batch = nw_align_many([a for a, _ in seqs], [b for _, b in seqs])
    lists = batch.to_lists()
    assert len(batch) == len(seqs)
    for k, (a, b) in enumerate(seqs):
        ref = lingpy_nw_align(a, b)
        assert lists[k] == ref == batch.pair(k)


def test_batch_alignment_edge_cases():
    from iaa_desktop.core.align.needleman_wunsch import nw_align_many

    got = nw_align_many(["", "abc", "", "a" * 300], ["abc", "", "", "b" + "a" * 298]).to_lists()
    assert got[0] == (["-"] * 3, list("abc"))
    assert got[1] == (list("abc"), ["-"] * 3)
    assert got[2] == ([], [])
    from iaa_desktop.core.align.characters import lingpy_nw_align

    assert got[3] == lingpy_nw_align("a" * 300, "b" + "a" * 298)  # 16-bit scores
    assert nw_align_many([], []).to_lists() == []
    # more pairs than the plain-Python path takes: the same alignments from the arrays
    a, b = ["", "abc", ""] * 4, ["abc", "", ""] * 4
    assert nw_align_many(a, b).to_lists() == got[:3] * 4
    with pytest.raises(ValueError, match="same number"):
        nw_align_many(["a"], [])


@settings(max_examples=100, deadline=None)
@given(
    st.text(alphabet="abcdeſn", min_size=1, max_size=8),
    st.text(alphabet="abcde", min_size=1, max_size=9),
)
def test_labels_cover_the_normalization(a, b):
    """Full labels concatenate to the normalization; there is one label per unit."""
    full, diff = align_units(*nw_align(a, b))
    assert len(full) == len(diff) == len(a)
    assert "".join(full) == b
    for unit, f, d in zip(a, full, diff):
        assert (d == "_") == (f == unit)


# --------------------------------------------------------------------------- unchanged


def test_simplified_form_and_unchanged():
    assert simplify("ſpricht") == "spricht"
    assert simplify("anſhelmꝰ") == "anshelmus"
    assert simplify("vn\u0304") == "vn"
    assert simplify("zu\u0366") == "zu"
    assert is_unchanged("für", "für")
    assert is_unchanged("ſpricht", "spricht")
    assert not is_unchanged("ſpricht", "spricht", raw_compare=True)
    assert not is_unchanged("pin", "bin")


# --------------------------------------------------------------------------- reader


def test_reader_reports_file_and_line_and_leaves_bad_tokens_out():
    data = read_normalization([FIX / "errors"])
    assert data.orig == ("gewain", "do")
    msgs = [(Path(e.path).name, e.line, e.message) for e in data.errors]
    assert ("a.tsv", 5) in [(f, n) for f, n, _ in msgs]  # duplicate row
    assert any(
        f == "b.tsv" and n == 3 and "differs" in m and "a.tsv line 3" in m for f, n, m in msgs
    )
    assert any(f == "b.tsv" and n == 5 and "missing in a.tsv" in m for f, n, m in msgs)
    # an empty normalization is a missing value: a warning, not an error
    notes = [(Path(e.path).name, e.line, e.message) for e in data.warnings]
    assert any(f == "b.tsv" and n == 6 and "missing value" in m for f, n, m in notes)
    assert not any("normalization" in m and n == 6 for f, n, m in msgs)


def test_errors_reach_the_result_and_the_rest_is_computed():
    res = run("errors")
    assert res.n_tokens == 2 and len(res.errors) == 3
    assert res.word["ALL"].percent_agreement == pytest.approx(0.5)


def test_wide_table():
    data = read_normalization([FIX / "wide" / "table.csv"])
    assert data.annotators == ("a", "b", "c")
    assert data.norm[2].tolist() == ["da", "do", "da"]
    assert data.mod[0].tolist() == ["", "", "weinte"]
    assert data.mod_type[0].tolist() == ["", "", "INFL"]
    res = run("wide")
    assert res.types[0].tolist() == ["NORM", "NORM", "INFL"]
    assert res.types[2].tolist() == ["NORM", "ORIG", "NORM"]


def test_fewer_than_two_annotators_is_an_error(tmp_path):
    (tmp_path / "a.tsv").write_text("text_id\ttoken_id\torig\tnorm\nT\t1\tx\ty\n", encoding="utf-8")
    with pytest.raises(IaaError):
        read_normalization([tmp_path])


def test_ragged_rows_are_reported(tmp_path):
    for name, extra in (("a", ""), ("b", "\textra\tfields\tmore")):
        (tmp_path / f"{name}.tsv").write_text(
            "text_id\ttoken_id\torig\tnorm\nT\t1\tvnd\tund\nT\t2\tdo\tda" + extra + "\n",
            encoding="utf-8",
        )
    data = read_normalization([tmp_path])
    assert data.orig == ("vnd",)
    assert any(Path(e.path).name == "b.tsv" and e.line == 3 for e in data.errors)


def test_sniff_and_detect():
    assert KIND.sniff([FIX / "tiny"]) > 0.5
    assert KIND.sniff([FIX / "wide" / "table.csv"]) > 0.5
    assert detect_kind([FIX / "tiny"]) == "normalization"
    assert get_kind("normalization").kind is KIND


def test_generic_wide_table_is_not_claimed(tmp_path):
    """A wide table without norm_ columns may be any judgment table: low confidence."""
    f = tmp_path / "t.csv"
    f.write_text("text,id,word,ann1,ann2\nA,1,x,1,2\n", encoding="utf-8")
    assert 0 < KIND.sniff([f]) < 0.3
    assert KIND.sniff([tmp_path / "missing.csv"]) == 0.0


# --------------------------------------------------------------------------- options


def test_lowercase_and_punctuation_options():
    res = run("marks")
    assert res.n_tokens == 6 and res.n_dropped_punctuation == 1
    assert res.orig[0] == "der"
    res2 = run("marks", lowercase=False, drop_punctuation=False)
    assert res2.n_tokens == 7 and res2.orig[0] == "Der"
    assert res2.types[0].tolist() == ["ORIG", "ORIG"]  # 'der' equals 'Der' lower-cased


def test_raw_compare_option():
    default = run("marks")
    raw = run("marks", raw_compare=True)
    k = default.orig.index("zuͦ")
    assert default.types[k].tolist() == ["ORIG", "ORIG"]
    assert raw.types[k].tolist() == ["NORM", "NORM"]


# --------------------------------------------------------------------------- results


def test_tiny_json_tokens_give_table4(capsys):
    from iaa_desktop.cli import main

    code = main(["report", "--kind", "normalization", str(FIX / "tiny"), "--tokens", "--json", "-"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    tok = data["tokens"][0]
    assert tok["orig"] == "gewain" and tok["units"] == list("gewain")
    a, b = tok["annotators"]["annotator_A"], tok["annotators"]["annotator_B"]
    assert " ".join(a["full"]) == "g e w e i nt" and " ".join(a["diff"]) == "_ _ _ e _ _t"
    assert " ".join(b["full"]) == "∅ ∅ w e i nte" and " ".join(b["diff"]) == "∅ ∅ _ e _ _te"
    for key in ("word", "character"):
        assert set(data[key]) == {"ALL", "MEDIUM", "STRICT"}
        assert set(data[key]["ALL"]) >= {"n_tokens", "percent_agreement", "pi", "alpha_nld"}
    assert data["per_text"][0]["text"] == "EX"
    assert set(data["modernization"]) >= {"ALL", "MEDIUM", "STRICT", "confusion", "by_type"}
    # 3 of 6 units agree
    assert data["character"]["ALL"]["percent_agreement"] == pytest.approx(0.5)


def test_tables_and_headline():
    res = run("marks", tokens=True)
    tables = res.tables()
    for name in (
        "word",
        "character",
        "per_text",
        "pairwise_word_agreement",
        "pairwise_character_pi",
        "modernization",
        "modernization_confusion",
        "modernization_by_type",
        "disagreements",
        "tokens",
    ):
        assert name in tables, name
    assert len(tables["per_text"]) == 2 * 2 * 3
    assert res.headline()[0][0] == "Tokens"
    kinds = dict(zip(res.disagreements["orig"], res.disagreements["kind"]))
    assert kinds["zehant"] == "type only"
    assert kinds["pin"] == "different changes"
    assert kinds["ſpricht"] == "different unchanged forms"
    conf = res.confusion
    assert conf.loc["EXT", "SEM"] + conf.loc["SEM", "EXT"] == 1
