"""The options every kind with model annotators declares (the alternative annotator test of
Calderon, Reichart & Dror 2025, the planning curve, annotator competence, batches and
test–retest), written once: each kind's options dataclass makes its fields with these, saying
only what is compared."""

from __future__ import annotations

from typing import Any

from iaa_desktop.core.kinds.options import option

_ALT_TEST = "Calderon, Reichart & Dror 2025"


def model_annotators_option(per: str = "") -> Any:
    """The ``model_annotators`` field (``--model-annotator``); ``per`` says what each comparison
    is made on (``"per token"``), empty for whole items."""
    on = f" {per}" if per else ""
    return option(
        "",
        "Model annotators",
        f"annotators that are models (comma-separated names): compared with the humans{on} by "
        f"the alternative annotator test ({_ALT_TEST}), never counted as humans",
        cli_flag="--model-annotator",
    )


def epsilon_option() -> Any:
    """The ``epsilon`` field: the alternative annotator test's allowance."""
    return option(
        0.2,
        "Alt-test ε",
        "the alternative annotator test's allowance for the model's lower cost: 0.2 with expert "
        f"annotators, 0.15 skilled, 0.1 crowd workers ({_ALT_TEST})",
    )


def competence_option(per: str = "") -> Any:
    """The ``competence`` field (``--competence``): Dawid–Skene and MACE; ``per`` says what an
    item is (``"per token"``), empty for whole items."""
    on = f" {per}" if per else " per item"
    return option(
        False,
        "Annotator competence",
        "Dawid–Skene (1979) and MACE (Hovy et al. 2013): each annotator's competence and an "
        f"inferred label{on} with its posterior (a suggestion, never a decision)",
    )


def batch_column_option(help: str) -> Any:
    """The ``batch_column`` field (``--batch-column``); ``help`` says which columns the kind's
    inputs can give."""
    return option("", "Batch column", help)


def batch_size_option() -> Any:
    """The ``batch_size`` field: how dates or numbers of the batch column are binned."""
    return option(
        "",
        "Batch size",
        "dates: week (default), day, month or a number of days; numbers: the width of a bin; "
        "empty: each value its own batch",
    )


def retest_option(help: str) -> Any:
    """The ``retest`` field (``--retest``); ``help`` says what is repeated."""
    return option(False, "Test–retest", help)


def occasion_column_option(help: str) -> Any:
    """The ``occasion_column`` field (``--occasion-column``)."""
    return option("", "Occasion column", help)


def planning_option(help: str) -> Any:
    """The ``planning`` field; ``help`` says what the curve is drawn for."""
    return option(False, "Planning curve", help)


def model_names(given: str) -> tuple[str, ...]:
    """The model annotators' names in ``given`` (comma-separated), each once, in the order
    given."""
    names = (c.strip() for c in str(given or "").split(","))
    return tuple(dict.fromkeys(c for c in names if c))
