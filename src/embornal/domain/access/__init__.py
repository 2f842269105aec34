"""Access rules, the read scope and the vocabulary of rights."""
