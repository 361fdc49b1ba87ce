"""The Qt-free agreement engine: readers, metrics, alignment, tasks, adjudication, export.

Nothing in this package imports Qt or :mod:`iaa_desktop.gui` (``tests/core/test_layering.py``
checks it), so the command line and the tests run without a display.
"""
