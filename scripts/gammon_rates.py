#!/usr/bin/env python3
"""How far the nets' cubeless chances are from gnubg's, output by output: the mean error and
the mean bias of win, win gammon, win backgammon, lose gammon and lose backgammon, and of the
cubeless equity, over positions from gnubg 0-ply self-play (the player on roll, before the
roll, each position kept with probability 0.3).

The judge is gnubg-nn's evaluation at ``--judge-plies`` (default 1); it judges, it teaches
nothing.  Each ``--weights`` file is evaluated at 0-ply by ``target/release/examples/chances``
(the shipped nets when none is given).  Deterministic for a given ``--seed``.

    cargo build --release -p tabula-ai --example chances
    python3 scripts/gammon_rates.py --positions 2000 --seed 1 \\
        --weights training/weights/gen1.tnn,training/weights/gen2.tnn
"""

import argparse
import random
import subprocess

import gnubg_nn as g

from gnubg_board import equity, selfplay_turn

CHANCES = "target/release/examples/chances"
NAMES = ["win", "win gammon", "win bg", "lose gammon", "lose bg", "equity"]


def positions(n, rng):
    """Positions of gnubg 0-ply self-play, the player on roll in list 1, not yet rolled."""
    found = []
    while len(found) < n:
        board = g.board_from_position_id("4HPwATDgc/ABMA")
        while len(found) < n:
            if rng.random() < 0.3:
                found.append(board)
            board = selfplay_turn(board, rng)
            if board is None:
                break
    return found


def ours(weights, boards):
    args = [CHANCES] + (["--weights", weights] if weights else [])
    text = "\n".join(" ".join(map(str, list(b[0]) + list(b[1]))) for b in boards) + "\n"
    out = subprocess.run(args, input=text, capture_output=True, text=True, check=True).stdout
    return [[float(x) for x in line.split()] for line in out.splitlines()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--judge-plies", type=int, default=1)
    ap.add_argument("--weights", default="", help="comma-separated .tnn files ('' = shipped)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    boards = positions(args.positions, rng)
    judge = [list(g.probabilities(b, args.judge_plies)) for b in boards]
    judge = [p + [equity(p)] for p in judge]
    print(f"{len(boards)} positions, judge gnubg-nn {args.judge_plies}-ply; "
          "mean |error| / mean bias (ours - judge)")
    print("| nets | " + " | ".join(NAMES) + " |")
    print("|---|" + "---:|" * len(NAMES))
    for weights in args.weights.split(","):
        mine = [p + [equity(p)] for p in ours(weights, boards)]
        cells = []
        for i in range(len(NAMES)):
            diffs = [m[i] - j[i] for m, j in zip(mine, judge)]
            mae = sum(abs(d) for d in diffs) / len(diffs)
            bias = sum(diffs) / len(diffs)
            cells.append(f"{mae:.4f} / {bias:+.4f}")
        print(f"| {weights or 'shipped'} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
