#!/usr/bin/env python3
"""Chequer-play error per decision of Tabula's backgammon bots, judged by GNU Backgammon.

Positions come from gnubg 0-ply self-play (money, cubeless), each with one fresh random roll;
only decisions with at least two distinct legal results count.  For every decision each
legal result is judged by gnubg at 1-ply (``gnubg_nn.probabilities`` from the opponent's
side, the opponent on roll), and a player's error is the cubeless money equity its choice
loses against the judge's best, in mEMG (thousandths of a point).  gnubg is the judge only:
nothing it says reaches Tabula's training.

Tabula's choices come from ``target/release/examples/decide`` (crates/ai/examples/decide.rs),
one process per player.

    pip install gnubg-nn
    cargo build --release -p tabula-ai --example decide
    python3 scripts/chequer_error.py --decisions 400 --seed 1

Board layout (gnubg_nn, checked in scripts/gen_fixtures.py): two lists of 25, list 0 the
player not on roll, list 1 the player on roll, each from its own side, index 24 the bar.
"""

import argparse
import json
import random
import subprocess
import sys

import gnubg_nn as g

from gnubg_board import equity, finished, mover_equity, results, swap

DECIDE = "target/release/examples/decide"


def crashed(board):
    """Whether a side has crashed in contact (Tabula's `efficiency::crashed` with contact):
    8 or more of its checkers off or on its own one- and two-points while the two sides'
    rearmost checkers have not passed each other."""
    backs = [max((i + 1 for i in range(25) if side[i] > 0), default=0) for side in board]
    if backs[0] + backs[1] <= 25:
        return False
    return any(15 - sum(side) + side[0] + side[1] >= 8 for side in board)


def positions(n, rng, keep=lambda board: True):
    """Decisions from gnubg 0-ply self-play: (board, d1, d2) with two or more results, of
    the boards `keep` admits."""
    found = []
    while len(found) < n:
        board = g.board_from_position_id("4HPwATDgc/ABMA")
        while not finished(board) and len(found) < n:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if rng.random() < 0.25:
                e1, e2 = rng.randint(1, 6), rng.randint(1, 6)
                if keep(board) and len(results(board, e1, e2)) >= 2:
                    found.append((board, e1, e2))
            options = results(board, d1, d2)
            if options:
                best = max(options, key=lambda a: mover_equity(a, 0))
                board = best
            if finished(board):
                break
            board = swap(board)
    return found


class Player:
    def __init__(self, args, trace=None):
        self.proc = subprocess.Popen(
            [DECIDE] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        # decide's --trace file: a line for each decision that had a race.
        self.trace = None
        if trace:
            open(trace, "w").close()
            self.trace = open(trace)

    def race(self):
        """The race decide wrote for its last decision, if it raced."""
        if self.trace is None:
            return None
        line = self.trace.readline()
        return json.loads(line) if line else None

    def choose(self, board, d1, d2):
        line = " ".join(map(str, list(board[0]) + list(board[1]) + [d1, d2]))
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().split()
        return [[int(x) for x in reply[:25]], [int(x) for x in reply[25:]]]


class Gnubg:
    """gnubg itself at PLIES (`gnubg:PLIES`): the result of the best equity at that depth,
    for scale beside the judge (1-ply), which a deeper gnubg disagrees with too."""

    def __init__(self, plies):
        self.plies = plies

    def choose(self, board, d1, d2):
        return max(results(board, d1, d2), key=lambda a: mover_equity(a, self.plies))

    def race(self):
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--players",
        default="strong/neural,medium/neural,strong/heuristic",
        help="level/eval pairs, analysis:PLIES[:KEEP:WITHIN:AT_LEAST], blend:PLIES[...], deeper:PLIES:KEEP:WITHIN[:RANK_PLIES], level-above:TRIALS[:HOLD_Z], gnubg:PLIES or "
        "rollout:TRIALS[:WITHIN:KEEP[:TRUNCATE]], comma-separated",
    )
    ap.add_argument(
        "--weights", help="a .tnn file for the neural players instead of the shipped nets"
    )
    ap.add_argument(
        "--partner",
        help="a second .tnn file whose chances are averaged with the first's (an ensemble)",
    )
    ap.add_argument(
        "--dump", help="write each decision's errors here, one JSON line a decision"
    )
    ap.add_argument(
        "--shard",
        help="K/N: judge only the decisions whose index is K modulo N (run N of these side "
        "by side with --dump, then --merge the dumps)",
    )
    ap.add_argument(
        "--merge",
        nargs="+",
        metavar="DUMP",
        help="print the table of these dumps (the shards of one run) and judge nothing",
    )
    ap.add_argument(
        "--versus",
        nargs="+",
        metavar="DUMP",
        help="with --merge: dumps of another run on the same decisions (other nets, say); "
        "prints each player's paired difference, the merged dumps' error minus these",
    )
    ap.add_argument(
        "--crashed",
        action="store_true",
        help="only decisions in crashed positions (contact, a side with 8 or more checkers "
        "off or on its one- and two-points): where the crashed net plays",
    )
    args = ap.parse_args()
    if args.merge:
        merged = merge(args.merge)
        if args.versus:
            paired(merged, read_dumps(args.versus))
        return
    shard, shards = (int(x) for x in args.shard.split("/")) if args.shard else (0, 1)
    rng = random.Random(args.seed)
    decisions = positions(args.decisions, rng, crashed if args.crashed else lambda b: True)
    players = {}
    for spec in args.players.split(","):
        weights = ["--weights", args.weights] if args.weights else []
        weights += ["--partner", args.partner] if args.partner else []
        if spec.startswith("gnubg:"):
            players[spec] = Gnubg(int(spec.split(":")[1]))
            continue
        if spec.startswith("blend:"):
            # blend:PLIES[:KEEP:WITHIN:AT_LEAST]: as analysis:, each searched play valued by
            # the mean of PLIES and PLIES - 1 (nply::chances_blended).
            parts = spec.split(":")[1:]
            names = ["--plies", "--keep", "--within", "--at-least"]
            flags = [x for pair in zip(names, parts) for x in pair]
            players[spec] = Player(flags + ["--blend"] + weights)
            continue
        if spec.startswith("deeper:"):
            # deeper:PLIES:KEEP:WITHIN[:RANK_PLIES]: the analysis at RANK_PLIES (2), then the
            # plays within WITHIN of its best (at most KEEP) valued by the mean of PLIES and
            # PLIES - 1 (nply::deepen).
            parts = spec.split(":")[1:]
            rank = parts[3] if len(parts) > 3 else "2"
            flags = ["--plies", rank, "--deeper", parts[0], "--deeper-keep", parts[1]]
            players[spec] = Player(flags + ["--deeper-within", parts[2]] + weights)
            continue
        if spec.startswith("analysis:"):
            # analysis:PLIES[:KEEP:WITHIN:AT_LEAST]: the analysis' best play at that depth
            # with that move filter (decide.rs's defaults otherwise).
            parts = spec.split(":")[1:]
            names = ["--plies", "--keep", "--within", "--at-least"]
            flags = [x for pair in zip(names, parts) for x in pair]
            players[spec] = Player(flags + weights)
            continue
        if spec.startswith("level-above:"):
            # level-above:TRIALS: the level above strong as shipped: strong's ranking (2-ply,
            # the close plays by the mean of 3 and 2 plies), then the race of RaceConfig's
            # defaults with at most TRIALS a play.
            # level-above:TRIALS:HOLD_Z: the search's choice held unless a play leads it by more
            # than HOLD_Z standard errors at the race's end (RaceConfig::hold_z; 1 as shipped
            # since 7 December, 2 from 6 December; `none`: the best mean played, as before).
            # level-above:TRIALS:trace:FILE: the race's course written to FILE for each
            # decision, and into the dump with the judge's loss for every contender
            # (`scripts/race_rules.py` judges rules for the race's end from it); the choice
            # played is the search's whenever it is still in the race at the end.
            parts = spec.split(":")[1:]
            flags = ["--plies", "2", "--deeper", "3", "--rollout", parts[0]]
            trace = None
            if len(parts) > 2 and parts[1] == "trace":
                trace = parts[2]
                flags += ["--trace", trace]
            elif len(parts) > 1:
                flags += ["--no-hold"] if parts[1] == "none" else ["--hold-z", parts[1]]
            players[spec] = Player(flags + weights, trace)
            continue
        if spec.startswith("rollout:"):
            # rollout:TRIALS[:WITHIN:KEEP[:TRUNCATE]]: the 2-ply analysis, then rollouts of
            # the plays within WITHIN of its best (at most KEEP), the best rollout played.
            parts = spec.split(":")[1:]
            names = ["--rollout", "--rollout-within", "--rollout-keep", "--truncate"]
            flags = [x for pair in zip(names, parts) for x in pair]
            players[spec] = Player(["--plies", "2"] + flags + weights)
            continue
        level, ev = spec.split("/")
        extra = weights if ev == "neural" else []
        players[spec] = Player(["--level", level, "--eval", ev] + extra)
    errors = {name: 0.0 for name in ["gnubg 0-ply"] + list(players)}
    dump = open(args.dump, "w") if args.dump else None
    for index, (board, d1, d2) in enumerate(decisions):
        if index % shards != shard:
            continue
        row = {}
        options = results(board, d1, d2)
        judged = {(tuple(a[0]), tuple(a[1])): mover_equity(a, 1) for a in options}
        best = max(judged.values())
        zero = max(options, key=lambda a: mover_equity(a, 0))
        row["gnubg 0-ply"] = best - judged[(tuple(zero[0]), tuple(zero[1]))]
        errors["gnubg 0-ply"] += row["gnubg 0-ply"]
        for name, p in players.items():
            chosen = p.choose(board, d1, d2)
            key = (tuple(chosen[0]), tuple(chosen[1]))
            if key not in judged:
                sys.exit(f"{name} chose a result gnubg does not list: {chosen}")
            errors[name] += best - judged[key]
            row[name] = best - judged[key]
            raced = p.race()
            if raced is not None:
                for play in raced["plays"]:
                    b = play["board"]
                    play["loss"] = best - judged[(tuple(b[:25]), tuple(b[25:]))]
                row.setdefault("races", {})[name] = raced
        if dump:
            record = {"index": index, "position": g.position_id(board), "dice": [d1, d2]}
            races = row.pop("races", None)
            record |= {"errors": row}
            if races:
                record["races"] = races
            dump.write(json.dumps(record) + "\n")
            dump.flush()
    n = len(range(shard, len(decisions), shards))
    nets = args.weights or "the shipped nets"
    if args.partner:
        nets += f" averaged with {args.partner}"
    part = f" (shard {args.shard})" if args.shard else ""
    kind = " crashed" if args.crashed else ""
    print(f"{n}{kind} decisions{part} from gnubg 0-ply self-play, seed {args.seed}; judge gnubg 1-ply; {nets}")
    table(errors, n)


def table(errors, n):
    print("| player | mEMG per decision |")
    print("|---|---:|")
    for name, total in errors.items():
        print(f"| {name} | {1000 * total / n:.1f} |")


def read_dumps(paths):
    """Each decision's record by index; a decision found twice is refused."""
    records = {}
    for path in paths:
        for line in open(path):
            record = json.loads(line)
            if record["index"] in records:
                sys.exit(f"decision {record['index']} is in two dumps")
            records[record["index"]] = record
    return records


def merge(paths):
    """Print the table of several dumps; return their records by index."""
    records = read_dumps(paths)
    errors = {}
    for record in records.values():
        for name, error in record["errors"].items():
            errors[name] = errors.get(name, 0.0) + error
    judge = next(iter(records.values())).get("judge", "gnubg 1-ply")
    print(f"{len(records)} decisions merged from {len(paths)} dumps; judge {judge}")
    table(errors, len(records))
    return records


def paired(ours, theirs):
    """Each player's mean paired difference (ours - theirs) with its standard error, over
    the decisions both runs judged; a decision judged on other dice is refused."""
    common = sorted(set(ours) & set(theirs))
    for i in common:
        if (ours[i]["position"], ours[i]["dice"]) != (theirs[i]["position"], theirs[i]["dice"]):
            sys.exit(f"decision {i} differs between the runs")
    names = [n for n in ours[common[0]]["errors"] if n in theirs[common[0]]["errors"]]
    print(f"paired over {len(common)} decisions, mEMG (this run minus the other)")
    print("| player | difference | standard error | better / worse |")
    print("|---|---:|---:|---|")
    for name in names:
        d = [1000 * (ours[i]["errors"][name] - theirs[i]["errors"][name]) for i in common]
        n = len(d)
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
        better = sum(1 for x in d if x < -1e-9)
        worse = sum(1 for x in d if x > 1e-9)
        print(f"| {name} | {mean:+.2f} | {(var / n) ** 0.5:.2f} | {better} / {worse} |")


if __name__ == "__main__":
    main()
