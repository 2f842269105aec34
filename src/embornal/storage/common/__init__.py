"""SQL written once over a dialect, run by both backends."""
