"""Independent implementations kept only to check the project's own (test oracles)."""
