"""embornal.domain."""
