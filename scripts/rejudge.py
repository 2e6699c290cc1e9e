#!/usr/bin/env python3
"""The dumps of `scripts/chequer_error.py` judged again by a deeper gnubg.

chequer_error.py judges each decision by gnubg 1-ply and dumps every player's loss. This
script takes such dumps, finds each player's choice again (the legal result whose 1-ply loss
is the one dumped; a decision where two results share it is reported and skipped for that
player), and judges the same choices by gnubg at `--plies` (2 by default): the best is taken
over the results within `--within` (0.2) of the 1-ply best, and every player's choice is
judged whether or not it is among them. The races of `level-above:...:trace:` dumps are
judged again too (each contender's `loss`), so `scripts/race_rules.py` reads the output as
it reads the input. One player is added: `gnubg 1-ply` (the 1-ply judge's own best); gnubg
at the deeper judge's depth would lose nothing by definition.

The output is a dump of the same form (one JSON line a decision, `errors` by player), so
`chequer_error.py --merge OUT` prints its table and `--versus` pairs it with another.

    python3 scripts/rejudge.py --out rejudged-seed1.jsonl measurements/chequer/2026-12-07/gen11-seed1.jsonl

gnubg is the judge only: nothing it says reaches Tabula's training.
"""

import argparse
import json
import lzma
import sys

import gnubg_nn as g

from gnubg_board import mover_equity, results


def key(board):
    """A result's board (two lists of 25) as a dictionary key."""
    return (tuple(board[0]), tuple(board[1]))


def flat_key(board):
    """The key of a board as a race's trace writes it: one list of 50."""
    return (tuple(board[:25]), tuple(board[25:]))


def read_dump(path):
    """The records of a chequer_error.py dump (.jsonl or .jsonl.xz), in order."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f]


def judged_already(path):
    """The records an interrupted run already wrote to `path`, by index (none if absent)."""
    try:
        return {r["index"]: r for r in read_dump(path)}
    except FileNotFoundError:
        return {}


def choices(record, one):
    """Each player's choice in `record`, found again by its 1-ply loss among the results
    (`one`: each result's 1-ply equity by key): the keys of the results with that loss (more
    than one only where results tie at 1-ply, a bear-off's equal plays), and `gnubg 1-ply`'s."""
    best1 = max(one.values())
    picks = {"gnubg 1-ply": [k for k, v in one.items() if v == best1]}
    for name, loss in record["errors"].items():
        found = [k for k, v in one.items() if abs((best1 - v) - loss) < 1e-9]
        if not found:
            sys.exit(f"decision {record['index']}: no result has {name}'s loss")
        picks[plain(name)] = found
    return picks


def plain(name):
    """A player's name without the trace file of its shard (`level-above:432:trace:FILE`
    becomes `level-above:432:trace`), so the shards of one run merge as one player."""
    parts = name.split(":")
    return ":".join(parts[:3]) if len(parts) > 3 and parts[2] == "trace" else name


def rejudge(record, plies, within):
    """The record with every loss judged again at `plies`, and the players whose choice the
    1-ply loss does not single out (their mean deeper loss is counted)."""
    board = g.board_from_position_id(record["position"])
    d1, d2 = record["dice"]
    options = results(board, d1, d2)
    one = {key(a): mover_equity(a, 1) for a in options}
    best1 = max(one.values())
    deep = {}

    def judge(k):
        if k not in deep:
            deep[k] = mover_equity([list(k[0]), list(k[1])], plies)
        return deep[k]

    for a in options:
        if best1 - one[key(a)] <= within:
            judge(key(a))
    picks = choices(record, one)
    ambiguous = [
        name for name, found in picks.items() if len({round(judge(k), 9) for k in found}) > 1
    ]
    races = record.get("races") or {}
    for race in races.values():
        for play in race["plays"]:
            judge(flat_key(play["board"]))
    best = max(deep.values())
    out = {"index": record["index"], "position": record["position"], "dice": record["dice"]}
    out["judge"] = f"gnubg {plies}-ply"
    out["errors"] = {
        name: sum(best - deep[k] for k in found) / len(found) for name, found in picks.items()
    }
    if races:
        for race in races.values():
            for play in race["plays"]:
                play["loss"] = best - deep[flat_key(play["board"])]
        out["races"] = {plain(name): race for name, race in races.items()}
    return out, ambiguous


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dumps", nargs="+", help="chequer_error.py dumps (.jsonl or .jsonl.xz)")
    ap.add_argument("--out", required=True, help="the re-judged dump")
    ap.add_argument("--plies", type=int, default=2, help="the deeper judge's depth")
    ap.add_argument(
        "--within",
        type=float,
        default=0.2,
        help="judge at depth the results within this much of the 1-ply best (and every choice)",
    )
    args = ap.parse_args()
    done = set(judged_already(args.out))
    out = open(args.out, "a")
    skipped = 0
    for path in args.dumps:
        for record in read_dump(path):
            if record["index"] in done:
                continue
            rejudged, ambiguous = rejudge(record, args.plies, args.within)
            skipped += len(ambiguous)
            for name in ambiguous:
                print(f"decision {record['index']}: {name}'s choice is not unique (the mean counted)", file=sys.stderr)
            out.write(json.dumps(rejudged) + "\n")
            out.flush()
            done.add(record["index"])
    print(f"{len(done)} decisions judged at {args.plies}-ply into {args.out}; {skipped} choices not unique (their mean counted)")


if __name__ == "__main__":
    main()
