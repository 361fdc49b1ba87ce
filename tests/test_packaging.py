"""Fast checks of the packaging files (the real build runs in packaging/build.py, not here)."""

from __future__ import annotations

import ast
import configparser
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"


def test_spec_and_build_script_parse():
    spec = (PACKAGING / "iaa_desktop.spec").read_text(encoding="utf-8")
    tree = ast.parse(spec)
    called = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert {"Analysis", "PYZ", "EXE", "COLLECT"} <= called
    for needle in (
        'collect_submodules("iaa_desktop")',
        'collect_data_files("lingpy")',
        "mpl-data",
        '"scipy.stats"',
        "entry.py",
    ):
        assert needle in spec
    ast.parse((PACKAGING / "build.py").read_text(encoding="utf-8"))
    ast.parse((PACKAGING / "entry.py").read_text(encoding="utf-8"))


def _module_names() -> set[str]:
    pkg = ROOT / "iaa_desktop"
    return {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in pkg.rglob("*.py")
        if "__pycache__" not in p.parts
    }


def test_every_module_is_in_a_regular_package():
    """The spec's ``collect_submodules("iaa_desktop")`` walks regular packages only: a folder of
    modules without ``__init__.py`` (a namespace package) would be left out of the bundle, and a
    module imported lazily by a "module:attr" reference (kinds, views, commands) with it."""
    for p in (ROOT / "iaa_desktop").rglob("*.py"):
        if "__pycache__" in p.parts:
            continue
        for folder in p.relative_to(ROOT).parents[:-1]:
            assert (ROOT / folder / "__init__.py").is_file(), f"{folder} has no __init__.py"


def test_collect_submodules_finds_every_module():
    hooks = pytest.importorskip("PyInstaller.utils.hooks")
    assert set(hooks.collect_submodules("iaa_desktop")) >= _module_names()


def test_build_checks_the_pieces_the_issue_names():
    text = (PACKAGING / "build.py").read_text(encoding="utf-8")
    for needle in (
        "qoffscreen",
        "qxcb",
        "qsvg",
        "DejaVuSans.ttf",
        "LingPy",
        "examples",
        "clean_env",
    ):
        assert needle in text


def test_desktop_file_has_the_required_keys():
    cp = configparser.ConfigParser(interpolation=None)
    cp.optionxform = str  # keys are case-sensitive
    cp.read(ROOT / "resources" / "iaa-desktop.desktop", encoding="utf-8")
    entry = cp["Desktop Entry"]
    assert entry["Type"] == "Application"
    for key in ("Name", "Comment", "Exec", "Icon", "Categories", "Terminal"):
        assert entry.get(key), key
    assert entry["Exec"].split()[0] == "iaa-desktop"
    assert entry["Icon"] == "iaa-desktop"
    assert entry["Categories"].endswith(";")
    for size in (16, 32, 48, 64, 128, 256):
        assert (
            ROOT / "resources" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "iaa-desktop.png"
        ).is_file()


def test_appstream_metadata_is_well_formed():
    files = list((ROOT / "resources").glob("*.metainfo.xml"))
    assert len(files) == 1
    root = ET.parse(files[0]).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == files[0].name.removesuffix(".metainfo.xml")
    for tag in ("name", "summary", "metadata_license", "project_license", "description"):
        assert root.find(tag) is not None, tag
    assert root.find("launchable").text == "iaa-desktop.desktop"


def test_app_icon_is_package_data():
    icons = ROOT / "iaa_desktop" / "resources" / "icons"
    svg = ET.parse(icons / "iaa-desktop.svg").getroot()
    assert svg.tag.endswith("svg")
    assert (icons / "iaa-desktop.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_packaging_extra_names_pyinstaller():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert any(
        "pyinstaller" in d.lower() for d in data["project"]["optional-dependencies"]["packaging"]
    )


def test_every_example_study_loads_and_computes_headless():
    """The examples the start page offers (and the bundle ships) compute without the GUI."""
    import json

    from iaa_desktop.cli import compute
    from iaa_desktop.core.kinds.spec import result_json
    from iaa_desktop.core.study_file import load_study

    studies = sorted((ROOT / "iaa_desktop" / "resources" / "examples").glob("*/*.iaa-study"))
    assert len(studies) >= 6
    for path in studies:
        study = load_study(path)
        assert study.kind and study.name, path
        assert all(Path(p).exists() for p in study.inputs), path
        result = compute(study.kind, study.inputs, dict(study.options))
        assert not result.errors, (path, [str(e) for e in result.errors])
        assert result.headline(), path
        json.dumps(result_json(result))  # JSON-able, as `report --json` writes it


def test_report_reads_a_study_file_and_command_line_flags_win(tmp_path, capsys):
    import json

    from iaa_desktop.cli import main

    study = ROOT / "iaa_desktop" / "resources" / "examples" / "judgments" / "ratings.iaa-study"
    assert main(["report", str(study), "--json", str(tmp_path / "a.json")]) == 0
    saved = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert saved["level"] == "ordinal"  # from the study file
    assert (
        main(["report", str(study), "--level", "nominal", "--json", str(tmp_path / "b.json")]) == 0
    )
    flagged = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    assert flagged["level"] == "nominal"
