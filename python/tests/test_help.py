"""Row "help" of issue 57: every class, function, method and property of the module has
its docstring at run time (`help(koma.Board.push)`), and it is the stub's (python/koma/__init__.pyi)
word for word: the stub documents the module for editors, the compiled module for `help`,
and this test keeps them one text."""

import ast
import inspect
import os
import pydoc

import koma
import koma.records
import pytest
from conftest import ROOT

STUBS = {
    "koma": os.path.join(ROOT, "python", "koma", "__init__.pyi"),
    "koma.records": os.path.join(ROOT, "python", "koma", "records.pyi"),
}


def stub_docs(module):
    """(name, member or None, the stub's docstring or None) for every public name of
    `module` (`None` for the module itself)."""
    with open(STUBS[module.__name__]) as f:
        tree = ast.parse(f.read())
    yield None, None, ast.get_docstring(tree)
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            yield node.name, None, ast.get_docstring(node)
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and not member.name.startswith("__"):
                    yield node.name, member.name, ast.get_docstring(member)


def runtime_doc(module, name, member):
    obj = module if name is None else getattr(module, name)
    if member is not None:
        obj = inspect.getattr_static(obj, member)
        obj = getattr(obj, "__func__", obj)  # a staticmethod
    return inspect.cleandoc(obj.__doc__ or "")


@pytest.mark.parametrize("module", [koma, koma.records], ids=["koma", "koma.records"])
def test_help_every_public_name_has_the_stubs_docstring_at_run_time(module):
    seen, missing, differ = 0, [], []
    for name, member, doc in stub_docs(module):
        where = ".".join(n for n in (module.__name__, name, member) if n)
        if not doc:
            missing.append(where)
            continue
        seen += 1
        got = runtime_doc(module, name, member)
        if got != doc:
            differ.append("%s\n  stub:    %r\n  runtime: %r" % (where, doc, got))
    assert not missing, "no docstring in the stub: %s" % ", ".join(missing)
    assert not differ, "\n".join(differ)
    assert seen > (90 if module is koma else 10)


def test_help_shows_the_docstrings():
    assert koma.__doc__ and koma.__doc__.startswith("koma: the rules, the engine and the solver")
    assert "IllegalMove" in koma.Board.push.__doc__
    text = pydoc.render_doc(koma.Board.push, renderer=pydoc.plaintext)
    assert "Plays a move" in text
    every = set(koma.__all__) - {"__version__"}
    assert all(getattr(koma, n).__doc__ for n in every), [n for n in every if not getattr(koma, n).__doc__]
