"""What the generator of the simulated candidate-pairs data implies for the agreement model.

The labels are simulated per item and annotator (``generate.py`` of the candidate-pairs data):

    logit p_i = alpha + b_method[m_i] + u_book[b_i] + b_known·known_i + b_overlap·z_i + e_i
    y_ij ~ Bernoulli(logistic(logit p_i + delta_j)),       e_i ~ N(0, sigma_pair)

so the probability of the pairwise outcome (a, b) of annotators x, y on item i is
E_e[P(y_ix = a) P(y_iy = b)] (Gauss–Hermite over e). From it:

* :func:`true_kappa` — multi-κ of a condition (method, known, overlap z, book effect 0: the
  average of the population of books; or the mean of the 50 realised book effects, the average
  of the study's books) with the chance agreement of the paper's Eq. 8 taken from the data, as
  the model defines it;
* :func:`pseudo_true_coefficients` — the coefficients of the baseline-category logit model
  closest to the generator (Kullback–Leibler projection: the maximiser of the expected
  log-likelihood over the observed covariates, books as free intercepts). The model has no
  item-level effect, so these are attenuated relative to the generator's label-level effects
  (about b, b, 2b for the logits 01, 10, 11 before attenuation).
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, log_softmax, softmax

GH_NODES = 60


def _gh() -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.hermite_e.hermegauss(GH_NODES)
    return x, w / w.sum()


def outcome_probs(logit: np.ndarray, delta: list[float], sigma: float) -> np.ndarray:
    """(items, pairs, 4) outcome probabilities 00, 01, 10, 11 for item logits without e_i."""
    x, w = _gh()
    lat = np.asarray(logit, dtype=float)[:, None] + sigma * x[None, :]
    out = []
    for a, b in combinations(range(len(delta)), 2):
        pa, pb = expit(lat + delta[a]), expit(lat + delta[b])
        th = np.stack([(1 - pa) * (1 - pb), (1 - pa) * pb, pa * (1 - pb), pa * pb], -1)
        out.append((th * w[None, :, None]).sum(axis=1))
    return np.stack(out, axis=1)


def load_params(folder: Path) -> dict:
    return json.loads((Path(folder) / "params.json").read_text(encoding="utf-8"))


def true_kappa(
    params: dict, method: str, known: bool, z: float, chance: float, u: float = 0.0
) -> float:
    """multi-κ (Eq. 7 with the given Eq. 8 chance agreement) of a condition with book effect
    ``u`` (0: the average book of the population the books are drawn from)."""
    m = params["model"]
    logit = m["alpha"] + m["b_method"][method] + m["b_known"] * float(known) + m["b_overlap"] * z
    logit += u
    delta = [m["delta"][a] for a in sorted(m["delta"])]
    th = outcome_probs(np.array([logit]), delta, m["sigma_pair"])[0]
    a_o = float((th[:, 0] + th[:, 3]).mean())
    return (a_o - chance) / (1 - chance)


def pseudo_true_coefficients(
    params: dict, method: np.ndarray, known: np.ndarray, z: np.ndarray, book: np.ndarray
) -> dict[str, np.ndarray]:
    """KL projection of the generator onto the model with fixed effects method (soft-cosine vs
    smith-waterman), known and overlap z and free book intercepts; returns α (pairs × 3) and
    β (3 terms × 3 logits: method[soft-cosine], known[true], overlap)."""
    m = params["model"]
    u = np.array([params["book_effects"][b] for b in book])
    sc = (method == "soft-cosine").astype(float)
    kn = known.astype(float)
    logit = m["alpha"] + m["b_method"]["soft-cosine"] * sc + m["b_known"] * kn + m["b_overlap"] * z
    delta = [m["delta"][a] for a in sorted(m["delta"])]
    target = outcome_probs(logit + u, delta, m["sigma_pair"])  # (n, P, 4)
    n, n_pairs = target.shape[:2]
    X = np.stack([sc, kn, z], axis=1)
    books, b_idx = np.unique(book, return_inverse=True)
    sizes = (n_pairs * 3, 3 * 3, len(books) * 3)

    def unpack(v):
        a = v[: sizes[0]].reshape(n_pairs, 3)
        b = v[sizes[0] : sizes[0] + sizes[1]].reshape(3, 3)
        g = v[sizes[0] + sizes[1] :].reshape(len(books), 3)
        return a, b, g

    def f(v):
        a, b, g = unpack(v)
        eta = a[None, :, :] + (X @ b)[:, None, :] + g[b_idx][:, None, :]
        full = np.concatenate([np.zeros((n, n_pairs, 1)), eta], -1)
        ll = (target * log_softmax(full, axis=-1)).sum()
        r = target - softmax(full, axis=-1)  # gradient of ll with respect to the logits
        r = r[..., 1:]
        ga = r.sum(axis=0)
        gb = X.T @ r.sum(axis=1)
        gg = np.zeros_like(g)
        np.add.at(gg, b_idx, r.sum(axis=1))
        ridge = 1e-4 * (g**2).sum()  # books and pair intercepts share a constant: pin it
        grad = -np.concatenate([ga.ravel(), gb.ravel(), (gg - 2e-4 * g).ravel()])
        return -ll + ridge, grad

    res = minimize(f, np.zeros(sum(sizes)), jac=True, method="L-BFGS-B", options={"maxiter": 5000})
    a, b, _ = unpack(res.x)
    return {"alpha": a, "beta": b, "converged": bool(res.success)}


def realised_book_mean(params: dict) -> float:
    """Mean of the realised book effects (one per book, all books weighted alike)."""
    return float(np.mean(list(params["book_effects"].values())))
