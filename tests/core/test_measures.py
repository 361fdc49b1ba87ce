"""Help → Measures text and tooltips: every metric name used in results has an explanation."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from iaa_desktop.core.measures import MEASURES, find, measures_html, tooltip

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "iaa_desktop" / "resources" / "examples"

RESULT_NAMES = [
    "percent_agreement",
    "cohen_kappa",
    "cohen_kappa_mean",
    "scott_pi",
    "scott_pi_mean",
    "fleiss_kappa",
    "multi_kappa",
    "krippendorff_alpha",
    "gwet_ac1",
    "gwet_ac2_linear",
    "gwet_ac2_quadratic",
    "conger_kappa",
    "bennett_s",
    "alpha_one_vs_rest",
    "kappa_one_vs_rest",
    "spearman_weighted",
    "spearman",
    "weighted_kappa_linear",
    "weighted_kappa_linear_mean",
    "weighted_kappa_quadratic",
    "weighted_kappa_quadratic_mean",
    "muc",
    "bcub",
    "ceafm",
    "ceafe",
    "blanc",
    "lea",
    "mentions",
    "conll",
    "d",
    "alpha_nld",
    "pi",
    "first_level",
    "second_level",
    "exact_set_agreement",
    "overlap",
]


@pytest.mark.parametrize("name", RESULT_NAMES)
def test_every_result_metric_has_a_tooltip(name):
    text = tooltip(name)
    for part in ("Corrects for:", "Range:", "Misleads when:", "Source:"):
        assert part in text, (name, part)


def test_each_measure_is_complete_and_keys_unique():
    keys = [m.key for m in MEASURES]
    assert len(keys) == len(set(keys))
    for m in MEASURES:
        for field in (m.title, m.summary, m.corrects_for, m.range, m.misleads, m.reference):
            assert field.strip(), m.key


def test_names_variants_map_to_one_measure():
    assert find("cohen_kappa_mean") is find("cohen_kappa") is find("Cohen's κ")
    assert find("overall.krippendorff_alpha.value").key == "krippendorff_alpha"
    assert find("word.ALL.pi").key == "fleiss_kappa"
    assert find("character.MEDIUM.alpha_nld").key == "alpha_nld"
    assert find("weighted_kappa_quadratic_mean").key == "weighted_kappa_quadratic"
    assert find("ceafe").key == "ceafe" and find("ceafm").key == "ceafm"
    assert find("D").key == "class_matching_d"
    assert tooltip("n_items") == "" and tooltip("") == "" and find("no_such_measure") is None


def test_tooltip_equals_the_help_text():
    page = measures_html()
    for m in MEASURES:
        assert f'id="{m.key}"' in page
    # the help page shows the same four parts the tooltip carries
    assert page.count("Misleads when:") == len(MEASURES)


def test_the_five_sources_are_named():
    refs = " ".join(m.reference for m in MEASURES)
    for source in (
        "Bernard of Clairvaux",
        "participant-analysis",
        "Periti",
        "Bollmann",
        "Levi & Shenhav",
    ):
        assert source in refs


def _metric_keys(data, out):
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) or isinstance(v, dict):
                out.add(k)
            _metric_keys(v, out)
    elif isinstance(data, list):
        for v in data:
            _metric_keys(v, out)


@pytest.mark.parametrize(
    "kind,inputs,must",
    [
        (
            "table",
            ["judgments/ratings.csv"],
            ["percent_agreement", "cohen_kappa_mean", "krippendorff_alpha", "gwet_ac1"],
        ),
        (
            "multilabel",
            ["multilabel/annotations.tsv", "multilabel/sentences.tsv"],
            ["first_level", "exact_set_agreement"],
        ),
    ],
)
def test_metrics_of_a_real_result_have_tooltips(kind, inputs, must):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "iaa_desktop",
            "report",
            "--kind",
            kind,
            *[str(EXAMPLES / i) for i in inputs],
            "--json",
            "-",
            "-q",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    keys: set[str] = set()
    _metric_keys(json.loads(out.stdout), keys)
    for name in must:
        assert name in keys and tooltip(name), name
