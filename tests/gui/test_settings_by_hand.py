"""The Settings panel changed with real key presses and clicks, for every kind's example.

Each editor is changed the way a person changes it (combo: arrow keys and Return; spin box: select
all, type, Return; line edit: type, Tab; check box: click), so the editor's own event handler is on
the stack when the change reaches the session and the study is recomputed.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QSpinBox,
)

from iaa_desktop.core.study_file import load_study
from iaa_desktop.gui.start_page import examples_dir
from tests.gui import user


def open_example(qtbot, window, folder: str):
    path = next((examples_dir() / folder).glob("*.iaa-study"))
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        window.open_study(load_study(path), path)
    user.click_tab(qtbot, window, "Settings")
    qtbot.waitUntil(lambda: window.settings_panel.isVisible())
    return blocker.args[0]


def test_each_editor_type_survives_a_change_made_by_hand(qtbot, window):
    """The form used to be rebuilt from inside the editor's own handler (a crash in Qt)."""
    first = open_example(qtbot, window, "judgments")
    panel = window.settings_panel
    level = panel.editor("level")
    assert isinstance(level, QComboBox)
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        user.type_number(qtbot, panel.editor("n_resamples"), "500")
    assert window.session.study.options["n_resamples"] == 500
    assert panel.editor("n_resamples").hasFocus()  # the editor the user typed into is still there
    with qtbot.waitSignal(window.session.results_ready, timeout=120000) as blocker:
        user.choose(qtbot, level, "nominal")
    nominal = blocker.args[0]
    assert nominal.level == "nominal"
    alpha = "krippendorff_alpha"
    assert nominal.overall[alpha].value != pytest.approx(first.overall[alpha].value, abs=1e-6)
    with qtbot.waitSignal(window.session.results_ready, timeout=120000):
        user.type_text(qtbot, panel.editor("missing"), "3")
    assert window.session.study.options["missing"] == "3"
    assert window.session.result.n_items != first.n_items or (
        window.session.result.overall[alpha].value != nominal.overall[alpha].value
    )


# What a person types into each editor of each kind's example (a combo's entry, a number, a text;
# check boxes are clicked), and what the report's figures must do then: "changes", "same" (the
# setting names what was already recognised, or one the example's format does not use), or
# "refused" (the run stops with a message naming the problem; the old value is typed back).
EDITS: dict[str, list[tuple[str, str, str]]] = {
    "judgments": [
        ("level", "interval", "changes"),
        ("scale", "1,7", "changes"),
        ("scale", "x", "refused"),
        ("distance", "nld", "changes"),
        ("categories", "1,2,3,4,5", "same"),
        ("categories", "a,b", "refused"),
        ("missing", "3", "changes"),
        ("interval", "bayes", "changes"),
        ("n_resamples", "500", "same"),  # resamples of the bootstrap, not of the posterior
        ("seed", "7", "changes"),
        ("interval", "none", "changes"),
        ("group_by", "", "changes"),
        ("group_by", "x", "refused"),
        ("item", "item", "same"),
        ("annotator", "annotator", "same"),
        ("label", "rating", "same"),
        ("layout", "long", "same"),
        ("question", "rating", "same"),
        ("metadata", "topic", "same"),
        ("occurrence_column", "text", "changes"),  # each review's text is now a form
        ("occurrence_match", "case", "changes"),
        ("occurrence_column", "nothing", "refused"),  # no such column
        ("encoding", "utf-8", "same"),
        ("encoding", "x", "refused"),
        ("model_annotators", "Zed", "refused"),  # no such annotator
        ("model_annotators", "Cem", "changes"),  # Cem leaves the humans' figures
        ("epsilon", "0.1", "changes"),
        ("alt_test_score", "accuracy", "changes"),
        ("competence", "", "changes"),
        ("batch_column", "topic", "changes"),
        ("batch_size", "x", "refused"),  # topics are neither dates nor numbers
        ("retest", "", "changes"),
        ("occasion_column", "x", "refused"),
        ("planning", "", "changes"),
    ],
    "durel": [
        ("level", "interval", "changes"),
        ("spearman_weights", "valid", "changes"),  # can't-decide no longer weighs a pair
        ("cant_decide", "-", "changes"),  # the 0 judgment now counts as a judgment
        ("label_threshold", "1.2", "changes"),  # every filtered item is now labelled 1
        ("trac_min_spearman", "0.9", "changes"),  # both targets now fall below it
        ("filter_mean_low", "1.5", "changes"),
        ("filter_mean_high", "3.5", "changes"),
        ("filter_range", "0.5", "changes"),
        ("scale_high", "5", "same"),
        ("scale_low", "2", "changes"),  # judgments of 1 are now out of the scale
        ("max_aligned", "100", "same"),
        ("encoding", "utf-8", "same"),
        ("model_annotators", "Zed", "refused"),  # no such annotator
        ("model_annotators", "Sven", "changes"),  # Sven leaves the humans' figures
        ("epsilon", "0.1", "changes"),
        ("competence", "", "changes"),
        ("batch_column", "timestamp", "changes"),  # the export's column (empty: one batch)
        ("batch_size", "x", "refused"),  # the timestamps are neither dates nor numbers
        ("retest", "", "changes"),
        ("occasion_column", "x", "refused"),  # no such column in the judgments files
        ("planning", "", "changes"),
    ],
    "candidates": [
        ("pair_id", "pair_id", "same"),
        ("target_text", "target_text", "same"),
        ("source_text", "source_text", "same"),
        ("target_lemma", "book", "changes"),  # the lemma overlap replaces the word overlap
        ("source_lemma", "method", "changes"),
        ("factors", "method", "changes"),
        ("annotator", "annotator", "same"),
        ("label", "label", "same"),
        ("bins", "3", "changes"),
        ("bayes_draws", "1000", "changes"),
        ("seed", "3", "changes"),
        ("encoding", "x", "refused"),
        ("model_annotators", "Zed", "refused"),  # no such annotator
        ("model_annotators", "A3", "changes"),  # A3 leaves the humans' figures
        ("epsilon", "0.1", "changes"),
        ("competence", "", "changes"),
        ("batch_column", "round", "changes"),  # the example's labels carry their round
        ("batch_size", "x", "refused"),  # the rounds are numbers, 'x' no width
        ("retest", "", "changes"),  # no pair labelled twice: an empty retest[]
        ("occasion_column", "x", "refused"),  # no such column in the labels table
        ("planning", "", "changes"),
    ],
    "multilabel": [
        ("labels", "Success,Resolution,Complication", "changes"),
        ("s1", "100", "changes"),
        ("label_delimiter", ",", "changes"),  # "Resolution;Success" is now one label
        ("texts", "sentences.tsv", "same"),
        ("exploration", "bounded", "changes"),  # a small S1 and a beam search, not every one
        ("max_s1_size", "1", "changes"),  # now only partitions with one code in S1
        ("search", "", "changes"),
        ("top", "5", "changes"),
        ("encoding", "utf-8", "same"),
        ("model_annotators", "Zed", "refused"),  # no such annotator
        ("model_annotators", "A3", "changes"),  # A3 leaves the humans' figures
        ("epsilon", "0.1", "changes"),
        ("competence", "", "changes"),
        ("batch_column", "x", "refused"),  # the example's file has no such column
        ("batch_size", "x", "same"),  # no batch column: nothing binned
        ("retest", "", "changes"),  # retest[] (empty: nobody labelled an item twice)
        ("occasion_column", "x", "refused"),  # no such column in the annotation file
        ("planning", "", "changes"),
    ],
    "normalization": [
        # the figures stay (the spellings never differ by case alone), the forms listed by the
        # Occurrences are now as written ("Vnd")
        ("lowercase", "", "changes"),
        ("drop_punctuation", "", "changes"),
        ("raw_compare", "", "changes"),
        ("occurrence_match", "case", "changes"),  # the Occurrences record how forms matched
        ("encoding", "x", "refused"),
        ("model_annotators", "Zed", "refused"),  # no such annotator
        ("model_annotators", "annotator_Mira", "changes"),  # Mira leaves the humans' figures
        ("epsilon", "0.1", "changes"),
        ("competence", "", "changes"),
        ("planning", "", "changes"),
    ],
    "coref": [
        ("cost", "jaccard", "same"),
        ("study_threshold", "0.9", "same"),
        ("relation_types", "Coreference,Anaphora", "same"),
        ("doc_column", "doc", "same"),  # columns of mention tables; the example is brat
        ("begin_column", "start", "same"),
        ("end_column", "stop", "same"),
        ("entity_column", "chain", "same"),
        ("curation", "", "same"),
        # the scores' mention matching: brat mentions have no head, so the figures stay; the
        # JSON names the matching chosen (scores_matching)
        ("mention_matching", "partial", "changes"),
        ("zero_matching", "dependent", "changes"),
        ("split_antecedents", "", "changes"),
        ("occurrence_match", "case", "changes"),  # the Occurrences record how forms matched
        ("encoding", "x", "refused"),
    ],
    "spans": [
        ("n_resamples", "200", "changes"),
        ("seed", "5", "changes"),
        ("gamma", "", "changes"),
        ("layer", "Entity", "same"),  # WebAnno TSV and INCEpTION only; the example is brat
        ("feature", "label", "same"),
        ("relation_layer", "Relation", "same"),
        ("relation_feature", "label", "same"),
        ("curation", "", "same"),
        ("document_column", "doc", "same"),  # columns of span tables
        ("start_column", "begin", "same"),
        ("end_column", "stop", "same"),
        ("label_column", "tag", "same"),
        ("annotator_column", "coder", "same"),
        ("occurrence_match", "case_diacritics", "changes"),
        ("encoding", "x", "refused"),
        ("tiers", "speaker=Noa", "same"),  # ELAN and Praat tiers; the example is brat
        ("tolerance", "20", "same"),  # units in time only
        ("relations_from", "R+E+*", "same"),  # the example's brat files hold no relation
        ("model_annotators", "Zed", "refused"),  # no such annotator
        ("model_annotators", "Omar", "changes"),  # Omar leaves the humans' figures
        ("epsilon", "0.1", "changes"),
        ("competence", "", "changes"),
        # brat files say nothing of when an annotation was made
        ("batch_column", "created_at", "refused"),
        ("batch_size", "x", "same"),  # no batch column: nothing binned
        ("retest", "", "refused"),  # brat holds one annotation per annotator and document
        ("planning", "", "changes"),
    ],
}


def apply(qtbot, panel, name: str, text: str) -> None:
    editor = panel.editor(name)
    if isinstance(editor, QComboBox):
        user.choose(qtbot, editor, text)
    elif isinstance(editor, QCheckBox):
        user.click(qtbot, editor)
    elif isinstance(editor, QAbstractSpinBox):
        user.type_number(qtbot, editor, text)
    else:
        user.type_text(qtbot, editor, text)


def expected_option(editor, text: str):
    if isinstance(editor, QCheckBox):
        return editor.isChecked()
    if isinstance(editor, QSpinBox):
        return int(text)
    if isinstance(editor, QDoubleSpinBox):
        return float(text)
    return text


@pytest.mark.parametrize("folder", sorted(EDITS))
def test_every_editor_of_the_settings_panel_changed_by_hand(qtbot, window, folder):
    first = open_example(qtbot, window, folder)
    panel = window.settings_panel
    assert {name for name, _t, _e in EDITS[folder]} == set(panel.editors())
    outcomes: list[tuple[str, object]] = []
    window.session.results_ready.connect(lambda r: outcomes.append(("ok", r)))
    window.session.computation_failed.connect(lambda m, _d: outcomes.append(("refused", m)))
    shown = first.to_json()
    for name, text, expect in EDITS[folder]:
        editor = panel.editor(name)
        old = editor.text() if isinstance(editor, QLineEdit) else None
        n = len(outcomes)
        apply(qtbot, panel, name, text)
        qtbot.waitUntil(lambda n=n: len(outcomes) > n, timeout=120000)
        assert panel.editor(name) is editor  # the form kept the editor the person used
        assert window.session.study.options[name] == expected_option(editor, text)
        got, value = outcomes[-1]
        what = got if got == "refused" else ("same" if value.to_json() == shown else "changes")
        assert (name, text, what) == (name, text, expect)
        if got == "ok":
            shown = value.to_json()
            continue
        assert window.status_label.text().startswith("Error:")
        n = len(outcomes)
        user.type_text(qtbot, editor, old)  # back to the value that worked
        qtbot.waitUntil(lambda n=n: len(outcomes) > n, timeout=120000)
        assert outcomes[-1][0] == "ok" and outcomes[-1][1].to_json() == shown
