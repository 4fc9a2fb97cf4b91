"""Fairy-Stockfish (pyffish) agrees with the binding's legal moves where it can express
the game: 66 shogi after its placement phase, and Kokesu (tests/reference/ says how each
is set up; tools/data/fsf_variants.ini holds the variant definitions)."""

import random

import koma
import pytest

sf = pytest.importorskip("pyffish")
import kokesu_pyffish  # noqa: E402
import shogi66_pyffish  # noqa: E402

# pyffish takes about a millisecond a call (and 66 shogi's check of pawn-drop mates
# several): a few games, each to its end or PLIES positions.
GAMES = 3
PLIES = 120


def chess_to_usi(m, files=8):
    """A Fairy-Stockfish move on an 8x8 board (a8 = 8a) as a koma token."""

    def sq(s):
        return "%d%s" % (files - (ord(s[0]) - ord("a")), "abcdefgh"[files - int(s[1:])])

    return sq(m[0:2]) + sq(m[2:4]) + m[4:]


def play_out(board, rng, fsf_moves):
    """Random moves to the end, checking pyffish's moves at every position."""
    checked = 0
    while not board.is_game_over() and checked < PLIES:
        mine = board.legal_moves.usi()
        assert sorted(fsf_moves(board.sfen())) == sorted(mine), board.sfen()
        checked += 1
        board.push(rng.choice(mine))
    return checked


def test_shogi66_after_placement():
    shogi66_pyffish.load_variant()

    def fsf_moves(sfen):
        grid, side, hands, _ = shogi66_pyffish.parse_sfen(sfen)
        fen = shogi66_pyffish.to_fen(grid, side, hands)
        return [shogi66_pyffish.ff_token(m) for m in shogi66_pyffish.ff_moves(fen)]

    checked = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        board = koma.Board("shogi66")
        while board.phase == "placement":
            board.push(rng.choice(list(board.legal_moves)))
        checked += play_out(board, rng, fsf_moves)
    assert checked > 100


def test_kokesu():
    with open(kokesu_pyffish.VARIANTS_INI) as f:
        sf.load_variant_config(f.read())

    def fsf_moves(sfen):
        fen = kokesu_pyffish.sfen_to_fen(sfen)
        return [chess_to_usi(m) for m in kokesu_pyffish.kokesu_filter(sf.legal_moves("kokesu-captured", fen, []))]

    checked = sum(play_out(koma.Board("kokesu"), random.Random(seed), fsf_moves) for seed in range(GAMES))
    assert checked > 100
