"""Adjudication in the GUI: :func:`open_adjudication` opens a window over a comparison result."""

from __future__ import annotations

from .dialog import AdjudicationDialog, open_adjudication, open_store_interactive
from .panel import AdjudicationPanel, DecisionCommand

__all__ = [
    "AdjudicationDialog",
    "AdjudicationPanel",
    "DecisionCommand",
    "open_adjudication",
    "open_store_interactive",
]
