"""What every kind of study (tables, coreference, normalization, ...) provides.

A *kind* is a plain object registered in :mod:`iaa_desktop.core.kinds`. It declares its settings
once (:class:`Setting`), which drive both the command-line options and the GUI settings panel,
and it runs as a generator: ``kind.run(inputs, options)`` yields :class:`~iaa_desktop.core.progress.Progress`
and returns a :class:`TaskResult`. Loading happens inside ``run`` too, so the GUI never reads files
on its own thread.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable, Container, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from iaa_desktop.core.errors import OptionError, ReaderError
from iaa_desktop.core.progress import Progress

if TYPE_CHECKING:  # pandas is imported by the kinds, not at start-up
    import pandas as pd

    from iaa_desktop.core.kinds.arrange import Arrangement
    from iaa_desktop.core.kinds.options import Options
    from iaa_desktop.core.kinds.survey import Survey

#: a kind's typed options (:class:`~iaa_desktop.core.kinds.options.Options`)
OptionsT = TypeVar("OptionsT", bound="Options")


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


@runtime_checkable
class ResolvedOptions(Protocol):
    """A kind's options already resolved: its typed, frozen
    :class:`~iaa_desktop.core.kinds.options.Options` (what the user gave kept in ``given``)."""

    @property
    def given(self) -> Mapping[str, Any]: ...

    def values(self) -> dict[str, Any]: ...

    def record(self) -> dict[str, Any]: ...


#: options as a kind's run takes them: what the user gave, or already resolved
GivenOptions = Mapping[str, Any] | ResolvedOptions


def given_of(options: GivenOptions | None) -> Mapping[str, Any]:
    """What the user gave, of options given or resolved."""
    return options.given if isinstance(options, ResolvedOptions) else (options or {})


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


@runtime_checkable
class TypedKind(TaskKind, Protocol):
    """A kind whose options are typed: ``options`` is its
    :class:`~iaa_desktop.core.kinds.options.Options` class, and its run takes them resolved
    (computing with them as they are) or as given (resolving them)."""

    @property
    def options(self) -> Any:
        """The kind's Options class (``options.resolve(given)`` gives the resolved options)."""
        ...

    def run(
        self, inputs: Sequence[Path], options: GivenOptions
    ) -> Generator[Progress, None, TaskResult]: ...


@dataclass(frozen=True)
class StepsKind(Generic[OptionsT]):
    """A :class:`TypedKind` made of its :class:`~iaa_desktop.core.kinds.options.Options` class
    and two functions: ``recognise(paths)`` gives the confidence of :meth:`sniff`,
    ``steps(inputs, options)`` is the comparison, computing with the options resolved once
    (``options.resolve``: the command line's resolved value is taken as it is)."""

    name: str
    options: type[OptionsT]
    recognise: Callable[[list[Path]], float]
    steps: Callable[[Sequence[Path], OptionsT], Generator[Progress, None, Any]]

    @property
    def settings(self) -> Sequence[Setting]:
        return self.options.settings()

    def sniff(self, inputs: Sequence[Path]) -> float:
        return self.recognise([Path(p) for p in inputs])

    def run(self, inputs: Sequence[Path], options: GivenOptions) -> Generator[Progress, None, Any]:
        return (yield from self.steps(inputs, self.options.resolve(options)))


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


#: what the import dialog shows of a kind's inputs: ``(inputs, options) -> Survey``, the options
#: resolved by the kind (:meth:`KindSpec.resolve`)
Surveyor = Callable[[list[Path], "GivenOptions"], "Survey"]
#: the study's inputs among the paths dropped on the import dialog: ``paths -> Arrangement``
Arranger = Callable[[list[Path]], "Arrangement"]


@dataclass(frozen=True, slots=True)
class KindParts:
    """The code of a kind: its comparison (``settings``, ``sniff(inputs)``,
    ``run(inputs, options)``), the report section ``report(result, ctx)``, the methods
    paragraphs ``methods(result)``, the rows of the window's summary table ``summary(result)``,
    the adjudication units ``adjudication(result)``, the units read straight from the inputs
    ``gold_units(inputs, options)`` (the headless gold command, when they need no comparison),
    and what the import dialog shows, ``survey(inputs, options)`` and ``arrange(paths)``.

    A kind's package makes it in one function that imports the kind's modules (see
    :attr:`KindSpec.parts`), so that nothing heavy is imported before a part is needed."""

    comparison: TaskKind
    report: ReportBuilder | None = None
    methods: MethodsWriter | None = None
    summary: SummaryMaker | None = None
    adjudication: UnitsMaker | None = None
    gold_units: GoldUnitsReader | None = None
    survey: Surveyor | None = None
    arrange: Arranger | None = None


@functools.cache
def _loaded(parts: Callable[[], KindParts]) -> KindParts:
    """A kind's parts, made (and its modules imported) once."""
    return parts()


@dataclass(frozen=True, slots=True)
class ViewRef:
    """Where the window finds a kind's view: the absolute name of the module that defines
    ``create_panels(result, context)`` (see :mod:`iaa_desktop.gui.kinds`).

    The core never imports the window, not even lazily (an import-linter contract), so a kind
    names its view's module and the window imports it; a test imports every registered kind's
    view and checks it has ``create_panels``."""

    module: str

    def __post_init__(self) -> None:
        if not all(part.isidentifier() for part in self.module.split(".")):
            raise ValueError(f"a view is named by its module's dotted name, not {self.module!r}")


@dataclass(frozen=True, slots=True)
class KindSpec:
    """Everything the application knows about one kind of study, in one frozen value.

    ``parts`` is the kind's one function that imports its modules and returns its
    :class:`KindParts` (comparison, report, methods, summary, adjudication units, gold units,
    survey, arrangement); it is called once, when a part is first needed, so the registry
    (:data:`iaa_desktop.core.kinds.KINDS`) loads in milliseconds at start-up. The parts are
    reached as attributes of the spec (``spec.report``, ``spec.survey``, …).
    ``example`` is its study on the start page, ``placeholder`` the hint of the adjudication
    panel's typed value, and ``view`` where the window finds its view (:class:`ViewRef`).
    """

    name: str
    title: str
    inputs: str
    parts: Callable[[], KindParts]
    example: Example | None = None
    placeholder: str = "another value"
    view: ViewRef | None = None

    @property
    def loaded(self) -> KindParts:
        """The kind's parts (its modules imported on the first call)."""
        return _loaded(self.parts)

    @property
    def kind(self) -> TaskKind:
        return self.loaded.comparison

    @property
    def report(self) -> ReportBuilder | None:
        return self.loaded.report

    @property
    def methods(self) -> MethodsWriter | None:
        return self.loaded.methods

    @property
    def summary(self) -> SummaryMaker | None:
        return self.loaded.summary

    @property
    def adjudication(self) -> UnitsMaker | None:
        return self.loaded.adjudication

    @property
    def gold_units(self) -> GoldUnitsReader | None:
        return self.loaded.gold_units

    @property
    def survey(self) -> Surveyor | None:
        return self.loaded.survey

    @property
    def arrange(self) -> Arranger | None:
        return self.loaded.arrange

    @property
    def settings(self) -> Sequence[Setting]:
        own = list(self.kind.settings)
        return own if any(s.name == ENCODING.name for s in own) else [*own, ENCODING]

    def sniff(self, inputs: Sequence[Path]) -> float:
        return self.kind.sniff(inputs)

    def resolve(self, given: Mapping[str, Any] | None) -> ResolvedOptions | dict[str, Any]:
        """The options the kind computes with, from what the user gave (flags, a study file, the
        panel): its typed options (``kind.options.resolve``, the one place they are resolved;
        the run computes with them as they are), or for a kind whose options are not typed the
        settings' defaults overlaid with what was given. A value the kind does not take is an
        :class:`OptionError` naming the option."""
        kind = self.kind
        if not isinstance(kind, TypedKind):
            return resolve_options(self.settings, given)
        chosen: ResolvedOptions = kind.options.resolve(given)
        own = {s.name for s in kind.settings}
        resolve_options([s for s in self.settings if s.name not in own], given)  # the encoding
        return chosen

    def shown_values(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every setting's value as the kind resolves ``given`` (the settings panel)."""
        chosen = self.resolve(given)
        if not isinstance(chosen, ResolvedOptions):
            return chosen
        return {**resolve_options(self.settings, given), **chosen.values()}

    def run(
        self, inputs: Sequence[Path], options: GivenOptions
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
    kind: TaskKind, inputs: Sequence[Path], options: GivenOptions
) -> Generator[Progress, None, TaskResult]:
    """``kind.run(inputs, options)`` with every text input read in the ``encoding`` option;
    libraries' warnings about the inputs go to the result's warnings, not the terminal."""
    from iaa_desktop.core.input_warnings import collected
    from iaa_desktop.core.textio import with_encoding

    if isinstance(kind, TypedKind):
        steps = kind.run(inputs, options)
    else:
        steps = kind.run(inputs, given_of(options))
    encoding = given_of(options).get(ENCODING.name)
    return collected(with_encoding(steps, str(encoding)) if encoding else steps)


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
