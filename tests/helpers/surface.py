"""Print, as JSON, the public surface of every embornal module (run in a fresh interpreter).

``package``: the public names ``import embornal`` binds before and after each name of its
``__all__`` is touched, and what ``from embornal import *`` binds. ``modules``: for each
importable module, its ``__all__`` (or null) and the names of it that are not attributes.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import types

__all__ = ["main"]


def _public(module: types.ModuleType) -> list[str]:
    """Names bound in ``module`` that look public, without its own submodules."""
    prefix = module.__name__ + "."
    return sorted(
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and name != "annotations"  # from __future__ import annotations
        and not (isinstance(value, types.ModuleType) and value.__name__.startswith(prefix))
    )


def main() -> None:
    import embornal

    report: dict[str, object] = {}
    fresh = _public(embornal)
    star: dict[str, object] = {}
    exec("from embornal import *", star)
    missing = [n for n in embornal.__all__ if not hasattr(embornal, n)]
    report["package"] = {
        "all": list(embornal.__all__),
        "public_fresh": fresh,
        "public_loaded": _public(embornal),
        "star": sorted(set(star) - {"__builtins__"}),
        "missing": missing,
    }
    modules: dict[str, object] = {}
    names = ["embornal"] + [i.name for i in pkgutil.walk_packages(embornal.__path__, "embornal.")]
    for name in names:
        if name.rsplit(".", 1)[-1] == "__main__":
            continue  # a script: running it is its only use
        module = importlib.import_module(name)
        declared = getattr(module, "__all__", None)
        modules[name] = {
            "all": list(declared) if declared is not None else None,
            "missing": [n for n in declared or () if not hasattr(module, n)],
            "public": _public(module),
        }
    report["modules"] = modules
    print(json.dumps(report))


if __name__ == "__main__":
    main()
