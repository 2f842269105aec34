"""The proposal aggregate, its policy, ingest by rules and retention."""
