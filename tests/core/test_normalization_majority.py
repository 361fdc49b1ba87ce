"""Gold by majority for normalization: the majority is taken on the normalization itself."""

from __future__ import annotations

import numpy as np

from iaa_desktop.core.adjudication.model import Strategy, auto_merge
from iaa_desktop.core.kinds.normalization.adjudication import NormalizationModel, encode


def _model(rows):
    versions = np.array([[encode(*v) if v else None for v in row] for row in rows], dtype=object)
    n = len(rows)
    return NormalizationModel(
        ("A", "B", "C"),
        [f"t/{i}" for i in range(n)],
        versions,
        text_ids=("t",) * n,
        token_ids=tuple(str(i) for i in range(n)),
        orig=("x",) * n,
    )


def test_majority_on_the_normalization_with_its_own_modernization_majority():
    m = _model(
        [
            # the same normalization, the modernizations differ: decided, no modernization
            [("vnd", "und", "INFL"), ("vnd", "", ""), ("vnd", "oder", "SEM")],
            # the whole triples differ but 2 of 3 give 'thun' and 'tun': decided with 'tun'
            [("thun", "tun", "INFL"), ("thun", "tun", "SEM"), ("thůn", "", "")],
            # no normalization has a majority: undecided
            [("a", "", ""), ("b", "", ""), ("c", "", "")],
            # one annotator without a version: 2 of 2
            [("jar", "Jahr", "INFL"), ("jar", "Jahr", "INFL"), None],
        ]
    )
    gold = auto_merge(m, Strategy("majority"))
    assert gold[0] == encode("vnd", "", "")
    assert gold[1] == encode("thun", "tun", "INFL")  # the first of the equal types
    assert gold[2] is None
    assert gold[3] == encode("jar", "Jahr", "INFL")
    # the 'm' choice offered to the adjudicator is the same majority
    assert [c.value for c in m.choices(1) if c.choice == "majority"] == [gold[1]]


def test_min_share_applies_to_the_normalization():
    m = _model([[("vnd", "", ""), ("vnd", "", ""), ("vnnd", "", "")]])
    assert auto_merge(m, Strategy("majority", 0.6))[0] == encode("vnd", "", "")
    assert auto_merge(m, Strategy("majority", 0.9))[0] is None
