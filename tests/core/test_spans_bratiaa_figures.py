"""bratiaa's figures in the spans kind: F1 per annotator pair and label (exact, overlap, token,
lenient) and the mean and SD over pairs.

The figures are cross-checked against the installed bratiaa library on a project made here
(instance-based and token-based F1, its tokenisation: runs of non-space characters; total and
per label, mean and SD over the pairs). bratiaa's published regression values on its own example
project are checked by ``bench/check_bratiaa_example.py`` given a copy of that project, which
is not distributed here.
"""

from __future__ import annotations

import json
import shutil
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.kinds.spans.readers import Span, SpanDocument
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES


def run(inputs, **opts):
    opts.setdefault("n_resamples", 20)
    return run_to_end(get_kind("spans").run([Path(p) for p in inputs], opts))


def _by_label(result, column):
    labels = result.frames["labels"]
    return dict(zip(labels["label"], labels[column], strict=True))


def _project(tmp_path) -> Path:
    root = tmp_path / "project"
    for who in ("A", "B"):
        shutil.copytree(FIXTURES / "spans" / "brat" / who, root / who)
    shutil.copytree(FIXTURES / "spans" / "brat" / "B", root / "C")
    ann = root / "C" / "doc1.ann"
    lines = ann.read_text(encoding="utf-8").splitlines(True)
    ann.write_text("".join(lines[1:]), encoding="utf-8")  # C leaves out B's first span
    labels = sorted(
        {
            ln.split("\t")[1].split()[0]
            for who in "ABC"
            for ln in (root / who / "doc1.ann").read_text(encoding="utf-8").splitlines()
            if ln.startswith("T")
        }
    )
    (root / "annotation.conf").write_text(
        "[entities]\n" + "\n".join(labels) + "\n[relations]\n[events]\n[attributes]\n",
        encoding="utf-8",
    )
    return root


@pytest.mark.parametrize("token", [False, True], ids=["instance", "token"])
def test_per_label_mean_and_sd_equal_the_bratiaa_library(tmp_path, token):
    bratiaa = pytest.importorskip("bratiaa")
    from bratiaa.agree import F1Agreement, input_generator
    from bratiaa.evaluation import exact_match_token_evaluation
    from bratiaa.utils import tokenize

    root = _project(tmp_path)
    r = run([root])
    labels = list(r.labels)
    extra = {"eval_func": exact_match_token_evaluation, "token_func": tokenize} if token else {}
    theirs = F1Agreement(partial(input_generator, str(root)), labels, **extra)
    fig = "token_f1" if token else "exact_f1"
    mean, sd = theirs.mean_sd_per_label()
    # bratiaa's mean is NaN when some pair has no span of the label at all (numpy.mean); here
    # such a pair is left out of that label's mean, as the per-label F1 always was
    has = np.isfinite(mean)
    assert not has.all()  # the project has such a label (ORG: only A uses it)
    ours = np.array([_by_label(r, fig)[lab] for lab in labels])
    ours_sd = np.array([_by_label(r, f"{fig}_sd")[lab] for lab in labels])
    assert ours[has] == pytest.approx(mean[has])
    assert ours_sd[has] == pytest.approx(sd[has])
    org = r.frames["per_pair_label"].query("label == 'ORG'")[fig].dropna()
    assert ours[labels.index("ORG")] == pytest.approx(org.mean())
    total_mean, total_sd = theirs.mean_sd_total()
    assert (r.overall[fig]["mean"], r.overall[fig]["sd"]) == pytest.approx((total_mean, total_sd))
    assert bratiaa  # the library the figures are checked against


def test_per_pair_label_rows_in_json_and_csv(tmp_path, capsys):
    root = _project(tmp_path)
    out = tmp_path / "csv"
    code = cli_main(["report", "--kind", "spans", str(root), "--json", "-", "--csv", str(out)])
    cap = capsys.readouterr()
    assert code in (0, 1), cap.err
    data = json.loads(cap.out)
    rows = data["per_pair_label"]
    assert {(r["a"], r["b"]) for r in rows} == {("A", "B"), ("A", "C"), ("B", "C")}
    assert {"exact_f1", "overlap_f1", "token_f1", "lenient_f1"} <= set(rows[0])
    for fig in ("exact_f1", "overlap_f1", "token_f1", "lenient_f1", "exact_f1_macro"):
        assert {"mean", "sd"} <= set(data["overall"][fig]), fig
    csv_files = {p.name for p in out.iterdir()}
    assert any("per_pair_label" in n for n in csv_files), csv_files


def _doc(name, text, spans):
    return SpanDocument(name, f"{name}.ann", text, [Span(lab, ((s, e),)) for s, e, lab in spans])


texts = "one two three four five six seven eight nine ten"
span_st = st.lists(
    st.tuples(st.integers(0, 45), st.integers(1, 8), st.sampled_from(["X", "Y"])).map(
        lambda t: (t[0], min(t[0] + t[1], len(texts)), t[2])
    ),
    max_size=8,
)


@settings(max_examples=8, deadline=None)
@given(span_st, span_st)
def test_invariants_bounds_symmetry_and_order(a, b):
    from iaa_desktop.core.kinds.spans.compare import compare_corpus
    from iaa_desktop.core.kinds.spans.corpus import build_corpus

    def figures(first, second):
        docs = {"d": {"A": _doc("d", texts, first), "B": _doc("d", texts, second)}}
        r = run_to_end(compare_corpus(build_corpus(("A", "B"), docs), {"n_resamples": 0}))
        return r.frames["per_pair_label"]

    ab, ba = figures(a, b), figures(b, a)
    cols = ["exact_f1", "overlap_f1", "token_f1", "lenient_f1"]
    vals = ab[cols].to_numpy(dtype=float)
    np.testing.assert_allclose(vals, ba[cols].to_numpy(dtype=float))  # symmetric
    ok = np.isfinite(vals)
    assert ((vals[ok] >= 0) & (vals[ok] <= 1 + 1e-12)).all()
    exact, overlap, _token, lenient = vals.T
    done = np.isfinite(exact)
    assert (exact[done] <= overlap[done] + 1e-12).all()
    assert (overlap[done] <= lenient[done] + 1e-12).all()
    filled = figures(a, a)[cols].to_numpy(dtype=float)
    assert np.allclose(filled[np.isfinite(filled)], 1.0)
