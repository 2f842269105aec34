"""Access rules, the read scope and the rights table."""
