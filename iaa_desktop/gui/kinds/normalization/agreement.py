"""The Agreement tab of a normalization study: the summary with interpretation, then the word- and
character-based tables, per text, the pairwise matrices and the modernization results, each a
table with copy and export in its context menu."""

from __future__ import annotations

import html
from typing import Any

import pandas as pd
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from iaa_desktop.gui.widgets.stacked_tables import StackedTables, compact
from iaa_desktop.gui.widgets.summary_table import SummaryTable

PAIRWISE = (
    ("pairwise_word_agreement", "Word agreement per annotator pair", True),
    ("pairwise_word_pi", "Word-based Fleiss' κ (π*) per annotator pair", False),
    ("pairwise_character_agreement", "Character agreement per annotator pair", True),
    ("pairwise_character_pi", "Character-based Fleiss' κ (π*) per annotator pair", False),
)


def per_text_frame(pt: pd.DataFrame) -> pd.DataFrame:
    """Per text, ALL tokens: percent agreement, π* and α_NLD at the word and character level."""
    if not len(pt):
        return pt
    wide = pt[pt["subset"] == "ALL"].pivot_table(
        index="text",
        columns="level",
        values=["percent_agreement", "pi", "alpha_nld"],
        sort=False,
    )
    wide.columns = [f"{lvl}_{m}" for m, lvl in wide.columns]
    order = [
        f"{lvl}_{m}"
        for lvl in ("word", "character")
        for m in ("percent_agreement", "pi", "alpha_nld")
    ]
    return wide[[c for c in order if c in wide.columns]].reset_index()


def _headers(columns: list[str]) -> dict[str, str]:
    """``word_pi`` → ``Word π*`` …: the measure's symbol after its level."""
    from iaa_desktop.core.export.titles import column_title

    out = {}
    for c in columns:
        for lvl in ("word", "character"):
            if c.startswith(lvl + "_"):
                out[c] = f"{lvl.capitalize()}: {column_title(c[len(lvl) + 1 :])}"
    return out


class AgreementPanel(QWidget):
    """All agreement tables of the result, one below the other."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tables = StackedTables()
        self.errors = QLabel()
        self.errors.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addWidget(self.tables, 1)
        lay.addWidget(self.errors)

    def set_result(self, result: Any) -> None:
        t = result.tables()
        pct = {"percent": ("percent_agreement",), "digits": 4}
        per_text = per_text_frame(t["per_text"])
        entries = [
            ("word", "Word-based agreement", t["word"], pct),
            ("character", "Character-based agreement (Diff labels)", t["character"], pct),
        ]
        if len(per_text):
            entries.append(
                (
                    "per_text",
                    "Per text (ALL tokens)",
                    per_text,
                    {
                        "percent": ("word_percent_agreement", "character_percent_agreement"),
                        "headers": _headers(list(per_text.columns)),
                        "digits": 4,
                    },
                )
            )
        for key, title, is_pct in PAIRWISE:
            df = t[key]
            names = [c for c in df.columns if c != df.columns[0]]
            opts: dict = {"digits": 4, "label_columns": ()}
            if is_pct:
                opts["percent"] = names
            opts["headers"] = {c: c for c in names}
            entries.append((key, title, df, opts))
        entries += [
            (
                "modernization",
                "Modernization type (π* over ORIG/NORM/INFL/SEM/EXT)",
                t["modernization"],
                pct,
            ),
            (
                "modernization_confusion",
                "Type confusion, summed over annotator pairs",
                t["modernization_confusion"],
                {},
            ),
            (
                "modernization_by_type",
                "Character-based agreement of modernized forms, by agreed type",
                t["modernization_by_type"],
                pct,
            ),
        ]
        summary = SummaryTable()
        summary.set_result(result)
        compact(summary.view, 12)
        self.tables.set_tables(entries, header=summary)
        if result.errors:
            items = "".join(f"<li>{html.escape(str(e))}</li>" for e in result.errors[:50])
            more = f" … {len(result.errors) - 50} more" if len(result.errors) > 50 else ""
            self.errors.setText(f"<b>Input problems</b><ul>{items}</ul>{more}")
        self.errors.setVisible(bool(result.errors))
