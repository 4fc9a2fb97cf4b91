"""Row "records" of issue 57: `koma.records.read` and `write` in every format the engine
has, a read game replaying onto a Board, files checked as the engine checks them."""

import os

import koma
import koma.records
import pytest
from conftest import ROOT, VARIANTS, random_game

FORMATS = {
    "shogi66": ["rokuroku", "kif", "csa", "koma"],
    "kokesu": ["pgn", "koma"],
    "numbershogi": ["kif", "koma"],
    "kanishogi": ["koma"],
    "kaninariebi": ["koma"],
}
# The format each game's players exchange, written when none is named.
NATURAL = {"shogi66": "kif", "kokesu": "pgn", "numbershogi": "kif", "kanishogi": "koma", "kaninariebi": "koma"}


def test_records_formats_are_the_engines():
    assert koma.records.formats() == ["rokuroku", "kif", "csa", "pgn", "koma"]
    for variant in VARIANTS:
        assert koma.records.formats(variant) == FORMATS[variant]


@pytest.mark.parametrize("variant", VARIANTS)
def test_records_every_format_round_trips_a_game(variant):
    board = random_game(variant, 11, max_plies=80)
    for fmt in FORMATS[variant]:
        text = koma.records.write(board, fmt)
        game = koma.records.read(text, variant=variant)
        assert game.variant == variant and game.moves == board.move_stack, fmt
        replayed = game.board()
        assert replayed == board and replayed.move_stack == board.move_stack, fmt
        if board.is_game_over():
            assert game.result is not None and game.result.winner == board.result().winner, fmt
        # Writing what was read gives the same text.
        assert koma.records.write(game, fmt) == text, fmt
    assert koma.records.write(board) == koma.records.write(board, NATURAL[variant])


def test_records_headers_rules_start_and_comments():
    text = (
        "# koma record\nvariant kokesu\nstart sfen k7/4P3/8/8/8/8/PPPP1PPP/RNBQKBNR b - 1\n"
        "rule KokesuPromotion=free\nheader sente Ann\nheader gote Bo\n"
        "move 4b4aq\ncomment a queen\n"
    )
    game = koma.records.read(text)
    assert (game.variant, game.rules, game.start) == (
        "kokesu",
        [("KokesuPromotion", "free")],
        "k7/4P3/8/8/8/8/PPPP1PPP/RNBQKBNR b - 1",
    )
    assert game.headers == [("sente", "Ann"), ("gote", "Bo")]
    assert [m.usi() for m in game.moves] == ["4b4aq"] and game.comments == ["a queen"]
    board = game.board()
    assert board.switches == {"KokesuPromotion": "free"} and board.root_sfen == game.start
    assert game.result is None and repr(game) == "<Game 'kokesu' of 1 moves>"


def test_records_read_files_as_the_engine_does(tmp_path):
    fixture = os.path.join(ROOT, "fixtures", "records", "rokuroku_20261128_123456.txt")
    game = koma.records.read(fixture)
    assert game.variant == "shogi66" and len(game.moves) > 12
    assert koma.records.read(__import__("pathlib").Path(fixture)).moves == game.moves
    assert game.board().move_stack == game.moves
    with pytest.raises(OSError, match="not a regular file|a directory"):
        koma.records.read(str(tmp_path))
    with pytest.raises(OSError):
        koma.records.read(str(tmp_path / "missing.kif"))
    big = tmp_path / "big.koma"
    big.write_bytes(b"#" * (4 * 1024 * 1024 + 1))
    with pytest.raises(OSError, match="more than|too"):
        koma.records.read(big)
    bad = tmp_path / "bad.koma"
    bad.write_text("# koma record\nvariant kokesu\nmove 9z9z\n")
    with pytest.raises(ValueError, match="koma record: line 3: "):
        koma.records.read(bad)


def test_records_errors_name_the_problem():
    with pytest.raises(ValueError, match="no record format 'sgf'"):
        koma.records.write(koma.Board("kokesu"), "sgf")
    with pytest.raises(ValueError, match="cannot hold a game of kanishogi"):
        koma.records.write(koma.Board("kanishogi"), "kif")
    with pytest.raises(ValueError, match="no variant 'chess'"):
        koma.records.read("# koma record\nvariant kokesu\n", variant="chess")
    with pytest.raises(TypeError):
        koma.records.write("a board", "koma")
