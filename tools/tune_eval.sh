#!/bin/sh
# Reproduces an evaluation's weights file from koma's own games (docs/TUNING.md).
#   FSF=/path/to/fairy-stockfish tools/tune_eval.sh kokesu   # writes src/games/kokesu/weights.txt
#   FSF=/path/to/fairy-stockfish tools/tune_eval.sh kokesu-danger  # kokesu's king danger alone
#   FSF=/path/to/fairy-stockfish tools/tune_eval.sh shogi66  # writes src/games/shogi66/weights.txt
#   tools/tune_eval.sh kanishogi  # writes src/games/kanishogi/weights.txt
#   tools/tune_eval.sh kaninariebi  # writes src/games/kaninariebi/weights.txt
#   tools/tune_eval.sh numbershogi # writes src/games/numbershogi/weights.txt
# Deterministic at a given commit: the games are played at fixed nodes from a seed, the
# tuner is full-batch. A different search or evaluation plays different games. Kokesu and
# 66 shogi positions are scored by Fairy-Stockfish (FSF: a native build, as
# tests/reference/kokesu_pyffish.py makes it); the other games learn from koma's own.
set -eu
variant=${1:?usage: tools/tune_eval.sh kokesu|kokesu-danger|shogi66|kanishogi|kaninariebi|numbershogi}
cd "$(dirname "$0")/.."
mkdir -p target/tune
nice -n 10 cargo build --release --example selfplay_data --example tune
bin=target/release/examples
case "$variant" in
kokesu)
    # 800 games (seeds 1 and 2, 400 each), 8000 nodes a move, 4-8 random opening plies,
    # with the weights in use; every position scored by a 10000-node Fairy-Stockfish
    # search (tools/fsf_label.py, kokesu with promotion to captured kinds; the scores'
    # scale fitted to the results, --score-k fit); the target mixes the game result in at
    # a quarter (--lambda 0.25); starting from the weights in use.
    fsf=${FSF:?set FSF to a Fairy-Stockfish binary: tests/reference/kokesu_pyffish.py builds one}
    for seed in 1 2; do
        nice -n 10 $bin/selfplay_data --variant kokesu --games 400 --nodes 8000 --seed $seed > target/tune/kokesu-g$seed.txt
    done
    cat target/tune/kokesu-g1.txt target/tune/kokesu-g2.txt > target/tune/kokesu-800.txt
    nice -n 10 python3 -m tools.fsf_label --variant kokesu --fsf "$fsf" --nodes 10000 --jobs 2 \
        --in target/tune/kokesu-800.txt --out target/tune/kokesu-800-fsf.txt
    nice -n 10 $bin/tune --variant kokesu --data target/tune/kokesu-800-fsf.txt --from src/games/kokesu/weights.txt \
        --epochs 300 --rate 1 --l2 0.00000001 --lambda 0.25 --score-k fit --out src/games/kokesu/weights.txt
    ;;
kokesu-danger)
    # The king danger sum alone (danger_*, issue 43): 160 games (seeds 1 and 2, 80 each),
    # 4000 nodes a move, every position scored by a 5000-node Fairy-Stockfish search;
    # from the weights in use with danger_* set to weights_initial.txt's (Stockfish's,
    # scaled), three rounds of 300 epochs with every other weight frozen, each round
    # refitting K to its starting weights (the first round's K, fitted with the untuned
    # sum, is too small). Writes target/tune/kokesu-danger.txt, not the weights in use.
    fsf=${FSF:?set FSF to a Fairy-Stockfish binary: tests/reference/kokesu_pyffish.py builds one}
    for seed in 1 2; do
        nice -n 10 $bin/selfplay_data --variant kokesu --games 80 --nodes 4000 --seed $seed > target/tune/kokesu-d$seed.txt
    done
    cat target/tune/kokesu-d1.txt target/tune/kokesu-d2.txt > target/tune/kokesu-160.txt
    nice -n 10 python3 -m tools.fsf_label --variant kokesu --fsf "$fsf" --nodes 5000 --jobs 2 \
        --in target/tune/kokesu-160.txt --out target/tune/kokesu-160-fsf.txt
    { grep -v '^danger_' src/games/kokesu/weights.txt; grep '^danger_' src/games/kokesu/weights_initial.txt; } \
        > target/tune/kokesu-danger-0.txt
    others=$(grep -o '^[a-z_0-9]*' src/games/kokesu/weights.txt | grep -v '^danger_' | paste -sd, -)
    for round in 1 2 3; do
        nice -n 10 $bin/tune --variant kokesu --data target/tune/kokesu-160-fsf.txt \
            --from target/tune/kokesu-danger-$((round - 1)).txt --freeze "$others" \
            --epochs 300 --rate 1 --l2 0.00000001 --lambda 0.25 --score-k fit --out target/tune/kokesu-danger-$round.txt
    done
    cp target/tune/kokesu-danger-3.txt target/tune/kokesu-danger.txt
    ;;
shogi66)
    # 800 games from random placements (seeds 1 and 2, 400 each), 8000 nodes a move, with
    # the weights in use; every position scored by a 10000-node Fairy-Stockfish search
    # (tools/fsf_label.py; the score's scale is fitted to the results, --score-k fit);
    # the target mixes the game result in at a quarter (--lambda 0.25); starting from the
    # weights in use.
    # The rounds so far appended each round's games to the earlier ones (docs/TUNING.md).
    fsf=${FSF:?set FSF to a Fairy-Stockfish binary: tests/reference/kokesu_pyffish.py builds one}
    nice -n 10 $bin/selfplay_data --variant shogi66 --games 400 --nodes 8000 --seed 1 > target/tune/shogi66-s1.txt
    nice -n 10 $bin/selfplay_data --variant shogi66 --games 400 --nodes 8000 --seed 2 > target/tune/shogi66-s2.txt
    cat target/tune/shogi66-s1.txt target/tune/shogi66-s2.txt > target/tune/shogi66-800.txt
    nice -n 10 python3 -m tools.fsf_label --variant shogi66 --fsf "$fsf" --nodes 10000 --jobs 2 \
        --in target/tune/shogi66-800.txt --out target/tune/shogi66-800-fsf.txt
    nice -n 10 $bin/tune --variant shogi66 --data target/tune/shogi66-800-fsf.txt --from src/games/shogi66/weights.txt \
        --epochs 600 --rate 1 --l2 0.000000001 --lambda 0.25 --score-k fit --out src/games/shogi66/weights.txt
    ;;
kanishogi)
    # 800 games (seeds 1 and 2, 400 each), 8000 nodes a move, 2-4 random opening plies;
    # the games' own search scores; starting from the hand-set weights.
    nice -n 10 $bin/selfplay_data --variant kanishogi --games 400 --nodes 8000 --seed 1 > target/tune/kanishogi-s1.txt
    nice -n 10 $bin/selfplay_data --variant kanishogi --games 400 --nodes 8000 --seed 2 > target/tune/kanishogi-s2.txt
    cat target/tune/kanishogi-s1.txt target/tune/kanishogi-s2.txt > target/tune/kanishogi-800.txt
    nice -n 10 $bin/tune --variant kanishogi --data target/tune/kanishogi-800.txt \
        --epochs 400 --rate 1 --l2 0.0000002 --lambda 0.25 --out src/games/kanishogi/weights.txt
    ;;
kaninariebi)
    # One round: 800 games (seeds 3 and 4, 400 each), 8000 nodes a move, 2-4 random
    # opening plies, with the weights in use; the games' own search scores; starting from
    # the weights in use. (The first round, commit 5f34ca8, played seeds 1 and 2 with the
    # hand-set weights and started from them, without --from.)
    nice -n 10 $bin/selfplay_data --variant kaninariebi --games 400 --nodes 8000 --seed 3 > target/tune/kaninariebi-s3.txt
    nice -n 10 $bin/selfplay_data --variant kaninariebi --games 400 --nodes 8000 --seed 4 > target/tune/kaninariebi-s4.txt
    cat target/tune/kaninariebi-s3.txt target/tune/kaninariebi-s4.txt > target/tune/kaninariebi-r2.txt
    nice -n 10 $bin/tune --variant kaninariebi --data target/tune/kaninariebi-r2.txt --from src/games/kaninariebi/weights.txt \
        --epochs 400 --rate 1 --l2 0.0000002 --lambda 0.25 --out src/games/kaninariebi/weights.txt
    ;;
numbershogi)
    # 24000 games (seeds 1 and 2, 12000 each) from random placements, 1500 nodes a move
    # (the games are short and tactical: few nodes keep the undecided positions); the
    # games' own search scores; starting from the hand-set weights. The data of the
    # weights in use was played with weights.txt == weights_initial.txt (commit 9ebca1e).
    nice -n 10 $bin/selfplay_data --variant numbershogi --games 12000 --nodes 1500 --seed 1 > target/tune/numbershogi-s1.txt
    nice -n 10 $bin/selfplay_data --variant numbershogi --games 12000 --nodes 1500 --seed 2 > target/tune/numbershogi-s2.txt
    cat target/tune/numbershogi-s1.txt target/tune/numbershogi-s2.txt > target/tune/numbershogi-24000.txt
    nice -n 10 $bin/tune --variant numbershogi --data target/tune/numbershogi-24000.txt \
        --epochs 400 --rate 1 --l2 0.0000002 --lambda 0.25 --out src/games/numbershogi/weights.txt
    ;;
*)
    echo "no tuning pipeline for $variant" >&2
    exit 2
    ;;
esac
