"""A kind's options as one frozen, typed value, and what every kind's options share.

A kind declares its options once, as a frozen dataclass derived from :class:`Options` whose fields
are made with :func:`option`: the field's type and default are the option's, ``Literal`` types
list its choices. :meth:`Options.settings` turns the fields into the :class:`Setting` values that
make the command-line flags and the settings panel; :meth:`Options.resolve` turns what the user
gave (flags, a study file, the panel) into the value the kind computes with, once.

A result says how its intervals were made in an :class:`IntervalProvenance` (method, resamples,
seed), so the report and the views never read the options again.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from dataclasses import MISSING, Field, asdict, dataclass, field, fields
from typing import Any, ClassVar, Literal, TypeVar, get_args, get_origin

from iaa_desktop.core.errors import OptionError
from iaa_desktop.core.kinds.spec import (
    ANNOTATOR_NAMES,
    GivenOptions,
    ResolvedOptions,
    Setting,
    annotator_names,
    resolve_options,
)
from iaa_desktop.core.metrics.alpha import LEVELS, Level

__all__ = [
    "INTERVAL_METHODS",
    "LEVELS",
    "N_RESAMPLES",
    "SEED",
    "IntervalMethod",
    "IntervalProvenance",
    "Level",
    "Options",
    "as_record",
    "option",
]

#: how an interval is computed: percentile bootstrap, a posterior, or none
IntervalMethod = Literal["bootstrap", "bayes", "none"]
INTERVAL_METHODS: tuple[IntervalMethod, ...] = get_args(IntervalMethod)
#: bootstrap resamples unless the user asks for more or fewer (Efron & Tibshirani 1993 suggest
#: 1,000 or more for percentile intervals)
N_RESAMPLES = 1000
#: the random seed unless the user gives one: the same inputs give the same intervals
SEED = 0

OptionsT = TypeVar("OptionsT", bound="Options")


def option(
    default: Any, label: str, help: str = "", *, gui: bool = True, cli_flag: str | None = None
) -> Any:
    """A field of an :class:`Options` dataclass: its default, its label in the settings panel and
    its help (the panel's tooltip and the flag's help); ``gui=False`` keeps it off the panel."""
    meta = {"label": label, "help": help, "gui": gui, "cli_flag": cli_flag}
    return field(default=default, metadata=meta)


def _kind_of(hint: Any) -> tuple[type, tuple[Any, ...]]:
    """The value type and the choices of a field's type hint."""
    if get_origin(hint) is Literal:
        choices = get_args(hint)
        return type(choices[0]), choices
    if hint in (bool, int, float, str):
        return hint, ()
    raise TypeError(f"an option is a bool, int, float, str or Literal, not {hint!r}")


def _coerce(value: Any, kind: type, label: str) -> Any:
    """``value`` as ``kind``: the panel and study files may hold numbers as text."""
    if kind is bool and isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    try:
        return kind(value)
    except (TypeError, ValueError):
        what = {int: "a whole number", float: "a number"}.get(kind, kind.__name__)
        raise OptionError(f"{label}: '{value}' is not {what}.") from None


@dataclass(frozen=True)
class Options:
    """Base of every kind's options (see the module docstring).

    ``annotator_names`` is the user's renaming of the annotators (set in the import dialog, saved
    in the study file): an option of every kind that is neither a flag nor on the panel.
    """

    _settings: ClassVar[dict[type, tuple[Setting, ...]]] = {}

    annotator_names: Mapping[str, str] = field(default_factory=dict, metadata={"setting": False})
    #: what the user gave (flags, a study file, the panel), as given: the study's record
    given: Mapping[str, Any] = field(
        default_factory=dict, compare=False, repr=False, metadata={"setting": False}
    )

    @classmethod
    def _fields(cls) -> list[tuple[Field[Any], type, tuple[Any, ...]]]:
        hints = typing.get_type_hints(cls)
        return [
            (f, *_kind_of(hints[f.name])) for f in fields(cls) if f.metadata.get("setting", True)
        ]

    @classmethod
    def settings(cls) -> tuple[Setting, ...]:
        """One :class:`Setting` per field, in the order of the fields."""
        if cls not in Options._settings:
            out = []
            for f, kind, choices in cls._fields():
                assert f.default is not MISSING, f"option {f.name} has no default"
                m = f.metadata
                out.append(
                    Setting(
                        f.name,
                        m["label"],
                        f.default,
                        kind,
                        choices,
                        m["help"],
                        m["gui"],
                        m["cli_flag"],
                    )
                )
            Options._settings[cls] = tuple(out)
        return Options._settings[cls]

    @classmethod
    def resolve(cls: type[OptionsT], given: GivenOptions | None) -> OptionsT:
        """The options the user gave over the defaults; a choice not offered is an
        :class:`OptionError` naming the option; keys that are not options are ignored (and kept
        in :attr:`given`). Options already resolved are returned as they are: the command line
        resolves them once and the kind computes with them."""
        if isinstance(given, cls):
            return given
        if isinstance(given, ResolvedOptions):  # another kind's: what the user gave them
            given = given.given
        values = resolve_options(cls.settings(), given)
        out: dict[str, Any] = {}
        for f, kind, _choices in cls._fields():
            v = values[f.name]
            label = f.metadata["label"]
            out[f.name] = v if v is None or isinstance(v, kind) else _coerce(v, kind, label)
        annotator_names(values)  # a renaming that cannot be done is refused here, once
        out[ANNOTATOR_NAMES] = dict(values.get(ANNOTATOR_NAMES) or {})
        return cls(**out, given=dict(given or {}))

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def values(self) -> dict[str, Any]:
        """Each option's resolved value by name (what the settings panel shows)."""
        return {s.name: getattr(self, s.name) for s in self.settings()}

    def record(self) -> dict[str, Any]:
        """The options as given over the defaults, keys that are not options kept: what a
        result records of the options it was computed with (a study file, the methods text)."""
        out = {s.name: s.default for s in self.settings()}
        out.update((k, v) for k, v in self.given.items() if v is not None)
        return out


def as_record(options: Options | Mapping[str, Any] | None) -> dict[str, Any]:
    """The record of ``options``: :meth:`Options.record` of resolved options, else a copy of
    the mapping given."""
    return options.record() if isinstance(options, Options) else dict(options or {})


@dataclass(frozen=True)
class IntervalProvenance:
    """How a result's intervals were computed: the method, the resamples (bootstrap) or draws
    (posterior), the seed and the confidence level."""

    method: IntervalMethod = "bootstrap"
    resamples: int = N_RESAMPLES
    seed: int = SEED
    level: float = 0.95
