"""Frequentist coverage of the conjugate Bayesian interval of multi-κ, by simulation.

    python bench/coverage_bayes.py [--studies 400]

Items have a hidden true label (two categories, 60 : 40); each annotator copies it with their own
accuracy and otherwise labels at random. The population multi-κ of such annotators is computed
from a very large sample; for each scenario (annotators × items) many studies are drawn and the
share whose central 95% interval contains the population value is printed. The figures are
those quoted in :func:`iaa_desktop.core.metrics.uncertainty.bayes_multi_kappa`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from iaa_desktop.core.metrics import bayes_multi_kappa, multi_kappa


def study(rng: np.random.Generator, n: int, accuracy: np.ndarray) -> np.ndarray:
    truth = (rng.random(n) < 0.4).astype(np.int32)
    copy = rng.random((n, len(accuracy))) < accuracy[None, :]
    guess = rng.integers(0, 2, (n, len(accuracy)))
    return np.where(copy, truth[:, None], guess).astype(np.int32)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--studies", type=int, default=400)
    args = ap.parse_args()
    rng = np.random.default_rng(2024)
    print("annotators  items  population κ  coverage of the 95% interval  mean width")
    for c, n in ((2, 300), (2, 30), (4, 100), (4, 30), (4, 10)):
        accuracy = np.linspace(0.55, 0.8, c)
        true_kappa = multi_kappa(study(rng, 2_000_000, accuracy)).value
        covered, widths = 0, []
        for s in range(args.studies):
            b = bayes_multi_kappa(study(rng, n, accuracy), n_draws=2000, seed=s, n_categories=2)
            covered += b["low95"] <= true_kappa <= b["high95"]
            widths.append(b["high95"] - b["low95"])
        print(
            f"{c:10d} {n:6d} {true_kappa:13.3f} {covered / args.studies:29.3f} "
            f"{np.nanmean(widths):11.3f}"
        )


if __name__ == "__main__":
    main()
