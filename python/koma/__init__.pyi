"""koma: the rules, the engine and the solver of five small games.

66 shogi (``shogi66``), Kokesu (``kokesu``), Number Shogi (``numbershogi``), Kani Shogi
(``kanishogi``) and Kani Nari Ebi (``kaninariebi``). Every rule, the referee, perft, the
search and the solver are the koma engine's own (a Rust crate; this module is its
binding). A move is a ``Move``, the USI token the engine writes (protocol/rules.md) with
its parts; a crab turn of the two crab games is one token, and wherever a move is taken
its token will do. Squares are ``Square`` values (``"2f"``), pieces ``Piece`` values
(``"+p"``). Sides are ``"b"`` (sente, the first player) and ``"w"``.
"""

from collections.abc import Iterator
from typing import Optional, Union, final

from . import records as records

__all__ = [
    "Analysis",
    "Board",
    "Engine",
    "GameResult",
    "IllegalMove",
    "InvalidSfen",
    "LegalMoves",
    "Line",
    "Move",
    "Piece",
    "Score",
    "Solution",
    "Square",
    "records",
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
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Square:
    """A square by its name, file digits then rank letter (``Square("2f")``): ``file`` 1 is
    the rightmost column of the diagram, ``rank`` 1 (``a``) its top row."""

    def __new__(cls, name: str) -> "Square": ...
    @property
    def file(self) -> int:
        """The file, 1 for the rightmost column of the diagram."""
    @property
    def rank(self) -> int:
        """The rank, 1 for the top row (``a``)."""
    @property
    def name(self) -> str:
        """The square's name, e.g. ``2f``."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Piece:
    """A piece by its SFEN symbol (``Piece("+p")``): its ``kind`` (the unpromoted letter,
    uppercase), its ``side`` (``"b"`` or ``"w"``) and whether it is ``promoted``."""

    def __new__(cls, symbol: str) -> "Piece": ...
    @property
    def kind(self) -> str:
        """The piece's letter, uppercase, without ``+``: ``P``, ``K``, ``C``..."""
    @property
    def side(self) -> str:
        """The owner: ``"b"`` (sente, uppercase in SFEN) or ``"w"``."""
    @property
    def promoted(self) -> bool:
        """Whether the piece is promoted (``+`` in SFEN: a shogi promotion, a grown crab, a shrimp)."""
    def symbol(self) -> str:
        """The SFEN symbol: ``+`` if promoted, the letter uppercase for sente (``"+p"``, ``"K"``)."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Move:
    """A move of a board, as its USI token: ``Move.from_usi(board, "7g7f")`` (checked legal
    there), or from ``board.legal_moves``. Its parts: ``from_square`` (``None`` for a drop),
    ``to_square``, ``drop`` (the dropped piece's letter), ``promotion`` (``"+"``, or Kokesu's
    ``q``/``r``/``b``/``n``) and, for a crab turn with a bond move, ``bond``: that second
    step as a ``Move``. Moves are equal when their tokens are."""

    @staticmethod
    def from_usi(board: "Board", text: str) -> "Move":
        """The move ``text`` (a USI token) of ``board``'s position, as the engine writes it;
        ``IllegalMove`` if it is malformed or not legal there."""
    def usi(self) -> str:
        """The USI token, e.g. ``7g7f``, ``P*3d``, ``5d2d,2d1e+``."""
    @property
    def from_square(self) -> Optional[Square]:
        """Where the moved piece stood; ``None`` for a drop."""
    @property
    def to_square(self) -> Square:
        """Where the move (its first step, for a crab turn) ends."""
    @property
    def drop(self) -> Optional[str]:
        """The dropped piece's letter (uppercase for either side); ``None`` for a board move."""
    @property
    def promotion(self) -> Optional[str]:
        """``"+"`` (promotes, grows), Kokesu's piece letter ``q``/``r``/``b``/``n``, or ``None``."""
    @property
    def bond(self) -> Optional["Move"]:
        """A crab turn's bond move (its from square is where the piece stands after the
        first step), or ``None``."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class LegalMoves:
    """The legal moves of a board's position when asked (none once the game is over):
    iterable (``Move`` values), ``len()``, ``move in board.legal_moves`` for a ``Move``
    or a USI token, ``list()``."""

    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __iter__(self) -> Iterator[Move]: ...
    def count(self) -> int:
        """The number of legal moves."""
    def usi(self) -> list[str]:
        """The moves' USI tokens, in the engine's order."""

@final
class Board:
    """One game: its rules switches, the position and the moves played since its root.

    ``Board(variant="shogi66", sfen=None, fen=None, **switches)``: the start position, or
    ``sfen``, or ``fen`` (as ``fen()`` writes it);
    ``switches`` are the game's rules switches by their option names, e.g.
    ``Board("kokesu", KokesuPromotion="free")``. An unknown variant or switch raises
    ``ValueError``, a bad SFEN ``InvalidSfen``. Boards are equal when their variant, rules
    switches and SFEN (the position and its ply) are, whatever moves led there (as in
    python-chess); a board hashes by the same, so do not change one kept in a set.
    """

    def __new__(
        cls, variant: str = "shogi66", sfen: Optional[str] = None, fen: Optional[str] = None, **switches: str
    ) -> "Board": ...
    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def turn(self) -> str:
        """The side to move: ``"b"`` (sente, the first player) or ``"w"``."""
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
    def move_stack(self) -> list[Move]:
        """The moves played since the root, oldest first."""
    @property
    def switches(self) -> dict[str, str]:
        """The rules switches given when the board was made."""
    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves; none once the game is over."""
    def sfen(self) -> str:
        """The current position as SFEN."""
    def fen(self) -> str:
        """The current position as FEN, as Fairy-Stockfish writes the game (Kokesu, 66 shogi,
        Number Shogi; ``ValueError`` for the crab games, which have none)."""
    def is_legal(self, move: Union[Move, str]) -> bool:
        """Whether ``push(move)`` would play it (a ``Move`` or a USI token)."""
    def push(self, move: Union[Move, str]) -> None:
        """Plays a move (a ``Move`` or a USI token); raises ``IllegalMove`` (and changes
        nothing) if it cannot be played."""
    def push_usi(self, text: str) -> Move:
        """Plays the move of USI token ``text`` and returns it, as ``push``."""
    def pop(self) -> Move:
        """Takes back the last move and returns it; ``IndexError`` at the root."""
    def peek(self) -> Move:
        """The last move played; ``IndexError`` at the root."""
    def san(self, move: Union[Move, str]) -> str:
        """The move's SAN, as Kokesu's PGN writes it (``e4``, ``Nbd2``, ``Qxf7#``, ``e8=Q``);
        ``IllegalMove`` for a move not legal here, ``ValueError`` in another game."""
    def kif(self, move: Union[Move, str]) -> str:
        """The move's Japanese name as KIF writes it without its from square (``☗２六歩``,
        ``☖同　歩``, ``☗５五角打``), in 66 shogi and Number Shogi; errors as ``san``."""
    def western(self, move: Union[Move, str]) -> str:
        """The move in Western (Hodges) notation (``P-2f``, ``Sx3c+``, ``P*5e``), in 66 shogi
        and Number Shogi (pieces ``1``..``6``); errors as ``san``."""
    def parse_san(self, text: str) -> Move:
        """The legal move that SAN ``text`` names; ``IllegalMove`` if none or several do."""
    def push_san(self, text: str) -> Move:
        """Plays the move that SAN ``text`` names and returns it, as ``parse_san``."""
    def parse_move(self, text: str, style: str = "usi") -> Move:
        """The legal move ``text`` names in ``style``: ``"usi"``, ``"san"`` (Kokesu),
        ``"kif"`` or ``"western"`` (66 shogi, Number Shogi); ``IllegalMove`` if none or
        several do, ``ValueError`` for a style the game has not."""
    def piece_at(self, square: Union[Square, str]) -> Optional[Piece]:
        """The piece on ``square`` (a ``Square`` or its name), ``None`` if it is empty;
        ``ValueError`` for a square off the board."""
    def piece_map(self) -> list[tuple[Square, Piece]]:
        """Every piece on the board with its square, rank by rank from the top."""
    def pieces(self, kind: str, side: str, promoted: Optional[bool] = None) -> list[Square]:
        """The squares of ``side``'s pieces of ``kind`` (a letter, any case), promoted or
        not unless ``promoted`` says which."""
    def hand(self, side: str) -> dict[str, int]:
        """The pieces ``side`` holds in hand: their letters (uppercase) and counts."""
    def is_check(self) -> bool:
        """Whether the side to move is in check (never in the games without check)."""
    def checkers(self) -> list[Square]:
        """The squares of the pieces giving check to the side to move."""
    def attackers(self, side: str, square: Union[Square, str]) -> list[Square]:
        """The squares of ``side``'s pieces that attack ``square``, as the engine's attack
        tables see them (pins ignored, whatever stands there). In the crab games, where a
        capture is a sandwich, the pieces whose turn (``side`` to move) would take the piece
        on ``square``, or end on it when empty: the piece that makes the capturing step."""
    def is_checkmate(self) -> bool:
        """Whether the side to move is in check and has no legal move."""
    def repetitions(self) -> int:
        """How many times the current position has occurred since the root (1 the first time)."""
    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position has occurred at least ``count`` times since the root."""
    def is_game_over(self) -> bool:
        """Whether the referee says the game is over (a rule, no legal move, repetition, the move-count rule)."""
    def result(self) -> Optional[GameResult]:
        """Who won and by which rule; ``None`` while the game goes on."""
    def outcome(self) -> Optional[GameResult]:
        """python-chess's name for ``result()``: the winner and the rule, ``None`` while the game goes on."""
    def perft(self, depth: int) -> int:
        """The number of move paths ``depth`` plies deep (the engine's ``go perft``)."""
    def copy(self, stack: bool = True) -> "Board":
        """An independent copy, its moves included; with ``stack=False`` a board set up
        from the current position (no moves to take back, no repetition history)."""
    def __copy__(self) -> "Board": ...
    def __deepcopy__(self, memo: object) -> "Board": ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def state(self) -> list[str]:
        """The lines the engine's ``d`` prints: the diagram, side, hands, ply, phase, result, SFEN."""

@final
class Score:
    """A score from the side to move's view: ``cp`` (centipawns) or ``mate`` (plies to
    mate; negative when being mated). The other is ``None``."""

    @property
    def cp(self) -> Optional[int]:
        """Centipawns; ``None`` for a mate score."""
    @property
    def mate(self) -> Optional[int]:
        """Plies to mate (negative when being mated); ``None`` for a centipawn score."""

@final
class Line:
    """One principal variation as the search's last report left it."""

    @property
    def multipv(self) -> int:
        """1 for the best line."""
    @property
    def score(self) -> Optional[Score]:
        """The line's score; ``None`` before the search scored it."""
    @property
    def depth(self) -> int:
        """The depth searched, in plies."""
    @property
    def seldepth(self) -> int:
        """The deepest ply the search reached."""
    @property
    def nodes(self) -> int:
        """The nodes searched."""
    @property
    def nps(self) -> int:
        """Nodes a second."""
    @property
    def time_ms(self) -> int:
        """The time searched, in milliseconds."""
    @property
    def pv(self) -> list[str]:
        """The principal variation, its moves as USI tokens."""

@final
class Analysis:
    """What a search found: its move and its lines, best first."""

    @property
    def bestmove(self) -> Optional[str]:
        """The move; ``None`` only when there is no legal move."""
    @property
    def ponder(self) -> Optional[str]:
        """The reply the engine expects, if its line has one."""
    @property
    def book(self) -> bool:
        """Whether the move came from the opening book (then there are no lines)."""
    @property
    def lines(self) -> list[Line]:
        """The lines, best first (``multipv`` of them)."""
    @property
    def score(self) -> Optional[Score]:
        """The best line's score."""
    @property
    def depth(self) -> int:
        """The best line's depth (0 for a book move)."""
    @property
    def nodes(self) -> int:
        """The best line's nodes."""
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
    def variant(self) -> str:
        """The variant the engine plays."""
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
    def nodes(self) -> int:
        """The nodes the solver searched."""
    @property
    def ms(self) -> int:
        """The milliseconds it took."""

def solve(board: Board, max_ms: Optional[int] = None, max_nodes: Optional[int] = None) -> Solution:
    """The exact value of the position (the shipped table, else the solver) in the games the
    engine solves (Number Shogi after setup, Kani Shogi, Kani Nari Ebi), within the budget
    given; ``ValueError`` for another game or a position in the placement phase. Give a budget:
    a drawn position with a big reachable space runs until memory runs out."""
