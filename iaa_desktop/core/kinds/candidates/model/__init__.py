"""The hierarchical agreement model of candidate-pair studies (§2.3 of the study of biblical
intertextuality in Bernard of Clairvaux).

Every annotator pair's judgments of an item form one *pairwise outcome* (``00``, ``01``, ``10``,
``11`` for accept/reject labels). A baseline-category logit regression (pivot ``00``) models the
outcome probabilities with an own intercept per annotator pair, fixed effects (e.g. the "known"
flag, the standardised lexical overlap) and varying intercepts (e.g. retrieval method, source book)
correlated across the logits. Multi-κ is computed per posterior draw from the outcome probabilities
(the paper's Eq. 7) and the chance agreement of the whole data set (Eq. 8).

Modules: :mod:`.data` (outcomes and design matrices), :mod:`.fit` (NUTS in chunks, variational
preview), :mod:`.summaries` (κ per condition, curves, coefficients, LOO), :mod:`.results` (the
cached results of one or more models), :mod:`.charts` and :mod:`.report` (figures and report
section). Only :mod:`.fit` and :mod:`.summaries` import NumPyro, JAX and ArviZ, when a model runs.
"""

from __future__ import annotations

import importlib.util

#: the optional packages the model needs (the ``model`` extra of the package)
REQUIRED = ("numpyro", "jax", "arviz")

INSTALL_HINT = (
    "The agreement model needs the optional packages NumPyro, JAX and ArviZ. Install them with "
    "`pip install 'iaa-desktop[model]'` (or `pip install numpyro jax arviz`) and reopen the study."
)


def missing_packages() -> list[str]:
    """Names of the optional packages of the model that are not installed."""
    return [m for m in REQUIRED if importlib.util.find_spec(m) is None]


def available() -> bool:
    """True when the model can run (NumPyro, JAX and ArviZ are installed)."""
    return not missing_packages()
