"""The history protocol: capture, tiers, provenance, screening, canon and frames, the
history context, the audit log's names."""
