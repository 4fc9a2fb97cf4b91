"""koma: the rules, the engine and the solver of five small games.

66 shogi (``shogi66``), Kokesu (``kokesu``), Number Shogi (``numbershogi``), Kani Shogi
(``kanishogi``) and Kani Nari Ebi (``kaninariebi``). Every rule, the referee, perft, the
search and the solver are the koma engine's own (a Rust crate; this module is its
binding). Moves are USI tokens as the engine writes them (protocol/rules.md); a crab
turn of the two crab games is one token. Sides are ``"b"`` (sente, the first player)
and ``"w"``.
"""

from typing import Optional, final

__all__ = [
    "Analysis",
    "Board",
    "Engine",
    "GameResult",
    "IllegalMove",
    "InvalidSfen",
    "Line",
    "Score",
    "Solution",
    "solve",
    "variants",
    "__version__",
]

__version__: str

class IllegalMove(ValueError):
    """A move that is malformed, not legal in the position, or played after the end."""

class InvalidSfen(ValueError):
    """An SFEN that is malformed or describes an impossible position."""

def variants() -> list[str]:
    """The variant names, in the engine's ``USI_Variant`` order."""

@final
class GameResult:
    """A finished game, as the engine's referee judged it."""

    @property
    def winner(self) -> Optional[str]:
        """``"b"`` or ``"w"``; ``None`` for a draw."""
    @property
    def reason(self) -> str:
        """The rule that ended the game: ``checkmate``, ``sum of seven``, ``repetition``..."""
    @property
    def text(self) -> str:
        """What the engine's ``d`` prints, e.g. ``black wins: three shrimps``."""

@final
class Board:
    """One game: its rules switches, the position and the moves played since its root.

    ``Board(variant="shogi66", sfen=None, **switches)``: the start position, or ``sfen``;
    ``switches`` are the game's rules switches by their option names, e.g.
    ``Board("kokesu", KokesuPromotion="free")``. An unknown variant or switch raises
    ``ValueError``, a bad SFEN ``InvalidSfen``.
    """

    def __new__(cls, variant: str = "shogi66", sfen: Optional[str] = None, **switches: str) -> "Board": ...
    @property
    def variant(self) -> str: ...
    @property
    def turn(self) -> str:
        """The side to move: ``"b"`` or ``"w"``."""
    @property
    def hands(self) -> dict[str, str]:
        """The pieces in hand of each side (``"b"``, ``"w"``) as SFEN letters, ``"-"`` for none."""
    @property
    def ply(self) -> int:
        """The number of the next ply (the SFEN's ply field)."""
    @property
    def phase(self) -> str:
        """``"placement"``, ``"play"`` or ``"over"``."""
    @property
    def status(self) -> Optional[str]:
        """The game's own counters (captures, shrimps, the move counter), if it has any."""
    @property
    def root_sfen(self) -> str:
        """The position the game started from."""
    @property
    def move_stack(self) -> list[str]:
        """The moves played since the root, oldest first."""
    @property
    def switches(self) -> dict[str, str]:
        """The rules switches given when the board was made."""
    def sfen(self) -> str:
        """The current position as SFEN."""
    def legal_moves(self) -> list[str]:
        """The legal moves; none once the game is over."""
    def is_legal(self, move: str) -> bool:
        """Whether ``push(move)`` would play it."""
    def push(self, move: str) -> None:
        """Plays a move; raises ``IllegalMove`` (and changes nothing) if it cannot be played."""
    def pop(self) -> str:
        """Takes back the last move and returns it; ``IndexError`` at the root."""
    def is_game_over(self) -> bool:
        """Whether the referee says the game is over (a rule, no legal move, repetition, the move-count rule)."""
    def result(self) -> Optional[GameResult]:
        """Who won and by which rule; ``None`` while the game goes on."""
    def perft(self, depth: int) -> int:
        """The number of move paths ``depth`` plies deep (the engine's ``go perft``)."""
    def copy(self) -> "Board":
        """An independent copy, its moves included."""
    def __copy__(self) -> "Board": ...
    def __deepcopy__(self, memo: object) -> "Board": ...
    def state(self) -> list[str]:
        """The lines the engine's ``d`` prints: the diagram, side, hands, ply, phase, result, SFEN."""

@final
class Score:
    """A score from the side to move's view: ``cp`` (centipawns) or ``mate`` (plies to
    mate; negative when being mated). The other is ``None``."""

    @property
    def cp(self) -> Optional[int]: ...
    @property
    def mate(self) -> Optional[int]: ...

@final
class Line:
    """One principal variation as the search's last report left it."""

    @property
    def multipv(self) -> int:
        """1 for the best line."""
    @property
    def score(self) -> Optional[Score]: ...
    @property
    def depth(self) -> int: ...
    @property
    def seldepth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def nps(self) -> int: ...
    @property
    def time_ms(self) -> int: ...
    @property
    def pv(self) -> list[str]: ...

@final
class Analysis:
    """What a search found: its move and its lines, best first."""

    @property
    def bestmove(self) -> Optional[str]:
        """The move; ``None`` only when there is no legal move."""
    @property
    def ponder(self) -> Optional[str]: ...
    @property
    def book(self) -> bool:
        """Whether the move came from the opening book (then there are no lines)."""
    @property
    def lines(self) -> list[Line]: ...
    @property
    def score(self) -> Optional[Score]:
        """The best line's score."""
    @property
    def depth(self) -> int:
        """The best line's depth (0 for a book move)."""
    @property
    def nodes(self) -> int: ...
    @property
    def pv(self) -> list[str]:
        """The best line's principal variation."""

@final
class Engine:
    """The koma engine in this process, for one variant.

    ``Engine(variant="shogi66", threads=1, hash_mb=16, **options)``: ``options`` are the
    engine's USI options by name (``MultiPV`` excepted: ``analyse`` sets it), e.g.
    ``KokesuEval="nnue"`` or ``USI_OwnBook=False``; a bad one raises ``ValueError``
    (``USI_Variant`` too: the variant is the engine's for good), and a ``hash_mb`` the
    system will not give raises ``MemoryError``.
    ``MinimumThinkingTime`` is 0 unless given. A search runs on the engine's threads
    while the calling thread waits without the GIL; searches of one engine from several
    threads take turns, and ``stop()`` or Ctrl-C ends the running one.
    """

    def __new__(cls, variant: str = "shogi66", threads: int = 1, hash_mb: int = 16, **options: object) -> "Engine": ...
    @property
    def variant(self) -> str: ...
    def setoption(self, name: str, value: object) -> None:
        """Sets an engine option; a bad name or value raises ``ValueError`` (``USI_Variant``
        too: make another Engine for another variant), a ``USI_Hash`` the system will not
        give ``MemoryError`` (the table keeps its old size)."""
    def analyse(
        self,
        board: Board,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime: Optional[int] = None,
        multipv: int = 1,
    ) -> Analysis:
        """Searches the board's position (its moves included, for repetitions) within the
        limits given (at least one; ``movetime`` in milliseconds; depth 1 to 127, nodes
        and movetime at least 1, multipv 1 to 64, as ``koma analyse``). ``ValueError`` for
        a limit out of range, a board of another variant or a finished game."""
    def play(
        self,
        board: Board,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime: Optional[int] = None,
    ) -> Optional[str]:
        """The move the engine plays in the board's position (``analyse(...).bestmove``)."""
    def stop(self) -> None:
        """Ends the running search; it answers with what it has found."""

@final
class Solution:
    """The exact value of a game for the side to move."""

    @property
    def value(self) -> Optional[str]:
        """``"win"``, ``"loss"``, ``"draw"``, or ``None`` when the budget ran out first."""
    @property
    def plies(self) -> Optional[int]:
        """Plies to the end with best play (the fastest win, the slowest loss); 0 for a draw."""
    @property
    def bestmove(self) -> Optional[str]:
        """A move that keeps the value; ``None`` when the game is over or the value unknown."""
    @property
    def nodes(self) -> int: ...
    @property
    def ms(self) -> int: ...

def solve(board: Board, max_ms: Optional[int] = None, max_nodes: Optional[int] = None) -> Solution:
    """The exact value of the position (the shipped table, else the solver) in the games the
    engine solves (Number Shogi after setup, Kani Shogi, Kani Nari Ebi), within the budget
    given; ``ValueError`` for another game or a position in the placement phase. Give a budget:
    a drawn position with a big reachable space runs until memory runs out."""
