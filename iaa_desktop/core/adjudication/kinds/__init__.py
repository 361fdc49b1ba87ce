"""Adjudication units per kind of study (one module per kind, registered in :data:`UNIT_BUILDERS`)."""
