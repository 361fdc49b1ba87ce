"""HTML → PDF with WeasyPrint (Pango/HarfBuzz: bidi, shaping, combining marks, font fallback).

WeasyPrint is imported lazily: only writing a PDF pays for it. It needs the system Pango
libraries (Debian: ``libpango-1.0-0 libpangoft2-1.0-0``) and fonts covering the scripts of the
data (Noto: ``fonts-noto-core``, colour emoji ``fonts-noto-color-emoji``).
"""

from __future__ import annotations

import io
import re
import threading
from typing import Any

from iaa_desktop.core.errors import IaaError


class PdfEngineError(IaaError):
    """The PDF engine (WeasyPrint and its system libraries) is not available."""


_FONTS_LOCK = threading.Lock()
_FONT_CONFIG: Any = None


def _font_config() -> Any:
    """One WeasyPrint ``FontConfiguration`` for the process: fontconfig's font set and the font
    descriptions found for the report's styles are kept from one layout (and report) to the
    next instead of being looked up again."""
    global _FONT_CONFIG
    if _FONT_CONFIG is None:
        from weasyprint.text.fonts import FontConfiguration

        _FONT_CONFIG = FontConfiguration()
    return _FONT_CONFIG


def render(doc_html: str, cache: dict[Any, Any] | None = None) -> Any:
    """Lay out the document; returns a WeasyPrint ``Document`` (``.pages``, ``.write_pdf``).

    ``cache`` is shared between layouts of the same report so charts are parsed once. Layouts
    run one at a time (they share the font configuration).
    """
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as e:  # OSError: the Pango libraries are missing
        raise PdfEngineError(
            f"PDF output needs WeasyPrint and the Pango libraries ({e}); install them "
            "(pip install weasyprint; Debian: apt install libpango-1.0-0 libpangoft2-1.0-0) "
            "or write the report with --html."
        ) from e
    with _FONTS_LOCK:
        return HTML(string=doc_html, base_url=".").render(
            font_config=_font_config(), cache=cache if cache is not None else {}
        )


def pdf_bytes(document: Any) -> bytes:
    """The PDF file of a laid-out document (fonts subset to the glyphs used: with the
    HarfBuzz subset library, Debian ``libharfbuzz-subset0``, this takes a few milliseconds per
    font; without it WeasyPrint falls back to fontTools, which takes most of a second)."""
    buf = io.BytesIO()
    with _FONTS_LOCK:
        document.write_pdf(buf)
    return buf.getvalue()


def estimate_pages(doc_html: str) -> float:
    """A rough page count of the PDF: text volume, table rows, about half a page per chart."""
    text = re.sub(r'src="data:[^"]*"', "", doc_html)
    n_rows = text.count("<tr")
    n_figs = text.count("<figure")
    return 1 + len(re.sub(r"<[^>]+>", "", text)) / 5500 + n_rows / 55 + 0.45 * n_figs
