"""Export, import, backup and copy."""
