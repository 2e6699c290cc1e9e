#!/usr/bin/env bash
# Plays a set of 5-point matches between Tabula (seat 1, over gnubg's external-player
# interface) and GNU Backgammon at 0-ply for chequer play and cube (seat 0), has gnubg analyse
# each match right after it ends, prints gnubg's statistics, and saves every match
# (docs/gnubg.md, "Twelve 5-point matches on the neural bot").
#
#   scripts/gnubg_matches.sh OUT_DIR [COUNT] [LEVEL] [PORT]
#
# Defaults: 12 matches, level strong, port 4399. Writes OUT_DIR/commands.txt,
# OUT_DIR/gnubg.log (everything gnubg printed), OUT_DIR/tabula.log, and for match N
# OUT_DIR/matchN.mat (Jellyfish .mat, for `tabula analyse`) and OUT_DIR/matchN.sgf (saved
# after gnubg's analysis, so it keeps gnubg's per-move evaluations and marks).
set -euo pipefail
out=${1:?output folder}
count=${2:-12}
level=${3:-strong}
port=${4:-4399}
mkdir -p "$out"
out=$(cd "$out" && pwd)
source "$(dirname "$0")/gnubg_lib.sh"
start_tabula "$out" "$level" "$port"
{
    players "$port"
    for n in $(seq "$count"); do
        echo "set player 1 external 127.0.0.1:$port"
        echo "new match 5"
        echo "show score"
        echo "set player 1 human"
        echo "analyse match"
        echo "show statistics match"
        echo "export match mat $out/match$n.mat"
        echo "save match $out/match$n.sgf"
    done
} >"$out/commands.txt"
"$gnubg" -t -q <"$out/commands.txt" >"$out/gnubg.log" 2>&1
grep -n "Error rate\|rating" "$out/gnubg.log" || true
