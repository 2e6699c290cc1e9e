#!/usr/bin/env bash
# Alternating before/after runs of the server load generator, as docs/benchmarks.md records
# them: ROUNDS rounds of (before, after) x (SQLite, PostgreSQL), 16 games, 20 s each, a fresh
# PostgreSQL database `tabula_bench` per run.
# Usage: scripts/loadgen_alternate.sh BEFORE_DIR AFTER_DIR [ROUNDS]
#   each DIR holds a release `tabula` and its `loadgen` example, e.g. copied from
#   target/release/tabula and target/release/examples/loadgen of the two commits.
set -u
before=$(realpath "$1"); after=$(realpath "$2"); rounds=${3:-3}
for round in $(seq 1 "$rounds"); do
  for dir in "$before" "$after"; do
    for db in sqlite postgres; do
      work=$(mktemp -d); cd "$work"
      extra=""
      if [ $db = postgres ]; then
        psql -q -h 127.0.0.1 -U postgres -c 'DROP DATABASE IF EXISTS tabula_bench' postgres
        psql -q -h 127.0.0.1 -U postgres -c 'CREATE DATABASE tabula_bench' postgres
        extra="--database postgres://postgres@127.0.0.1:5432/tabula_bench"
      fi
      echo "=== round $round $dir $db"
      "$dir/loadgen" --games 16 --seconds 20 --binary "$dir/tabula" $extra 2>&1 | tail -3
      cd /; rm -rf "$work"
    done
  done
done
