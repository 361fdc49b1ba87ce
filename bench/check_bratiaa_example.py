"""Check the spans kind against bratiaa's published regression values on its example project.

bratiaa's regression tests (``tests/bratiaa/test_agree_regression.py`` in its repository) print
instance-based and token-based F1 on its example project (four annotators, seven CoNLL-2002
Spanish documents): the total and, per label (LOC, MISC, ORG, PER), the mean and SD over the six
annotator pairs. The project is not distributed with this repository (its documents keep their
own licence); point this script at a copy of bratiaa's ``example-files`` folder::

    python bench/check_bratiaa_example.py PATH/TO/bratiaa/example-files

It prints each figure beside the published one and exits 1 if any differs by more than 1e-6.
The same computation is cross-checked against the installed bratiaa library on projects made
by the tests (``tests/core/test_spans_bratiaa_figures.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.progress import run_to_end

LABELS = ("LOC", "MISC", "ORG", "PER")
# bratiaa tests/bratiaa/test_agree_regression.py
PUBLISHED = {
    "exact_f1": {
        "total": (0.8903501, 0.0526314),
        "mean": (0.8191061, 0.84004593, 0.9059579, 0.93782234),
        "sd": (0.13102913, 0.08971284, 0.05325575, 0.03875493),
    },
    "token_f1": {
        "total": (0.9639787, 0.01498979),
        "mean": (0.963268, 0.918178, 0.972434, 0.982987),
        "sd": (0.012501, 0.044941, 0.015136, 0.006485),
    },
}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(__doc__)
        return 2
    r = run_to_end(get_kind("spans").run([Path(argv[0])], {"n_resamples": 20}))
    labels = r.frames["labels"]
    worst = 0.0
    for fig, published in PUBLISHED.items():
        mean = dict(zip(labels["label"], labels[fig], strict=True))
        sd = dict(zip(labels["label"], labels[f"{fig}_sd"], strict=True))
        rows = [("total", (r.overall[fig]["mean"], r.overall[fig]["sd"]), published["total"])]
        rows += [
            (lab, (mean[lab], sd[lab]), (published["mean"][i], published["sd"][i]))
            for i, lab in enumerate(LABELS)
        ]
        for name, ours, theirs in rows:
            diff = max(abs(float(o) - t) for o, t in zip(ours, theirs, strict=True))
            worst = max(worst, diff)
            print(
                f"{fig:9} {name:6} mean {ours[0]:.7f} (bratiaa {theirs[0]:.7f})  "
                f"sd {ours[1]:.7f} (bratiaa {theirs[1]:.7f})  |Δ| {diff:.1e}"
            )
    print(f"largest difference {worst:.1e}: {'equal' if worst <= 1e-6 else 'DIFFERENT'}")
    return 0 if worst <= 1e-6 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
