"""The weights of the mean pairwise Spearman ρ: TRoTR's (items both judged, can't-decide
included) or the WUGs pipeline's (items both judged with a valid value), chosen by the layout.

The expected WUGs value is computed here as ``scripts/modules.py`` ``get_agreements`` of the WUGs
repository (Garrafao/WUGs) computes ``spr`` ``mean_weighted``: can't-decide (0) becomes NaN, a
pair's overlap is the items both judged with a value, ρ is scipy's ``spearmanr`` on the overlap,
and the mean weights each pair's ρ by its overlap over the pairs whose ρ is defined.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from scipy.stats import spearmanr

from iaa_desktop.cli import main as cli_main
from iaa_desktop.core.kinds.durel.reader import is_wugs_layout

# items × annotators, 0 = can't decide
JUDGMENTS = np.array(
    [
        [4, 4, 3],
        [1, 2, 0],
        [3, 0, 3],
        [2, 2, 1],
        [4, 3, 4],
        [1, 1, 0],
        [0, 3, 2],
        [3, 4, 4],
        [2, 1, 2],
    ],
    dtype=float,
)
ANNOTATORS = ("ann1", "ann2", "ann3")


def _write_target(folder):
    folder.mkdir(parents=True)
    uses = [
        "lemma\tpos\tdate\tgrouping\tidentifier\tdescription\tcontext\tindexes_target_token\tindexes_target_sentence"
    ]
    uses += [f"arm\tNN\t1900\t1\tu{k}\t\tthe arm {k} moved\t4:7\t0:17" for k in range(10)]
    (folder / "uses.tsv").write_text("\n".join(uses) + "\n", encoding="utf-8")
    rows = ["identifier1\tidentifier2\tannotator\tjudgment\tcomment\tlemma"]
    for i, judged in enumerate(JUDGMENTS):
        for a, j in zip(ANNOTATORS, judged, strict=True):
            rows.append(f"u{i}\tu{i + 1}\t{a}\t{j:.1f}\t\tarm")
    (folder / "judgments.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def _wugs_mean_weighted() -> float:
    data = np.where(JUDGMENTS == 0, np.nan, JUDGMENTS)
    rhos, overlaps = [], []
    for x, y in itertools.combinations(range(data.shape[1]), 2):
        both = ~np.isnan(data[:, x]) & ~np.isnan(data[:, y])
        rho = spearmanr(data[both, x], data[both, y])[0]
        rhos.append(rho)
        overlaps.append(both.sum())
    ok = [not np.isnan(r) for r in rhos]
    total = sum(o for o, k in zip(overlaps, ok, strict=True) if k)
    return float(np.nansum([o / total * r for o, r in zip(overlaps, rhos, strict=True)]))


def _judged_mean_weighted() -> float:
    data = np.where(JUDGMENTS == 0, np.nan, JUDGMENTS)
    num = den = 0.0
    for x, y in itertools.combinations(range(data.shape[1]), 2):
        both = ~np.isnan(data[:, x]) & ~np.isnan(data[:, y])
        rho = spearmanr(data[both, x], data[both, y])[0]
        num += len(JUDGMENTS) * rho  # every annotator judged every item (0 included)
        den += len(JUDGMENTS)
    return num / den


def _rho(inputs, capsys, *flags):
    code = cli_main(["report", "--kind", "durel", *map(str, inputs), *flags, "--json", "-"])
    cap = capsys.readouterr()
    assert code in (0, 1), cap.err
    data = json.loads(cap.out)
    return data["overall"]["all"]["spearman_weighted"]


def test_dwug_folder_gives_the_wugs_pipeline_value(tmp_path, capsys):
    _write_target(tmp_path / "dwug_en" / "data" / "arm_nn")
    (tmp_path / "dwug_en" / "clusters" / "opt").mkdir(parents=True)
    data = tmp_path / "dwug_en" / "data"
    assert is_wugs_layout([data]) and is_wugs_layout([data / "arm_nn"])
    rho = _rho([data], capsys)
    assert rho == pytest.approx(_wugs_mean_weighted(), abs=1e-12)
    assert abs(_wugs_mean_weighted() - _judged_mean_weighted()) > 1e-3  # the two differ here
    rho = _rho([data], capsys, "--spearman-weights", "judged")
    assert rho == pytest.approx(_judged_mean_weighted(), abs=1e-12)


def test_durel_export_keeps_the_trotr_weights(tmp_path, capsys):
    _write_target(tmp_path / "export" / "arm_nn")
    assert not is_wugs_layout([tmp_path / "export"])
    rho = _rho([tmp_path / "export"], capsys)
    assert rho == pytest.approx(_judged_mean_weighted(), abs=1e-12)
    rho = _rho([tmp_path / "export"], capsys, "--spearman-weights", "valid")
    assert rho == pytest.approx(_wugs_mean_weighted(), abs=1e-12)
