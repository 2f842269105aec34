"""The conflict aggregate and entity resolution."""
