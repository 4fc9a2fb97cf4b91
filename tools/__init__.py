"""koma's tools around the binary: matches, speed measurements, tuning data.

Run them as modules from the repository root, e.g. `python3 -m tools.match --help`;
their unit tests with `python3 -m unittest discover -s tools -t .` (tests/tools.rs).
"""
