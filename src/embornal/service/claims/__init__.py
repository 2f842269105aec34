"""The claims ledger."""
