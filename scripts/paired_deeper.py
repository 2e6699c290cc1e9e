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

Dumps of the same players by other nets are told apart by a label: `gen12=PATH` names the
dump's Tabula players `gen12 strong/neural` and so on (gnubg's players are the same in every
dump and merge); two dumps that bring the same Tabula player are refused. `--drop NAME`
leaves a player out (medium, say, whose choices would only add deep evaluations).

The output keeps each judged decision (resumable: a decision already in it is not judged
again). `--report` judges nothing: it reads such outputs (several seeds' are pooled) and prints
the table, each player `--against` gnubg 0-ply or any other player in them:

    python3 scripts/paired_deeper.py --report --against strong/neural paired3-seed*.jsonl

gnubg is the judge only: nothing it says reaches Tabula's training.
"""

import argparse
import json
import math
import sys

import gnubg_nn as g

from gnubg_board import mover_equity, results
from race_rules import pick_hold
from rejudge import choices, flat_key, judged_already, key, plain, read_dump


def labelled(name, label):
    """A Tabula player's name in a labelled dump (`gen12 strong/neural`); gnubg's players keep
    theirs, being the same in every dump."""
    return name if not label or name.startswith("gnubg") else f"{label} {name}"


def decision_choices(records, hold, drop):
    """Each player's choice for one decision from the (label, record) pairs of all dumps (a
    list of result keys, more than one where the 1-ply loss does not single it out); where
    the level above raced, its choice is the race's by `hold Z`, otherwise the play it made.
    The players named in `drop` are left out."""
    first = records[0][1]
    board = g.board_from_position_id(first["position"])
    one = {key(a): mover_equity(a, 1) for a in results(board, *first["dice"])}
    picks = {}
    for label, r in records:
        if (r["position"], r["dice"]) != (first["position"], first["dice"]):
            sys.exit(f"decision {r['index']} differs between the dumps")
        found = choices(r, one)
        for name, race in (r.get("races") or {}).items():
            found[plain(name)] = [flat_key(pick_hold(race["plays"], hold)["board"])]
        for name, keys in found.items():
            if name in drop:
                continue
            name = labelled(name, label)
            if name in picks and not name.startswith("gnubg"):
                sys.exit(f"{name} is in two dumps: label one of them (LABEL=PATH)")
            picks[name] = keys
    return picks


def parse_dump_arg(arg):
    """`LABEL=PATH` or `PATH`: the label (None without one) and the path."""
    label, sep, path = arg.partition("=")
    return (label, path) if sep and "/" not in label else (None, arg)


def report(rows, plies, against):
    """Each player's mean equity against `against`'s choice, mEMG a decision over the rows
    holding both (a decision where they agree counting zero), with its standard error."""
    if not rows:
        sys.exit("no judged decisions to report")
    names = [x for x in rows[0]["equity"] if x != against]
    print(f"{len(rows)} decisions, judge gnubg {plies}-ply; each player's equity against "
          f"{against}'s choice, mEMG a decision (positive: better than {against})")
    print(f"| player | against {against} | decisions differing |")
    print("|---|---:|---:|")
    for name in names:
        d = [1000 * (r["equity"][name] - r["equity"][against])
             for r in rows if name in r["equity"] and against in r["equity"]]
        if len(d) < 2:
            continue
        m = sum(d) / len(d)
        se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d))
        print(f"| {name} | {m:+.2f} ± {se:.2f} | {sum(1 for x in d if abs(x) > 1e-9)} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "dumps",
        nargs="+",
        help="chequer_error.py dumps of the same decisions, each PATH or LABEL=PATH "
        "(with --report: this script's outputs)",
    )
    ap.add_argument("--out", help="the judged decisions (required unless --report)")
    ap.add_argument("--plies", type=int, default=3)
    ap.add_argument(
        "--hold",
        type=float,
        default=1.0,
        help="the level above's rule for the race's end (race_rules.py's `hold Z`)",
    )
    ap.add_argument("--drop", action="append", default=[], help="a player to leave out")
    ap.add_argument("--against", default="gnubg 0-ply", help="the player the others are paired with")
    ap.add_argument("--report", action="store_true", help="judge nothing: print the table of outputs")
    args = ap.parse_args()
    if args.report:
        report([r for p in args.dumps for r in read_dump(p)], args.plies, args.against)
        return
    if not args.out:
        ap.error("--out is required unless --report")
    dumps = []
    for arg in args.dumps:
        label, path = parse_dump_arg(arg)
        dumps.append((label, {r["index"]: r for r in read_dump(path)}))
    done = judged_already(args.out)
    out = open(args.out, "a")
    for index in sorted(dumps[0][1]):
        if index in done:
            continue
        records = [(label, d[index]) for label, d in dumps if index in d]
        picks = decision_choices(records, args.hold, set(args.drop))
        distinct = {k for found in picks.values() for k in found}
        first = records[0][1]
        row = {"index": index, "position": first["position"], "dice": first["dice"]}
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
    report([done[i] for i in sorted(done)], args.plies, args.against)


if __name__ == "__main__":
    main()
