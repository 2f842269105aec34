"""Typed links and merges."""
