"""embornal.interfaces.cli: the command line.

A command's handler is named ``"module:function"``: a module of this package
(``memory_cmds:recall``) or, with a dot, of a capability's folder under
``embornal.interfaces`` (``claims.commands:show_claim``).
"""

__all__ = ["handler_module"]


def handler_module(name: str) -> str:
    """The full name of a handler's module: ``memory_cmds`` or ``claims.commands``."""
    return f"embornal.interfaces.{name}" if "." in name else f"embornal.interfaces.cli.{name}"
