#!/usr/bin/env python3
"""Paired chequer errors pooled over several seeds' dumps (scripts/chequer_error.py --dump).

`chequer_error.py --merge A --versus B` pairs two runs on one seed's decisions; this pools
the pairs of several seeds (each decision once, matched by seed and index) and prints, for
each player in both, the mean errors and the mean paired difference with its standard
error, in mEMG a decision.

    python3 scripts/pool_paired.py 'runA-seed{s}*.jsonl' 'runB-seed{s}*.jsonl' 1 2 3

Each pattern is a glob with `{s}` for the seed (a run's shards are read together).
"""
import glob
import json
import math
import sys


def load(pattern, seed):
    errors = {}
    files = glob.glob(pattern.format(s=seed))
    if not files:
        sys.exit(f"no dump matches {pattern.format(s=seed)}")
    for name in files:
        with open(name) as f:
            for line in f:
                row = json.loads(line)
                errors[row["index"]] = row["errors"]
    return errors


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    a_pattern, b_pattern, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
    pairs = {}
    for seed in seeds:
        a, b = load(a_pattern, seed), load(b_pattern, seed)
        for index in sorted(set(a) & set(b)):
            for player in set(a[index]) & set(b[index]):
                pairs.setdefault(player, []).append(
                    (a[index][player] * 1000, b[index][player] * 1000)
                )
    print(f"seeds {' '.join(seeds)}; mEMG a decision; difference = first minus second")
    print("| player | decisions | first | second | difference | standard error |")
    print("|---|---:|---:|---:|---:|---:|")
    for player in sorted(pairs):
        rows = pairs[player]
        n = len(rows)
        diffs = [x - y for x, y in rows]
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1))
        first = sum(x for x, _ in rows) / n
        second = sum(y for _, y in rows) / n
        print(f"| {player} | {n} | {first:.2f} | {second:.2f} | {mean:+.2f} | {sd / math.sqrt(n):.2f} |")


if __name__ == "__main__":
    main()
