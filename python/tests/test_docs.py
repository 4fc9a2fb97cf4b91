"""The examples of protocol/python.md are doctests: the page shows what the module does."""

import doctest
import os

from conftest import ROOT


def test_the_python_page_examples_run():
    path = os.path.join(ROOT, "protocol", "python.md")
    failed, attempted = doctest.testfile(path, module_relative=False, optionflags=doctest.ELLIPSIS)
    assert attempted >= 30 and failed == 0
