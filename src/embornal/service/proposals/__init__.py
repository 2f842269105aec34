"""Proposals, ingest and retention."""
