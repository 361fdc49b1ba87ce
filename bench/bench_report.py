"""Benchmark of the agreement report: the PDF of every example study, pages per second.

    python bench/bench_report.py [--repeat 3] [--repo PATH]

For every example study bundled with the app (``iaa_desktop/resources/examples/*/*.iaa-study``)
the kind runs once, then, with the shared helper (``bench/timing.py``, same repeats, CPU and wall):

* ours: ``write_report`` to a PDF (HTML with the charts, Typst's typesetting, the PDF file);
* reference: the same report written as HTML only, charts included (what the PDF adds on top
  of building the document is the layout and the PDF file).

Pages per CPU second of the PDF are printed; the target is every example's PDF ≤ 2 s CPU. The
whole ``report --pdf`` command in a fresh process (imports included) is timed beside it. The
one-time imports (the typesetter, matplotlib) and the first report (fonts found, charts' code
warmed up) are done before timing and printed apart.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import timing  # noqa: E402


def _pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    m = re.search(r"Pages:\s+(\d+)", info)
    return int(m.group(1)) if m else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--repo", type=Path, default=ROOT, help="checkout to time (default: this one)")
    args = ap.parse_args()
    repo = args.repo.resolve()
    sys.path.insert(0, str(repo))
    examples = repo / "iaa_desktop" / "resources" / "examples"
    timing.machine()
    from iaa_desktop.core.export import report as R
    from iaa_desktop.core.kinds import detect_kind, get_kind
    from iaa_desktop.core.progress import run_to_end
    from iaa_desktop.core.study_file import load_study

    c0, w0 = time.process_time(), time.perf_counter()
    import matplotlib.figure  # noqa: F401
    import typst  # noqa: F401  (a checkout given with --repo imports its own engine at its first report)

    print(
        f"imports (typst, matplotlib): cpu {time.process_time() - c0:.2f} s, "
        f"wall {time.perf_counter() - w0:.2f} s (once per process, not below)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(repo)
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for n, study_path in enumerate(sorted(examples.glob("*/*.iaa-study"))):
            name = study_path.parent.name
            study = load_study(study_path)
            kind = study.kind or detect_kind(list(study.inputs))
            result = run_to_end(get_kind(kind).run(list(study.inputs), study.options))
            pdf, html = Path(tmp) / f"{name}.pdf", Path(tmp) / f"{name}.html"
            if n == 0:  # the first report of the process finds the fonts: untimed
                R.write_report(result, pdf_path=pdf)
            ours, ref = timing.compare(
                f"{name} ({kind}): PDF vs the same report as HTML",
                lambda result=result, pdf=pdf: R.write_report(result, pdf_path=pdf),
                lambda result=result, html=html: R.write_report(result, html_path=html),
                repeat=args.repeat,
            )
            pages = _pages(pdf)
            rate = pages / ours.cpu_median if ours.cpu_median else float("inf")
            cmd = [sys.executable, "-m", "iaa_desktop", "report", str(study_path)]
            cmd += ["--pdf", str(pdf), "--quiet"]
            proc = timing.measure_process(cmd, repeat=1, env=env, cwd=repo)
            print(
                f"    {pages} pages, {rate:.1f} pages per CPU second; target ≤ 2 s CPU; "
                f"whole 'report --pdf' command in a fresh process: {timing.fmt(proc)}"
            )
            worst = max(worst, ours.cpu_median)
            timing.record(
                "report",
                f"PDF of the {name} example ({pages} pages, {rate:.1f} pages/s)",
                ours,
                ref,
                reference="the same report as HTML",
                target="≤ 2 s CPU",
            )
            timing.record("report", f"report --pdf, {name} example (whole process)", proc)
    print(f"slowest example PDF: {worst:.2f} s CPU (target ≤ 2 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
