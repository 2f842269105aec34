"""Writing, reading and correcting facts."""
