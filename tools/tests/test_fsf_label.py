"""Unit tests of tools/lib/fsf.py's FEN, as tools/fsf_label.py gives it to Fairy-Stockfish:
python3 -m unittest discover -s tools/tests -t .

The positions koma writes must reach Fairy-Stockfish as the same positions. With pyffish
installed (pyproject.toml, as in CI) each converted FEN is also checked
by Fairy-Stockfish itself: accepted, with the side to move and the move count koma gives."""

import unittest

from tools.lib import fsf

try:
    import pyffish as sf
except ImportError:
    sf = None


class FenOf(unittest.TestCase):
    def test_kokesu_side_to_move_and_no_hand(self):
        # koma's sente (b, upper case) is white.
        self.assertEqual(fsf.fen_of("kokesu", "k7/8/8/3q4/8/8/8/3R2K1 b - 1"), "k7/8/8/3q4/8/8/8/3R2K1 w - - 0 1")
        self.assertEqual(
            fsf.fen_of("kokesu", "rnbqkbnr/ppppp1pp/8/8/5p2/2N4N/PPPPPPPP/R1BQKB1R b - 5"),
            "rnbqkbnr/ppppp1pp/8/8/5p2/2N4N/PPPPPPPP/R1BQKB1R w - - 0 1",
        )
        self.assertTrue(fsf.fen_of("kokesu", "4k3/8/8/8/8/8/8/4K3 w - 8").split()[1] == "b")

    def test_shogi66_hands_spelt_out(self):
        self.assertEqual(
            fsf.fen_of("shogi66", "lksr1g/2p1pp/pp1p2/2P1P1/PP3P/SRKNLG b Np 21"),
            "lksr1g/2p1pp/pp1p2/2P1P1/PP3P/SRKNLG[Np] w - - 0 1",
        )

    @unittest.skipIf(sf is None, "pyffish is not installed")
    def test_fairy_stockfish_reads_them_as_koma_does(self):
        # (koma SFEN, koma's rules, number of legal moves koma gives there)
        cases = [
            ("kokesu", "rnbqkbnr/ppppp1pp/8/8/5p2/2N4N/PPPPPPPP/R1BQKB1R b - 5", 21),
            ("kokesu", "k7/8/8/3q4/8/8/8/3R2K1 w - 1", 29),
            ("shogi66", "lksr1g/pppppp/3n2/2P3/PP1PPP/SRKNLG b - 15", 7),
            ("shogi66", "lksr1g/2p1pp/pp1p2/2P1P1/PP3P/SRKNLG b Np 21", 19),
        ]
        for variant, sfen, count in cases:
            name, _ = fsf.variant_setup(variant, {})
            fsf.load_pyffish()
            fen = fsf.fen_of(variant, sfen)
            self.assertEqual(sf.validate_fen(fen, name), sf.FEN_OK, fen)
            self.assertEqual(sf.get_fen(name, fen, []).split()[1], "w" if sfen.split()[1] == "b" else "b")
            if count is not None:
                self.assertEqual(len(sf.legal_moves(name, fen, [])), count, fen)


if __name__ == "__main__":
    unittest.main()
