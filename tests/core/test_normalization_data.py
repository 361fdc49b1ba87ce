"""Normalization kind on the five-annotator data in ../shared/data/normalization.

Published figures (README / params.json of that folder) and cross-checks against LingPy (every
distinct pair aligned identically), the lead's metrics and NLTK's ``AnnotationTask``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import combinations

import numpy as np
import pytest

from iaa_desktop.core.align.characters import (
    CharacterAligner,
    align_units,
    graphemes,
    lingpy_nw_align,
    nw_align,
)
from iaa_desktop.core.align.needleman_wunsch import nw_align_many
from iaa_desktop.core.kinds.normalization.compare import KIND, build_character_data
from iaa_desktop.core.metrics import fleiss_kappa, percent_agreement
from iaa_desktop.core.metrics.alpha import alpha_strings_from_codes
from iaa_desktop.core.progress import run_to_end
from tests.conftest import shared_path

pytestmark = pytest.mark.shared


@lru_cache(maxsize=4)
def _result(raw: bool = False):
    folder = shared_path("normalization")
    return run_to_end(KIND.run([folder], {"raw_compare": raw}))


@pytest.fixture
def result():
    return _result()


@pytest.fixture
def params():
    return json.loads(shared_path("normalization", "params.json").read_text(encoding="utf-8"))


def test_word_agreement_is_the_published_mean_pairwise_9275(result, params):
    w = result.word["ALL"]
    assert w.n_tokens == 4600
    assert (
        round(w.percent_agreement, 4)
        == params["measured"]["norm_mean_pairwise_agreement"]
        == 0.9275
    )
    names = result.annotators
    pw = result.pairwise["word_agreement"]
    for key, value in params["measured"]["norm_pairwise_agreement_by_pair"].items():
        x, y = (int(k) - 1 for k in key.split("-"))
        assert round(pw.loc[names[x], names[y]], 4) == value


def test_type_pi_published_0818_and_0475(result, params):
    m = result.modernization
    assert round(m["ALL"].pi, 3) == 0.818
    assert round(m["ALL"].pi, 4) == params["measured"]["type_fleiss_pi_all_tokens"]
    assert round(m["MEDIUM"].pi, 3) == 0.475
    assert round(m["MEDIUM"].pi, 4) == params["measured"]["type_fleiss_pi_tokens_with_INFL_SEM_EXT"]
    counts = dict(zip(*np.unique(result.types.ravel(), return_counts=True)))
    assert {k: int(v) for k, v in counts.items()} == params["measured"]["type_label_counts"]
    assert (
        round(m["MEDIUM"].n_tokens / 4600, 3)
        == params["measured"]["share_tokens_with_any_modernization"]
    )


def test_raw_compare_type_pi_published_08225(params):
    res = _result(raw=True)
    assert (
        round(res.modernization["ALL"].pi, 4)
        == params["measured"]["type_fleiss_pi_all_tokens_if_ORIG_means_exact_string_identity"]
    )


def test_confusion_is_summed_over_pairs(result):
    conf = result.confusion.to_numpy()
    assert np.allclose(np.tril(conf, -1), 0)
    assert conf.sum() == 4600 * 10


def _corpus_pairs() -> set[tuple[str, str]]:
    """Every (historical, normalized or modernized) pair of the five-annotator data and of the
    test fixtures, as written and lower-cased."""
    from tests.conftest import FIXTURES

    files = sorted(shared_path("normalization").glob("annotator_*.tsv"))
    files += sorted((FIXTURES / "normalization").glob("*/*.tsv"))
    pairs = set()
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines()[1:]:
            cells = line.split("\t")
            if len(cells) < 4:
                continue
            orig, forms = cells[2], cells[3:5]
            for form in forms:
                if form:
                    pairs.add((orig, form))
                    pairs.add((orig.lower(), form.lower()))
    return pairs


def test_aligner_identical_to_lingpy_on_every_distinct_pair():
    """The batch Needleman–Wunsch equals LingPy's nw_align on every pair of the test corpora,
    on graphemes and on plain characters; the one-pair call and the aligner's cache as well."""
    pairs = sorted(_corpus_pairs())
    assert len(pairs) > 2000
    units = [(graphemes(o), graphemes(n)) for o, n in pairs]
    batch = nw_align_many([a for a, _ in units], [b for _, b in units]).to_lists()
    chars = nw_align_many([o for o, _ in pairs], [n for _, n in pairs])
    aligner = CharacterAligner()
    aligner.prepare(pairs)
    for k, ((orig, norm), (a, b)) in enumerate(zip(pairs, units)):
        ref = lingpy_nw_align(a, b)
        assert batch[k] == ref, (orig, norm)
        assert chars.pair(k) == lingpy_nw_align(orig, norm), (orig, norm)
        if k % 50 == 0:
            assert nw_align(a, b) == ref
        assert aligner.align(orig, norm).full == align_units(*ref)[0]


def test_lead_metrics_agree_on_whole_data(result):
    import pandas as pd

    codes, cats = pd.factorize(result.norm.ravel())
    codes = codes.reshape(result.norm.shape)
    q = len(cats)
    w = result.word["ALL"]
    assert w.percent_agreement == pytest.approx(percent_agreement(codes, q).value, abs=1e-12)
    assert w.pi == pytest.approx(fleiss_kappa(codes, q).value, abs=1e-12)
    assert w.alpha_nld == pytest.approx(
        alpha_strings_from_codes(codes, list(cats)).value, abs=1e-12
    )


class _Nltk:
    """NLTK tasks: binary distance for avg_Ao and multi-π (NLTK's agreement is 1 − distance),
    NLD for α."""

    def __init__(self, labels: np.ndarray) -> None:
        from nltk.metrics.agreement import AnnotationTask
        from rapidfuzz.distance import Levenshtein

        def nld(a, b):
            m = max(len(a), len(b))
            return Levenshtein.distance(a, b) / m if m else 0.0

        triples = [
            (str(x), str(i), labels[i, x])
            for i in range(labels.shape[0])
            for x in range(labels.shape[1])
        ]
        self.binary = AnnotationTask(data=triples)
        self.nld = AnnotationTask(data=triples, distance=nld)

    def avg_Ao(self) -> float:
        return self.binary.avg_Ao()

    def pi(self) -> float:
        return self.binary.pi()

    def alpha(self) -> float:
        return self.nld.alpha()


def _nltk_task(labels: np.ndarray) -> _Nltk:
    return _Nltk(labels)


@pytest.mark.parametrize("subset", ["ALL", "MEDIUM", "STRICT"])
def test_word_and_character_against_nltk_on_a_subset(subset):
    """NLTK's AnnotationTask (avg_Ao, multi-π, α with the same NLD) on the first 400 tokens."""
    from iaa_desktop.core.metrics.subsets import SubsetReliability

    res = _result()
    n = 400
    norm = res.norm[:n]
    changed = res.changed[:n]
    mask = {"ALL": np.ones(n, bool), "MEDIUM": changed.any(1), "STRICT": changed.all(1)}[subset]
    # word level
    import pandas as pd

    codes, cats = pd.factorize(norm.ravel())
    rel = SubsetReliability(codes.reshape(norm.shape), list(cats))
    ours = rel.agreement(mask)
    task = _nltk_task(norm[mask])
    assert ours.percent_agreement == pytest.approx(task.avg_Ao(), abs=1e-9)
    assert ours.pi == pytest.approx(task.pi(), abs=1e-9)
    assert ours.alpha_nld == pytest.approx(task.alpha(), abs=1e-9)
    # character level (Diff labels)
    cd = build_character_data(list(res.orig[:n]), norm, CharacterAligner())
    crel = SubsetReliability(cd.codes, cd.labels)
    unit_mask = mask[cd.token_of_unit]
    ours_c = crel.agreement(unit_mask)
    labels = np.asarray(cd.labels, dtype=object)[cd.codes[unit_mask]]
    task_c = _nltk_task(labels)
    assert ours_c.percent_agreement == pytest.approx(task_c.avg_Ao(), abs=1e-9)
    assert ours_c.pi == pytest.approx(task_c.pi(), abs=1e-9)
    assert ours_c.alpha_nld == pytest.approx(task_c.alpha(), abs=1e-9)


def test_character_figures_consistent_with_task(result):
    """The task's character figures equal a recomputation from the token table."""
    ch = result.character
    assert ch["ALL"].n_units > ch["MEDIUM"].n_units > ch["STRICT"].n_units > 0
    assert 0.9 < ch["ALL"].percent_agreement < 1
    assert ch["ALL"].pi < ch["ALL"].percent_agreement  # chance agreement is high (identity label)
    for t in result.per_text:
        assert t["word"]["ALL"].n_tokens == 1150


def test_pairwise_pi_is_scott_pi(result):
    import pandas as pd

    from iaa_desktop.core.metrics import scott_pi

    codes, cats = pd.factorize(result.norm.ravel())
    codes = codes.reshape(result.norm.shape)
    names = result.annotators
    for x, y in list(combinations(range(5), 2))[:3]:
        sub = codes[:, [x, y]]
        _, inv = np.unique(sub, return_inverse=True)
        sub = inv.reshape(sub.shape)
        assert result.pairwise["word_pi"].loc[names[x], names[y]] == pytest.approx(
            scott_pi(sub).value, abs=1e-12
        )
