"""CPU, wall time and peak memory of the report on crafted hostile inputs, each small on disk.

    python bench/bench_hostile_resources.py [--quick]

Each input (made by ``tests/hostile_files.py``) is opened by ``iaa-desktop report`` in its own
process, which records its CPU time (user + system) and peak resident memory; the figure beside
it is the same command on a small valid input of the same format (the floor: start-up and
imports). The target for every case: refused or read in well under 60 s of CPU and 2 GB.

- a nested INCEpTION export: 16 users' 400 MiB XMI (6.4 GiB unpacked: each over the limit of
  one XMI member) and 16 users' 60 MiB XMI (0.96 GiB, each under that limit: stopped by the
  total, each text refused for its length before it is parsed);
- an XMI of 4 million spans in a per-document ZIP;
- workbooks: 24 million shared strings declared as 3; a sheet of 600,000 cells (the limit)
  and one of 1.8 million;
- a billion-laughs XMI;
- the window (``iaa-desktop open --screenshot`` at 1280×720): a multi-label study one of whose
  annotators is called by a megabyte of text, against the same study with its own names (the
  shared multi-label data set, else the test fixture).

``--quick`` makes each input ten times smaller (a check that the script runs).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from timing import machine, record  # noqa: E402

from tests import hostile_files as H  # noqa: E402

_CHILD = r"""
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, resource.RLIM_INFINITY))  # spare the others
from iaa_desktop.cli import main
t = time.perf_counter()
code = main(sys.argv[1:])
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"code": code, "cpu": u.ru_utime + u.ru_stime, "rss_mb": u.ru_maxrss / 1024,
                  "wall": time.perf_counter() - t}), file=sys.stderr)
"""


def run(args: list[str]) -> dict:
    """The report in a child of ``/usr/bin/time`` (a small process: a child forked from this
    one, which made the inputs, would count this one's memory in its peak)."""
    w0 = time.perf_counter()
    p = subprocess.run(
        ["/usr/bin/time", "-f", "TIME %U %S %M", sys.executable, "-c", _CHILD]
        + ["report", *args, "--quiet"],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
    )
    lines = p.stderr.strip().splitlines()
    try:
        out = json.loads(next(ln for ln in reversed(lines) if ln.startswith("{")))
    except (StopIteration, ValueError):
        out = {"code": p.returncode, "cpu": float("nan")}
    timed = next((ln.split() for ln in reversed(lines) if ln.startswith("TIME ")), None)
    if timed:
        out["cpu"] = float(timed[1]) + float(timed[2])
        out["rss_mb"] = int(timed[3]) / 1024
    else:
        out["rss_mb"] = float("nan")
    out["wall_process"] = time.perf_counter() - w0
    out["message"] = next((ln for ln in lines if ln.startswith("iaa-desktop:")), "")[:220]
    return out


def _xmi_folders(d: Path, big: Iterable[bytes] | None) -> list[str]:
    for who in ("A", "B"):
        (d / who).mkdir(parents=True)
        if who == "A" and big is not None:
            data = H.user_zip("d.txt", big)
            (d / who / "d.txt.zip").write_bytes(data)
        else:
            good = H.xmi("Abcd", [(0, 4, "X"), (0, 2, "Y")])
            (d / who / "d.txt.zip").write_bytes(H.user_zip("d.txt", [good]))
    return ["--kind", "spans", str(d / "A"), str(d / "B")]


def cases(root: Path, scale: int) -> dict[str, tuple[list[str], list[str], int]]:
    """Case → (arguments, arguments of the floor, bytes on disk)."""
    out: dict[str, tuple[list[str], list[str], int]] = {}
    floor_dir = root / "floor"
    floor_dir.mkdir()
    small = H.nested_bomb(floor_dir / "project.zip", users=2, text_bytes=1000)
    floor_export = ["--kind", "spans", str(small)]
    for users, mib in ((16, 400), (16, 60)):
        p = H.nested_bomb(root / f"bomb{mib}.zip", users=users, text_bytes=mib * 2**20 // scale)
        out[f"export {users} x {mib // scale} MiB XMI"] = (
            ["--kind", "spans", str(p)],
            floor_export,
            p.stat().st_size,
        )
    d = root / "spans4m"
    args = _xmi_folders(d, H.many_spans_xmi(4_000_000 // scale))
    out[f"XMI of {4_000_000 // scale:,} spans"] = (
        args,
        _xmi_folders(root / "floor-xmi", None),
        (d / "A" / "d.txt.zip").stat().st_size,
    )
    d = root / "laughs"
    lol = H.xmi("Abcd", [(0, 4, "X")], doctype=H.BILLION_LAUGHS, value_entity="lol9")
    args = _xmi_folders(d, [lol])
    out["XMI with billion laughs"] = (args, _xmi_folders(root / "floor-xmi2", None), len(lol))
    table_floor = H.xlsx(root / "floor.xlsx", [("1", "A", "x"), ("1", "B", "x")])
    floor_table = ["--kind", "table", "--interval", "none", str(table_floor)]
    n = 24_000_000 // scale
    p = H.xlsx(root / "ss.xlsx", [("1", "A", "x"), ("1", "B", "x")], extra_strings=n, declared=3)
    out[f"XLSX of {n:,} shared strings"] = (
        ["--kind", "table", "--interval", "none", str(p)],
        floor_table,
        p.stat().st_size,
    )
    for cells in (599_997, 1_800_000):
        rows = [(str(k // 2), "AB"[k % 2], "xy"[k % 3 == 0]) for k in range(cells // 3 // scale)]
        p = H.xlsx(root / f"cells{cells}.xlsx", rows)
        out[f"XLSX of {3 * len(rows) + 3:,} cells"] = (
            ["--kind", "table", "--interval", "none", str(p)],
            floor_table,
            p.stat().st_size,
        )
    return out


def run_open(args: list[str], png: Path) -> dict:
    """``iaa-desktop open ARGS --screenshot PNG`` (offscreen) in a child of ``/usr/bin/time``:
    its CPU time (user + system), peak memory, wall time and exit status."""
    import os

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "MPLBACKEND": "Agg"}
    w0 = time.perf_counter()
    p = subprocess.run(
        ["/usr/bin/time", "-f", "TIME %U %S %M", sys.executable, "-m", "iaa_desktop", "open"]
        + [*args, "--size", "1280x720", "--screenshot", str(png)],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
        env=env,
    )
    timed = next(ln.split() for ln in reversed(p.stderr.splitlines()) if ln.startswith("TIME "))
    return {
        "code": p.returncode,
        "cpu": float(timed[1]) + float(timed[2]),
        "rss_mb": int(timed[3]) / 1024,
        "wall": time.perf_counter() - w0,
    }


def giant_name_study(root: Path, chars: int) -> tuple[list[str], list[str]]:
    """(arguments of the study with one annotator called by ``chars`` characters, arguments of
    the same study with its own names): the shared multi-label data set, else the fixture."""
    import os

    shared = Path(os.environ.get("IAA_SHARED_DATA", ROOT.parent / "shared" / "data"))
    folder = shared / "multilabel"
    names = ("annotations.tsv", "sentences.tsv")
    if not all((folder / n).is_file() for n in names):
        folder, names = ROOT / "tests" / "fixtures" / "multilabel", ("long.tsv", "texts.tsv")
    lines = (folder / names[0]).read_text(encoding="utf-8").splitlines()
    giant = " ".join(["a"] * (chars // 2))
    cells = lines[2].split("\t")  # one annotation of the second item
    lines[2] = "\t".join([cells[0], giant, *cells[2:]])
    (root / "giant-name.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    own = ["--kind", "multilabel", str(folder / names[0]), str(folder / names[1])]
    return ["--kind", "multilabel", str(root / "giant-name.tsv"), str(folder / names[1])], own


def window_case(root: Path, scale: int) -> None:
    """The window on a megabyte annotator name vs the same study with its own names (best of
    two runs each, CPU)."""
    chars = 1_000_000 // scale
    args, own = giant_name_study(root, chars)
    got = min((run_open(args, root / "giant.png") for _ in range(2)), key=lambda r: r["cpu"])
    floor = min((run_open(own, root / "own.png") for _ in range(2)), key=lambda r: r["cpu"])
    name = f"window: an annotator called by {chars:,} characters"
    print(
        f"{name}: status {got['code']}, cpu {got['cpu']:.2f} s (same study, own names "
        f"{floor['cpu']:.2f} s, ratio {got['cpu'] / max(floor['cpu'], 1e-9):.2f}), wall "
        f"{got['wall']:.1f} s (own names {floor['wall']:.1f} s), peak {got['rss_mb']:,.0f} MB "
        f"(own names {floor['rss_mb']:,.0f} MB)"
    )
    record(
        "hostile_resources",
        name,
        got["cpu"],
        floor["cpu"],
        reference="the same study with its own names",
        target="< 2× the study with its own names",
        note=f"peak {got['rss_mb']:,.0f} MB",
    )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--window-only", action="store_true", help="only the window on a megabyte name")
    ns = ap.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory(prefix="iaa-hostile-") as tmp:
        window_case(Path(tmp), 10 if ns.quick else 1)
    if ns.window_only:
        return 0
    with tempfile.TemporaryDirectory(prefix="iaa-hostile-") as tmp:
        made = time.perf_counter()
        todo = cases(Path(tmp), 10 if ns.quick else 1)
        print(f"inputs made in {time.perf_counter() - made:.1f} s")
        for name, (args, floor_args, size) in todo.items():
            got, floor = run(args), run(floor_args)
            unpacked = _unpacked(Path(args[-1]))
            print(
                f"{name}: {size / 1024:,.0f} KB on disk{unpacked}; status {got['code']}, "
                f"cpu {got['cpu']:.2f} s (floor {floor['cpu']:.2f} s, ratio "
                f"{got['cpu'] / max(floor['cpu'], 1e-9):.1f}), wall {got['wall_process']:.1f} s, "
                f"peak {got['rss_mb']:,.0f} MB (floor {floor['rss_mb']:,.0f} MB)\n    "
                f"{got['message']}"
            )
            record(
                "hostile_resources",
                name,
                got["cpu"],
                floor["cpu"],
                reference="the same format, a small valid input",
                target="< 60 s CPU, < 2 GB",
                note=f"peak {got['rss_mb']:,.0f} MB",
            )
    return 0


def _unpacked(p: Path) -> str:
    try:
        with zipfile.ZipFile(p) as z:
            return f", {sum(i.file_size for i in z.infolist()) / 2**20:,.0f} MiB unpacked (outer)"
    except (zipfile.BadZipFile, OSError, IsADirectoryError):
        return ""


if __name__ == "__main__":
    sys.exit(main())
