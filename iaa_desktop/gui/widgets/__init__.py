"""Widgets shared by the views of every kind (tables, heat maps, panels, the message bar)."""
