"""The matplotlib figure builders of the multilabel kind (no Qt)."""

from __future__ import annotations

import numpy as np
import pytest

from iaa_desktop.core.kinds.multilabel import charts
from iaa_desktop.core.kinds.multilabel.compare import KIND
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

FIX = FIXTURES / "multilabel"


@pytest.fixture(scope="module")
def result():
    return run_to_end(KIND.run([FIX / "long.tsv"], {}))


def test_figures_build_and_render(result, tmp_path) -> None:
    figs = charts.all_figures(result)
    assert set(figs) == {"per_label_kappa", "combinations", "decomposition_scatter"}
    for name, fig in figs.items():
        out = tmp_path / f"{name}.png"
        fig.savefig(out)
        assert out.stat().st_size > 1000


def test_scatter_points_leave_out_undefined(result) -> None:
    pts = charts.scatter_points(result)
    first, _ = result.first_level_mean(result.exploration)
    second = result.second_level_means(result.exploration)["average"]
    defined = ~np.isnan(first) & ~np.isnan(second)
    assert len(pts["index"]) == defined.sum()
    np.testing.assert_array_equal(pts["x"], first[pts["index"]])


def test_scatter_maps_points_to_partitions(result) -> None:
    fig = charts.new_figure()
    ax = fig.add_subplot()
    rows = np.flatnonzero(result.partitions.sum(axis=1) == 2)
    coll, index = charts.draw_decomposition_scatter(
        ax, result, rows=rows, selected=int(rows[0]), picker=4
    )
    assert coll is not None
    assert set(index.tolist()) <= set(rows.tolist())
    assert len(coll.get_offsets()) == len(index)
    # redrawing (e.g. after a filter) does not stack colour bars or legends
    charts.draw_decomposition_scatter(ax, result)
    charts.draw_decomposition_scatter(ax, result)
    assert len(fig.axes) == 1
