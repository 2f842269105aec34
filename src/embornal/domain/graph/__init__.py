"""Typed links and merges: the rules."""
