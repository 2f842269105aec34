"""Policies and tokens."""
