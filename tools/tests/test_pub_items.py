"""Unit tests of tools/pub_items.py: python3 -m unittest discover -s tools/tests -t ."""

import os
import tempfile
import unittest

from tools import pub_items


class KindOf(unittest.TestCase):
    def test_plain_pub_items_and_fields_count(self):
        self.assertEqual(pub_items.kind_of("pub fn go() {}"), "fn")
        self.assertEqual(pub_items.kind_of("    pub const fn new() -> Self {"), "fn")
        self.assertEqual(pub_items.kind_of("pub const MAX: u32 = 1;"), "const")
        self.assertEqual(pub_items.kind_of("    pub name: &'static str,"), "field")
        self.assertEqual(pub_items.kind_of("pub use game::Color;"), "use")
        self.assertEqual(pub_items.kind_of("pub mod games;"), "mod")

    def test_restricted_and_private_items_do_not(self):
        for line in ("pub(crate) fn go() {}", "pub(super) struct S;", "fn go() {}", "    name: u32,", "// pub fn x"):
            self.assertIsNone(pub_items.kind_of(line), line)


class Count(unittest.TestCase):
    def test_main_rs_is_left_out(self):
        with tempfile.TemporaryDirectory() as root:
            os.mkdir(os.path.join(root, "src"))
            with open(os.path.join(root, "src", "lib.rs"), "w") as f:
                f.write("pub mod a;\npub(crate) fn b() {}\npub struct S {\n    pub x: u8,\n}\n")
            with open(os.path.join(root, "src", "main.rs"), "w") as f:
                f.write("pub fn main() {}\n")
            kinds, files = pub_items.count(root)
        self.assertEqual(dict(kinds), {"mod": 1, "struct": 1, "field": 1})
        self.assertEqual(dict(files), {os.path.join("src", "lib.rs"): 3})


if __name__ == "__main__":
    unittest.main()
