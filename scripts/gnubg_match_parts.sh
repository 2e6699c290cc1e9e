#!/usr/bin/env bash
# Plays 5-point matches against GNU Backgammon 0-ply in parts that survive an interruption:
# part K is `scripts/gnubg_matches.sh OUT_DIR/partK PER_PART LEVEL PORT`, and a part whose
# last match is saved is kept, so running the same command again goes on where it stopped
# (an unfinished part is played again from its start). Then Tabula analyses every saved
# match (`tabula analyse matchN.mat --json > matchN.json`, skipped where that exists), and
# scripts/compare_analysis.py reads all parts as one set:
#
#   scripts/gnubg_match_parts.sh OUT_DIR PARTS PER_PART [LEVEL] [PORT]
#   python3 scripts/compare_analysis.py OUT_DIR/part*
#
# TABULA_BIN names another binary than target/release/tabula (scripts/gnubg_lib.sh).
# gnubg seeds its dice afresh in every process, so the parts are different matches.
set -euo pipefail
out=${1:?output folder}
parts=${2:?number of parts}
per=${3:?matches per part}
level=${4:-strong}
port=${5:-4399}
here=$(cd "$(dirname "$0")/.." && pwd)
matches_part() { "$here/scripts/gnubg_matches.sh" "$1" "$per" "$level" "$port"; }
source "$here/scripts/gnubg_lib.sh"
run_parts "$out" "$parts" "match$per.sgf" matches_part
for mat in "$out"/part*/match*.mat; do
    json=${mat%.mat}.json
    if [ ! -s "$json" ]; then
        "${TABULA_BIN:-$here/target/release/tabula}" analyse "$mat" --json >"$json.tmp"
        mv "$json.tmp" "$json"
    fi
done
