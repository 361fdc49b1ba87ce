"""Dot charts of many targets are read from the top of a scrolling pane: the value axis is
repeated at the top and reaches past 1.0, so a dot at 1.0 is drawn whole."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("matplotlib")

from iaa_desktop.core.kinds.durel.charts import AXIS_TOP_ROWS, targets_figure


def _result(n: int, value: float = 1.0):
    part = {"krippendorff_alpha": value, "spearman_weighted": value - 0.1}
    return SimpleNamespace(
        targets=[{"target": f"t{k}", "all": part, "filtered": part} for k in range(n)]
    )


@pytest.mark.parametrize("n", [3, 42])
def test_values_up_to_one_are_inside_the_axes(n: int) -> None:
    ax = targets_figure(_result(n)).axes[0]
    assert ax.get_xlim()[1] >= 1.05


def test_a_long_chart_repeats_its_value_axis_at_the_top() -> None:
    long_ax = targets_figure(_result(AXIS_TOP_ROWS + 30)).axes[0]
    assert long_ax.xaxis.get_tick_params()["labeltop"]
    short_ax = targets_figure(_result(3)).axes[0]
    assert not short_ax.xaxis.get_tick_params().get("labeltop", False)
