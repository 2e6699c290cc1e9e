#!/usr/bin/env bash
# The shape figures of issue 29, for a before/after table: lines of Rust per crate, the
# files that contain SQL and that read the environment at run time (tests left out), the
# circles of files importing each other, and the `duplicates` totals.
# Usage: scripts/code_figures.sh   (from the repository root)
set -euo pipefail
echo "## Lines of Rust per crate"
for c in crates/*/; do
  n=$(git ls-files "$c" | grep '\.rs$' | xargs cat 2>/dev/null | wc -l)
  echo "$(basename "$c") $n"
done
echo "total $(git ls-files 'crates/*.rs' | xargs cat | wc -l)"
echo "## Files with SQL (src, not tests)"
git ls-files 'crates/*.rs' | grep -v '/tests/\|tests\.rs$' \
  | xargs grep -lE '"(SELECT|INSERT|UPDATE|DELETE|CREATE|BEGIN|PRAGMA) |sqlx::query|query_as|query_scalar' || true
echo "## Files reading the environment (src, not tests)"
git ls-files 'crates/*.rs' | grep -v '/tests/\|tests\.rs$\|/examples/\|build\.rs$' \
  | xargs grep -lE 'env::var|env::var_os|env::vars' || true
echo "## Circles of files"
python3 scripts/import_cycles.py crates
echo "## duplicates"
duplicates --seconds 120 | head -1
