"""A kind's options are resolved in one place, the kind's typed ``Options.resolve``: the command
line hands the resolved value to the run, which computes with it as it is; the settings panel
shows the values the kind resolves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from iaa_desktop.cli import main
from iaa_desktop.core.kinds import KINDS
from iaa_desktop.core.kinds import spec as spec_module
from iaa_desktop.core.kinds.coref.options import CorefOptions
from iaa_desktop.core.kinds.table.options import TableOptions
from iaa_desktop.study_command import parse_kind_args

RATINGS = (
    Path(__file__).resolve().parents[2]
    / "iaa_desktop"
    / "resources"
    / "examples"
    / "judgments"
    / "ratings.csv"
)


def _resolutions(monkeypatch: pytest.MonkeyPatch, option: str) -> list[dict[str, Any]]:
    """Every resolution of a list of settings holding ``option`` (what it was given)."""
    seen: list[dict[str, Any]] = []
    real = spec_module.resolve_options

    def spy(settings: Any, given: Any) -> dict[str, Any]:
        if any(s.name == option for s in settings):
            seen.append(dict(given or {}))
        return real(settings, given)

    import iaa_desktop.study_command as command
    from iaa_desktop.core.kinds import options as options_module

    for module in (spec_module, options_module, command):
        if hasattr(module, "resolve_options"):
            monkeypatch.setattr(module, "resolve_options", spy)
    return seen


def test_the_command_line_resolves_the_options_once(monkeypatch, tmp_path, capsys) -> None:
    seen = _resolutions(monkeypatch, "level")
    out = tmp_path / "r.json"
    assert (
        main(
            [
                "report",
                "--kind",
                "table",
                "--level",
                "ordinal",
                str(RATINGS),
                "--json",
                str(out),
                "-q",
            ]
        )
        == 0
    )
    assert len(seen) == 1 and seen[0]["level"] == "ordinal"


def test_the_command_line_hands_the_run_typed_options() -> None:
    _ns, kind, chosen = parse_kind_args(
        _parser, ["--kind", "coref", "--cost", "opt", "--study-threshold", "1", "x"]
    )
    assert kind == "coref" and isinstance(chosen, CorefOptions)
    assert chosen.cost == "opt" and chosen.study_threshold == 1.0
    assert chosen.record()["cost"] == "opt" and chosen.record()["relation_types"] == "Coreference"


def test_the_encoding_is_still_checked_with_typed_options() -> None:
    from iaa_desktop.core.errors import OptionError

    with pytest.raises(OptionError, match="Text encoding of the inputs .*NUL"):
        KINDS["table"].resolve({"encoding": "utf\x00-8"})


def test_the_panel_shows_the_resolved_typed_values() -> None:
    shown = KINDS["coref"].shown_values({"study_threshold": 1, "encoding": "latin-1"})
    assert shown["study_threshold"] == 1.0 and isinstance(shown["study_threshold"], float)
    assert shown["cost"] == "symdiff" and shown["encoding"] == "latin-1"
    table = KINDS["table"].shown_values({})
    assert table == {**TableOptions().values(), "encoding": ""}


def _parser(add_help: bool) -> Any:
    import argparse

    p = argparse.ArgumentParser(add_help=add_help)
    p.add_argument("inputs", nargs="*")
    p.add_argument("--kind")
    return p
