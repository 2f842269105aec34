"""embornal.interfaces.mcp."""
