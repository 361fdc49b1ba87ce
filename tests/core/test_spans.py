"""The spans kind: readers, pairing of documents, figures against bratiaa, scikit-learn and
krippendorff, the same figures from brat and from a table, adjudication and gold."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.kinds.spans import measures as M
from iaa_desktop.core.kinds.spans.readers import read_brat
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

SPANS = FIXTURES / "spans"


def run(inputs, **opts):
    opts.setdefault("n_resamples", 100)
    return run_to_end(get_kind("spans").run([Path(p) for p in inputs], opts))


def test_brat_reader_keeps_discontinuous_spans_and_passes_over_other_lines():
    doc = read_brat(SPANS / "brat" / "A" / "doc1.ann")
    assert doc.errors == []
    frags = [s.fragments for s in doc.spans if len(s.fragments) > 1]
    assert frags == [((0, 5), (6, 11))]
    assert {s.label for s in doc.spans} == {"PER", "LOC", "ORG"}


def test_bad_t_line_and_offsets_name_file_and_line(tmp_path):
    (tmp_path / "d.txt").write_text("short text", encoding="utf-8")
    (tmp_path / "d.ann").write_text(
        "T1\tPER 0 5\tshort\nT2 PER 0 5\nT3\tLOC 3 99\tx\nX1\tjunk\n", encoding="utf-8"
    )
    doc = read_brat(tmp_path / "d.ann")
    assert len(doc.spans) == 1
    lines = sorted(e.line for e in doc.errors)
    assert lines == [2, 3, 4]
    assert all("d.ann" in str(e) for e in doc.errors)


def test_detected_kind_and_coref_studies_stay_coref():
    assert detect_kind([SPANS / "brat" / "A", SPANS / "brat" / "B"]) == "spans"
    assert detect_kind([FIXTURES / "coref" / "heb_A", FIXTURES / "coref" / "heb_B"]) != "spans"


def _same_text_project(tmp_path):
    root = tmp_path / "project"
    for who in ("A", "B"):
        shutil.copytree(SPANS / "brat" / who, root / who)
    ann = root / "A" / "doc1.ann"  # the table cannot hold the discontinuous span
    ann.write_text(
        "".join(
            line
            for line in ann.read_text(encoding="utf-8").splitlines(True)
            if not line.startswith("T9")
        ),
        encoding="utf-8",
    )
    return root


def test_same_figures_from_brat_and_from_a_table(tmp_path):
    root = _same_text_project(tmp_path)
    brat = run([root / "A", root / "B"])
    table = run([SPANS / "table" / "spans.tsv"])
    assert table.annotators == ("A", "B")
    for key, fig in brat.overall.items():
        assert table.overall[key]["value"] == pytest.approx(fig["value"], nan_ok=True), key


def test_different_texts_are_an_error_naming_the_document(tmp_path):
    root = _same_text_project(tmp_path)
    (root / "B" / "doc2.txt").write_text("one text", encoding="utf-8")
    (root / "B" / "doc2.ann").write_text("T1\tPER 0 3\tone\n", encoding="utf-8")
    (root / "A" / "doc2.txt").write_text("another text", encoding="utf-8")
    (root / "A" / "doc2.ann").write_text("T1\tPER 0 7\tanother\n", encoding="utf-8")
    r = run([root / "A", root / "B"])
    assert any("doc2" in str(e) and "different texts" in str(e) for e in r.errors)
    assert r.corpus.names == ("doc1",)


def test_documents_named_differently_pair_by_text(tmp_path):
    root = _same_text_project(tmp_path)
    for ext in ("ann", "txt"):
        (root / "B" / f"doc1.{ext}").rename(root / "B" / f"renamed.{ext}")
    r = run([root / "A", root / "B"])
    assert len(r.corpus.names) == 1 and r.corpus.has.all()


def _write_conf(root: Path, labels) -> None:
    (root / "annotation.conf").write_text(
        "[entities]\n" + "\n".join(labels) + "\n[relations]\n[events]\n[attributes]\n",
        encoding="utf-8",
    )


def _bratiaa_per_label(root: Path) -> dict[str, float]:
    bratiaa = pytest.importorskip("bratiaa")
    f1 = bratiaa.compute_f1_agreement(str(root))
    return dict(zip(f1.labels, f1.mean_sd_per_label()[0].tolist())), float(f1.mean_sd_total()[0])


def _ours_per_label(root: Path):
    r = run([root])
    per = dict(zip(r.frames["labels"]["label"], r.frames["labels"]["exact_f1"]))
    return per, r.overall["exact_f1"]["value"]


def test_span_f1_equals_bratiaa_on_a_small_project(tmp_path):
    root = tmp_path / "project"
    for who in ("A", "B"):
        shutil.copytree(SPANS / "brat" / who, root / who)
    _write_conf(root, ["PER", "LOC", "ORG"])
    theirs, total = _bratiaa_per_label(root)
    ours, our_total = _ours_per_label(root)
    assert ours == pytest.approx(theirs)
    assert our_total == pytest.approx(total)


def _four_annotator_project(root: Path, seed: int = 2002) -> None:
    """A brat project of four annotators and seven documents, built here: the same candidate
    spans (one to three words) for everyone, each kept, dropped, relabelled or shortened by
    chance per annotator, so that every label has agreements and disagreements of each sort."""
    rng = random.Random(seed)
    words = "la casa de Juan Pérez en Madrid dijo que Telefónica y la ONU el año Europa".split()
    labels = ["PER", "LOC", "ORG", "MISC"]
    for d in range(7):
        tokens = [rng.choice(words) for _ in range(80)]
        starts = np.cumsum([0] + [len(t) + 1 for t in tokens[:-1]]).tolist()
        text = " ".join(tokens)
        candidates, i = [], 0
        while i < len(tokens):
            if rng.random() < 0.25:
                n = min(rng.randint(1, 3), len(tokens) - i)
                candidates.append((i, n, rng.choice(labels), rng.random() < 0.4))
                i += n + 1
            else:
                i += 1
        for who in ("Lisa", "Mark", "Nora", "Omar"):
            lines = []
            for first, n, label, optional in candidates:
                r = rng.random()
                if (optional and rng.random() < 0.5) or r < 0.1:
                    continue  # not annotated
                if r < 0.25:
                    label = rng.choice(labels)  # another label
                elif r < 0.35 and n > 1:
                    n -= 1  # a shorter span
                s, e = starts[first], starts[first + n - 1] + len(tokens[first + n - 1])
                lines.append(f"T{len(lines) + 1}\t{label} {s} {e}\t{text[s:e]}")
            folder = root / who
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"doc-{d}.txt").write_text(text, encoding="utf-8")
            (folder / f"doc-{d}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    _write_conf(root, labels)


def test_span_f1_equals_bratiaa_on_a_four_annotator_project(tmp_path):
    """Four annotators, seven documents (the shape of bratiaa's own example project)."""
    root = tmp_path / "project"
    _four_annotator_project(root)
    theirs, total = _bratiaa_per_label(root)
    ours, our_total = _ours_per_label(root)
    assert set(theirs) == {"PER", "LOC", "ORG", "MISC"}
    assert 0.3 < total < 0.95  # neither trivial agreement nor none
    assert ours == pytest.approx(theirs)
    assert our_total == pytest.approx(total)


def _sequences(r, level: str):
    """Per annotator, the label of every character (or token) as plain strings."""
    c = r.corpus
    out = {a: [] for a in c.annotators}
    for d, text in enumerate(c.texts):
        units = [(k, k + 1) for k in range(len(text))]
        if level == "token":
            from iaa_desktop.core.kinds.spans.corpus import TOKEN

            units = [m.span() for m in TOKEN.finditer(text)]
        for x, a in enumerate(c.annotators):
            spans = [c.spans[i] for i in np.flatnonzero((c.doc == d) & (c.ann == x))]
            for s, e in units:
                labels = {sp.label for sp in spans for fs, fe in sp.fragments if fs < e and s < fe}
                out[a].append(labels.pop() if len(labels) == 1 else ("" if not labels else None))
    return out


@pytest.mark.parametrize("level", ["char", "token"])
def test_unit_coefficients_equal_scikit_learn_and_krippendorff(tmp_path, level):
    krippendorff = pytest.importorskip("krippendorff")
    from sklearn.metrics import cohen_kappa_score

    root = _same_text_project(tmp_path)
    r = run([root / "A", root / "B"])
    seq = _sequences(r, level)
    a, b = seq["A"], seq["B"]
    keep = [i for i in range(len(a)) if a[i] is not None and b[i] is not None]
    a, b = [a[i] or "∅" for i in keep], [b[i] or "∅" for i in keep]
    kappa = cohen_kappa_score(a, b)
    pair = r.frames["pairs"].iloc[0]
    assert pair[f"{level}_cohen_kappa"] == pytest.approx(kappa)
    cats = sorted(set(a) | set(b))
    data = np.array([[cats.index(v) for v in a], [cats.index(v) for v in b]], dtype=float)
    alpha = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert r.overall[f"{level}_krippendorff_alpha"]["value"] == pytest.approx(alpha)


def test_groups_classify_disagreements():
    r = run([SPANS / "brat" / "A", SPANS / "brat" / "B"])
    kinds = set(r.frames["disagreements"]["kind"])
    assert {"boundary", "label"} <= kinds
    assert (r.groups.kind == M.KINDS.index("agree")).sum() >= 2  # Paris, ירושלים


def test_gamma_is_computed_by_default_with_its_interval():
    from iaa_desktop.core.kinds.spans.gamma import continuum_units
    from iaa_desktop.core.metrics.gamma import gamma, make_continuum

    r = run([SPANS / "brat" / "A", SPANS / "brat" / "B"])
    fig = r.overall["gamma"]
    direct = gamma(make_continuum(continuum_units(r.corpus)), seed=0, processes=1)
    assert fig["value"] == direct.gamma
    assert (fig["ci_low"], fig["ci_high"]) == direct.interval
    assert fig["ci_low"] < fig["value"] < fig["ci_high"]
    assert r.overall["gamma_cat"]["value"] == direct.gamma_cat
    assert "sampled continua (seed 0)" in r.gamma_note
    off = run([SPANS / "brat" / "A", SPANS / "brat" / "B"], gamma=False)
    assert "gamma" not in off.overall and "turned off" in off.gamma_note


def test_adjudication_units_and_gold_in_brat(tmp_path):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for

    r = run([SPANS / "brat" / "A", SPANS / "brat" / "B"])
    model = units_for(r)
    gold = auto_merge(model, Strategy("unanimous"))
    assert sum(g is not None for g in gold) >= 2  # unanimous groups merged automatically
    i = next(k for k, g in enumerate(gold) if g is None and "Sorbonne" in model.titles[k])
    choices = {c.choice: c for c in model.choices(i)}
    assert {"merge", "keep", "drop", "label:ORG"} <= set(choices) or "label:LOC" in choices
    gold[i] = choices["annotator:A"].value
    files = model.write_gold(gold, tmp_path)
    ann = next(f for f in files if f.suffix == ".ann")
    back = read_brat(ann)
    assert ("ORG", "Sorbonne") in {(s.label, back.text[s.start : s.end]) for s in back.spans}
    assert model.parse_value("PER 0 5", i) == "PER 0-5"


def test_gold_as_table_for_table_inputs(tmp_path):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for

    r = run([SPANS / "table" / "spans.tsv"])
    model = units_for(r)
    gold = auto_merge(model, Strategy("annotator", annotator="A"))
    files = model.write_gold(gold, tmp_path)
    import pandas as pd

    df = pd.read_csv(files[0])
    assert list(df.columns) == ["document", "start", "end", "label", "text"]
    assert "Sorbonne" in set(df["text"])


def test_report_renders_with_every_section():
    from iaa_desktop.core.export.report import build_report

    r = run([SPANS / "brat" / "A", SPANS / "brat" / "B"])
    html = build_report(r).html
    for title in ("Annotator pairs", "Labels", "Boundaries and labels", "Documents", "Unitizing α"):
        assert title in html
