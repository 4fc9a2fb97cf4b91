"""koma.Engine: searches on every game, typed results, MultiPV, searches from two Python
threads at once, stop() and the GIL released while a search runs."""

import _thread
import threading
import time

import koma
import pytest
from conftest import VARIANTS


@pytest.mark.parametrize("variant", VARIANTS)
def test_analyse_every_game(variant):
    engine = koma.Engine(variant, USI_OwnBook=False)
    board = koma.Board(variant)
    a = engine.analyse(board, depth=3)
    assert a.bestmove in board.legal_moves and not a.book
    assert a.depth == 3 and a.nodes > 0 and a.pv and a.pv[0] == a.bestmove
    assert a.score is not None and (a.score.cp is None) != (a.score.mate is None)
    assert engine.play(board, nodes=500) in board.legal_moves


def test_multipv_lines_best_first():
    engine = koma.Engine("kokesu")
    a = engine.analyse(koma.Board("kokesu"), depth=4, multipv=3)
    assert [line.multipv for line in a.lines] == [1, 2, 3]
    assert len({line.pv[0] for line in a.lines}) == 3
    assert a.lines[0].pv[0] == a.bestmove
    scores = [line.score.cp for line in a.lines if line.score is not None]
    assert scores == sorted(scores, reverse=True)


def test_a_mate_is_found_and_the_engines_rules_are_the_boards():
    # Kokesu: the queen mates on 7b (b7) from 7c.
    engine = koma.Engine("kokesu")
    board = koma.Board("kokesu", sfen="k7/8/1QK5/8/8/8/8/8 b - 1")
    a = engine.analyse(board, depth=3)
    assert a.score is not None and a.score.mate == 1
    board.push(a.bestmove or "")
    assert board.result() is not None and board.result().reason == "checkmate"
    # With free promotion the pawn may become a queen at once, though nothing was captured.
    free = koma.Board("kokesu", sfen="k7/4P3/8/8/8/8/8/K7 b - 1", KokesuPromotion="free")
    assert engine.play(free, depth=2) in {"4b4aq", "4b4ar"}
    assert (
        engine.play(koma.Board("kokesu", sfen="k7/4P3/8/8/8/8/8/K7 b - 1"), depth=2)
        in koma.Board("kokesu", sfen="k7/4P3/8/8/8/8/8/K7 b - 1").legal_moves
    )


def test_book_move_in_66_shogi_placement():
    a = koma.Engine("shogi66").analyse(koma.Board("shogi66"), depth=2)
    assert a.book and a.bestmove in koma.Board("shogi66").legal_moves and a.lines == []


def test_two_threads_search_at_once():
    """Two engines search side by side, and one engine's searches from two threads take
    turns; every answer is the one the same search gives alone."""
    board = koma.Board("kaninariebi")
    alone = koma.Engine("kaninariebi")
    # An engine keeps its table from one search to the next: the second may differ.
    first, second = [(a.bestmove, a.nodes) for a in (alone.analyse(board, nodes=3000) for _ in range(2))]
    engines = [koma.Engine("kaninariebi"), koma.Engine("kaninariebi")]
    shared = koma.Engine("kaninariebi")
    results = {}

    def run(key, engine):
        a = engine.analyse(board, nodes=3000)
        results[key] = (a.bestmove, a.nodes)

    threads = [threading.Thread(target=run, args=(i, e)) for i, e in enumerate(engines)]
    threads += [threading.Thread(target=run, args=(i + 2, shared)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert results[0] == results[1] == first, results
    assert sorted([results[2], results[3]]) == sorted([first, second]), results


def test_the_gil_is_released_and_stop_ends_a_search():
    engine = koma.Engine("kokesu")
    board = koma.Board("kokesu")
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("a", engine.analyse(board, movetime=600_000)))
    t.start()
    # Python runs on while the search does: the counter moves.
    count = 0
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        count += 1
    assert count > 1000 and t.is_alive()
    # A stop before the search has started is lost as a USI `stop` would be: send again.
    deadline = time.monotonic() + 120
    while t.is_alive() and time.monotonic() < deadline:
        engine.stop()
        t.join(timeout=0.5)
    assert not t.is_alive()
    assert out["a"].bestmove in board.legal_moves


def test_ctrl_c_stops_perft_a_search_and_the_solver():
    """A KeyboardInterrupt reaches the waiting thread, stops the work and is raised."""
    for work in (
        lambda: koma.Board("kokesu").perft(9),
        lambda: koma.Engine("kokesu").analyse(koma.Board("kokesu"), movetime=600_000),
        lambda: koma.solve(koma.Board("numbershogi", sfen="cbf/ead/3/ABD/CFE b - 13")),
    ):
        timer = threading.Timer(0.5, _thread.interrupt_main)
        timer.start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            work()
        assert time.monotonic() - started < 120
