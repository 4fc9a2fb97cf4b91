"""Game records in and out: ``read`` a record of any format the engine knows into a
``Game`` (headers, rules, moves, result; ``board()`` replays it) and ``write`` a ``Game``
or a ``Board`` in any of them (protocol/records.md describes each)."""

import os
from typing import Optional, Union, final

from koma import Board, GameResult, Move

__all__ = ["Game", "formats", "read", "write"]

@final
class Game:
    """A game record, whatever its format: ``variant``, ``rules`` (its rules switches that are
    not at their defaults), ``start`` (an SFEN, ``None`` for the start position),
    ``headers``, ``moves`` with their ``comments``, and ``result``; ``board()`` replays it."""

    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def rules(self) -> list[tuple[str, str]]:
        """The rules switches that are not at their defaults, by name."""
    @property
    def start(self) -> Optional[str]:
        """The start position as SFEN; ``None`` for the variant's start position."""
    @property
    def headers(self) -> list[tuple[str, str]]:
        """The headers in the order read, as (key, value) pairs: the players, the date, the
        event and the site are ``sente``, ``gote``, ``date``, ``event`` and ``site`` in every
        format; other keys are the format's own."""
    @property
    def moves(self) -> list[Move]:
        """The moves, oldest first."""
    @property
    def comments(self) -> list[Optional[str]]:
        """Each move's comment, ``None`` where it has none."""
    @property
    def result(self) -> Optional[GameResult]:
        """How the game ended, as the record says or its final position shows: the winner and
        the rule (``""`` when the record names none); ``None`` while it goes on."""
    def board(self) -> Board:
        """The game replayed onto a ``Board`` under its rules, from its start."""

def read(source: Union[str, "os.PathLike[str]"], format: Optional[str] = None, variant: Optional[str] = None) -> Game:
    """Reads a game record: ``source`` is a path (an ``os.PathLike``, or a ``str`` of one
    line: a regular file of at most 4 MiB, UTF-8 or Shift_JIS) or the record's text (a
    ``str`` of several lines). The format is found from the text (and the file's
    extension) unless ``format`` names it; ``variant`` names the game where the format
    does not (KIF). ``OSError`` for a file that cannot be read, ``ValueError`` for a
    record that cannot, naming its lines."""

def write(game: Union[Game, Board], format: Optional[str] = None) -> str:
    """Writes a game (a ``Game`` read before, or a ``Board``'s game) as the text of a record
    in ``format`` (``"koma"``, ``"kif"``, ``"csa"``, ``"pgn"``, ``"rokuroku"``; ``None``: the
    game's natural one, KIF for the shogi games, PGN for Kokesu, koma's for the crab games).
    ``ValueError`` when the format cannot hold the game."""

def formats(variant: Optional[str] = None) -> list[str]:
    """The names of the record formats that can hold a game of ``variant`` (every format
    without one), in the engine's order."""
