"""Narrative accounts."""
