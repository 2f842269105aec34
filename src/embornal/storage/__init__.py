"""embornal.storage."""
