"""What the tools/ scripts share: the repository's paths (paths.py), the engine process
driver and the referee (engine.py), Fairy-Stockfish as an engine (fsf.py), match
statistics (stats.py), Ray's start and its task helpers (ray.py), chess EPD suites (epd.py).
The scripts themselves are the modules one level up (`python3 -m tools.match`)."""
