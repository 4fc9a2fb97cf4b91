# The package `koma`: the compiled module koma.koma (python/src) is the whole of it; this
# file re-exports its names, its docstring and its submodule koma.records. The stubs
# beside it (__init__.pyi, records.pyi) document the module for editors and type checkers.
from .koma import *  # noqa: F403
from .koma import __all__, __doc__, records  # noqa: F401
