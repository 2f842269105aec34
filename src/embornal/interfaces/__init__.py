"""embornal.interfaces."""
