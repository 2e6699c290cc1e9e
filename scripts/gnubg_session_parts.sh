#!/usr/bin/env bash
# A long money session against GNU Backgammon 0-ply in parts that survive an interruption:
# part K is `scripts/gnubg_session.sh OUT_DIR/partK GAMES LEVEL PORT` (played, saved, then
# analysed by gnubg), and a part whose analysis is saved is kept, so running the same command
# again goes on where it stopped (an unfinished part is played again from its start).
# scripts/session_summary.py adds the parts' statistics up:
#
#   scripts/gnubg_session_parts.sh OUT_DIR PARTS GAMES_PER_PART [LEVEL] [PORT]
#   python3 scripts/session_summary.py OUT_DIR/part*
#
# TABULA_BIN names another binary than target/release/tabula (scripts/gnubg_lib.sh); gnubg
# seeds its dice afresh in every process, so the parts are different games.
set -euo pipefail
out=${1:?output folder}
parts=${2:?number of parts}
games=${3:?games per part}
level=${4:-strong}
port=${5:-4331}
here=$(cd "$(dirname "$0")/.." && pwd)
session_part() { "$here/scripts/gnubg_session.sh" "$1" "$games" "$level" "$port"; }
source "$here/scripts/gnubg_lib.sh"
run_parts "$out" "$parts" analysed.sgf session_part
