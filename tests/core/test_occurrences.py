"""Consistency across occurrences: forms grouped, treatments counted, within-annotator shares.

The counts are checked against a direct pandas groupby of the same judgments (on the shared
five-annotator normalization data and on random tables), the entropies against scipy's.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import entropy as scipy_entropy

from iaa_desktop.core.kinds.occurrences import OccurrenceTable, fold, gather
from tests.conftest import shared_path


def table(forms, treatments, annotators=None):
    t = np.asarray(treatments, dtype=object)
    n = len(forms)
    names = tuple(annotators or [chr(65 + x) for x in range(t.shape[1])])
    return OccurrenceTable(
        names, tuple(forms), ("d",) * n, tuple(str(i) for i in range(n)), t.reshape(n, len(names))
    )


def test_one_form_normalized_two_ways_by_one_annotator():
    occ = gather(
        table(["pottée", "pottée", "x"], [["potée", "pottée"], ["potée", "potée"], ["x", "x"]])
    )
    assert [f.shown for f in occ.inconsistent] == ["pottée"]
    f = occ.inconsistent[0]
    assert f.n_occurrences == 2 and f.n_judgments == 4
    assert [(t.treatment, t.count, t.annotators) for t in f.treatments] == [
        ("potée", 3, ("A", "B")),
        ("pottée", 1, ("B",)),
    ]
    assert f.entropy == pytest.approx(scipy_entropy([3, 1], base=2))
    # A treated it one way (entropy 0), B two ways equally (entropy 1): the mean is 0.5
    assert f.within_entropy == pytest.approx(0.5)
    assert f.inconsistent_annotators == ("B",)
    a, b = occ.per_annotator
    assert (a.n_repeated_forms, a.n_inconsistent_forms) == (1, 0)
    assert (b.n_repeated_forms, b.n_inconsistent_forms, b.inconsistent_forms) == (1, 1, ("pottée",))


def test_forms_matched_after_nfc_and_as_the_setting_says():
    forms = ["pott\u00e9e", "potte\u0301e", "Pottee"]
    tr = [["a"], ["b"], ["c"]]
    assert len(gather(table(forms, tr), "exact").forms) == 2  # NFC joins the first two only
    assert len(gather(table(forms, tr), "case").forms) == 2
    assert len(gather(table(forms, tr), "case_diacritics").forms) == 1
    assert fold("Straße", "case") == "strasse"


def test_an_annotator_who_did_not_see_an_occurrence_is_not_counted():
    occ = gather(table(["w", "w"], [["a", None], ["b", "a"]]))
    f = occ.forms[0]
    assert f.n_judgments == 3
    assert {t.treatment: t.count for t in f.treatments} == {"a": 2, "b": 1}
    assert occ.per_annotator[1].n_repeated_forms == 0  # B judged "w" once only


def test_most_inconsistent_first():
    forms = ["a", "a", "b", "b", "c", "c"]
    tr = [["1", "1"], ["1", "1"], ["1", "2"], ["1", "1"], ["1", "2"], ["3", "4"]]
    occ = gather(table(forms, tr))
    assert [f.shown for f in occ.forms] == ["c", "b", "a"]
    assert occ.forms[-1].entropy == 0.0


def direct_groupby(forms, treatments, names):
    """The same counts by a long table and pandas' groupby (the independent computation)."""
    rows = [
        (f, names[x], v)
        for f, row in zip(forms, treatments)
        for x, v in enumerate(row)
        if v is not None
    ]
    long = pd.DataFrame(rows, columns=["form", "annotator", "treatment"])
    counts = long.groupby(["form", "treatment"]).size()
    per_ann = long.groupby(["annotator", "form"])["treatment"].agg(["size", "nunique"])
    return counts, per_ann


def check_against_groupby(occ, forms, treatments, names):
    counts, per_ann = direct_groupby(forms, treatments, names)
    got = {(f.key, t.treatment): t.count for f in occ.forms for t in f.treatments}
    assert got == {k: int(v) for k, v in counts.items()}
    for f in occ.forms:
        p = np.array([t.count for t in f.treatments], dtype=float)
        assert f.entropy == pytest.approx(scipy_entropy(p, base=2), abs=1e-12)
    for a in occ.per_annotator:
        mine = (
            per_ann.loc[a.annotator] if a.annotator in per_ann.index.get_level_values(0) else None
        )
        repeated = 0 if mine is None else int((mine["size"] >= 2).sum())
        bad = 0 if mine is None else int(((mine["size"] >= 2) & (mine["nunique"] > 1)).sum())
        assert (a.n_repeated_forms, a.n_inconsistent_forms) == (repeated, bad)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["w1", "w2", "w3", "w4"]),
            st.lists(st.sampled_from(["x", "y", "z", None]), min_size=3, max_size=3),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_counts_equal_a_groupby_and_do_not_depend_on_order(rows):
    forms = [r[0] for r in rows]
    tr = [r[1] for r in rows]
    names = ("A", "B", "C")
    occ = gather(table(forms, tr, names))
    check_against_groupby(occ, forms, tr, names)
    # reversing the occurrences and the annotators changes no figure
    rev = gather(table(forms[::-1], [r[::-1] for r in tr[::-1]], names[::-1]))
    key = lambda o: {f.key: (f.n_occurrences, f.n_judgments, round(f.entropy, 12)) for f in o.forms}  # noqa: E731
    assert key(occ) == key(rev)
    for f in occ.forms:
        assert 0.0 <= f.entropy <= math.log2(max(f.n_treatments, 1)) + 1e-12
        assert (f.entropy == 0.0) == (f.n_treatments <= 1)


def test_shared_normalization_data_equals_a_direct_groupby_of_the_files():
    from iaa_desktop.core.kinds import KINDS
    from iaa_desktop.core.kinds.normalization.occurrences import occurrence_table

    folder = shared_path("normalization")
    files = sorted(folder.glob("annotator_*.tsv"))
    # the forms as written: no lower-casing, no punctuation left out
    options = {"lowercase": False, "drop_punctuation": False}
    gen = KINDS["normalization"].run(files, options)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        result = stop.value
    occ = result.occurrences
    assert occ is not None and len(occ.inconsistent) > 0
    # the direct groupby reads the files themselves
    frames = [
        pd.read_csv(f, sep="\t", dtype=str, keep_default_na=False, quoting=3).assign(
            annotator=f.stem
        )
        for f in files
    ]
    long = pd.concat(frames)
    counts = long.groupby(["orig", "norm"]).size()
    got = {(f.key, t.treatment): t.count for f in occ.forms for t in f.treatments}
    assert got == {k: int(v) for k, v in counts.items()}
    assert len(occ.forms) == long["orig"].nunique()
    inconsistent = (long.groupby("orig")["norm"].nunique() > 1).sum()
    assert len(occ.inconsistent) == inconsistent
    # every form with more than one treatment is in the JSON, with its occurrences
    js = result.to_json()["occurrences"]
    assert js["n_inconsistent_forms"] == inconsistent == len(js["forms"])
    assert sum(f["n_occurrences"] for f in js["forms"]) == sum(
        len(f["occurrences"]) for f in js["forms"]
    )
    assert occurrence_table(result).treatments.shape == (result.n_tokens, 5)


def test_occurrence_tables_are_written_as_csv(tmp_path):
    occ = gather(table(["a", "a"], [["1", "2"], ["1", "1"]]))
    tables = occ.tables()
    assert list(tables["occurrence_forms"]["form"]) == ["a"]
    assert list(tables["occurrence_list"].columns) == ["form", "document", "where", "A", "B"]
    assert tables["occurrence_annotators"]["inconsistent_forms"].tolist() == [0, 1]


def run_kind(name, inputs, options=None):
    from iaa_desktop.core.kinds import KINDS

    gen = KINDS[name].run(list(inputs), options or {})
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def test_spans_example_labels_equal_a_groupby_of_the_brat_files():
    """Every label a covered text received equals a groupby of the annotators' T lines; places
    where an annotator left a marked text unmarked are "(none)"."""
    from iaa_desktop.core.kinds.occurrences import NOT_MARKED

    example = Path(__file__).resolve().parents[2] / "iaa_desktop/resources/examples/spans"
    result = run_kind("spans", [example / "Noa", example / "Omar", example / "Lena"])
    occ = result.occurrences
    rows = []
    for folder in ("Noa", "Omar", "Lena"):
        for ann in sorted((example / folder).glob("*.ann")):
            for line in ann.read_text(encoding="utf-8").splitlines():
                if line.startswith("T"):
                    _, middle, text = line.split("\t")
                    label, start, end = middle.split(" ")
                    rows.append((ann.stem, int(start), int(end), folder, label, text))
    long = pd.DataFrame(rows, columns=["doc", "start", "end", "annotator", "label", "text"])
    long = long.drop_duplicates(["doc", "start", "end", "annotator", "label"])
    counts = long.groupby(["text", "label"]).size()
    got = {
        (f.key, t.treatment): t.count
        for f in occ.forms
        for t in f.treatments
        if t.treatment != NOT_MARKED
    }
    assert got == {k: int(v) for k, v in counts.items()}
    # a form marked by some annotators and not by another has a "(none)" treatment
    macron = occ.form("Emmanuel Macron")
    assert macron is not None
    assert {t.treatment: t.annotators for t in macron.treatments} == {
        "PER": ("Noa", "Lena"),
        NOT_MARKED: ("Omar",),
    }
    brussels = occ.form("Brussels")
    assert {t.treatment: t.annotators for t in brussels.treatments} == {
        "LOC": ("Noa", "Omar"),
        "ORG": ("Lena",),
    }
    assert "occurrences" in result.to_json()


def test_an_unmarked_repetition_of_a_marked_form_is_an_occurrence(tmp_path):
    """ "Paris" marked once and left unmarked in a later sentence: two occurrences, the second
    "(none)" for everyone."""
    text = "Paris is big. We went to Paris. Parisians agree."
    for name, label in (("A", "LOC"), ("B", "GPE")):
        d = tmp_path / name
        d.mkdir()
        (d / "doc.txt").write_text(text, encoding="utf-8")
        (d / "doc.ann").write_text(f"T1\t{label} 0 5\tParis\n", encoding="utf-8")
    result = run_kind("spans", [tmp_path / "A", tmp_path / "B"], {"gamma": False})
    f = result.occurrences.form("Paris")
    assert f.n_occurrences == 2  # "Parisians" is not a whole-word match
    assert {t.treatment: t.count for t in f.treatments} == {"LOC": 1, "GPE": 1, "(none)": 2}
    assert result.occurrences.table.where[f.rows[1]] == "25–30"


# ---------------------------------------------------------------------------------------------
# deciding every occurrence of a form at once


def _session(model, tmp_path):
    from iaa_desktop.core.adjudication import AdjudicationSession, AdjudicationStore

    return AdjudicationSession(model, AdjudicationStore.open(tmp_path / "store.sqlite"))


def _norm_files(tmp_path):
    rows = {
        "A": ["pottée\tpotée", "und\tund", "pottée\tpotée", "Pottée\tpotée"],
        "B": ["pottée\tpottée", "und\tund", "pottée\tpotée", "Pottée\tpotee"],
    }
    files = []
    for name, toks in rows.items():
        f = tmp_path / f"{name}.tsv"
        body = "".join(f"T1\t{k + 1}\t{t}\t\t\n" for k, t in enumerate(toks))
        f.write_text("text_id\ttoken_id\torig\tnorm\tmod\tmod_type\n" + body, encoding="utf-8")
        files.append(f)
    return files


def test_normalization_form_decided_once_undone_in_one_step_and_written(tmp_path):
    from iaa_desktop.core.adjudication import bulk
    from iaa_desktop.core.kinds.normalization.adjudication import model_from_inputs

    model = model_from_inputs(_norm_files(tmp_path), {"occurrence_match": "case"})
    s = _session(model, tmp_path)
    # token 3 ("pottée", both gave potée) decided on its own first
    s.apply(s.make_change(2, "annotator:A", model.versions[2, 0]))
    assert bulk.same_form(s, 0).tolist() == [0, 2, 3]  # "Pottée" too: case is ignored
    assert model.form_treatments(0)[0] == "potée"
    changes, kept = bulk.decide_form(s, 0, "potée")
    assert kept == 1 and [c.unit for c in changes] == ["T1/1", "T1/4"]
    s.apply_many(changes)
    assert [s.gold[i] for i in (0, 2, 3)] == ["potée\t\t"] * 3
    out = s.write_gold(tmp_path / "gold")
    gold = pd.read_csv(
        next(p for p in out if p.name == "gold.tsv"), sep="\t", dtype=str, keep_default_na=False
    )
    assert gold["norm"].tolist() == ["potée", "und", "potée", "potée"]
    # one step undoes it all; the unit decided by hand stays decided
    s.apply_many([c.inverse() for c in reversed(changes)])
    assert not s.is_decided(0) and not s.is_decided(3) and s.is_decided(2)
    # including the units decided one by one
    changes, kept = bulk.decide_form(s, 0, "pottée", include_decided=True)
    assert kept == 0 and len(changes) == 3
    s.store.close()


def test_spans_form_decided_once_and_written_as_brat(tmp_path):
    from iaa_desktop.core.adjudication import bulk, units_for

    text = "Paris is big. We went to Paris. Paris!"
    labels = {"A": ("LOC", "LOC", "GPE"), "B": ("GPE", "LOC", "LOC")}
    for name, labs in labels.items():
        d = tmp_path / name
        d.mkdir()
        (d / "doc.txt").write_text(text, encoding="utf-8")
        spans = [(0, 5), (25, 30), (32, 37)]
        (d / "doc.ann").write_text(
            "".join(
                f"T{k + 1}\t{lab} {a} {b}\tParis\n"
                for k, (lab, (a, b)) in enumerate(zip(labs, spans))
            ),
            encoding="utf-8",
        )
    result = run_kind("spans", [tmp_path / "A", tmp_path / "B"], {"gamma": False})
    model = units_for(result)
    s = _session(model, tmp_path)
    i = model.keys.index("doc|0|5")
    assert model.form(i) == "Paris"
    assert set(model.form_treatments(i)) == {"LOC", "GPE"}
    assert len(bulk.same_form(s, i)) == 3
    changes, kept = bulk.decide_form(s, i, "LOC")
    assert kept == 0 and len(changes) == 3
    s.apply_many(changes)
    out = s.write_gold(tmp_path / "out")
    ann = next(p for p in out if p.suffix == ".ann").read_text(encoding="utf-8")
    assert sorted(line.split("\t")[1] for line in ann.splitlines()) == [
        "LOC 0 5",
        "LOC 25 30",
        "LOC 32 37",
    ]
    s.store.close()


# ---------------------------------------------------------------------------------------------
# coreference


def _brat_mentions(folder: Path) -> pd.DataFrame:
    """Every mention of a brat folder with whether a Coreference class holds it (read directly)."""
    rows = []
    for ann in sorted(folder.glob("*.ann")):
        text_of, in_class = {}, set()
        for line in ann.read_text(encoding="utf-8").splitlines():
            if line.startswith("T"):
                tid, middle, text = line.split("\t")
                _t, start, end = middle.split(" ")
                text_of[tid] = (int(start), int(end), text)
            elif line.startswith("*") and "Coreference" in line:
                ids = line.split("\t")[1].split()[1:]
                if len(ids) > 1:
                    in_class.update(ids)
        for tid, (start, end, text) in text_of.items():
            treatment = "in a chain" if tid in in_class else "singleton"
            rows.append((ann.stem, start, end, folder.name, text, treatment))
    return pd.DataFrame(rows, columns=["doc", "start", "end", "annotator", "text", "treatment"])


def test_coref_psalms_mentions_equal_a_groupby_of_the_brat_files():
    from iaa_desktop.core.kinds.occurrences import NOT_MARKED

    folder = shared_path("psalms-coref")
    result = run_kind("coref", [folder / "A", folder / "B"])
    occ = result.occurrences
    long = pd.concat([_brat_mentions(folder / "A"), _brat_mentions(folder / "B")])
    long = long.drop_duplicates(["doc", "start", "end", "annotator"])
    counts = long.groupby(["text", "treatment"]).size()
    got = {
        (f.key, t.treatment): t.count
        for f in occ.forms
        for t in f.treatments
        if t.treatment != NOT_MARKED
    }
    assert got == {k: int(v) for k, v in counts.items()}
    assert len(occ.inconsistent) > 0
    assert "occurrences" in result.to_json()


def test_coref_form_kept_once_and_written_as_gold(tmp_path):
    from iaa_desktop.core.adjudication import bulk, units_for
    from iaa_desktop.core.kinds.coref.gold_values import KEEP

    text = "The king came. The king left. The queen smiled."
    files = {
        "A": "T1\tMention 0 8\tThe king\nT2\tMention 15 23\tThe king\nT3\tMention 30 39\tThe queen\n"
        "*\tCoreference T1 T2\n",
        "B": "T1\tMention 30 39\tThe queen\nT2\tMention 0 8\tThe king\n",
    }
    for name, ann in files.items():
        d = tmp_path / name
        d.mkdir()
        (d / "doc.txt").write_text(text, encoding="utf-8")
        (d / "doc.ann").write_text(ann, encoding="utf-8")
    result = run_kind("coref", [tmp_path / "A", tmp_path / "B"])
    f = result.occurrences.form("The king")
    assert {t.treatment: t.annotators for t in f.treatments} == {
        "in a chain": ("A",),
        "singleton": ("B",),
        "(none)": ("B",),
    }
    model = units_for(result)
    s = _session(model, tmp_path)
    i = next(j for j in range(model.n_units) if model.form(j) == "The king")
    units = bulk.same_form(s, i).tolist()
    assert len(units) == 1  # only the second "The king" is a mention unit (B lacks it)
    changes, kept = bulk.decide_form(s, i, KEEP)
    s.apply_many(changes)
    assert all(s.gold[j] == KEEP for j in units)
    out = s.write_gold(tmp_path / "out")
    gold = next(p for p in out if p.suffix == ".ann").read_text(encoding="utf-8")
    assert gold.count("\tThe king") == 2
    s.apply_many([c.inverse() for c in reversed(changes)])
    assert not any(s.is_decided(j) for j in units)
    s.store.close()


# ---------------------------------------------------------------------------------------------
# tables whose items carry a form


def test_table_items_with_a_token_column_have_occurrences(tmp_path):
    rows = [
        ("1", "A", "FIN", "bank"),
        ("1", "B", "FIN", "bank"),
        ("2", "A", "GEO", "bank"),
        ("2", "B", "FIN", "bank"),
        ("3", "A", "FIN", "Bank"),
        ("3", "B", "FIN", "Bank"),
        ("4", "A", "GEO", "river"),
        ("4", "B", "GEO", "river"),
        ("5", "A", "FIN", "bank"),
        ("5", "B", "FIN", "bank"),
    ]
    f = tmp_path / "senses.csv"
    f.write_text(
        "item,annotator,label,token\n" + "".join(",".join(r) + "\n" for r in rows),
        encoding="utf-8",
    )
    result = run_kind("table", [f])
    occ = result.occurrences
    assert occ is not None
    bank = occ.form("bank")
    assert {t.treatment: t.count for t in bank.treatments} == {"FIN": 5, "GEO": 1}
    assert bank.inconsistent_annotators == ("A",)
    assert [f.shown for f in occ.inconsistent] == ["bank"]
    # ignoring case, "Bank" is the same form
    folded = run_kind("table", [f], {"occurrence_match": "case"}).occurrences
    assert folded.form("bank").n_occurrences == 4
    assert "occurrences" in result.to_json()
    # a table without a form column has none
    g = tmp_path / "plain.csv"
    g.write_text("item,annotator,label\n1,A,x\n1,B,y\n", encoding="utf-8")
    assert run_kind("table", [g]).occurrences is None


def test_spans_forms_are_matched_as_the_study_asks(tmp_path):
    """With ``occurrence_match`` ``case`` the occurrences of Paris, PARIS and paris are one form,
    and each unit finds its span of that form; as written they are three forms."""
    from iaa_desktop.core.adjudication import bulk, units_for

    text = "Paris is big. We went to PARIS. paris!"
    for name, labs in {"A": ("LOC", "LOC", "GPE"), "B": ("GPE", "LOC", "LOC")}.items():
        d = tmp_path / name
        d.mkdir()
        (d / "doc.txt").write_text(text, encoding="utf-8")
        spans = [(0, 5), (25, 30), (32, 37)]
        (d / "doc.ann").write_text(
            "".join(
                f"T{k + 1}\t{lab} {a} {b}\t{text[a:b]}\n"
                for k, (lab, (a, b)) in enumerate(zip(labs, spans))
            ),
            encoding="utf-8",
        )
    for match, n in (("case", 3), ("exact", 1)):
        result = run_kind(
            "spans", [tmp_path / "A", tmp_path / "B"], {"gamma": False, "occurrence_match": match}
        )
        model = units_for(result)
        (tmp_path / match).mkdir()
        s = _session(model, tmp_path / match)
        i = model.keys.index("doc|25|30")
        assert model.form(i) == "PARIS"
        assert len(bulk.same_form(s, i)) == n
        assert set(model.form_treatments(i)) == ({"LOC", "GPE"} if n == 3 else {"LOC"})
        s.store.close()
