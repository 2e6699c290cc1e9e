#!/usr/bin/env bash
# The rollout benchmark of docs/benchmarks.md ("Speed against GNU Backgammon"), both sides:
# the same contact position, 1,296 trials to the end, cubeless, 0-ply, variance reduction,
# one thread each; prints each program's wall and user CPU time.
#
#   cargo build --release -p tabula-cli && scripts/gnubg_rollout.sh
set -euo pipefail
cd "$(dirname "$0")/.."
xgid='XGID=-a---aF-C---dD---cae----B-:0:0:1:00:0:0:3:0:10'
gnubg=$(command -v gnubg || echo /usr/games/gnubg)
echo "Tabula:"
/usr/bin/time -f "  %e s wall, %U s user" target/release/tabula rollout "$xgid" \
    --trials 1296 --threads 1 | sed 's/^/  /'
echo "GNU Backgammon:"
/usr/bin/time -f "  %e s wall, %U s user" "$gnubg" -t -q >/dev/null <<GNUBG
set threads 1
set rollout trials 1296
set rollout truncation enable off
set rollout varredn on
set rollout cubeful off
set rollout chequerplay plies 0
set rollout cubedecision plies 0
set rollout later chequerplay plies 0
set rollout later cubedecision plies 0
set rollout seed 1
new game
set xgid $xgid
rollout
GNUBG
