# Shared by scripts/gnubg_session.sh and scripts/gnubg_matches.sh (sourced, not run):
# starting Tabula on gnubg's external-player interface, and the player set-up lines.

# start_tabula OUT LEVEL PORT: serves `tabula external` on 127.0.0.1:PORT in the background
# (log in OUT/tabula.log), stopped when the script exits; sets `gnubg` to gnubg's binary.
# TABULA_BIN in the environment names another binary than target/release/tabula (a copy, so
# that a long run is not changed by a rebuild meanwhile).
start_tabula() {
    local out=$1 level=$2 port=$3 here
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    gnubg=$(command -v gnubg || echo /usr/games/gnubg)
    "${TABULA_BIN:-$here/target/release/tabula}" external --listen "127.0.0.1:$port" --level "$level" \
        --seed 1 >"$out/tabula.log" 2>&1 &
    tabula=$!
    trap 'kill $tabula 2>/dev/null || true' EXIT
    sleep 1
}

# players PORT: Tabula in seat 1 over the interface, gnubg at 0-ply in seat 0, no display.
players() {
    echo "set player 1 external 127.0.0.1:$1"
    echo "set player 1 name tabula"
    echo "set player 0 gnubg"
    echo "set player 0 chequerplay evaluation plies 0"
    echo "set player 0 cubedecision evaluation plies 0"
    echo "set display off"
}

# run_parts OUT PARTS DONE_FILE COMMAND...: for K in 1..PARTS, skips OUT/partK when it holds
# DONE_FILE (the part finished), else empties it and runs COMMAND... OUT/partK (the parts of
# scripts/gnubg_match_parts.sh and scripts/gnubg_session_parts.sh; a part cut off is played
# again from its start).
run_parts() {
    local out=$1 parts=$2 done_file=$3 k dir
    shift 3
    mkdir -p "$out"
    for k in $(seq "$parts"); do
        dir="$out/part$k"
        [ -s "$dir/$done_file" ] && continue
        rm -rf "$dir"
        echo "part $k of $parts ($(date -u +%H:%M))"
        "$@" "$dir"
    done
    echo "all $parts parts done ($(date -u +%H:%M))"
}
