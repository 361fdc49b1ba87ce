"""What every kind of study (tables, coreference, normalization, ...) provides.

A *kind* is a plain object registered in :mod:`iaa_desktop.core.kinds`. It declares its settings
once (:class:`Setting`), which drive both the command-line options and the GUI settings panel,
and it runs as a generator: ``kind.run(inputs, options)`` yields :class:`~iaa_desktop.core.progress.Progress`
and returns a :class:`TaskResult`. Loading happens inside ``run`` too, so the GUI never reads files
on its own thread.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Container, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from iaa_desktop.core.errors import OptionError, ReaderError
from iaa_desktop.core.progress import Progress

if TYPE_CHECKING:  # pandas is imported by the kinds, not at start-up
    import pandas as pd

    from iaa_desktop.core.kinds.arrange import Arrangement
    from iaa_desktop.core.kinds.survey import Survey


@dataclass(frozen=True, slots=True)
class Setting:
    """One option of a kind of study.

    ``name`` is the key in the options mapping and, with dashes, the CLI flag
    (``missing_values`` → ``--missing-values``). ``choices`` makes it a choice list; ``type`` is
    one of ``str``, ``int``, ``float``, ``bool``. ``gui=False`` keeps it off the settings panel
    (used for options that only make sense on the command line).
    """

    name: str
    label: str
    default: Any = None
    type: type = str
    choices: tuple[Any, ...] = ()
    help: str = ""
    gui: bool = True
    cli_flag: str | None = None

    @property
    def flag(self) -> str:
        return self.cli_flag or "--" + self.name.replace("_", "-")


#: shared by every kind (added by :attr:`KindSpec.settings`): the encoding of the text inputs
ENCODING = Setting(
    "encoding",
    "Text encoding of the inputs",
    "",
    str,
    (),
    "empty: UTF-8 (with or without BOM) or UTF-16 with BOM; else a codec name such as cp1252 or "
    "latin-1, used for every text input of the study",
)


def add_settings_to_parser(parser: argparse._ActionsContainer, settings: Sequence[Setting]) -> None:
    """Add one CLI option per setting (defaults stay ``None`` so unset options are known)."""
    for s in settings:
        # argparse formats help with %: a literal "95%" must be escaped
        kwargs: dict[str, Any] = {
            "dest": s.name,
            "default": None,
            "help": (s.help or s.label).replace("%", "%%"),
        }
        if s.type is bool:
            kwargs["action"] = argparse.BooleanOptionalAction
        else:
            kwargs["type"] = s.type
            if s.choices:
                kwargs["choices"] = list(s.choices)
        try:
            parser.add_argument(s.flag, **kwargs)
        except argparse.ArgumentError:
            pass  # the same option declared by two kinds: the first declaration serves both


def resolve_options(settings: Sequence[Setting], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults overlaid with the given options; unknown keys are kept (kinds may read extras)."""
    out = {s.name: s.default for s in settings}
    for key, value in (given or {}).items():
        if value is not None:
            out[key] = value
    for s in settings:
        v = out.get(s.name)
        if s.choices and v is not None and v not in s.choices:
            raise OptionError(f"{s.label}: '{v}' is not one of {', '.join(map(str, s.choices))}.")
        if v is not None and v != s.default:
            _check_value(s, v)
    return out


#: ranges of numeric options (inclusive): beyond them a value asks for unbounded time or memory
#: (10⁹ resamples, 10⁷ bins) or means nothing (a negative seed or count)
BOUNDS: dict[str, tuple[float, float]] = {
    "n_resamples": (1, 100_000),
    "seed": (0, 2**32 - 1),
    "model_seed": (0, 2**32 - 1),
    "bins": (1, 1000),
    "bayes_draws": (1, 1_000_000),
    "model_chains": (1, 64),
    "model_warmup": (1, 100_000),
    "model_draws": (1, 100_000),
    "model_target_accept": (0.5, 0.999),
    "max_aligned": (0, 10_000_000),
    "max_s1_size": (0, 64),
    "top": (1, 1_000_000),
    "epsilon": (0, 1),
}


def _check_value(s: Setting, v: Any) -> None:
    """An option of the wrong type, out of its range, or with a NUL character: an OptionError
    naming the option (a study file or the command line may give any value)."""
    import math

    name = f"{s.label} ({s.name})"
    if s.type is bool:
        if not isinstance(v, bool):
            raise OptionError(f"{name}: '{v}' is not true or false.")
        return
    if s.type in (int, float):
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise OptionError(f"{name}: '{str(v)[:40]}' is not a number.")
        if s.type is int and isinstance(v, float) and not v.is_integer():
            raise OptionError(f"{name}: {v} is not a whole number.")
        if not math.isfinite(float(v)):
            raise OptionError(f"{name}: {v} is not a finite number.")
        low, high = BOUNDS.get(s.name, (-math.inf, math.inf))
        if not low <= v <= high:
            lo, hi = (f"{int(x):,}" if float(x).is_integer() else f"{x:g}" for x in (low, high))
            raise OptionError(f"{name}: {v} is outside the range {lo} to {hi}.")
        return
    if not isinstance(v, str):
        raise OptionError(f"{name}: must be text, not {type(v).__name__}.")
    if "\x00" in v:
        raise OptionError(f"{name}: contains a NUL character.")


@dataclass
class TaskResult:
    """Base of every kind's result.

    Subclasses add their own fields; they must provide :meth:`to_json` (the ``--json`` layout the
    README documents) and :meth:`tables` (every result table, for ``--csv`` and the report).
    ``errors`` holds the problems found in the inputs that did not stop the computation.
    """

    kind: str
    inputs: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    errors: list[ReaderError] = field(default_factory=list)
    #: problems worth showing that do not make the input wrong (e.g. a span not matching its text)
    warnings: list[ReaderError] = field(default_factory=list)

    @property
    def spec(self) -> KindSpec | None:
        """The :class:`KindSpec` of the result's kind; the report, the methods paragraph and
        adjudication reach the kind through it."""
        from iaa_desktop.core.kind_lookup import spec_of

        found = spec_of(self.kind)
        return found if isinstance(found, KindSpec) else None

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def tables(self) -> dict[str, pd.DataFrame]:
        raise NotImplementedError

    def headline(self) -> list[tuple[str, str]]:
        """A few (name, formatted value) pairs for the status bar and the report's title block."""
        return []

    def errors_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.errors]

    def warnings_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.warnings]


@runtime_checkable
class TaskKind(Protocol):
    """A kind of study. See the module docstring."""

    @property
    def name(self) -> str:
        """The kind's name, as in :data:`~iaa_desktop.core.kinds.KINDS`."""
        ...

    @property
    def settings(self) -> Sequence[Setting]:
        """Its options: each becomes a command-line flag and a field of the settings panel."""
        ...

    def sniff(self, inputs: Sequence[Path]) -> float:
        """Confidence in 0..1 that these inputs are of this kind (for ``--kind`` left out)."""
        ...

    def run(
        self, inputs: Sequence[Path], options: Mapping[str, Any]
    ) -> Generator[Progress, None, TaskResult]:
        """Load the inputs and compute everything; yield progress, return the result."""
        ...


@dataclass(frozen=True)
class StepsKind:
    """A :class:`TaskKind` made of two functions: ``recognise(paths)`` gives the confidence of
    :meth:`sniff`, ``steps(inputs, options)`` is the comparison, run on the options resolved
    against ``settings``."""

    name: str
    settings: Sequence[Setting]
    recognise: Callable[[list[Path]], float]
    steps: Callable[[Sequence[Path], dict[str, Any]], Generator[Progress, None, Any]]

    def sniff(self, inputs: Sequence[Path]) -> float:
        return self.recognise([Path(p) for p in inputs])

    def run(
        self, inputs: Sequence[Path], options: Mapping[str, Any]
    ) -> Generator[Progress, None, Any]:
        return (yield from self.steps(inputs, resolve_options(self.settings, options)))


#: what a kind's ``report`` builds: ``(result, ReportContext) -> KindReport``
ReportBuilder = Callable[[Any, Any], Any]
#: a kind's ``methods``: ``result -> (paragraphs, reference keys)``
MethodsWriter = Callable[[Any], tuple[list[str], list[str]]]
#: a kind's ``summary``: ``result -> (summary rows, caption)`` for the window's summary table
SummaryMaker = Callable[[Any], tuple[list[Any], str]]
#: a kind's adjudication units: ``result -> AdjudicationModel``
UnitsMaker = Callable[[Any], Any]
#: units read straight from the inputs: ``(inputs, options) -> (AdjudicationModel, errors)``
GoldUnitsReader = Callable[[list[Path], dict[str, Any]], tuple[Any, list[Any]]]


@dataclass(frozen=True, slots=True)
class Example:
    """A kind's example study on the start page: the folder of ``resources/examples`` holding it,
    the kind as shown on its card, what the example shows and the card's place on the page
    (smaller first)."""

    folder: str
    shown: str
    blurb: str
    place: int = 100


@dataclass(frozen=True, slots=True)
class KindSpec:
    """Everything the application knows about one kind of study, in one frozen value.

    The heavy parts are small functions of the kind's package that import their module when
    first called, so the registry (:data:`iaa_desktop.core.kinds.KINDS`) loads in milliseconds at
    start-up:

    ``comparison()`` gives the object with ``settings``, ``sniff(inputs)`` and
    ``run(inputs, options)`` (the comparison, a generator returning a :class:`TaskResult`);
    ``report(result, ctx)`` builds the kind's report section, ``methods(result)`` its methods
    paragraphs and references, ``summary(result)`` the rows of the window's summary table;
    ``adjudication(result)`` the adjudication units; ``gold_units(inputs, options)`` (optional)
    reads the units straight from the inputs when they need no comparison (the headless gold
    command). ``survey(inputs, options)`` and ``arrange(paths)`` are what the import dialog shows
    (:mod:`iaa_desktop.core.kinds.survey`). ``example`` is its study on the start page,
    ``placeholder`` the hint of the adjudication panel's typed value, and ``view`` the module of
    its view in the window, relative to ``iaa_desktop.gui.kinds`` (``".pairs"``) or absolute
    (the core never imports the window: the window resolves it).
    """

    name: str
    title: str
    inputs: str
    comparison: Callable[[], TaskKind]
    report: ReportBuilder | None = None
    methods: MethodsWriter | None = None
    summary: SummaryMaker | None = None
    adjudication: UnitsMaker | None = None
    gold_units: GoldUnitsReader | None = None
    survey: Callable[[list[Path], dict[str, Any]], Survey] | None = None
    arrange: Callable[[list[Path]], Arrangement] | None = None
    example: Example | None = None
    placeholder: str = "another value"
    view: str = ""

    @property
    def kind(self) -> TaskKind:
        return self.comparison()

    @property
    def settings(self) -> Sequence[Setting]:
        own = list(self.kind.settings)
        return own if any(s.name == ENCODING.name for s in own) else [*own, ENCODING]

    def sniff(self, inputs: Sequence[Path]) -> float:
        return self.kind.sniff(inputs)

    def run(
        self, inputs: Sequence[Path], options: Mapping[str, Any]
    ) -> Generator[Progress, None, TaskResult]:
        """The kind's run; every text input is read with the chosen ``encoding`` option."""
        return run_kind(self.kind, inputs, options)

    def build_report(self, result: TaskResult, ctx: Any) -> Any:
        if self.report is None:
            from iaa_desktop.core.export.report_generic import build

            return build(result, ctx)
        return self.report(result, ctx)

    def methods_text(self, result: TaskResult) -> tuple[list[str], list[str]]:
        if self.methods is None:
            from iaa_desktop.core.export.methods_text import methods_generic

            return methods_generic(result)
        return self.methods(result)

    def units_for(self, result: TaskResult) -> Any:
        if self.adjudication is None:
            raise OptionError(f"Adjudication is not available for {self.title.lower()} studies.")
        return self.adjudication(result)

    def arranged(self, paths: Sequence[Path]) -> Arrangement:
        """The study's inputs among ``paths``, the files left out and notes (the import dialog)."""
        if self.arrange is None:
            from iaa_desktop.core.kinds.arrange import arrange_tables, table_files

            return arrange_tables(list(paths), table_files)
        return self.arrange(list(paths))


def run_kind(
    kind: TaskKind, inputs: Sequence[Path], options: Mapping[str, Any]
) -> Generator[Progress, None, TaskResult]:
    """``kind.run(inputs, options)`` with every text input read in the ``encoding`` option."""
    from iaa_desktop.core.textio import with_encoding

    steps = kind.run(inputs, options)
    encoding = (options or {}).get(ENCODING.name)
    return with_encoding(steps, str(encoding)) if encoding else steps


def result_fields(
    kind: str,
    inputs: Sequence[Any],
    options: Mapping[str, Any],
    errors: list[ReaderError],
    warnings: list[ReaderError] | None = None,
) -> dict[str, Any]:
    """The fields every kind's result starts with (``kind``, ``inputs`` as text, ``options``,
    ``errors``, ``warnings``), as keywords of its constructor; the lists are kept, not copied."""
    out: dict[str, Any] = {
        "kind": kind,
        "inputs": tuple(str(p) for p in inputs),
        "options": dict(options),
        "errors": errors,
    }
    if warnings is not None:
        out["warnings"] = warnings
    return out


def result_json(result: TaskResult) -> dict[str, Any]:
    """The ``--json`` document of a result: the kind's layout plus errors, warnings and version."""
    from iaa_desktop import __version__

    data = result.to_json()
    data.setdefault("kind", result.kind)
    data["errors"] = result.errors_json()
    data["warnings"] = result.warnings_json()
    data["app_version"] = __version__
    return data


#: the study option holding the user's names for annotators: ``{name found in the inputs: name
#: shown}`` (set in the import dialog, saved in the study file, honoured by every kind)
ANNOTATOR_NAMES = "annotator_names"


def annotator_names(options: Mapping[str, Any] | None) -> dict[str, str]:
    """The renaming asked for in ``options`` (empty when none); raises :class:`OptionError` when
    two annotators would get the same name or a name is empty."""
    given = (options or {}).get(ANNOTATOR_NAMES) or {}
    if not isinstance(given, Mapping):
        raise OptionError("annotator names must map the names found in the inputs to new names.")
    mapping = {str(k): str(v).strip() for k, v in given.items() if str(k) != str(v).strip()}
    if any(not v for v in mapping.values()):
        raise OptionError("An annotator name cannot be empty.")
    return mapping


def unique_name(name: str, taken: Container[str]) -> str:
    """``name``, with a prime added as often as needed to differ from every name in ``taken``
    (two inputs named alike are two annotators: ``A``, ``A'``, ``A''``)."""
    while name in taken:
        name += "'"
    return name


def rename_annotators(names: Sequence[str], options: Mapping[str, Any] | None) -> tuple[str, ...]:
    """``names`` with the user's renaming applied; two annotators may not end up with one name."""
    mapping = annotator_names(options)
    out = tuple(mapping.get(str(n), str(n)) for n in names)
    if len(set(out)) < len(set(map(str, names))):
        dup = sorted({n for n in out if out.count(n) > 1})
        raise OptionError(f"Two annotators would both be called '{dup[0]}'; choose another name.")
    return out
