"""Model annotators and planning in a span study, per token (the label of the span covering a
token, or none): the figures equal the table kind's on the same token labels written as a
judgment table (an independent route: the table kind's reader and coefficients)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.spans.compare import KIND as SPANS
from iaa_desktop.core.kinds.table.compare import KIND as TABLE
from iaa_desktop.core.progress import run_to_end

# sorted names and labels, "~none" after them: the tally's rows come in the same order
ANNOTATORS = ("a1", "a2", "a3", "a4", "bot")
LABELS = ("LOC", "PER")
NONE = "~none"


def _labels(seed=7, n=50):
    """Each token's label per annotator (token × annotator), one-token spans."""
    rng = np.random.default_rng(seed)
    truth = rng.choice([*LABELS, NONE], size=n, p=(0.3, 0.3, 0.4))
    out = np.empty((n, len(ANNOTATORS)), dtype=object)
    for x, err in enumerate((0.1, 0.2, 0.3, 0.15, 0.12)):
        wrong = rng.random(n) < err
        out[:, x] = np.where(wrong, rng.choice([*LABELS, NONE], size=n), truth)
    return out


def _brat(folder, labels):
    words = [f"w{i:02d}" for i in range(len(labels))]
    text = " ".join(words)
    for x, a in enumerate(ANNOTATORS):
        d = folder / a
        d.mkdir(parents=True)
        (d / "doc.txt").write_text(text, encoding="utf-8")
        lines, pos, t = [], 0, 1
        for i, w in enumerate(words):
            if labels[i, x] != NONE:
                lines.append(f"T{t}\t{labels[i, x]} {pos} {pos + len(w)}\t{w}")
                t += 1
            pos += len(w) + 1
        (d / "doc.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _table(tmp_path, labels, **options):
    frame = pd.DataFrame(
        [
            (f"t{i:02d}", a, labels[i, x])
            for i in range(len(labels))
            for x, a in enumerate(ANNOTATORS)
        ],
        columns=["item", "annotator", "label"],
    )
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    return run_to_end(TABLE.run([path], {"level": "nominal", **options})).to_json()


def _spans(tmp_path, labels, **options):
    folder = _brat(tmp_path / "brat", labels)
    return run_to_end(SPANS.run([folder], {"gamma": False, **options}))


def test_model_figures_equal_the_table_kinds(tmp_path):
    labels = _labels()
    res = _spans(tmp_path, labels, model_annotators="bot", epsilon=0.15)
    assert res.annotators == ANNOTATORS[:4]
    j = res.to_json()
    (m,) = j["model_annotators"]
    (t,) = _table(tmp_path, labels, model_annotators="bot", epsilon=0.15)["model_annotators"]
    assert m["score"] == t["score"] == "accuracy" and m["n_items"] == len(labels)
    for key in ("winning_rate", "advantage_probability", "passes", "n_items", "epsilon"):
        assert m[key] == pytest.approx(t[key], rel=1e-12, nan_ok=True), key
    for h, th in zip(m["per_human"], t["per_human"], strict=True):
        assert h["human"] == th["human"]
        for key in ("n_items", "rho_model", "rho_human", "p_value", "p_adjusted", "model_beats"):
            assert h[key] == pytest.approx(th[key], rel=1e-12, nan_ok=True), key
    for p, tp in zip(m["agreement"], t["agreement"], strict=True):
        assert p["with"] == tp["with"]
        for key in p:
            if key != "with":
                assert p[key] == pytest.approx(tp[key], rel=1e-12, nan_ok=True), (p["with"], key)
    assert m["human_kappa_range"] == pytest.approx(t["human_kappa_range"], rel=1e-12)
    assert {"alt_test", "model_agreement"} <= set(res.tables())
    json.dumps(j)


def test_planning_equals_the_table_kinds(tmp_path):
    labels = _labels(seed=11, n=30)
    j = _spans(tmp_path, labels, planning=True).to_json()
    t = _table(tmp_path, labels, planning=True)
    assert j["planning"] and j["planning"] == t["planning"]
    assert j["planning_needed"] == t["planning_needed"]


def test_without_the_options_nothing_is_added_and_unknown_models_are_refused(tmp_path):
    labels = _labels()
    j = _spans(tmp_path / "x", labels).to_json()
    assert not {"model_annotators", "planning", "planning_needed"} & set(j)
    with pytest.raises(OptionError, match="'Zed' is not an annotator"):
        _spans(tmp_path / "y", labels, model_annotators="Zed")


def test_report_has_the_model_and_planning_sections(tmp_path):
    from iaa_desktop.core.export import report as R

    res = _spans(tmp_path, _labels(), model_annotators="bot", planning=True)
    html = R.build_report(res, R.ReportContext(title="Annotators")).html
    for part in ("Model annotators", "<b>bot</b>", "Planning", "Calderon, Reichart &amp; Dror"):
        assert part in html, part
