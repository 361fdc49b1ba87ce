"""HTML → PDF with WeasyPrint (Pango/HarfBuzz: bidi, shaping, combining marks, font fallback).

WeasyPrint is imported lazily: only writing a PDF pays for it. It needs the system Pango
libraries (Debian: ``libpango-1.0-0 libpangoft2-1.0-0``) and fonts covering the scripts of the
data (Noto: ``fonts-noto-core``, colour emoji ``fonts-noto-color-emoji``).
"""

from __future__ import annotations

import io
import re
from typing import Any

from iaa_desktop.core.errors import IaaError


class PdfEngineError(IaaError):
    """The PDF engine (WeasyPrint and its system libraries) is not available."""


def render(doc_html: str, cache: dict[Any, Any] | None = None) -> Any:
    """Lay out the document; returns a WeasyPrint ``Document`` (``.pages``, ``.write_pdf``).

    ``cache`` is shared between layouts of the same report so charts are parsed once.
    """
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as e:  # OSError: the Pango libraries are missing
        raise PdfEngineError(
            f"PDF output needs WeasyPrint and the Pango libraries ({e}); install them "
            "(pip install weasyprint; Debian: apt install libpango-1.0-0 libpangoft2-1.0-0) "
            "or write the report with --html."
        ) from e
    return HTML(string=doc_html, base_url=".").render(cache=cache if cache is not None else {})


def pdf_bytes(document: Any) -> bytes:
    buf = io.BytesIO()
    document.write_pdf(buf)
    return buf.getvalue()


def estimate_pages(doc_html: str) -> float:
    """A rough page count of the PDF: text volume, table rows, about half a page per chart."""
    text = re.sub(r'src="data:[^"]*"', "", doc_html)
    n_rows = text.count("<tr")
    n_figs = text.count("<figure")
    return 1 + len(re.sub(r"<[^>]+>", "", text)) / 5500 + n_rows / 55 + 0.45 * n_figs
