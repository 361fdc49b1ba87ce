"""Consistency across occurrences: every form, how each annotator treated it wherever it occurs.

The same form treated differently in different places — a spelling normalized two ways, a name
labelled PER in one document and ORG in another, a phrase that is a mention here and nothing
there — is the most frequent disagreement of an edition or a corpus, by different annotators and
by one annotator in different places. This module gathers it for any kind that can say, for each
*occurrence* of a form, what each annotator made of it (its *treatment*): the historical token and
its normalization, a span's covered text and its label, a mention's text and whether it is in a
chain.

Forms are matched after Unicode NFC normalization (UAX #15), and, as the user chooses, also
without regard to case (Unicode default case folding) and to diacritics (canonical decomposition
with the combining marks removed, UAX #15 and The Unicode Standard §3.11).

For a form with occurrences :math:`o = 1..n` and annotators :math:`x = 1..c`, let :math:`t_{ox}`
be the treatment of annotator :math:`x` at occurrence :math:`o` (absent where the annotator did not
see that text). Then

* the **inconsistency** of the form is the Shannon entropy (bits) of its treatments over all the
  judgments, :math:`H = -\\sum_t p_t \\log_2 p_t` with :math:`p_t` the share of the judgments
  :math:`t_{ox}` equal to :math:`t` (0 when every judgment agrees; Shannon 1948);
* the **within-annotator** inconsistency is the mean, over the annotators who judged the form at
  two or more occurrences, of the entropy of their own treatments of it;
* an annotator is **inconsistent on a form** when they gave it two or more treatments; their
  within-annotator consistency is the share of the forms they judged at two or more occurrences
  that they treated one way only.

Forms are listed most inconsistent first (entropy over all judgments, then within annotators,
then the number of occurrences).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from iaa_desktop.core.nfc import FORM_MATCHES, FormMatch, fold, fold_with_offsets

__all__ = [
    "FORM_MATCHES",
    "FORM_MATCH_TITLES",
    "NOT_MARKED",
    "AnnotatorConsistency",
    "Form",
    "FormMatch",
    "Occurrences",
    "OccurrenceTable",
    "Treatment",
    "fold",
    "fold_with_offsets",
    "gather",
]

#: what the view and the report show for each way of matching
FORM_MATCH_TITLES = {
    "exact": "as written",
    "case": "ignoring case",
    "case_diacritics": "ignoring case and diacritics",
}
#: the treatment of an occurrence the annotator saw but did not mark (spans, mentions)
NOT_MARKED = "(none)"


@dataclass(frozen=True)
class OccurrenceTable:
    """What a kind gives: one row per occurrence, one column per annotator.

    ``treatments[o, x]`` is annotator ``x``'s treatment of occurrence ``o`` (a string; ``None``
    where the annotator did not see it). ``where`` says where the occurrence is (a document and
    a position as the kind names them), ``left`` and ``right`` the text around it.
    """

    annotators: tuple[str, ...]
    forms: tuple[str, ...]
    documents: tuple[str, ...]
    where: tuple[str, ...]
    treatments: NDArray[Any]
    left: tuple[str, ...] = ()
    right: tuple[str, ...] = ()
    #: a unit of adjudication per occurrence (its key; empty where there is none)
    units: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.forms)
        if self.treatments.shape != (n, len(self.annotators)):
            raise ValueError(
                f"treatments must be {n} × {len(self.annotators)}, got {self.treatments.shape}"
            )
        for name in ("documents", "where", "left", "right", "units"):
            got = len(getattr(self, name))
            if got not in (0, n) or (name in ("documents", "where") and got != n):
                raise ValueError(f"{name} must have one entry per occurrence")


@dataclass(frozen=True)
class Treatment:
    """One way a form was treated: how many judgments gave it, and by whom."""

    treatment: str
    count: int
    annotators: tuple[str, ...]


@dataclass(frozen=True)
class Form:
    """A form with every occurrence and every treatment it received."""

    key: str
    #: the form as written most often (the first of equals in input order)
    shown: str
    n_occurrences: int
    n_judgments: int
    treatments: tuple[Treatment, ...]
    entropy: float
    within_entropy: float
    #: annotators who gave this form two or more treatments
    inconsistent_annotators: tuple[str, ...]
    #: the occurrences' rows of the :class:`OccurrenceTable`, in input order
    rows: tuple[int, ...]

    @property
    def n_treatments(self) -> int:
        return len(self.treatments)


@dataclass(frozen=True)
class AnnotatorConsistency:
    """One annotator's consistency with themself over repeated forms."""

    annotator: str
    #: forms this annotator judged at two or more occurrences
    n_repeated_forms: int
    #: of those, the forms they treated in more than one way
    n_inconsistent_forms: int
    inconsistent_forms: tuple[str, ...]

    @property
    def share_inconsistent(self) -> float:
        return (
            self.n_inconsistent_forms / self.n_repeated_forms if self.n_repeated_forms else math.nan
        )


@dataclass(frozen=True)
class Occurrences:
    """Every form of a study with its occurrences and treatments (see the module docstring)."""

    table: OccurrenceTable
    match: FormMatch
    forms: tuple[Form, ...]
    per_annotator: tuple[AnnotatorConsistency, ...]
    #: the treatment that means "seen but not marked" in this kind (spans, mentions), or ""
    not_marked: str = ""
    by_key: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def inconsistent(self) -> tuple[Form, ...]:
        """The forms given more than one treatment, most inconsistent first."""
        return tuple(f for f in self.forms if f.n_treatments > 1)

    def form(self, key: str) -> Form | None:
        i = self.by_key.get(key)
        return None if i is None else self.forms[i]

    def occurrence_json(self, o: int) -> dict[str, Any]:
        t = self.table
        return {
            "document": t.documents[o],
            "where": t.where[o],
            "form": t.forms[o],
            "treatments": {
                a: (None if v is None else str(v))
                for a, v in zip(t.annotators, t.treatments[o].tolist())
            },
        }

    def to_json(self) -> dict[str, Any]:
        """``forms`` lists the forms with more than one treatment (with every occurrence);
        ``per_annotator`` each annotator's consistency with themself."""

        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        return {
            "match": self.match,
            "n_forms": len(self.forms),
            "n_inconsistent_forms": len(self.inconsistent),
            "forms": [
                {
                    "form": f.shown,
                    "key": f.key,
                    "n_occurrences": f.n_occurrences,
                    "n_judgments": f.n_judgments,
                    "entropy": num(f.entropy),
                    "within_entropy": num(f.within_entropy),
                    "inconsistent_annotators": list(f.inconsistent_annotators),
                    "treatments": [
                        {
                            "treatment": t.treatment,
                            "count": t.count,
                            "annotators": list(t.annotators),
                        }
                        for t in f.treatments
                    ],
                    "occurrences": [self.occurrence_json(o) for o in f.rows],
                }
                for f in self.inconsistent
            ],
            "per_annotator": [
                {
                    "annotator": a.annotator,
                    "n_repeated_forms": a.n_repeated_forms,
                    "n_inconsistent_forms": a.n_inconsistent_forms,
                    "share_inconsistent": num(a.share_inconsistent),
                    "inconsistent_forms": list(a.inconsistent_forms),
                }
                for a in self.per_annotator
            ],
        }

    def tables(self) -> dict[str, Any]:
        """``occurrence_forms`` (one row per form with more than one treatment),
        ``occurrence_list`` (their occurrences, one column per annotator) and
        ``occurrence_annotators`` (within-annotator consistency)."""
        import pandas as pd

        forms = pd.DataFrame(
            [
                {
                    "form": f.shown,
                    "occurrences": f.n_occurrences,
                    "treatments": f.n_treatments,
                    "entropy": f.entropy,
                    "within_entropy": f.within_entropy,
                    "inconsistent_annotators": "; ".join(f.inconsistent_annotators),
                    "treatment_counts": "; ".join(
                        f"{t.treatment} ×{t.count} ({', '.join(t.annotators)})"
                        for t in f.treatments
                    ),
                }
                for f in self.inconsistent
            ],
            columns=[
                "form",
                "occurrences",
                "treatments",
                "entropy",
                "within_entropy",
                "inconsistent_annotators",
                "treatment_counts",
            ],
        )
        t = self.table
        rows = []
        for f in self.inconsistent:
            for o in f.rows:
                row = {"form": f.shown, "document": t.documents[o], "where": t.where[o]}
                for a, v in zip(t.annotators, t.treatments[o].tolist()):
                    row[a] = "" if v is None else str(v)
                rows.append(row)
        occ = pd.DataFrame(rows, columns=["form", "document", "where", *t.annotators])
        ann = pd.DataFrame(
            [
                {
                    "annotator": a.annotator,
                    "repeated_forms": a.n_repeated_forms,
                    "inconsistent_forms": a.n_inconsistent_forms,
                    "share_inconsistent": a.share_inconsistent,
                    "forms": "; ".join(a.inconsistent_forms),
                }
                for a in self.per_annotator
            ],
            columns=[
                "annotator",
                "repeated_forms",
                "inconsistent_forms",
                "share_inconsistent",
                "forms",
            ],
        )
        return {"occurrence_forms": forms, "occurrence_list": occ, "occurrence_annotators": ann}


def _entropy_by_group(group: NDArray[Any], counts: NDArray[Any], n_groups: int) -> NDArray[Any]:
    """Shannon entropy (bits) of each group's counts: ``group[k]`` is the group of count ``k``."""
    totals = np.bincount(group, weights=counts, minlength=n_groups)
    p = counts / totals[group]
    out: NDArray[Any] = np.abs(np.bincount(group, weights=-p * np.log2(p), minlength=n_groups))
    return out  # np.abs: -0.0 → 0.0


def gather(table: OccurrenceTable, match: FormMatch = "exact", not_marked: str = "") -> Occurrences:
    """Group ``table``'s occurrences by form (matched as ``match`` says) and measure how
    consistently each form was treated (see the module docstring). Vectorised: one
    factorisation of the forms and of the treatments, then counts of integer codes."""
    import pandas as pd

    t = table
    n, c = t.treatments.shape
    rcode, raw = pd.factorize(pd.Series(t.forms, dtype=object), sort=False)
    raw_forms = [str(r) for r in raw]
    raw_keys = [fold(r, match) for r in raw_forms]
    kcode, fkeys_index = pd.factorize(pd.Series(raw_keys, dtype=object), sort=False)
    fkeys = [str(k) for k in fkeys_index]
    fcode = kcode[rcode]
    n_forms = len(fkeys)
    judged = np.asarray(~pd.isna(t.treatments), dtype=bool)
    o_idx, x_idx = np.nonzero(judged)
    tcode, tvalues_index = pd.factorize(
        pd.Series(t.treatments[o_idx, x_idx], dtype=object), sort=False
    )
    tvalues = [str(v) for v in tvalues_index]
    n_t = max(len(tvalues), 1)
    f_of = fcode[o_idx].astype(np.int64)

    # treatments per form (over all judgments)
    pair, pair_n = _unique_counts(f_of * n_t + tcode)
    pf, pt = pair // n_t, pair % n_t
    entropy = _entropy_by_group(pf, pair_n.astype(float), n_forms)
    n_judgments = np.bincount(f_of, minlength=n_forms)
    n_occ = np.bincount(fcode, minlength=n_forms)

    # per annotator and form: judgments, distinct treatments, entropy
    xf = x_idx.astype(np.int64) * n_forms + f_of
    xf_n = np.bincount(xf, minlength=c * n_forms)
    triple, triple_n = _unique_counts(xf * n_t + tcode)
    txf = triple // n_t
    distinct = np.bincount(txf, minlength=c * n_forms).reshape(c, n_forms)
    within = _entropy_by_group(txf, triple_n.astype(float), c * n_forms).reshape(c, n_forms)
    repeated = xf_n.reshape(c, n_forms) >= 2
    with np.errstate(invalid="ignore"):
        within_mean = np.where(
            repeated.any(axis=0),
            (within * repeated).sum(axis=0) / np.maximum(repeated.sum(axis=0), 1),
            np.nan,
        )

    # who gave each treatment of each form
    givers: dict[int, list[int]] = {}
    given, _ = _unique_counts((f_of * n_t + tcode) * c + x_idx)
    for code, x in zip((given // c).tolist(), (given % c).tolist()):
        givers.setdefault(code, []).append(x)

    by_form = np.argsort(fcode, kind="stable")
    form_bounds = np.searchsorted(fcode[by_form], np.arange(n_forms + 1)).tolist()
    starts = np.searchsorted(pf, np.arange(n_forms + 1))
    forms = []
    names = t.annotators
    shown_of = _shown_forms(fcode, rcode, kcode, raw_forms)
    for f in range(n_forms):
        shown = shown_of[f]
        tr = []
        for k in range(starts[f], starts[f + 1]):
            code = int(pair[k])
            tr.append(
                Treatment(
                    str(tvalues[pt[k]]),
                    int(pair_n[k]),
                    tuple(names[x] for x in givers.get(code, ())),
                )
            )
        tr.sort(key=lambda z: (-z.count, z.treatment))
        forms.append(
            Form(
                key=fkeys[f],
                shown=shown,
                n_occurrences=int(n_occ[f]),
                n_judgments=int(n_judgments[f]),
                treatments=tuple(tr),
                entropy=float(entropy[f]),
                within_entropy=float(within_mean[f]),
                inconsistent_annotators=tuple(names[x] for x in range(c) if distinct[x, f] > 1),
                rows=tuple(by_form[form_bounds[f] : form_bounds[f + 1]].tolist()),
            )
        )
    forms.sort(
        key=lambda z: (
            -z.entropy,
            -(z.within_entropy if math.isfinite(z.within_entropy) else 0.0),
            -z.n_occurrences,
            z.key,
        )
    )
    shown_by_key = {z.key: z.shown for z in forms}
    per_annotator = []
    for x, name in enumerate(names):
        rep = np.flatnonzero(repeated[x])
        bad = [f for f in rep if distinct[x, f] > 1]
        shown_bad = sorted((shown_by_key[fkeys[f]] for f in bad), key=str.casefold)
        per_annotator.append(AnnotatorConsistency(name, len(rep), len(bad), tuple(shown_bad)))
    return Occurrences(
        table=t,
        match=match,
        forms=tuple(forms),
        per_annotator=tuple(per_annotator),
        not_marked=not_marked,
        by_key={f.key: i for i, f in enumerate(forms)},
    )


def _unique_counts(codes: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """The distinct values of ``codes`` in ascending order and how often each occurs (a hash
    table, then a sort of the distinct values only: faster than sorting every code)."""
    import pandas as pd

    ix, uniq = pd.factorize(codes, sort=False)
    counts = np.bincount(ix, minlength=len(uniq))
    order = np.argsort(uniq, kind="stable")
    return np.asarray(uniq)[order], counts[order]


def _shown_forms(
    fcode: NDArray[Any], rcode: NDArray[Any], kcode: NDArray[Any], raw: list[str]
) -> list[str]:
    """Per form, the raw form written most often (the first in input order among equals)."""
    shown = [""] * (int(kcode.max()) + 1 if len(kcode) else 0)
    variants = np.bincount(kcode, minlength=len(shown))
    for r, k in enumerate(kcode.tolist()):  # forms written one way only: that way
        if variants[k] == 1:
            shown[k] = raw[r]
    several = np.flatnonzero(variants[fcode] > 1)
    counts: dict[int, dict[int, int]] = {}
    for o in several.tolist():
        by = counts.setdefault(int(fcode[o]), {})
        r = int(rcode[o])
        by[r] = by.get(r, 0) + 1
    for k, by in counts.items():
        best = max(by.values())
        shown[k] = raw[next(r for r, n in by.items() if n == best)]
    return shown


# ---------------------------------------------------------------------------------------------
# the report


#: forms listed at most in the report (the CSV export has all)
REPORT_FORMS = 25


def report_section(occ: Occurrences, what: str, max_rows: int | None = None) -> Any:
    """The report's "Consistency across occurrences" section: the most inconsistent forms with
    their treatments, and each annotator's consistency with themself. ``what`` names a
    treatment ("normalization", "label")."""
    from iaa_desktop.core.export.html_blocks import esc, table_html
    from iaa_desktop.core.export.report import Section

    tables = occ.tables()
    forms = tables["occurrence_forms"]
    limit = min(REPORT_FORMS, max_rows) if max_rows else REPORT_FORMS
    headers = {
        "form": "Form",
        "occurrences": "occ.",
        "treatments": f"{what}s",
        "entropy": "H (bits)",
        "within_entropy": "H within",
        "inconsistent_annotators": "treated it two ways",
        "treatment_counts": f"{what}s given (count, by whom)",
    }
    body = [
        f"<p>{len(occ.inconsistent):,} of {len(occ.forms):,} forms (matched "
        f"{esc(FORM_MATCH_TITLES[occ.match])}) were given more than one {esc(what)}. H is the "
        f"entropy of the {esc(what)}s over every annotator's judgment of every occurrence; "
        "H within, the mean over the annotators who met the form twice or more of the entropy of "
        "their own treatments.</p>",
        table_html(
            forms,
            list(headers),
            headers,
            caption="Forms, most inconsistent first",
            max_rows=limit,
            cls="wide",
        ),
        table_html(
            tables["occurrence_annotators"],
            ["annotator", "repeated_forms", "inconsistent_forms", "share_inconsistent"],
            {
                "annotator": "Annotator",
                "repeated_forms": "forms met twice or more",
                "inconsistent_forms": "of which treated two ways",
                "share_inconsistent": "share",
            },
            percent=["share_inconsistent"],
            caption="Each annotator with themself",
        ),
    ]
    return Section("Consistency across occurrences", "\n".join(body), anchor="occurrences")


def methods_paragraph(occ: Occurrences, what: str, occurrence: str) -> str:
    """The methods text of the occurrences: what an occurrence is, how forms were matched and
    what the figures mean (HTML, escaped)."""
    return (
        f"Consistency across occurrences: every {occurrence} was grouped by its form, matched "
        f"{FORM_MATCH_TITLES[occ.match]} (after Unicode NFC normalization), and each annotator's "
        f"{what} of each occurrence was collected. A form's inconsistency is the Shannon entropy "
        f"(Shannon 1948) of its {what}s over all judgments (0 when everyone treated every "
        "occurrence alike); an annotator is inconsistent with themself on a form they treated in "
        "more than one way, and their share of such forms among those they met twice or more is "
        "reported."
    )
