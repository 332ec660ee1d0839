"""Builds every model and type alias of a generated package, so that a type pydantic
cannot build (an unresolvable name, an invalid annotation) fails here rather than when
a message first uses it. A warning while a module is imported or built (pydantic's "field
name shadows an attribute in parent") fails too. Usage: rebuild_all.py <package>
(importable)."""

import importlib
import pkgutil
import sys
import warnings
from typing import Any

from pydantic import BaseModel, TypeAdapter


def main(package_name: str) -> None:
    package = importlib.import_module(package_name)
    models = aliases = 0
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package_name}.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, BaseModel):
                if value.__module__ == module.__name__:
                    value.model_rebuild(force=True, raise_errors=True)
                    models += 1
            elif name in getattr(module, "__annotations__", {}):
                annotation: Any = module.__annotations__[name]
                if annotation == "TypeAlias":
                    TypeAdapter(value)
                    aliases += 1
    print(f"{models} models and {aliases} type aliases built")


if __name__ == "__main__":
    warnings.simplefilter("error")
    main(sys.argv[1])
