"""The conflict queue."""
