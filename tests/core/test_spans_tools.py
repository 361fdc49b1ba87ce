"""Spans from annotation tools' exports: the same annotations give the same figures in every format
(WebAnno TSV 3.3, INCEpTION project export, Label Studio JSON, doccano JSONL, Prodigy JSONL, against
the span table), the kind is chosen by content, and gold written in each format loads back.

The files under ``fixtures/spans/tools`` were written from each format's documentation (the
INCEpTION user guide's "WebAnno TSV 3.3 File format" and project export, Label Studio's "Label
Studio JSON format of annotated tasks", doccano's sequence-labeling export, Prodigy's ``db-out``
tasks of ``ner_manual``); they hold the annotations of ``table/spans.tsv``, with an emoji before
some spans (UTF-16 offsets in TSV, XMI and Label Studio), stacked spans and a label with a reserved
TSV character.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from iaa_desktop.core.kinds import detect_kind, get_kind
from iaa_desktop.core.progress import run_to_end
from tests.conftest import FIXTURES

TOOLS = FIXTURES / "spans" / "tools"
FORMATS = FIXTURES / "formats"

INPUTS = {
    "webanno-tsv3": [TOOLS / "webanno" / "A", TOOLS / "webanno" / "B"],
    "webanno-project": [TOOLS / "webanno"],
    "inception-zip": [TOOLS / "inception" / "project.zip"],
    "label-studio": [TOOLS / "label_studio" / "export.json"],
    "doccano": [TOOLS / "doccano" / "A.jsonl", TOOLS / "doccano" / "B.jsonl"],
    "doccano-folder": [TOOLS / "doccano"],
    "prodigy": [TOOLS / "prodigy" / "ner.jsonl"],
}


def run(inputs, **opts):
    opts.setdefault("n_resamples", 200)
    return run_to_end(get_kind("spans").run([Path(p) for p in inputs], opts))


@pytest.fixture(scope="module")
def reference():
    return run([TOOLS / "table" / "spans.tsv"])


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
        return (a is None or math.isnan(a)) and (b is None or math.isnan(b))
    return a == pytest.approx(b)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_same_figures_as_the_span_table(name, reference):
    r = run(INPUTS[name])
    assert r.errors == []
    assert len(r.annotators) == 2 and len(r.corpus.names) == 2
    assert r.corpus.texts == reference.corpus.texts
    assert r.labels == reference.labels == ("LOC", "LOC_city", "MISC", "OBJ", "ORG", "PER")
    assert r.corpus.n_spans == reference.corpus.n_spans == 18
    for key, fig in reference.overall.items():
        for q in ("value", "ci_low", "ci_high"):
            assert _same(r.overall[key][q], fig[q]), (key, q)
    for frame in ("labels", "pairs", "confusion", "pair_disagreements"):
        # annotator names differ by format (Label Studio's user ids): compare the numbers
        ours = r.frames[frame].select_dtypes("number").to_numpy()
        theirs = reference.frames[frame].select_dtypes("number").to_numpy()
        assert ours.shape == theirs.shape and ours.size, frame
        assert ours == pytest.approx(theirs, nan_ok=True), frame


@pytest.mark.parametrize(
    ("inputs", "kind"),
    [
        (INPUTS["webanno-tsv3"], "spans"),
        (INPUTS["webanno-project"], "spans"),
        (INPUTS["inception-zip"], "spans"),
        (INPUTS["label-studio"], "spans"),
        (INPUTS["doccano-folder"], "spans"),
        (INPUTS["prodigy"], "spans"),
        ([FORMATS / "label_studio" / "ner.json"], "spans"),
        ([FORMATS / "doccano" / "ner"], "spans"),
        ([FORMATS / "prodigy" / "ner.jsonl"], "spans"),
        # choices of the same tools are judgments of items: a table study
        ([FORMATS / "label_studio" / "sentiment.json"], "table"),
        ([FORMATS / "doccano" / "alice.jsonl", FORMATS / "doccano" / "bob.jsonl"], "table"),
        ([FORMATS / "prodigy" / "sentiment.jsonl"], "table"),
        # chain layers are coreference
        ([FORMATS / "webanno" / "alice.tsv", FORMATS / "webanno" / "bob.tsv"], "coref"),
        ([FORMATS / "inception" / "project.zip"], "coref"),
    ],
)
def test_kind_chosen_by_content(inputs, kind):
    assert detect_kind(inputs) == kind


def test_tsv_layer_and_feature_settings(tmp_path):
    r = run(INPUTS["webanno-tsv3"], feature="identifier")
    assert r.labels == ("*",)  # every identifier is '*': annotations without a value
    r = run(INPUTS["webanno-tsv3"], layer="NamedEntity", feature="value")
    assert r.corpus.n_spans == 18
    with pytest.raises(Exception, match="two or more annotators") as e:
        run(INPUTS["webanno-tsv3"], layer="webanno.custom.Event")
    assert "doc1.tsv, line 1: no span layer webanno.custom.Event" in str(e.value)
    assert "NamedEntity" in str(e.value)
    with pytest.raises(Exception, match="has no feature lemma"):
        run(INPUTS["webanno-tsv3"], feature="lemma")


def test_inception_layer_missing_is_named(tmp_path):
    # every annotator reads empty of that layer: each is named, with the layers that have spans
    with pytest.raises(Exception, match="Spans need two or more annotators") as e:
        run(INPUTS["inception-zip"], layer="POS")
    assert "no annotation of the layer POS" in str(e.value)


def test_label_studio_annotation_without_spans_is_a_document_without_spans(tmp_path):
    data = json.loads((TOOLS / "label_studio" / "export.json").read_text(encoding="utf-8"))
    data[1]["annotations"][1]["result"] = []
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    r = run([path])
    assert r.corpus.has.all()
    assert (r.corpus.doc == 1).sum() == 5  # the other annotator's spans only


def test_tool_export_without_spans_says_so():
    with pytest.raises(Exception, match="no span annotation"):
        run([FORMATS / "prodigy" / "sentiment.jsonl"])


# -- gold -----------------------------------------------------------------------------------------


def _gold_round_trip(inputs, tmp_path, gold_inputs, strategy="A"):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for

    r = run(inputs)
    model = units_for(r)
    who = next(a for a in r.annotators if a.endswith(strategy) or a == "1")
    gold = auto_merge(model, Strategy("annotator", annotator=who))
    files = model.write_gold(gold, tmp_path)
    assert files and all(f.is_relative_to(tmp_path) for f in files)
    back = run(inputs + gold_inputs(tmp_path / "gold"))
    assert "gold" in back.annotators
    assert back.errors == []
    pairs = back.frames["pairs"].set_index(["a", "b"])
    row = pairs.loc[(who, "gold")] if (who, "gold") in pairs.index else pairs.loc[("gold", who)]
    assert row["exact_f1"] == pytest.approx(1.0)
    assert row["char_cohen_kappa"] == pytest.approx(1.0)
    return model, files


@pytest.mark.parametrize(
    ("name", "gold_inputs", "suffixes"),
    [
        ("webanno-tsv3", lambda g: [g], {".tsv"}),
        ("inception-zip", lambda g: [g], {".zip"}),
        ("label-studio", lambda g: [g / "gold.json"], {".json"}),
        ("doccano", lambda g: [g / "gold.jsonl"], {".jsonl"}),
        ("prodigy", lambda g: [g / "gold.jsonl"], {".jsonl"}),
    ],
)
def test_gold_in_the_inputs_format_loads_back_with_full_agreement(
    name, gold_inputs, suffixes, tmp_path
):
    model, files = _gold_round_trip(INPUTS[name], tmp_path, gold_inputs)
    assert model.fmt == name
    assert {f.suffix for f in files} == suffixes


def test_tsv_gold_keeps_the_tokens_and_cuts_tokens_into_sub_tokens(tmp_path):
    from iaa_desktop.core.adjudication import Strategy, auto_merge, units_for
    from iaa_desktop.core.formats import webanno_tsv

    r = run(INPUTS["webanno-tsv3"])
    model = units_for(r)
    gold = auto_merge(model, Strategy("annotator", annotator="A"))
    i = next(k for k, t in enumerate(model.titles) if t.startswith("doc2") and "Ada" in t)
    gold[i] = model.parse_value("PER 1 3; PER_x 4 8", i)  # "da" and "Love": inside tokens
    files = model.write_gold(gold, tmp_path)
    text = next(f for f in files if f.name == "doc2.tsv").read_text(encoding="utf-8")
    assert "1-1.1\t1-3\tda\tPER\n" in text
    assert "1-2.1\t4-8\tLove\tPER\\_x\n" in text
    source = (TOOLS / "webanno" / "A" / "doc2.tsv").read_text(encoding="utf-8")
    assert [ln.split("\t")[:3] for ln in source.splitlines() if ln[:1].isdigit()] == [
        ln.split("\t")[:3] for ln in text.splitlines() if ln[:1].isdigit() and "." not in ln[:5]
    ]
    doc = webanno_tsv.parse(tmp_path / "gold" / "doc2.tsv").documents[0]
    assert {(s.start, s.end, s.feature("value")) for s in doc.spans} >= {
        (1, 3, "PER"),
        (4, 8, "PER_x"),
        (17, 18, "OBJ"),
    }
