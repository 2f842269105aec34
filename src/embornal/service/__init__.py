"""embornal.service."""
