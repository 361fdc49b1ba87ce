"""Titles of result columns that are not figures (counts, bounds, names), and the suffixes and
prefixes that make a column's title from a figure's (``cohen_kappa_mean``, ``muc_f1``)."""

from __future__ import annotations

__all__ = ["COLUMN_TITLES", "COUNT_PREFIXES", "PREFIXES", "SUFFIXES"]

#: display names of result columns that are not measures
COLUMN_TITLES: dict[str, str] = {
    "a": "Annotator A",
    "b": "Annotator B",
    "annotator": "Annotator",
    "item": "Item",
    "group": "Group",
    "group_n_items": "Items in the group",
    "subset": "Subset",
    "metric": "Measure",
    "title": "Title",
    "value": "Value",
    "level": "Level",
    "category": "Category",
    "n_items": "Items",
    "n_pairable": "Pairable items",
    "n_annotators": "Annotators",
    "n_labels": "Labels",
    "n_judgments": "Judgments",
    "n_valid": "Valid judgments",
    "n_cant_decide": "Can't decide",
    "n_tokens": "Tokens",
    "n_units": "Units",
    "n_agree_first_level": "Items agreeing at the first level",
    "observed": "Observed agreement",
    "expected": "Expected agreement",
    "ci_low": "95% CI low",
    "ci_high": "95% CI high",
    "bayes_median": "Bayesian median",
    "low89": "89% interval, low",
    "high89": "89% interval, high",
    "low95": "95% interval, low",
    "high95": "95% interval, high",
    "disagreement": "Disagreement",
    "disagreeing_pairs": "Disagreeing pairs",
    "character_disagreement": "Character disagreement",
    "mean": "Mean",
    "range": "Range",
    "mean_judgment": "Mean judgment",
    "mean_nld": "Mean NLD",
    "L": "L (classes of A)",
    "M": "M (matched)",
    "R": "R (classes of B)",
    "D": "D (cost)",
    # counts and positions of the kinds' tables, titled as the tables have always shown them
    "categories": "Categories",
    "label_counts": "Label counts",
    "counts": "Counts",
    "count": "Count",
    "share": "Share",
    "total": "Total",
    "confusion": "Confusion",
    "start": "Start",
    "end": "End",
    "score": "Score",
    "disagreements": "Disagreements",
    "pair_disagreements": "Pair disagreements",
    "exact": "Exact",
    "alone": "Alone",
    "boundary only": "boundary only",
    "label only": "label only",
    "boundary and label": "boundary and label",
    "rank": "Rank",
    "rank_first_level": "Rank first level",
    "rank_second_level": "Rank second level",
    "size": "Size",
    "k": "K",
    "top": "Top",
    "overlap_bin_edges": "Overlap bin edges",
    "line": "Line",
}

SUFFIXES: tuple[tuple[str, str], ...] = (
    ("_mean_defined", " (mean over defined values)"),
    ("_sd", " (SD over pairs)"),
    ("_mean", " (mean over pairs)"),
    ("_all", " (all)"),
    ("_filtered", " (filtered)"),
    ("_f1", " F1"),
    ("_recall", " recall"),
    ("_precision", " precision"),
)

#: name prefixes spelled out when nothing else gives a title (``n_tokens`` → "Number of tokens")
PREFIXES: tuple[tuple[str, str], ...] = (("n_", "Number of "), ("kappa_", "κ "))
#: prefixes of counts whose name carries an annotator or a label (the spans tables' "n Lena")
COUNT_PREFIXES: tuple[str, ...] = ("n_", "n ")
