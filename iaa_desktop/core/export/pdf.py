"""HTML → PDF with WeasyPrint (Pango/HarfBuzz: bidi, shaping, combining marks, font fallback).

WeasyPrint is imported lazily: only writing a PDF pays for it. It needs the system Pango
libraries (Debian: ``libpango-1.0-0 libpangoft2-1.0-0``) and fonts covering the scripts of the
data (Noto: ``fonts-noto-core``, colour emoji ``fonts-noto-color-emoji``).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
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


@contextlib.contextmanager
def linker_cache_lookup() -> Iterator[None]:
    """While WeasyPrint loads its libraries on Linux, look a library name up in the dynamic
    linker's cache (``ldconfig -p``, read once) instead of through :func:`ctypes.util.find_library`.

    WeasyPrint tries several spellings of each library (``libpango-1.0-0``, ``pango-1.0``, …,
    ``libpango-1.0.so.0``); for every spelling that is not a file name, ``find_library`` runs
    ``ldconfig``, then a C compiler and the linker when the cache lacks it: about twenty
    processes and a sixth of a second of CPU per report. The cache answers the same names
    (the rule ``find_library`` applies to it first); where there is no cache the usual lookup
    stays.
    """
    if not sys.platform.startswith("linux") or "weasyprint.text.ffi" in sys.modules:
        yield
        return
    import ctypes.util

    try:
        listing = subprocess.run(
            ["/sbin/ldconfig", "-p"],
            stdin=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            env={"LC_ALL": "C", "LANG": "C"},
            check=False,
        ).stdout
    except OSError:
        listing = b""
    if not listing:
        yield
        return
    original = ctypes.util.find_library
    # the cache lists every ABI's libraries: keep to this interpreter's (as find_library does)
    abi = (
        {
            "x86_64": b"libc6,x86-64",
            "ppc64": b"libc6,64bit",
            "sparc64": b"libc6,64bit",
            "s390x": b"libc6,64bit",
            "ia64": b"libc6,IA-64",
        }.get(os.uname().machine, b"libc6")
        if sys.maxsize > 2**32
        else b"libc6"
    )

    def from_cache(name: str) -> str | None:
        pattern = rb"\s+(lib%s\.[^\s]+)\s+\(%s" % (re.escape(os.fsencode(name)), re.escape(abi))
        found = re.search(pattern, listing)
        return os.fsdecode(found.group(1)) if found else None

    ctypes.util.find_library = from_cache
    try:
        yield
    finally:
        ctypes.util.find_library = original


def render(doc_html: str, cache: dict[Any, Any] | None = None) -> Any:
    """Lay out the document; returns a WeasyPrint ``Document`` (``.pages``, ``.write_pdf``).

    ``cache`` is shared between layouts of the same report so charts are parsed once. Layouts
    run one at a time (they share the font configuration).
    """
    try:
        with _FONTS_LOCK, linker_cache_lookup():
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
