"""No GUI test stands in for a person by calling into a widget.

A test that emits a widget's signal, calls a slot or a private handler, triggers an action or sets
a widget's value skips the widget's own event handler, so a crash on the real input path goes
unseen. This scans the source of ``tests/gui`` (comments and strings left out) for such calls;
the only ones allowed are listed below with the reason.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

HERE = Path(__file__).parent

#: what stands in for input, and why it is refused
FAKE = {
    r"\.emit\(": "emits a signal",
    r"\._on_\w*\(": "calls a private handler",
    r"\.(trigger|click|animateClick|toggle|activate)\(\s*\)": "triggers a control",
    r"\.(setCurrentIndex|setCurrentText|setEditText|setText|setPlainText|setHtml|setChecked"
    r"|setValue|setCurrentRow|setCurrentCell|setCurrentItem|selectRow|selectColumn"
    r"|setCurrentWidget|setSliderPosition)\(": "sets a widget's value",
    r"(?<!user)\.(show_unit|show_document|select_token|select_partition|clear_decision|step"
    r"|next_disagreement|previous_disagreement|_apply_filters|_refresh|_suggest_preview)\(": "calls"
    " what a click or key does",
    r"\.s1\s*=(?!=)": "sets a view's selection",
    r"\banchorClicked\b": "imitates a click on a link",
    r"\bundo_stack\.(undo|redo)\(": "undoes without the key",
}

#: (file, what the line holds): allowed, with the reason
ALLOWED = {
    # the project's own task runner: a superseded worker's late result, as its thread sends it
    ("test_tasks.py", "stale.yielded.emit("),
    ("test_tasks.py", "stale.returned.emit("),
    # the window's own text, not input: a long headline must not widen the window
    ("test_import_dialog.py", 'window.headline_label.setText("x" * 400)'),
}


def _code_lines(source: str) -> dict[int, str]:
    """Each line's code with comments and string contents blanked out."""
    lines = source.splitlines()
    out = {i + 1: line for i, line in enumerate(lines)}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in (tokenize.COMMENT, tokenize.STRING):
            continue
        (r0, c0), (r1, c1) = tok.start, tok.end
        for r in range(r0, r1 + 1):
            line = out[r]
            a = c0 if r == r0 else 0
            b = c1 if r == r1 else len(line)
            if tok.type == tokenize.STRING and r == r0:
                a += 1  # keep the opening quote so that a call with a string still matches
            out[r] = line[:a] + " " * max(0, b - a) + line[b:]
    return out


def fake_input(source: str, name: str) -> list[str]:
    """Every line of ``source`` that stands in for input, as ``name:line: reason: text``."""
    found = []
    raw = source.splitlines()
    for number, code in _code_lines(source).items():
        for pattern, reason in FAKE.items():
            if re.search(pattern, code):
                text = raw[number - 1].strip()
                if any(name == f and held in text for f, held in ALLOWED):
                    continue
                found.append(f"{name}:{number}: {reason}: {text}")
    return found


def test_no_gui_test_calls_into_a_widget_instead_of_pressing_keys() -> None:
    found = []
    for path in sorted(HERE.glob("*.py")):
        if path.name == Path(__file__).name:
            continue
        found += fake_input(path.read_text(encoding="utf-8"), path.name)
    assert not found, "\n".join(found)


def test_the_scan_sees_each_kind_of_stand_in() -> None:
    for line in (
        "combo.activated.emit(2)",
        "panel._on_pick(3)",
        "action.trigger()",
        "box.setChecked(True)",
        "spin.setValue(500)",
        "panel.show_unit(4)",
        "ip.s1 = s1",
        "view.anchorClicked.emit(QUrl('tok:1'))",
        "panel.undo_stack.undo()",
        "panel.step(1)",
    ):
        assert fake_input(line + "\n", "t.py"), line
    for line in (
        "user.choose(qtbot, combo, 2)",
        "assert panel.s1 == s1",
        "user.step(qtbot, combo, 'ordinal')",
        "qtbot.keyClick(view, Qt.Key.Key_N)  # not .emit( nor setValue(",
        "text = 'panel.show_unit(4)'",
    ):
        assert not fake_input(line + "\n", "t.py"), line
