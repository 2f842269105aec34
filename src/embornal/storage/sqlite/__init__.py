"""The SQLite backend."""
