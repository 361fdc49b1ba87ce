"""iaa_desktop: compare the work of several annotators."""

__version__ = "0.1.0"
