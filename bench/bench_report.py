"""Benchmark of the agreement report (issue 8): time to write the PDF of each example study.

For every study in ../shared/data the kind's run is timed, then the report (HTML building, the
WeasyPrint layout — twice when a table of contents is added — and the PDF file). The reference is
the plain HTML build without charts and layout: the ratio shows what the PDF costs on top.
Target: under 10 s for the largest example study (the whole report command, imports included).

Run: ``/work/venv/bin/python bench/bench_report.py`` from the repository root.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data"

STUDIES = [
    ("coref", [DATA / "psalms-coref" / "A", DATA / "psalms-coref" / "B"], {}),
    ("durel", [DATA / "trotr"], {}),
    ("candidates", [DATA / "candidates"], {}),
    ("normalization", [DATA / "normalization"], {}),
    ("multilabel", [DATA / "multilabel" / "annotations.tsv"], {}),
    (
        "table",
        [DATA / "trotr" / "(Genesis 1 1)" / "judgments.tsv"],
        {"level": "ordinal", "missing": "0"},
    ),
]


def main() -> int:
    from iaa_desktop.core.export import report as R
    from iaa_desktop.core.kinds import get_kind
    from iaa_desktop.core.progress import run_to_end

    t0 = time.perf_counter()
    import matplotlib.figure  # noqa: F401
    import weasyprint  # noqa: F401

    print(f"imports (weasyprint, matplotlib): {time.perf_counter() - t0:.2f} s")
    print(
        f"{'study':<14}{'run s':>8}{'html s':>9}{'pdf s':>8}{'pages':>7}{'pdf/html':>10}{'CLI total s':>13}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for kind, inputs, options in STUDIES:
            if not all(p.exists() for p in inputs):
                print(f"{kind:<14} (data missing)")
                continue
            t = time.perf_counter()
            result = run_to_end(get_kind(kind).run(inputs, options))
            t_run = time.perf_counter() - t
            t = time.perf_counter()
            R.build_report(result, R.ReportContext(charts=False))
            t_html = time.perf_counter() - t
            pdf = Path(tmp) / f"{kind}.pdf"
            t = time.perf_counter()
            R.write_report(result, pdf_path=pdf)
            t_pdf = time.perf_counter() - t
            pages = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
            n_pages = next(
                (line.split()[-1] for line in pages.splitlines() if line.startswith("Pages:")), "?"
            )
            # the whole command in a fresh process: imports, run, report
            cmd = [
                sys.executable,
                "-m",
                "iaa_desktop",
                "report",
                "--kind",
                kind,
                *map(str, inputs),
                "-q",
                "--pdf",
                str(pdf),
            ]
            for k, v in options.items():
                cmd += [f"--{k.replace('_', '-')}", str(v)]
            t = time.perf_counter()
            subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False)
            t_cli = time.perf_counter() - t
            print(
                f"{kind:<14}{t_run:>8.2f}{t_html:>9.3f}{t_pdf:>8.2f}{n_pages:>7}{t_pdf / max(t_html, 1e-9):>10.0f}{t_cli:>13.2f}"
                + ("" if t_cli < 10 else "  ← over the 10 s target")
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
