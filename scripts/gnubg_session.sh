#!/usr/bin/env bash
# Plays a money session between Tabula (seat 1, over gnubg's external-player interface) and
# GNU Backgammon at 0-ply (seat 0), saves it, has gnubg analyse it, and prints gnubg's
# statistics (docs/gnubg.md).
#
#   scripts/gnubg_session.sh OUT_DIR NEW_GAME_LINES [LEVEL] [PORT]
#
# ANALYSIS_CHEQUER_PLIES=0 in the environment analyses chequer plays at that depth instead of
# gnubg's default 2 (cube decisions stay at gnubg's default 2-ply cubeful analysis): a
# quicker run when only the cube figure is wanted.
# `set automatic game off` makes each `new game` line play exactly one game (without it gnubg
# starts the next game by itself and plays on without end). Writes OUT_DIR/commands.txt,
# OUT_DIR/gnubg.log (everything gnubg printed), OUT_DIR/session.sgf (saved before the
# analysis, so the games survive an interrupted analysis) and OUT_DIR/analysed.sgf.
set -euo pipefail
out=${1:?output folder}
lines=${2:?number of new game lines}
level=${3:-strong}
port=${4:-4321}
mkdir -p "$out"
out=$(cd "$out" && pwd)
source "$(dirname "$0")/gnubg_lib.sh"
start_tabula "$out" "$level" "$port"
{
    players "$port"
    echo "set automatic game off"
    echo "new session"
    for _ in $(seq "$lines"); do echo "new game"; done
    echo "show score"
    echo "set player 1 human"
    if [ -n "${ANALYSIS_CHEQUER_PLIES:-}" ]; then
        echo "set analysis chequerplay evaluation plies $ANALYSIS_CHEQUER_PLIES"
    fi
    echo "save match $out/session.sgf"
    echo "analyse session"
    echo "save match $out/analysed.sgf"
    echo "show statistics session"
} >"$out/commands.txt"
"$gnubg" -t -q <"$out/commands.txt" >"$out/gnubg.log" 2>&1
grep -n "Error rate\|Snowie\|rating\|Luck adjusted\|Cube decision\|Chequer" "$out/gnubg.log" | tail -40 || true
