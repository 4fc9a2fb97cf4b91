"""koma's tools around the binary: matches, speed and strength measurements, tuning and
training data (docs/README.md lists them with the documents that use them).

Layout: the task scripts are the modules here, run from the repository root as
`python3 -m tools.NAME` (`--help` on each); what they share is tools/lib/ (the engine
driver and referee, Fairy-Stockfish, match statistics, Ray, paths); their data (the
Fairy-Stockfish variant definitions, xboard's piece picture) is tools/data/; their unit
tests are tools/tests/, run with `python3 -m unittest discover -s tools/tests -t .`
(tests/tools.rs). Dependencies and ruff's settings: the root pyproject.toml.
"""
