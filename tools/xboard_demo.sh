#!/bin/sh
# koma against itself in xboard's two-machine mode, in a virtual X display (Xvfb), to the
# end of the game; then a screenshot of the window. See README ("Playing in xboard").
#
#   tools/xboard_demo.sh <kokesu|rokurokushogi|numbershogi> [outdir] [seconds per move]
#
# Needs xboard, xvfb, imagemagick (import) and xdotool (Debian: apt-get install xboard
# xvfb imagemagick xdotool) and a built engine (cargo build --release; or KOMA=path).
# Leaves in outdir: <variant>.png (the final board), <variant>.pgn (the game as xboard
# saved it) and <variant>-debug.txt (xboard's log of the CECP conversation).
set -eu
variant=${1:?usage: $0 <kokesu|rokurokushogi|numbershogi> [outdir] [seconds per move]}
out=${2:-xboard-demo}
secs=${3:-1}
koma=${KOMA:-$(pwd)/target/release/koma}
display=${XVFB_DISPLAY:-:91}
timeout=${TIMEOUT:-900}
[ -x "$koma" ] || { echo "no engine at $koma (cargo build --release, or set KOMA)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

# xboard checks every move itself where it can: kokesu has kings from the start. It finds
# no king in Number Shogi, nor in 66 shogi's placement phase, and then calls every move
# illegal, so there koma alone judges the moves (xboard -testLegality false).
case $variant in
    kokesu) legality=true ;;
    rokurokushogi | numbershogi) legality=false ;;
    *) echo "unknown variant $variant" >&2; exit 2 ;;
esac

Xvfb "$display" -screen 0 1024x768x24 >/dev/null 2>&1 &
xvfb=$!
xboard_pid=
cleanup() {
    [ -n "$xboard_pid" ] && kill "$xboard_pid" 2>/dev/null
    kill "$xvfb" 2>/dev/null
}
trap cleanup EXIT INT TERM
sleep 1

log="$out/$variant-debug.txt"
rm -f "$log" "$out/$variant.pgn"
DISPLAY=$display /usr/games/xboard \
    -fcp "$koma" -fd "$out" -scp "$koma" -secondDirectory "$out" \
    -variant "$variant" -mode TwoMachines -searchTime "0:$secs" -testLegality "$legality" \
    -debug -nameOfDebugFile "$log" -saveGameFile "$out/$variant.pgn" \
    -popupExitMessage false -boardSize Medium -autoCallFlag true >/dev/null 2>&1 &
xboard_pid=$!

# The game is over when xboard logs GameEnds with a result (the first, at start-up, has none).
waited=0
until grep -q '^GameEnds([1-9]' "$log" 2>/dev/null; do
    sleep 2
    waited=$((waited + 2))
    if [ "$waited" -ge "$timeout" ]; then
        echo "no result after $timeout s" >&2
        break
    fi
done
sleep 2
DISPLAY=$display xdotool mousemove 1000 760 2>/dev/null || true
sleep 1
DISPLAY=$display import -window root "$out/$variant.png"
grep '^GameEnds' "$log" | tail -1
echo "screenshot: $out/$variant.png"
