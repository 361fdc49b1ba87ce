"""Small seed inputs of every kind, written from the formats' documentation (not copied data).

:func:`write_seeds` writes, for one kind, a folder of valid inputs and returns the command-line
arguments that open them; the fuzzer mutates copies of these files. Texts mix scripts on
purpose (Hebrew, Arabic, combining marks, emoji), as real inputs do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

HEB = "בְּרֵאשִׁית בָּרָא אֱלֹהִים"
ARA = "في البدء خلق الله"


def _w(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _tsv(rows: list[list[object]]) -> str:
    return "".join("\t".join(str(c) for c in r) + "\n" for r in rows)


def _csv(rows: list[list[object]]) -> str:
    return "".join(",".join(str(c) for c in r) + "\n" for r in rows)


def table(d: Path) -> list[str]:
    """A long CSV, a wide TSV and a small workbook (the table kind reads all three)."""
    long = [["item", "annotator", "label"]]
    for i in range(1, 9):
        for a, shift in (("ann1", 0), ("ann2", i % 3 == 0), ("ann3", i % 4 == 0)):
            long.append([f"i{i}", a, ["pos", "neg", "neu"][(i + int(shift)) % 3]])
    _w(d / "long.csv", _csv(long))
    wide = [["item", "A", "B", "C"]] + [
        [f"w{i}", i % 4 + 1, (i + (i % 3 == 0)) % 4 + 1, i % 4 + 1] for i in range(10)
    ]
    _w(d / "wide.tsv", _tsv(wide))
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    for r in wide:
        ws.append(r)
    wb.save(d / "wide.xlsx")
    return ["--kind", "table", "--interval", "none", str(d / "long.csv")]


def table_wide(d: Path) -> list[str]:
    table(d)
    return ["--kind", "table", "--interval", "none", "--level", "ordinal", str(d / "wide.tsv")]


def table_xlsx(d: Path) -> list[str]:
    table(d)
    return ["--kind", "table", "--interval", "none", str(d / "wide.xlsx")]


def _brat(folder: Path, name: str, text: str, mentions: list[tuple[int, int]], chains) -> None:
    lines = [f"T{k}\tMention {s} {e}\t{text[s:e]}" for k, (s, e) in enumerate(mentions, 1)]
    lines += ["*\tCoreference " + " ".join(f"T{m}" for m in c) for c in chains]
    lines.append("#1\tAnnotatorNotes T1\tnote")
    _w(folder / f"{name}.txt", text)
    _w(folder / f"{name}.ann", "\n".join(lines) + "\n")


def coref(d: Path) -> list[str]:
    """Two annotators' brat folders (two documents each)."""
    t1 = f"David came. He sang {HEB} and he left. 🎵 Ruth stayed; she wept."
    t2 = f"{ARA} — Naomi spoke; she and Ruth went. Café au lait, naïve e\u0301."
    m1 = [(0, 5), (12, 14), (44, 46), (60, 64), (73, 76)]
    m2 = [
        (len(ARA) + 3, len(ARA) + 8),
        (len(ARA) + 16, len(ARA) + 19),
        (len(ARA) + 28, len(ARA) + 32),
    ]
    _brat(d / "A", "doc1", t1, m1, [[1, 2, 3], [4, 5]])
    _brat(d / "A", "doc2", t2, m2, [[1, 2]])
    _brat(d / "B", "doc1", t1, m1, [[1, 2], [3, 4, 5]])
    _brat(d / "B", "doc2", t2, m2, [[1, 2, 3]])
    return ["--kind", "coref", str(d / "A"), str(d / "B")]


def conll(d: Path) -> list[str]:
    """CoNLL-2012 key and response files of one document."""
    words = ["David", "came", ".", "He", "sang", "and", "he", "left", "."]

    def doc(tags: list[str]) -> str:
        rows = ["#begin document (psalm); part 000"]
        rows += [f"psalm\t0\t{k}\t{w}\t{t}" for k, (w, t) in enumerate(zip(words, tags))]
        rows.append("#end document")
        return "\n".join(rows) + "\n"

    key = ["(1)", "-", "-", "(1)", "-", "-", "(1)", "-", "-"]
    resp = ["(1)", "-", "-", "(2)", "-", "-", "(2)", "-", "-"]
    _w(d / "key.conll", doc(key))
    _w(d / "response.conll", doc(resp))
    return ["--kind", "coref", str(d / "key.conll"), str(d / "response.conll")]


def mentions(d: Path) -> list[str]:
    """Mention tables (CorefAnnotator-like), two documents per file."""
    rows_a = [["document", "begin", "end", "entityNum", "surface"]]
    rows_b = [["document", "begin", "end", "entityNum", "surface"]]
    for doc in ("d1", "d2"):
        for k in range(6):
            rows_a.append([doc, 10 * k, 10 * k + 4, k % 2 + 1, f"m{k}"])
            rows_b.append([doc, 10 * k, 10 * k + 4, k % 3 + 1, f"m{k}"])
    _w(d / "a.csv", _csv(rows_a))
    _w(d / "b.csv", _csv(rows_b))
    return ["--kind", "coref", "--doc-column", "document", str(d / "a.csv"), str(d / "b.csv")]


def durel(d: Path) -> list[str]:
    """A DURel export: two target folders with judgments.tsv and uses.tsv."""
    for target, words in (
        ("(Love 1 1)", "love is patient"),
        ("(Ps 23 1)", "the lord is my shepherd"),
    ):
        uses = [["lemma", "identifier", "context", "indexes_target_token"]]
        ctx = [
            f"🙏 {words}, so it was said",
            f"{HEB} {words} today",
            f"they say {words} — {ARA}",
            f"{words}",
        ]
        for k, c in enumerate(ctx, 1):
            s = c.index(words)
            uses.append([words.replace(" ", "_"), f"u{k}", c, f"{s}:{s + len(words)}"])
        _w(d / target / "uses.tsv", _tsv(uses))
        j = [
            ["identifier1", "identifier2", "annotator", "judgment", "comment", "lemma", "timestamp"]
        ]
        pairs = [(1, 2), (1, 3), (2, 3), (2, 4), (3, 4), (1, 4)]
        for a, v in (("ann1", 0), ("ann2", 1), ("ann3", 2)):
            for k, (x, y) in enumerate(pairs):
                judg = ["1.0", "2.0", "3.0", "4.0", "0.0"][(k + v) % 5]
                j.append([f"u{x}", f"u{y}", a, judg, "", "X", ""])
        _w(d / target / "judgments.tsv", _tsv(j))
    return ["--kind", "durel", str(d)]


def phitag(d: Path) -> list[str]:
    """A PhiTag export: instances, judgments and uses."""
    _w(
        d / "uses.tsv",
        _tsv(
            [["dataID", "context", "indices_target_token", "lemma"]]
            + [[f"u{k}", f"the word here {k} {HEB}", "4:8", "word"] for k in range(1, 5)]
        ),
    )
    inst = [["instanceID", "dataIDs", "label_set", "non_label"]]
    pairs = [(1, 2), (1, 3), (2, 4), (3, 4)]
    inst += [[f"{k}_w", f"u{x},u{y}", "1,2,3,4", "-"] for k, (x, y) in enumerate(pairs)]
    _w(d / "instances.tsv", _tsv(inst))
    j = [["instanceID", "label", "comment", "annotator"]]
    for a, v in (("a1", 0), ("a2", 1)):
        j += [[f"{k}_w", ["1.0", "2.0", "4.0", "-"][(k + v) % 4], "", a] for k in range(4)]
    _w(d / "judgments.tsv", _tsv(j))
    return ["--kind", "durel", str(d)]


def candidates(d: Path) -> list[str]:
    """A pairs table with Latin passages and long labels by three annotators."""
    pairs = [["pair_id", "method", "known", "target_text", "source_text"]]
    texts = [
        ("in principio creavit Deus caelum et terram", "in principio erat Verbum"),
        ("dominus pascit me et nihil mihi deerit", "ego sum pastor bonus"),
        ("sede a dextris meis donec ponam inimicos", "donec ponat omnes inimicos sub pedibus"),
        ("beati pauperes spiritu", "beati mites quoniam ipsi possidebunt terram"),
        ("lux in tenebris lucet", "fiat lux et facta est lux"),
        ("verbum caro factum est", "et Verbum erat apud Deum"),
    ]
    for k, (t, s) in enumerate(texts, 1):
        pairs.append([f"P{k}", ["sw", "cos"][k % 2], ["true", "false"][k % 3 == 0], t, s])
    _w(d / "pairs.tsv", _tsv(pairs))
    labels = [["pair_id", "annotator", "label"]]
    for k in range(1, 7):
        for a, v in (("A1", 0), ("A2", k % 2), ("A3", k % 3 == 0)):
            labels.append([f"P{k}", a, int((k + int(v)) % 2)])
    _w(d / "labels.tsv", _tsv(labels))
    return ["--kind", "candidates", "--bayes-draws", "200", str(d)]


def normalization(d: Path) -> list[str]:
    """Three annotators' token files (historical form, normalization, modernization)."""
    toks = [
        ("gewain", ["geweint", "weinte", "geweint"]),
        ("ſpricht", ["spricht", "spricht", "spricht"]),
        ("vnd", ["und", "und", "und"]),
        ("-ere", ["-ere", "ere", "-ere"]),
        ("für", ["für", "für", "vür"]),
        ("ꝰ", ["us", "us", "us"]),
        (".", [".", ".", "."]),
        ("e\u0301r", ["er", "ér", "er"]),
    ]
    for x, name in enumerate(("anna", "jonas", "mira")):
        rows = [["text_id", "token_id", "orig", "norm", "mod", "mod_type"]]
        for k, (orig, norms) in enumerate(toks, 1):
            mod, typ = ("wein", "SEM") if k == 1 and x != 1 else ("", "")
            rows.append(["T1", k, orig, norms[x], mod, typ])
        _w(d / f"annotator_{name}.tsv", _tsv(rows))
    return ["--kind", "normalization", str(d)]


def multilabel(d: Path) -> list[str]:
    """Long label sets of three annotators and a texts table."""
    labs = ["Complication", "Resolution", "Success"]
    rows = [["item", "annotator", "labels"]]
    for i in range(1, 9):
        for a, v in (("A1", 0), ("A2", i % 2), ("A3", i % 3)):
            chosen = [lab for j, lab in enumerate(labs) if (i + v + j) % 3 != 0]
            rows.append([f"T{i:02d}", a, ";".join(chosen)])
    _w(d / "annotations.tsv", _tsv(rows))
    _w(
        d / "sentences.tsv",
        _tsv([["item", "text"]] + [[f"T{i:02d}", f"{HEB} {i} 🎉"] for i in range(1, 9)]),
    )
    return ["--kind", "multilabel", str(d / "annotations.tsv"), str(d / "sentences.tsv")]


def multilabel_wide(d: Path) -> list[str]:
    rows = [["item", "annotator", "Complication", "Resolution", "Success", "Other"]]
    for i in range(1, 9):
        for a, v in (("A1", 0), ("A2", i % 2)):
            rows.append([f"T{i}", a] + [int((i + v + j) % 3 == 0) for j in range(4)])
    _w(d / "wide.csv", _csv(rows))
    return ["--kind", "multilabel", str(d / "wide.csv")]


def study(d: Path) -> list[str]:
    """A study file beside its data (a table study)."""
    table(d)
    _w(
        d / "s.iaa-study",
        json.dumps(
            {
                "format": "iaa-study",
                "version": 1,
                "name": "seed",
                "kind": "table",
                "inputs": ["long.csv"],
                "options": {"interval": "none", "level": "nominal"},
            },
            indent=2,
        ),
    )
    return [str(d / "s.iaa-study")]


#: options a study file may carry that no user would give (each refused with a message)
HOSTILE_OPTIONS: list[dict[str, object]] = [
    {"seed": -1},
    {"n_resamples": 10**9, "interval": "bootstrap"},
    {"scale": "1,\u0000"},
    {"seed": "abc"},
    {"interval": "bootstrap", "n_resamples": 3.5},
    {"level": "interval", "scale": "9,1"},
    {"iaa_dir": "../elsewhere"},
    {"model_cache": "/tmp"},
    {"texts": "../../etc/hostname"},
    {"item": "\u202eitem"},
    {"group_by": "item"},
    {"group_by": "label", "metadata": "annotator"},
    {"seed": 1e308},
    {"seed": float("inf")},
    {"n_resamples": float("nan"), "interval": "bootstrap"},
    {"interval": ["bootstrap"]},
    {"level": None},
    {"metadata": {"a": [1, 2]}},
    {"annotator_names": "A=B,B=A,C=\u0000"},
    {"scale": ",".join(str(k) for k in range(100_000))},
    {"texts": "/dev/zero"},
    {"iaa_dir": "/proc/self"},
]
#: study files changed beyond their options (each refused with a message or read as meant)
HOSTILE_STUDIES: list[dict[str, object]] = [
    {"inputs": ["long.csv\u0000.txt"]},
    {"inputs": ["long.csv"] * 5000},
    {"inputs": "long.csv"},
    {"inputs": [{"path": "long.csv"}]},
    {"inputs": ["/etc/passwd"]},
    {"inputs": ["../" * 40 + "etc/hostname"]},
    {"kind": "spans", "options": {"n_resamples": 10**9}},
    {"kind": "durel", "options": {"seed": -5}},
    {"kind": "no-such-kind"},
    {"version": 10**40},
    {"format": "iaa-study", "version": 1, "options": [1, 2]},
]


def study_hostile(d: Path) -> list[str]:
    """A study file with an option no user would give."""
    table(d)
    import zlib

    options = HOSTILE_OPTIONS[zlib.crc32(d.name.encode()) % len(HOSTILE_OPTIONS)]
    _w(
        d / "s.iaa-study",
        json.dumps(
            {
                "format": "iaa-study",
                "version": 1,
                "kind": "table",
                "inputs": ["long.csv"],
                "options": {"interval": "none", **options},
            },
            indent=2,
        ),
    )
    return [str(d / "s.iaa-study")]


def study_hostile_file(d: Path) -> list[str]:
    """A study file changed beyond its options: inputs, kind or version no user would write."""
    table(d)
    import zlib

    change = HOSTILE_STUDIES[zlib.crc32(d.name.encode()) % len(HOSTILE_STUDIES)]
    study = {
        "format": "iaa-study",
        "version": 1,
        "kind": "table",
        "inputs": ["long.csv"],
        "options": {"interval": "none"},
    }
    _w(d / "s.iaa-study", json.dumps({**study, **change}, indent=2))
    return [str(d / "s.iaa-study")]


def study_symlink_tree(d: Path) -> list[str]:
    """A study whose input folder holds a linked folder leading outside, a link to itself (a
    loop), a link to nothing and a link to a device."""
    data = d / "data"
    data.mkdir(parents=True, exist_ok=True)
    table(data)
    outside = d.parent / f"{d.name}-outside"
    outside.mkdir(exist_ok=True)
    (outside / "other.csv").write_text("item,annotator,label\n1,C,x\n2,C,y\n", encoding="utf-8")
    (data / "linked").symlink_to(outside, target_is_directory=True)
    (data / "loop").symlink_to(data, target_is_directory=True)
    (data / "dangling.csv").symlink_to(d / "nowhere.csv")
    (data / "zero.csv").symlink_to("/dev/zero")
    _w(
        d / "s.iaa-study",
        json.dumps(
            {"format": "iaa-study", "version": 1, "kind": "table", "inputs": ["data"]},
            indent=2,
        ),
    )
    return [str(d / "s.iaa-study")]


def study_symlinks(d: Path) -> list[str]:
    """A study whose input folder holds a link leading out of the study's folder."""
    data = d / "data"
    data.mkdir(parents=True, exist_ok=True)
    table(data)
    outside = d.parent / f"{d.name}-outside.csv"
    outside.write_text("item,annotator,label\n1,C,x\n2,C,y\n", encoding="utf-8")
    (data / "linked.csv").symlink_to(outside)
    _w(
        d / "s.iaa-study",
        json.dumps(
            {"format": "iaa-study", "version": 1, "kind": "table", "inputs": ["data"]},
            indent=2,
        ),
    )
    return [str(d / "s.iaa-study")]


# ------------------------------------------------------------------------------- labelled spans
# Two annotators' named entities over two documents, in each format the spans kind opens (brat
# standoff, WebAnno TSV 3.3, an INCEpTION project export, Label Studio JSON, doccano JSONL,
# Prodigy JSONL, a mention table), written from each format's documentation.
SPAN_TEXTS = {
    "doc1": f"Marie Curie worked in Paris with Pierre Curie. {HEB}.",
    "doc2": f"Ada met 😊 Charles Babbage in London. {ARA}.",
}
_SPAN_WORDS = {
    "doc1": [("Marie Curie", "PER"), ("Paris", "LOC"), ("Pierre Curie", "PER"), (HEB, "MISC")],
    "doc2": [("Ada", "PER"), ("😊", "OBJ"), ("Charles Babbage", "PER"), ("London", "LOC")],
}
_SPAN_CACHE: dict[str, bytes] = {}


def _spans(doc: str, who: str) -> list[tuple[int, int, str]]:
    """(start, end, label) in code points; annotator B relabels one span and drops another."""
    text, out = SPAN_TEXTS[doc], []
    for k, (w, lab) in enumerate(_SPAN_WORDS[doc]):
        s = text.index(w)
        if who == "B" and k == 1:
            lab = "ORG"
        if who == "B" and k == 3:
            continue
        out.append((s, s + len(w), lab))
    return out


def _u16(text: str, i: int) -> int:
    return len(text[:i].encode("utf-16-le")) // 2


def spans_brat(d: Path) -> list[str]:
    """brat standoff folders: entities, a discontinuous span, a relation, a note."""
    for who in ("A", "B"):
        for doc, text in SPAN_TEXTS.items():
            rows = [
                f"T{k}\t{lab} {s} {e}\t{text[s:e]}"
                for k, (s, e, lab) in enumerate(_spans(doc, who), 1)
            ]
            rows += ["R1\tWorksWith Arg1:T1 Arg2:T3", "#1\tAnnotatorNotes T1\tnote"]
            _w(d / who / f"{doc}.txt", text)
            _w(d / who / f"{doc}.ann", "\n".join(rows) + "\n")
    return ["--kind", "spans", "--n-resamples", "20", str(d / "A"), str(d / "B")]


def _tsv3(text: str, spans: list[tuple[int, int, str]]) -> str:
    rows = [
        "#FORMAT=WebAnno TSV 3.3",
        "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value",
        "",
        "",
        f"#Text={text}",
    ]
    toks = [(m.start(), m.end()) for m in re.finditer(r"\w+|[^\w\s]", text)]
    ids: dict[tuple[int, int, str], int] = {}
    for k, (s, e) in enumerate(toks, 1):
        hit = [sp for sp in spans if sp[0] <= s and e <= sp[1]]
        if hit:
            sp = hit[0]
            multi = sum(1 for a, b in toks if sp[0] <= a and b <= sp[1]) > 1
            n = ids.setdefault(sp, len(ids) + 1)
            lab = f"{sp[2]}[{n}]" if multi else sp[2]
            ann = (f"*[{n}]" if multi else "*") + "\t" + lab
        else:
            ann = "_\t_"
        rows.append(f"1-{k}\t{_u16(text, s)}-{_u16(text, e)}\t{text[s:e]}\t{ann}")
    return "\n".join(rows) + "\n\n"


def spans_webanno(d: Path) -> list[str]:
    """WebAnno TSV 3.3 files (one sentence per document, UTF-16 offsets), a folder each."""
    for who in ("A", "B"):
        for doc, text in SPAN_TEXTS.items():
            _w(d / who / f"{doc}.tsv", _tsv3(text, _spans(doc, who)))
    return ["--kind", "spans", "--n-resamples", "20", str(d / "A"), str(d / "B")]


def _inception_zip() -> bytes:
    """An INCEpTION project export (UIMA CAS XMI per user and document), built once."""
    if "inception" in _SPAN_CACHE:
        return _SPAN_CACHE["inception"]
    import io
    import zipfile

    from cassis import Cas, TypeSystem

    ner = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
    ts = TypeSystem()
    ne = ts.create_type(ner, supertypeName="uima.tcas.Annotation")
    ts.create_feature(ne, "value", "uima.cas.String")
    ts.create_feature(ne, "identifier", "uima.cas.String")
    entity = ts.get_type(ner)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        names = [{"name": f"{d}.txt"} for d in SPAN_TEXTS]
        z.writestr("exportedproject.json", json.dumps({"name": "seed", "source_documents": names}))
        for doc, text in SPAN_TEXTS.items():
            z.writestr(f"source/{doc}.txt", text)
            for who in ("INITIAL_CAS", "A", "B"):
                cas = Cas(typesystem=ts)
                cas.sofa_string = text
                for s, e, lab in [] if who == "INITIAL_CAS" else _spans(doc, who):
                    cas.add(entity(begin=s, end=e, value=lab))
                inner = io.BytesIO()
                with zipfile.ZipFile(inner, "w") as iz:
                    iz.writestr(f"{doc}.xmi", cas.to_xmi())
                    iz.writestr("TypeSystem.xml", ts.to_xml())
                z.writestr(f"annotation/{doc}.txt/{who}.zip", inner.getvalue())
    _SPAN_CACHE["inception"] = buf.getvalue()
    return _SPAN_CACHE["inception"]


def spans_inception(d: Path) -> list[str]:
    d.mkdir(parents=True, exist_ok=True)
    (d / "project.zip").write_bytes(_inception_zip())
    return ["--kind", "spans", "--n-resamples", "20", str(d / "project.zip")]


def spans_xmi(d: Path) -> list[str]:
    """Per-document UIMA CAS XMI: annotator A's as ZIP archives (XMI and type system), B's as
    plain ``.xmi`` files beside a ``TypeSystem.xml``."""
    from tests import hostile_files as H

    for doc, text in SPAN_TEXTS.items():
        raw = H.xmi(text, _u16_spans(doc, "A"))
        _wb(d / "A" / f"{doc}.txt.zip", H.user_zip(f"{doc}.txt", [raw]))
        _wb(d / "B" / f"{doc}.txt.xmi", H.xmi(text, _u16_spans(doc, "B")))
    _wb(d / "B" / "TypeSystem.xml", H.TYPESYSTEM)
    return ["--kind", "spans", "--n-resamples", "20", str(d / "A"), str(d / "B")]


def spans_nested_export(d: Path) -> list[str]:
    """An INCEpTION project export of three users built from the XMI files (archives inside the
    export's archive), mutated inside its nested archives."""
    from tests import hostile_files as H

    users = {
        who: {
            f"{doc}.txt": H.user_zip(f"{doc}.txt", [H.xmi(text, _u16_spans(doc, who[0]))])
            for doc, text in SPAN_TEXTS.items()
        }
        for who in ("A", "B", "Bee")
    }
    d.mkdir(parents=True, exist_ok=True)
    H.inception_export(d / "project.zip", users)
    return ["--kind", "spans", "--n-resamples", "20", str(d / "project.zip")]


def _u16_spans(doc: str, who: str) -> list[tuple[int, int, str]]:
    """The spans with UTF-16 offsets, as UIMA counts them."""
    text = SPAN_TEXTS[doc]
    return [(_u16(text, s), _u16(text, e), lab) for s, e, lab in _spans(doc, who)]


def _wb(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def spans_label_studio(d: Path) -> list[str]:
    """A Label Studio JSON export: one task per document, one annotation per annotator."""
    tasks = []
    for t, (doc, text) in enumerate(SPAN_TEXTS.items(), 1):
        anns = []
        for u, who in enumerate(("A", "B"), 1):
            res = [
                {
                    "id": f"{who}{k}",
                    "from_name": "label",
                    "to_name": "text",
                    "type": "labels",
                    "value": {
                        "start": _u16(text, s),
                        "end": _u16(text, e),
                        "text": text[s:e],
                        "labels": [lab],
                    },
                }
                for k, (s, e, lab) in enumerate(_spans(doc, who))
            ]
            anns.append(
                {"id": 10 * t + u, "completed_by": u, "was_cancelled": False, "result": res}
            )
        tasks.append({"id": t, "data": {"text": text}, "annotations": anns})
    _w(d / "export.json", json.dumps(tasks, ensure_ascii=False, indent=1))
    return ["--kind", "spans", "--n-resamples", "20", str(d / "export.json")]


def spans_doccano(d: Path) -> list[str]:
    """doccano sequence-labelling JSONL, one file per annotator."""
    for who in ("A", "B"):
        rows = [
            json.dumps(
                {"id": k, "text": text, "label": [list(x) for x in _spans(doc, who)]},
                ensure_ascii=False,
            )
            for k, (doc, text) in enumerate(SPAN_TEXTS.items(), 1)
        ]
        _w(d / f"{who}.jsonl", "\n".join(rows) + "\n")
    return ["--kind", "spans", "--n-resamples", "20", str(d / "A.jsonl"), str(d / "B.jsonl")]


def spans_prodigy(d: Path) -> list[str]:
    """A Prodigy ``ner_manual`` JSONL export of two annotators' sessions."""
    rows = []
    for who in ("A", "B"):
        for k, (doc, text) in enumerate(SPAN_TEXTS.items(), 1):
            spans = [{"start": s, "end": e, "label": lab} for s, e, lab in _spans(doc, who)]
            rows.append(
                json.dumps(
                    {
                        "text": text,
                        "_input_hash": 1000 + k,
                        "_task_hash": 2000 + k,
                        "spans": spans,
                        "answer": "accept",
                        "_view_id": "ner_manual",
                        "_annotator_id": f"ner-{who}",
                        "_session_id": f"ner-{who}",
                    },
                    ensure_ascii=False,
                )
            )
    _w(d / "ner.jsonl", "\n".join(rows) + "\n")
    return ["--kind", "spans", "--n-resamples", "20", str(d / "ner.jsonl")]


def spans_table(d: Path) -> list[str]:
    """A mention table (document, start, end, label, annotator) beside the documents' texts."""
    rows = [["document", "start", "end", "label", "annotator"]]
    for doc, text in SPAN_TEXTS.items():
        _w(d / f"{doc}.txt", text)
        for who in ("A", "B"):
            rows += [[doc, s, e, lab, who] for s, e, lab in _spans(doc, who)]
    _w(d / "spans.tsv", _tsv(rows))
    return ["--kind", "spans", "--n-resamples", "20", str(d / "spans.tsv")]


#: kind of study → seed writers (each a variant of the inputs that kind opens)
SEEDS: dict[str, list[Callable[[Path], list[str]]]] = {
    "table": [table, table_wide, table_xlsx],
    "coref": [coref, conll, mentions],
    "durel": [durel, phitag],
    "candidates": [candidates],
    "normalization": [normalization],
    "multilabel": [multilabel, multilabel_wide],
    "spans": [
        spans_brat,
        spans_webanno,
        spans_inception,
        spans_label_studio,
        spans_doccano,
        spans_prodigy,
        spans_table,
        spans_xmi,
        spans_nested_export,
    ],
    "study": [study, study_hostile, study_symlinks, study_hostile_file, study_symlink_tree],
}


def write_seeds(kind: str, variant: int, folder: Path) -> list[str]:
    """Write seed ``variant`` of ``kind`` into ``folder``; the report arguments that open it."""
    writers = SEEDS[kind]
    return writers[variant % len(writers)](folder)
