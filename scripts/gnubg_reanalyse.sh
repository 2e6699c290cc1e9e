#!/usr/bin/env bash
# Rebuilds gnubg's analysed SGF of saved matches from their Jellyfish .mat files (the
# committed form of a match set, measurements/gnubg/*): for each DIR/matchN.mat without a
# DIR/matchN.sgf, GNU Backgammon imports it, analyses it with its default analysis (2-ply
# cubeful) and saves it, and writes its statistics of the match to DIR/matchN.stats. Resumes
# where it stopped (one gnubg process a match; an SGF is written only when its analysis is
# complete). Then scripts/compare_analysis.py reads the folders as gnubg_matches.sh left
# them, and scripts/compare_judges.py compares two depths of gnubg's analysis with Tabula's.
#
#   scripts/gnubg_reanalyse.sh DIR...
#   GNUBG_PLIES=3 scripts/gnubg_reanalyse.sh DIR...   # a deeper judge: chequer play and cube
#                                                     # at 3 plies, gnubg's default filters,
#                                                     # on GNUBG_THREADS threads (default 2)
# An SGF already in DIR is kept whatever depth made it: give each depth a copy of its own.
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
    # gnubg's statistics of each analysed match (its error totals and rates), as `show
    # statistics match` prints them: read by scripts/compare_judges.py
    for sgf in "$dir"/match*.sgf; do
        stats=${sgf%.sgf}.stats
        [ -s "$stats" ] && [ "$stats" -nt "$sgf" ] && continue
        printf 'load match %s\nshow statistics match\n' "$sgf" | "$gnubg" -t -q 2>/dev/null |
            sed -n '/^Player /,$p' >"$stats.tmp"
        mv "$stats.tmp" "$stats"
    done
done
