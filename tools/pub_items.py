#!/usr/bin/env python3
"""The koma crate's public face, counted: `pub` items and fields in src/.

Usage:
  python3 -m tools.pub_items [--by-file]

Counts, in every `src/**/*.rs` but `src/main.rs`, the lines that declare an item or a
field plainly `pub` (not `pub(crate)`, `pub(super)` or `pub(in ...)`): `fn`, `const`,
`static`, `struct`, `enum`, `trait`, `type`, `mod` and named fields (`pub name: T`), and
the `pub use` lines (re-exports). Items inside a private module are still counted (the
compiler's `unreachable_pub` lint is what turns those into `pub(crate)`), so the figure
is an upper bound of what the crate shows. `--by-file` prints each file's count too.
"""

import argparse
import os
import re
from collections import Counter

from tools.lib.paths import ROOT

KINDS = ("fn", "const", "static", "struct", "enum", "trait", "type", "mod", "field", "use")
ITEM = re.compile(
    r"^\s*pub\s+(?:(?:const|async|unsafe|extern\s+\"[^\"]*\")\s+)*(fn|const|static|struct|enum|trait|type|mod|use)\b"
)
FIELD = re.compile(r"^\s*pub\s+(?:r#)?[a-z_][a-z0-9_]*\s*:(?!:)")


def kind_of(line):
    """The kind of public item `line` declares, or None."""
    m = ITEM.match(line)
    if m:
        return m.group(1)
    return "field" if FIELD.match(line) else None


def count(root):
    """Counter of kinds, and of files, over the crate's sources under `root`/src."""
    kinds, files = Counter(), Counter()
    src = os.path.join(root, "src")
    for folder, _, names in os.walk(src):
        for name in sorted(names):
            path = os.path.join(folder, name)
            if not name.endswith(".rs") or path == os.path.join(src, "main.rs"):
                continue
            with open(path, encoding="utf-8") as f:
                for line in f:
                    k = kind_of(line)
                    if k:
                        kinds[k] += 1
                        files[os.path.relpath(path, root)] += 1
    return kinds, files


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--by-file", action="store_true", help="each file's count too")
    args = parser.parse_args()
    kinds, files = count(ROOT)
    if args.by_file:
        for path, n in files.most_common():
            print(f"{n:5} {path}")
    print(" ".join(f"{k} {kinds[k]}" for k in KINDS), f"total {sum(kinds.values())}")


if __name__ == "__main__":
    main()
