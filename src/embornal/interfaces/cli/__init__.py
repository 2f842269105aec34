"""embornal.interfaces.cli."""
