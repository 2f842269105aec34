"""Narrative accounts and their claims."""
