"""embornal.adapters."""
