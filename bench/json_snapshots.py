"""Capture and compare the ``report --json`` output of every example study and shared data set.

A refactoring that must not change a figure is checked by capturing before, capturing after and
comparing::

    python bench/json_snapshots.py capture /tmp/before
    ... change the code ...
    python bench/json_snapshots.py capture /tmp/after
    python bench/json_snapshots.py compare /tmp/before /tmp/after

``app_version`` and absolute input paths are left out of the comparison; numbers are compared
exactly (the same code path must give the same float). The shared data is found in
``$IAA_SHARED_DATA`` or ``../shared/data`` beside the checkout; cases whose inputs are absent are
skipped and listed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("IAA_SHARED_DATA", ROOT.parent / "shared" / "data"))
EXAMPLES = ROOT / "iaa_desktop" / "resources" / "examples"


def cases() -> dict[str, list[str]]:
    """Case name → the arguments of ``iaa-desktop report`` (without ``--json``)."""
    out: dict[str, list[str]] = {}
    for study in sorted(EXAMPLES.glob("*/*.iaa-study")):
        out[f"example-{study.parent.name}"] = [str(study)]
    d = DATA
    psalms = [str(d / "psalms-coref" / "A"), str(d / "psalms-coref" / "B")]
    for cost in ("symdiff", "jaccard", "opt"):
        out[f"psalms-{cost}"] = ["--kind", "coref", "--cost", cost, *psalms]
    cases_dir = d / "coref-scorer-cases" / "cases"
    for key in sorted(cases_dir.glob("*.key")):
        for resp in sorted(cases_dir.glob(key.stem + "-*.response")):
            out[f"scorer-{resp.stem}"] = ["--kind", "coref", str(key), str(resp)]
    out["trotr-durel"] = ["--kind", "durel", str(d / "trotr")]
    for target in sorted((d / "trotr").glob("(*")):
        name = target.name.strip("()").replace(" ", "_")
        out[f"trotr-table-{name}"] = [
            "--kind",
            "table",
            "--level",
            "ordinal",
            "--missing",
            "0",
            str(target / "judgments.tsv"),
        ]
    out["normalization"] = ["--kind", "normalization", str(d / "normalization")]
    out["normalization-tiny"] = ["--kind", "normalization", str(d / "normalization" / "tiny")]
    out["candidates"] = [
        "--kind",
        "candidates",
        str(d / "candidates" / "pairs.tsv"),
        str(d / "candidates" / "labels.tsv"),
    ]
    out["candidates-wide"] = [
        "--kind",
        "candidates",
        str(d / "candidates" / "pairs.tsv"),
        str(d / "candidates" / "labels_wide.csv"),
    ]
    out["multilabel"] = [
        "--kind",
        "multilabel",
        str(d / "multilabel" / "annotations.tsv"),
        str(d / "multilabel" / "sentences.tsv"),
    ]
    out["multilabel-wide"] = [
        "--kind",
        "multilabel",
        str(d / "multilabel" / "annotations_wide.tsv"),
    ]
    return out


def _available(args: list[str]) -> bool:
    paths = [a for a in args if "/" in a]
    return all(Path(p).exists() for p in paths)


def capture(target: Path) -> int:
    target.mkdir(parents=True, exist_ok=True)
    skipped = []
    for name, args in cases().items():
        if not _available(args):
            skipped.append(name)
            continue
        cmd = [sys.executable, "-m", "iaa_desktop", "report", *args, "--json", "-", "--quiet"]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        (target / f"{name}.json").write_text(proc.stdout, encoding="utf-8")
        (target / f"{name}.status").write_text(
            f"{proc.returncode}\n{proc.stderr}", encoding="utf-8"
        )
        print(f"{name}: exit {proc.returncode}, {len(proc.stdout):,} bytes")
    if skipped:
        print(f"skipped (inputs absent): {', '.join(skipped)}")
    return 0


def _strip(obj: object) -> object:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in {"app_version", "inputs"}}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def compare(a: Path, b: Path) -> int:
    bad = 0
    for fa in sorted(a.glob("*.json")):
        fb = b / fa.name
        if not fb.exists():
            print(f"{fa.stem}: missing in {b}")
            bad += 1
            continue
        ja = _strip(json.loads(fa.read_text() or "null"))
        jb = _strip(json.loads(fb.read_text() or "null"))
        sa = (a / f"{fa.stem}.status").read_text().split("\n", 1)[0]
        sb = (b / f"{fa.stem}.status").read_text().split("\n", 1)[0]
        if ja != jb or sa != sb:
            print(f"{fa.stem}: DIFFERENT (exit {sa} vs {sb})")
            bad += 1
    n = len(list(a.glob("*.json")))
    print(f"{n - bad} of {n} outputs identical")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "capture":
        return capture(Path(argv[1]))
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
