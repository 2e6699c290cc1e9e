#!/usr/bin/env bash
# Rebuilds gnubg's analysed SGF of saved matches from their Jellyfish .mat files (the
# committed form of a match set, measurements/gnubg/*): for each DIR/matchN.mat without a
# DIR/matchN.sgf, GNU Backgammon imports it, analyses it with its default analysis (2-ply
# cubeful) and saves it. Resumes where it stopped (one gnubg process a match; an SGF is
# written only when its analysis is complete). Then scripts/compare_analysis.py reads the
# folders as gnubg_matches.sh left them.
#
#   scripts/gnubg_reanalyse.sh DIR...
#   GNUBG_PLIES=3 scripts/gnubg_reanalyse.sh DIR...   # a deeper judge: chequer play and cube
#                                                     # at 3 plies, gnubg's default filters
set -euo pipefail
gnubg=$(command -v gnubg || echo /usr/games/gnubg)
for dir in "$@"; do
    for mat in "$dir"/match*.mat; do
        sgf=${mat%.mat}.sgf
        [ -s "$sgf" ] && continue
        {
            if [ -n "${GNUBG_PLIES:-}" ]; then
                echo "set threads ${GNUBG_THREADS:-2}"
                echo "set analysis chequerplay evaluation plies $GNUBG_PLIES"
                echo "set analysis cubedecision evaluation plies $GNUBG_PLIES"
            fi
            printf 'import mat %s\nanalyse match\nsave match %s.tmp.sgf\n' "$mat" "${sgf%.sgf}"
        } |
            "$gnubg" -t -q >/dev/null 2>&1
        mv "${sgf%.sgf}.tmp.sgf" "$sgf"
        echo "$sgf"
    done
done
