#!/usr/bin/env python3
"""Players' choices compared pairwise by a deep gnubg, only where they differ.

A full deeper judge (`scripts/rejudge.py`) needs the best of every decision at that depth;
a comparison of players needs less: where two players choose the same result they lose the
same, so only the decisions where the choices differ need judging, and only the choices
themselves. This script reads chequer_error.py dumps of one seed (a level-above dump with its
races and, optionally, other players' dumps on the same decisions), finds each player's
choice again by its 1-ply loss (as rejudge.py does), takes the level above's choice by the
rule `hold Z` of `scripts/race_rules.py` where it raced (`--hold`, 1 as shipped since 7
December; the measurements of that day used 2, the rule shipped then), and judges every distinct
choice of a decision at `--plies` (3 by default). It prints each player's mean equity
against gnubg 0-ply's choice (mEMG a decision over all decisions, a decision where they
agree counting zero) with its standard error.

    python3 scripts/paired_deeper.py --out paired3-seed1.jsonl \\
        measurements/chequer/2026-12-07/level-above-gen11-seed1.jsonl \\
        measurements/chequer/2026-12-07/gen11-seed1.jsonl

The output keeps each judged decision (resumable: a decision already in it is not judged
again). gnubg is the judge only: nothing it says reaches Tabula's training.
"""

import argparse
import json
import math
import sys

import gnubg_nn as g

from gnubg_board import mover_equity, results
from race_rules import pick_hold
from rejudge import choices, flat_key, judged_already, key, plain, read_dump


def decision_choices(records, hold):
    """Each player's choice for one decision from the records of all dumps (a list of
    result keys, more than one where the 1-ply loss does not single it out); where the level
    above raced, its choice is the race's by `hold Z`, otherwise the play it made."""
    first = records[0]
    board = g.board_from_position_id(first["position"])
    one = {key(a): mover_equity(a, 1) for a in results(board, *first["dice"])}
    picks = {}
    for r in records:
        if (r["position"], r["dice"]) != (first["position"], first["dice"]):
            sys.exit(f"decision {r['index']} differs between the dumps")
        picks |= choices(r, one)
        for name, race in (r.get("races") or {}).items():
            picks[plain(name)] = [flat_key(pick_hold(race["plays"], hold)["board"])]
    return picks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dumps", nargs="+", help="chequer_error.py dumps of the same decisions")
    ap.add_argument("--out", required=True)
    ap.add_argument("--plies", type=int, default=3)
    ap.add_argument(
        "--hold",
        type=float,
        default=1.0,
        help="the level above's rule for the race's end (race_rules.py's `hold Z`)",
    )
    args = ap.parse_args()
    dumps = [{r["index"]: r for r in read_dump(p)} for p in args.dumps]
    done = judged_already(args.out)
    out = open(args.out, "a")
    for index in sorted(dumps[0]):
        if index in done:
            continue
        records = [d[index] for d in dumps if index in d]
        picks = decision_choices(records, args.hold)
        distinct = {k for found in picks.values() for k in found}
        row = {"index": index, "position": records[0]["position"], "dice": records[0]["dice"]}
        if len(distinct) > 1:
            deep = {k: mover_equity([list(k[0]), list(k[1])], args.plies) for k in distinct}
            row["equity"] = {
                name: sum(deep[k] for k in found) / len(found) for name, found in picks.items()
            }
        else:
            row["equity"] = {name: 0.0 for name in picks}
        out.write(json.dumps(row) + "\n")
        out.flush()
        done[index] = row
    rows = [done[i] for i in sorted(done)]
    n = len(rows)
    names = [x for x in rows[0]["equity"] if x != "gnubg 0-ply"]
    print(f"{n} decisions, judge gnubg {args.plies}-ply; each player's equity against gnubg "
          "0-ply's choice, mEMG a decision (positive: better than gnubg 0-ply)")
    print("| player | against gnubg 0-ply | decisions differing |")
    print("|---|---:|---:|")
    for name in names:
        d = [1000 * (r["equity"][name] - r["equity"]["gnubg 0-ply"]) for r in rows if name in r["equity"]]
        m = sum(d) / len(d)
        se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d))
        print(f"| {name} | {m:+.2f} ± {se:.2f} | {sum(1 for x in d if abs(x) > 1e-9)} |")


if __name__ == "__main__":
    main()
