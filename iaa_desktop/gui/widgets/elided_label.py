"""A label for "name: value" parts (the status bar's headline) that never clips mid-letter.

When the parts do not fit, the label shows as many whole parts as fit followed by "…", and the
tooltip always holds every part, one per line. Values are bold, as in the report's headline.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from iaa_desktop.gui.widgets.short_text import TEXT_CHARS, shown, shown_text, tip

SEPARATOR = "   "
ELLIPSIS = "…"


class ElidedLabel(QLabel):
    """Shows ``(name, value)`` parts in the width it gets; the whole headline in its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.parts: list[tuple[str, str]] = []

    def set_parts(self, parts: Sequence[tuple[object, object]]) -> None:
        # a part naming a label of a megabyte is measured and shown shortened
        self.parts = [(shown(k), shown_text(v)) for k, v in parts]
        self.setToolTip(
            "<br/>".join(f"{html.escape(k)}: <b>{html.escape(tip(v))}</b>" for k, v in self.parts)
        )
        self.updateGeometry()
        self._fit()

    def clear(self) -> None:
        self.set_parts([])

    def shown_parts(self) -> int:
        """How many parts are shown whole (the rest are behind the "…")."""
        return self._fitting(self.contentsRect().width())

    def full_width(self) -> int:
        return self._width(len(self.parts), elided=False)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(self.full_width() + 4, hint.height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    # ------------------------------------------------------------------ internals

    def _width(self, n: int, elided: bool) -> int:
        plain, bold = QFontMetrics(self.font()), QFontMetrics(self._bold())
        w = 0
        for i, (k, v) in enumerate(self.parts[:n]):
            w += plain.horizontalAdvance((SEPARATOR if i else "") + f"{k}: ")
            w += bold.horizontalAdvance(v)
        if elided:
            w += plain.horizontalAdvance((SEPARATOR if n else "") + ELLIPSIS)
        return w

    def _fitting(self, room: int) -> int:
        if self._width(len(self.parts), elided=False) <= room:
            return len(self.parts)
        n = len(self.parts) - 1
        while n > 0 and self._width(n, elided=True) > room:
            n -= 1
        return n

    def _bold(self) -> QFont:
        f = QFont(self.font())
        f.setBold(True)
        return f

    def _fit(self) -> None:
        n = self._fitting(self.contentsRect().width())
        shown = [f"{html.escape(k)}: <b>{html.escape(v)}</b>" for k, v in self.parts[:n]]
        if n < len(self.parts):
            shown.append(ELLIPSIS)
        super().setText(SEPARATOR.replace(" ", "&nbsp;").join(shown))


class ElidedText(QLabel):
    """A one-line plain-text label (the status message) cut with "…" where its room ends, the
    whole text in its tooltip; :meth:`text` is always the whole text."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._full = ""
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = text
        self._fit()

    def text(self) -> str:
        return self._full

    def sizeHint(self) -> QSize:
        return QSize(
            self.fontMetrics().horizontalAdvance(shown_text(self._full)) + 4,
            super().sizeHint().height(),
        )

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        # a message of a megabyte (quoting a name) is measured and shown shortened
        whole = " ".join(self._full[: 2 * TEXT_CHARS].split())
        cut = self.fontMetrics().elidedText(
            shown_text(whole), Qt.TextElideMode.ElideRight, max(self.contentsRect().width(), 0)
        )
        super().setText(cut)
        longer = cut != whole or len(self._full) > 2 * TEXT_CHARS
        self.setToolTip(tip(self._full) if longer else "")


__all__ = ["ElidedLabel", "ElidedText"]
