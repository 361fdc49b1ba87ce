"""Adjudication in the GUI: :func:`open_adjudication` opens a window over a comparison result."""

from __future__ import annotations

from iaa_desktop.gui.adjudication.dialog import (
    AdjudicationDialog,
    open_adjudication,
    open_store_interactive,
)
from iaa_desktop.gui.adjudication.panel import AdjudicationPanel
from iaa_desktop.gui.adjudication.undo import DecisionCommand

__all__ = [
    "AdjudicationDialog",
    "AdjudicationPanel",
    "DecisionCommand",
    "open_adjudication",
    "open_store_interactive",
]
