#!/usr/bin/env bash
# One position of a match, set up in GNU Backgammon by its Position ID, Match ID and dice
# (docs/gnubg.md, "gnubg's very bad plays by a deeper judge"). gnubg is a judge only.
#
#   scripts/gnubg_position.sh hint  POSITION_ID MATCH_ID D1D2 PLIES
#       gnubg's cubeful ranking of the roll's plays at PLIES in the match's context, with
#       wide move filters: up to 12 plays within 0.4 of the best at 0-ply, and up to 8 within
#       0.3 at each deeper step, is searched at PLIES.
#   scripts/gnubg_position.sh after POSITION_ID MATCH_ID D1D2 'MOVE'
#       PositionID:MatchID of the position MOVE leaves (the opponent to roll), as `tabula
#       rollout` reads it.
set -euo pipefail
[ $# -eq 5 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
mode=$1 pid=$2 mid=$3 dice=$4 arg=$5
gnubg=$(command -v gnubg || echo /usr/games/gnubg)
setup() {
    echo "set player 0 human"
    echo "set player 1 human"
    echo "new match 5"
    echo "set matchid $mid"
    echo "set board $pid"
    echo "set dice ${dice:0:1} ${dice:1:1}"
}
case $mode in
hint)
    {
        echo "set threads 2"
        echo "set evaluation chequerplay evaluation plies $arg"
        echo "set evaluation chequerplay evaluation prune on"
        echo "set evaluation movefilter $arg 0 12 0 0.40"
        for level in $(seq 1 $((arg - 1))); do
            echo "set evaluation movefilter $arg $level 8 0 0.30"
        done
        setup
        echo "hint"
    } | "$gnubg" -t -q 2>&1 | sed -n '/Rolled/,$p' | grep "Cubeful"
    ;;
after)
    { setup; echo "move $arg"; } | "$gnubg" -t -q 2>&1 |
        awk '/Position ID/ {p = $NF} /Match ID/ {m = $NF} END {print p ":" m}'
    ;;
*)
    sed -n '2,11p' "$0" >&2
    exit 2
    ;;
esac
