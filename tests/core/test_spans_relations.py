"""Relations between spans: read from brat, WebAnno TSV 3.3 and Label Studio, and compared.

The files under ``fixtures/spans/relations`` were written from each format's documentation (brat's
"Annotation data format" ``R`` lines; the INCEpTION user guide's "WebAnno TSV 3.3 File format"
relation layers, the relation on the dependent's row and the governor in the ``BT_`` column; Label
Studio's JSON ``relation`` results, ``from_id`` → ``to_id`` with a ``direction``; doccano's
relation extraction JSONL, ``entities`` with ids and ``relations`` with ``from_id``/``to_id``/
``type``, a file per annotator; Prodigy's ``rel.manual`` tasks, ``relations`` with ``head``/
``child`` tokens and ``head_span``/``child_span``). They hold the same annotations of one sentence
by A and B, worked out by hand:

* Employer Alice → Acme: both (a match);
* Located Acme → Paris (A) and Paris → Acme (B): a link in the other direction;
* Meets (A) and Knows (B) Bob → Carol: a relabelled link;
* Based Alice → Rome (A) and Alice → "Rome." (B): arguments' boundaries differ (an overlap match);
* Does Alice → works (B): A has no span at "works" (argument not annotated by the other);
* Knows Alice → Bob (B): A has both spans, no link;
* a relation of B whose argument is not a span: a problem at its line, left out.

So A has 4 relations, B 6; 1 exact match (F1 = 2·1/10 = 0.2), 2 overlap matches (0.4); Cohen's κ
of the labels on the two argument pairs both linked (Employer/Employer, Meets/Knows) is
(0.5 − 0.25)/(1 − 0.25) = 1/3 and Fleiss' κ (Scott's π for two) (0.5 − 0.375)/(1 − 0.375) = 0.2.
"""

from __future__ import annotations

import itertools
import math
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iaa_desktop.core.kinds import get_kind
from iaa_desktop.core.kinds.spans.readers import read_brat
from iaa_desktop.core.metrics import relations as MR
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

REL = FIXTURES / "spans" / "relations"
INPUTS = {
    "brat": [REL / "brat"],
    "webanno-tsv3": [REL / "tsv"],
    "label-studio": [REL / "label_studio" / "export.json"],
    "doccano": [REL / "doccano" / "A.jsonl", REL / "doccano" / "B.jsonl"],
    "prodigy": [REL / "prodigy" / "export.jsonl"],
}


def run(inputs, **opts):
    opts.setdefault("n_resamples", 200)
    opts.setdefault("gamma", False)
    return run_to_end(get_kind("spans").run([Path(p) for p in inputs], opts))


@pytest.fixture(scope="module")
def results():
    return {fmt: run(paths) for fmt, paths in INPUTS.items()}


@pytest.mark.parametrize("fmt", list(INPUTS))
def test_hand_checked_relation_figures(results, fmt):
    r = results[fmt]
    assert r.annotators == ("A", "B")
    rel = r.to_json()["relations"]
    assert rel["overall"]["exact_f1"]["value"] == pytest.approx(0.2)
    assert rel["overall"]["overlap_f1"]["value"] == pytest.approx(0.4)
    (pair,) = rel["pairs"]
    assert (pair["a"], pair["b"], pair["n_a"], pair["n_b"]) == ("A", "B", 4, 6)
    per_label = {row["label"]: (row["exact_f1"], row["overlap_f1"]) for row in rel["per_label"]}
    assert per_label == {
        "Based": (0.0, 1.0),
        "Does": (0.0, 0.0),
        "Employer": (1.0, 1.0),
        "Knows": (0.0, 0.0),
        "Located": (0.0, 0.0),
        "Meets": (0.0, 0.0),
    }
    assert {row["label"] for row in rel["pairs_labels"]} == set(per_label)
    assert all({"a", "b", "label"} <= set(row) for row in rel["pairs_labels"])
    kappa = rel["label_kappa"]
    assert kappa["pairs"][0]["n_units"] == 2
    assert kappa["mean"] == pytest.approx(1 / 3)
    assert kappa["fleiss_kappa"] == pytest.approx(0.2)
    causes = {row["cause"]: (row["n_of_a"], row["n_of_b"]) for row in rel["disagreements"]}
    assert causes == {
        "argument not annotated by the other": (0, 1),
        "argument boundary differs": (1, 1),
        "different label": (1, 1),
        "link in the other direction": (1, 1),
        "no link": (0, 1),
    }


def test_same_relation_figures_in_every_format(results):
    first = results["brat"].to_json()["relations"]
    for fmt in INPUTS:
        assert results[fmt].to_json()["relations"] == first, fmt


@pytest.mark.parametrize(
    ("fmt", "where"),
    [
        ("brat", ("doc1.ann", 14)),
        ("webanno-tsv3", ("doc1.tsv", 16)),
        ("label-studio", None),
        ("doccano", ("B.jsonl", 1)),
        ("prodigy", ("export.jsonl", 2)),
    ],
)
def test_relation_with_a_missing_argument_is_a_problem_at_its_line(results, fmt, where):
    errors = [e for e in results[fmt].errors if "relation" in str(e)]
    assert len(errors) == 1
    if where is not None:
        assert Path(str(errors[0].path)).name == where[0] and errors[0].line == where[1]
    else:
        assert "BT9" in str(errors[0])


def test_no_relations_no_relation_figures():
    import iaa_desktop

    example = Path(iaa_desktop.__file__).parent / "resources" / "examples" / "spans"
    r = run([example / name for name in ("Lena", "Noa", "Omar")])
    assert r.relations is None and "relations" not in r.to_json()


def test_intervals_over_documents(tmp_path):
    # four documents: the sentence as annotated, and three where B agrees with A
    for who in ("A", "B"):
        (tmp_path / who).mkdir()
        for k in range(4):
            src = REL / "brat" / ("B" if who == "B" and k == 0 else "A")
            shutil.copy(src / "doc1.txt", tmp_path / who / f"doc{k}.txt")
            shutil.copy(src / "doc1.ann", tmp_path / who / f"doc{k}.ann")
    r = run([tmp_path / "A", tmp_path / "B"], n_resamples=300)
    overall = r.to_json()["relations"]["overall"]
    # A 16 relations, B 18; exact matches 1 + 3·4, overlap matches 2 + 3·4
    assert overall["exact_f1"]["value"] == pytest.approx(2 * 13 / 34)
    assert overall["overlap_f1"]["value"] == pytest.approx(2 * 14 / 34)
    for fig in overall.values():
        assert fig["ci_low"] <= fig["value"] <= fig["ci_high"]
    assert "relations_pairs" in r.tables() and "relations_disagreements" in r.tables()


def test_events_and_equivalences_on_request(tmp_path):
    (tmp_path / "d.txt").write_text("Acme bought Beta and Gamma.", encoding="utf-8")
    (tmp_path / "d.ann").write_text(
        "T1\tORG 0 4\tAcme\nT2\tBuy 5 11\tbought\nT3\tORG 12 16\tBeta\nT4\tORG 21 26\tGamma\n"
        "E1\tBuy:T2 Buyer:T1 Theme:T3 Theme2:T4\n*\tAlias T4 T3\nR1\tPart Arg1:T3 Arg2:T1\n",
        encoding="utf-8",
    )
    only_r = read_brat(tmp_path / "d.ann")
    assert [r.label for r in only_r.relations] == ["Part"] and only_r.errors == []
    every = read_brat(tmp_path / "d.ann", relations_from="R+E+*")
    assert sorted((r.label, r.source, r.target) for r in every.relations) == sorted(
        [
            ("Buyer", ((5, 11),), ((0, 4),)),
            ("Theme", ((5, 11),), ((12, 16),)),
            ("Theme", ((5, 11),), ((21, 26),)),
            ("Alias", ((12, 16),), ((21, 26),)),  # members in text order
            ("Part", ((12, 16),), ((0, 4),)),
        ]
    )
    assert sorted(set(every.relation_lines)) == [5, 6, 7]


def test_malformed_relation_lines_name_file_and_line(tmp_path):
    (tmp_path / "d.txt").write_text("Acme bought Beta.", encoding="utf-8")
    (tmp_path / "d.ann").write_text(
        "T1\tORG 0 4\tAcme\nR1\tPart Arg1:T1\nR2\tPart Arg1:T1 Arg2:T7\nT2\tORG 99 120\tx\n"
        "R3\tPart Arg1:T1 Arg2:T2\n",
        encoding="utf-8",
    )
    doc = read_brat(tmp_path / "d.ann")
    assert doc.relations == []
    assert sorted(e.line for e in doc.errors) == [2, 3, 4, 5]
    assert all("d.ann" in str(e) for e in doc.errors)


# --------------------------------------------------------------------------- the measure itself

frag = st.tuples(st.integers(0, 12), st.integers(1, 4)).map(lambda t: ((t[0], t[0] + t[1]),))
relation = st.tuples(st.sampled_from(["R", "S"]), frag, frag)
relations = st.lists(relation, max_size=6, unique=True)


def brute_force_matches(a, b, rule) -> int:
    """The largest number of disjoint allowed pairs, by trying every assignment."""
    best = 0
    ok = [[MR.may_match(x, y, rule) for y in b] for x in a]
    for k in range(min(len(a), len(b)), 0, -1):
        for rows in itertools.combinations(range(len(a)), k):
            for cols in itertools.permutations(range(len(b)), k):
                if all(ok[i][j] for i, j in zip(rows, cols)):
                    return k
    return best


@settings(max_examples=150, deadline=None)
@given(relations, relations, st.sampled_from(["exact", "overlap"]))
def test_matching_is_maximum_and_symmetric(a, b, rule):
    n = len(MR.max_matching(a, b, rule))
    assert n == brute_force_matches(a, b, rule)
    f = MR.relation_f1(a, b, rule)
    g = MR.relation_f1(b, a, rule)
    assert (math.isnan(f) and math.isnan(g)) or f == pytest.approx(g)
    pairs = MR.max_matching(a, b, rule)
    assert len({i for i, _ in pairs}) == len({j for _, j in pairs}) == len(pairs)


@settings(max_examples=100, deadline=None)
@given(relations, relations, st.randoms(use_true_random=False))
def test_f1_does_not_depend_on_the_order_of_relations(a, b, rnd):
    a2, b2 = list(a), list(b)
    rnd.shuffle(a2)
    rnd.shuffle(b2)
    for rule in ("exact", "overlap"):
        f, g = MR.relation_f1(a, b, rule), MR.relation_f1(a2, b2, rule)
        assert (math.isnan(f) and math.isnan(g)) or f == g


@settings(max_examples=100, deadline=None)
@given(relations.filter(bool))
def test_perfect_agreement_is_one_and_exact_never_exceeds_overlap(a):
    assert MR.relation_f1(a, a, "exact") == 1.0
    assert MR.relation_f1(a, a, "overlap") == 1.0


@settings(max_examples=100, deadline=None)
@given(relations, relations)
def test_exact_f1_at_most_overlap_f1_and_reversal_breaks_matches(a, b):
    e, o = MR.relation_f1(a, b, "exact"), MR.relation_f1(a, b, "overlap")
    if not math.isnan(e):
        assert e <= o + 1e-12
    reversed_a = [(lab, t, s) for lab, s, t in a if s != t]
    if reversed_a and all(not MR.fragments_overlap(s, t) for _, s, t in a):
        # relations are directed: no relation matches its own reversal
        assert MR.relation_f1(reversed_a, [(lab, s, t) for lab, t, s in reversed_a]) == 0.0


def test_label_kappa_equals_scikit_learn():
    sklearn = pytest.importorskip("sklearn.metrics")
    from iaa_desktop.core.kinds.spans.relation_figures import label_kappa

    x = [("R", ((i, i + 1),), ((i + 2, i + 3),)) for i in range(0, 40, 4)]
    labels_a = list("PPQQRPQRRP")
    labels_b = list("PQQQRPPRRQ")
    rels = [
        [[(la, s, t) for la, (_, s, t) in zip(labels_a, x)]],
        [[(lb, s, t) for lb, (_, s, t) in zip(labels_b, x)]],
    ]
    rows, mean, _fleiss, n = label_kappa(rels, ("a", "b"))
    expected = sklearn.cohen_kappa_score(labels_a, labels_b)
    assert rows[0]["cohen_kappa"] == pytest.approx(expected) and mean == pytest.approx(expected)
    assert n == 10


def test_every_relation_figure_has_a_catalogue_entry(results):
    from iaa_desktop.core.metrics import catalogue

    missing: set[str] = set()

    def walk(data, path):
        if isinstance(data, dict):
            for k, v in data.items():
                walk(v, (*path, str(k)))
        elif isinstance(data, list):
            for v in data:
                walk(v, path)
        elif isinstance(data, (int, float)) and not isinstance(data, bool):
            if not any(catalogue.known(k) for k in reversed(path)):
                missing.add(".".join(path))

    walk(results["brat"].to_json()["relations"], ("relations",))
    assert not missing, sorted(missing)
    assert catalogue.find("relation_exact_f1").help.summary


def test_report_section_and_methods_state_both_matching_rules(results):
    from iaa_desktop.core.kinds.spans import relation_report
    from iaa_desktop.core.kinds.spans.report import methods

    r = results["brat"]
    paragraphs, refs = methods(r)
    text = paragraphs[-1]
    assert "identical offsets" in text and "at least one character" in text
    assert "uzuner2011" in refs
    sec = relation_report.section(r.relations)
    assert sec.anchor == "relations" and "argument boundary differs" in sec.html
    assert relation_report.methods(None) == ([], [])


# --------------------------------------------------------------------------- adjudication


def test_relation_units_decided_and_gold_loads_back_with_relation_f1_one(tmp_path):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for

    r = run(INPUTS["brat"])
    model = units_for(r)
    rel = [i for i, k in enumerate(model.keys) if "|rel|" in k]
    # Employer, Located both ways, Bob → Carol, Alice → Rome and → "Rome.", → works, → Bob
    assert len(rel) == 8
    by_title = {model.titles[i].split(" — ")[0].split(" relation ")[1]: i for i in rel}
    bob_carol = by_title["‘\u2068Bob\u2069’ → ‘\u2068Carol\u2069’"]
    assert list(model.versions[bob_carol]) == ["Meets", "Knows"]
    assert model.titles[bob_carol].endswith("— label")
    choices = {c.choice: c for c in model.choices(bob_carol)}
    assert {"label:Knows", "label:Meets", "drop"} <= set(choices)
    assert "Bob" in model.describe_html(bob_carol) and "Knows" in model.describe_html(bob_carol)
    gold = auto_merge(model, Strategy("annotator", annotator="B"))
    gold[bob_carol] = choices["label:Meets"].value
    assert model.parse_value("Meets; Knows", bob_carol) == "Knows;Meets"
    files = model.write_gold(gold, tmp_path)
    ann = next(f for f in files if f.suffix == ".ann")
    back = read_brat(ann)
    assert back.errors == []
    assert ("Meets", "Bob", "Carol") in {
        (
            x.label,
            back.text[x.source[0][0] : x.source[0][1]],
            back.text[x.target[0][0] : x.target[0][1]],
        )
        for x in back.relations
    }
    # the gold, compared with itself read back as an annotator, agrees perfectly on relations
    shutil.copytree(tmp_path / "gold", tmp_path / "again")
    again = run([tmp_path / "gold", tmp_path / "again"])
    assert again.to_json()["relations"]["overall"]["exact_f1"]["value"] == 1.0
    # and with B it differs by the relabelled link only (B's 6 relations, one relabelled)
    with_b = run([tmp_path / "gold", REL / "brat" / "B"])
    assert with_b.to_json()["relations"]["overall"]["exact_f1"]["value"] == pytest.approx(10 / 12)


def test_gold_relation_whose_argument_span_was_dropped_adds_the_span(tmp_path):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for

    r = run(INPUTS["brat"])
    model = units_for(r)
    gold = auto_merge(model, Strategy("annotator", annotator="A"))
    # keep the spans undecided (no gold span) but B's link Alice → works
    for i, k in enumerate(model.keys):
        if "|rel|" not in k:
            gold[i] = None
        elif "6-11" in k:
            gold[i] = "Does"
    ann = next(f for f in model.write_gold(gold, tmp_path) if f.suffix == ".ann")
    back = read_brat(ann)
    assert back.errors == []
    assert ("MISC", "works") in {(s.label, back.text[s.start : s.end]) for s in back.spans}
    assert "Does" in {x.label for x in back.relations}


def test_label_studio_gold_with_relations_round_trips(tmp_path):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for

    r = run(INPUTS["label-studio"])
    model = units_for(r)
    gold = auto_merge(model, Strategy("annotator", annotator="A"))
    (path,) = model.write_gold(gold, tmp_path)
    assert path.suffix == ".json"
    # the gold read back beside annotator A's own export: relation F1 = 1
    back = run([path, REL / "label_studio" / "export.json"])
    pairs = {(p["a"], p["b"]): p for p in back.to_json()["relations"]["pairs"]}
    gold_a = pairs.get(("gold", "A")) or pairs[("A", "gold")]
    assert gold_a["exact_f1"] == 1.0 and gold_a["n_a"] == gold_a["n_b"] == 4


def test_tsv_relations_between_spans_of_another_layer_are_not_compared(tmp_path):
    from iaa_desktop.core.kinds.spans.options import SpansOptions
    from iaa_desktop.core.kinds.spans.tools import read_tsv3

    pos_layer = "de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS"
    dep_layer = "de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency"
    src = (REL / "tsv" / "A" / "doc1.tsv").read_text(encoding="utf-8")
    # a dependency layer over part-of-speech spans: works → Alice (nsubj), not compared
    src = src.replace(
        "#T_RL=",
        f"#T_SP={pos_layer}|PosValue\n#T_RL={dep_layer}|DependencyType|BT_{pos_layer}\n#T_RL=",
        1,
    )
    out = []
    for line in src.split("\n"):
        cells = line.split("\t")
        if len(cells) == 6 and cells[0].startswith("1-"):
            pos = {"1-1": "NOUN", "1-2": "VERB"}.get(cells[0], "_")
            dep, gov = ("nsubj", "1-1") if cells[0] == "1-2" else ("_", "_")
            cells = [*cells[:4], pos, dep, gov, *cells[4:]]
        out.append("\t".join(cells))
    (tmp_path / "doc1.tsv").write_text("\n".join(out), encoding="utf-8")
    errors: list = []
    doc = read_tsv3(tmp_path / "doc1.tsv", SpansOptions(), errors)
    assert doc.errors == [] and errors == []
    assert sorted(r.label for r in doc.relations) == ["Based", "Employer", "Located", "Meets"]


def _xmi_annotator(folder: Path, doc, relation_layer: str) -> None:
    """``doc`` (a brat document read back) as INCEpTION writes a custom relation layer in UIMA
    CAS XMI: a relation annotation with ``Governor`` and ``Dependent`` spans and a label feature
    (the INCEpTION user guide, "Relation layers"), ``TypeSystem.xml`` beside."""
    cassis = pytest.importorskip("cassis")
    ner = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
    ts = cassis.TypeSystem()
    ne = ts.create_type(ner, supertypeName="uima.tcas.Annotation")
    ts.create_feature(ne, "value", "uima.cas.String")
    rel = ts.create_type(relation_layer, supertypeName="uima.tcas.Annotation")
    ts.create_feature(rel, "Governor", ner)
    ts.create_feature(rel, "Dependent", ner)
    ts.create_feature(rel, "label", "uima.cas.String")
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = doc.text
    NE, REL_T = ts.get_type(ner), ts.get_type(relation_layer)
    made = {}
    for s in doc.spans:
        made[s.fragments] = NE(begin=s.start, end=s.end, value=s.label)
        cas.add(made[s.fragments])
    for r in doc.relations:
        gov, dep = made[r.source], made[r.target]
        cas.add(REL_T(begin=dep.begin, end=dep.end, Governor=gov, Dependent=dep, label=r.label))
    folder.mkdir()
    cas.to_xmi(str(folder / "doc1.xmi"))
    ts.to_xml(str(folder / "TypeSystem.xml"))


def test_xmi_relation_layers_give_the_same_figures(results, tmp_path):
    for who in ("A", "B"):
        doc = read_brat(REL / "brat" / who / "doc1.ann")
        _xmi_annotator(tmp_path / who, doc, "webanno.custom.Relation")
    r = run([tmp_path / "A", tmp_path / "B"])
    assert r.to_json()["relations"] == results["brat"].to_json()["relations"]


def test_tsv_gold_with_relations_round_trips(tmp_path):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for

    r = run(INPUTS["webanno-tsv3"])
    model = units_for(r)
    gold = auto_merge(model, Strategy("annotator", annotator="B"))
    files = model.write_gold(gold, tmp_path)
    assert [f.suffix for f in files] == [".tsv"]
    # B's spans include the two-token "Rome." (an id) and stacked relations on one row
    back = run([tmp_path / "gold", REL / "tsv" / "B"])
    assert not [e for e in back.errors if "gold" in str(e.path)]
    (pair,) = back.to_json()["relations"]["pairs"]
    assert pair["exact_f1"] == 1.0 and pair["n_a"] == pair["n_b"] == 6


def test_xmi_gold_with_relations_round_trips(tmp_path):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for

    for who in ("A", "B"):
        doc = read_brat(REL / "brat" / who / "doc1.ann")
        _xmi_annotator(tmp_path / who, doc, "webanno.custom.Relation")
    r = run([tmp_path / "A", tmp_path / "B"])
    model = units_for(r)
    gold = auto_merge(model, Strategy("annotator", annotator="B"))
    files = model.write_gold(gold, tmp_path / "out")
    assert [f.suffix for f in files] == [".zip"]
    # the gold read back (its relation layer kept, B's links replaced by the decided ones)
    # beside annotator B: relation F1 = 1 on B's 6 relations
    shutil.unpack_archive(files[0], tmp_path / "gold")
    back = run([tmp_path / "gold", tmp_path / "B"])
    assert not [e for e in back.errors if "gold" in str(e.path)]
    (pair,) = back.to_json()["relations"]["pairs"]
    assert pair["exact_f1"] == 1.0 and pair["n_a"] == pair["n_b"] == 6


def test_xmi_gold_relations_in_a_new_relation_layer_when_the_source_has_none(tmp_path):
    """A source CAS without a relation layer: the gold adds INCEpTION's custom relation layer
    (``Governor``, ``Dependent``, ``label``) to the type system, and the reader reads it."""
    cassis = pytest.importorskip("cassis")
    from iaa_desktop.core.kinds.spans.relations import Relation
    from iaa_desktop.core.kinds.spans.tool_writers import write_xmi

    doc = read_brat(REL / "brat" / "A" / "doc1.ann")

    class Corpus:
        names = ["doc1"]
        texts = [doc.text]

    spans = {0: list(doc.spans)}
    rels = {0: [Relation(r.label, r.source, r.target) for r in doc.relations]}
    (path,) = write_xmi(Corpus(), spans, tmp_path, {}, relations=rels)
    shutil.unpack_archive(path, tmp_path / "gold")
    ts = cassis.load_typesystem((tmp_path / "gold" / "TypeSystem.xml").read_text(encoding="utf-8"))
    names = {t.name for t in ts.get_types()}
    assert "webanno.custom.Relation" in names
    back = run([tmp_path / "gold", REL / "brat" / "A"])
    (pair,) = back.to_json()["relations"]["pairs"]
    assert pair["exact_f1"] == 1.0 and pair["n_a"] == pair["n_b"] == 4


@pytest.mark.parametrize("fmt", ["doccano", "prodigy"])
def test_jsonl_gold_with_relations_round_trips(tmp_path, fmt):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for

    r = run(INPUTS[fmt])
    model = units_for(r)
    gold = auto_merge(model, Strategy("annotator", annotator="B"))
    (path,) = model.write_gold(gold, tmp_path)
    assert path.suffix == ".jsonl"
    # the gold (annotator "gold") read back beside B: relation F1 = 1 on B's 6 relations
    b_only = tmp_path / "B.jsonl"
    if fmt == "doccano":
        shutil.copy(INPUTS[fmt][1], b_only)
    else:
        lines = INPUTS[fmt][0].read_text(encoding="utf-8").splitlines()
        b_only.write_text(next(x for x in lines if "rel_news-B" in x) + "\n", encoding="utf-8")
    back = run([path, b_only])
    assert not [e for e in back.errors if Path(str(e.path)) == path]
    (pair,) = back.to_json()["relations"]["pairs"]
    assert pair["exact_f1"] == 1.0 and pair["n_a"] == pair["n_b"] == 6


def test_relation_layer_and_feature_settings(results, tmp_path):
    """The relation layer and its label feature chosen by name (full or short); a layer or a
    feature that is not there is a problem naming what is, never a silent zero."""
    for who in ("A", "B"):
        doc = read_brat(REL / "brat" / who / "doc1.ann")
        _xmi_annotator(tmp_path / who, doc, "webanno.custom.Relation")
    inputs = [tmp_path / "A", tmp_path / "B"]
    expected = results["brat"].to_json()["relations"]
    for layer, feature in (("Relation", "label"), ("webanno.custom.Relation", ""), ("", "label")):
        r = run(inputs, relation_layer=layer, relation_feature=feature)
        assert r.to_json()["relations"] == expected, (layer, feature)
    other = run(inputs, relation_layer="Dependency")
    assert other.relations is None or not other.to_json()["relations"]["pairs"][0]["n_a"]
    problems = [str(e) for e in other.errors if "relation layer" in str(e)]
    assert len(problems) == 2 and "webanno.custom.Relation" in problems[0]
    no_feature = run(inputs, relation_feature="role")
    problems = [str(e) for e in no_feature.errors if "no feature role" in str(e)]
    assert len(problems) == 2 and "(its features: label)" in problems[0]
