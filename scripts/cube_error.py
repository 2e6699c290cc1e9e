#!/usr/bin/env python3
"""Money-play cube error per decision of Tabula's backgammon bot, judged by GNU Backgammon.

Positions come from gnubg 0-ply self-play (money, cubeless chequer play, ``gnubg_nn``), taken
before the roll of the player on roll, each turn with probability ``--sample`` so that one
game gives few positions.  Each candidate gets a cube: centred at 1, or, with probability
``--redoubles``, at 2 owned by the player on roll (a redouble decision).  Money play, no
Jacoby rule, no beavers (XGID field 8 is 0; gnubg ``set jacoby off``, ``set beavers 0``).

The judge is GNU Backgammon itself (``/usr/games/gnubg -t -q``, all positions of a batch in
one process, commands on stdin): ``set xgid``, then ``eval`` with the cube decisions at
``--judge-plies`` (default 2) plies, cubeful.  It gives the cubeful equities, per unit of the
current cube, of No double (ND), Double/take (DT) and Double/pass (DP, +1), from the
doubler's side.  Each ``eval`` answer carries gnubg's Position ID, which must be the one
``gnubg_nn`` gives for the board: a position gnubg did not set is an error, never a misread.

Only close decisions are kept.  The doubler's decision is close when
``|ND - min(DT, DP)| <= --close`` (the value of not doubling against that of doubling, the
taker answering right), the taker's when ``|DT - DP| <= --close``; a candidate is kept when
either is (default 0.10 per cube unit), except where the player on roll wins a single game
whatever it does (ND within 0.005 of +1 and DT at least +1): there cashing and playing on
tie, a "close" decision that costs nobody anything.  Every kept position has two decisions: the
doubler's (double or not) and the taker's (take or pass), the taker's counted in every kept
position (as "take if doubled", whether or not the judge doubles; ``--takes doubles`` counts
it only where the judge's proper action is to double).

Errors, in mEMG (thousandths of a point per cube unit, money): the doubler's right value is
``max(ND, min(DT, DP))``; doubling costs it minus ``min(DT, DP)``, not doubling it minus ND.
The taker's right value is ``-min(DT, DP)``; taking costs ``DT - min(DT, DP)``, passing
``DP - min(DT, DP)``.  Wrong doubles are split into *too early* (the judge: no double, take)
and *too good* (the judge: too good to double, pass).

The players:

- Tabula: ``target/release/tabula hint XGID --json`` without dice (the ``strong`` bot's cube
  decision: the 2-ply cubeful search, a close decision checked by a 72-trial rollout; until
  29 November the search alone); its double is a verdict that
  starts ``Double``/``Redouble``, its take a verdict that ends ``take`` or ``beaver``.
- gnubg 0-ply: the same gnubg ``eval`` at 0 plies, its actions read off its own equities as
  for the judge (double when ``min(DT, DP) > ND``, take when ``DT <= DP``): the reference.
- never double, always take: a baseline, to read the others against.

The tabula CLI has no option to load other nets, so this script has no ``--weights``.

    pip install gnubg-nn            # and GNU Backgammon at /usr/games/gnubg
    cargo build --release -p tabula-cli
    python3 scripts/cube_error.py --positions 200 --seed 1

Board layout (gnubg_nn, checked in scripts/gen_fixtures.py): two lists of 25, list 0 the
player not on roll, list 1 the player on roll, each from its own side, index 24 the bar.
Deterministic for a given ``--seed``.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import gnubg_nn as g

from gnubg_board import selfplay_turn

TABULA = "target/release/tabula"
GNUBG = "/usr/games/gnubg"


def xgid(board, cube, owned):
    """The XGID of `board` (list 1 on roll, as X, turn 1), money, no Jacoby, no beavers.

    Characters 1..24 are X's points 1..24 (X's chequers upper case, O's lower case), 0 is
    O's bar and 25 X's bar.  `owned`: the cube (at `cube`) belongs to the player on roll.
    """
    me, opp = board[1], board[0]

    def cell(n, upper):
        if n == 0:
            return "-"
        return chr((ord("A") if upper else ord("a")) + n - 1)

    s = [cell(opp[24], False)]
    for p in range(1, 25):
        if me[p - 1]:
            s.append(cell(me[p - 1], True))
        else:
            s.append(cell(opp[24 - p], False))
    s.append(cell(me[24], True))
    level = cube.bit_length() - 1
    owner = 1 if owned else 0
    return f"XGID={''.join(s)}:{level}:{owner}:1:00:0:0:0:0:10"


def candidates(n, rng, sample, redoubles):
    """(board, cube, owned) before the roll, from gnubg 0-ply self-play."""
    found = []
    while len(found) < n:
        board = g.board_from_position_id("4HPwATDgc/ABMA")
        while len(found) < n:
            if rng.random() < sample:
                if rng.random() < redoubles:
                    found.append((board, 2, True))
                else:
                    found.append((board, 1, False))
            board = selfplay_turn(board, rng)
            if board is None:
                break
    return found


CUBE_LINE = re.compile(
    r"^\s*\d\.\s+(No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass|beaver))\s+([+-]?\d+\.\d+)"
)


def gnubg_cube(batch, plies_list):
    """gnubg's cube equities (ND, DT, DP) of each (board, cube, owned), at each ply count.

    Returns one dict per position: {plies: (nd, dt, dp)}.
    """
    cmds = [
        "set player 0 human",
        "set player 1 human",
        "set jacoby off",
        "set beavers 0",
        "set display off",
        "set evaluation cubedecision evaluation cubeful on",
        "set evaluation cubedecision evaluation prune on",
        "new game",
    ]
    for board, cube, owned in batch:
        cmds.append("set xgid " + xgid(board, cube, owned))
        for plies in plies_list:
            cmds.append(f"set evaluation cubedecision evaluation plies {plies}")
            cmds.append("eval")
    out = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(cmds) + "\nquit\ny\n",
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    # Each `eval` answer starts with "Position ID:<tab>..." (the boards that `set xgid`
    # draws write "GNU Backgammon  Position ID: ", with spaces).
    blocks = re.split(r"^Position ID:\t", out, flags=re.M)[1:]
    want = len(batch) * len(plies_list)
    if len(blocks) != want:
        sys.exit(f"gnubg answered {len(blocks)} evaluations for {want}; its output:\n{out[-3000:]}")
    answers = []
    for i, (board, _, _) in enumerate(batch):
        got = {}
        for j, plies in enumerate(plies_list):
            block = blocks[i * len(plies_list) + j]
            pid = block.split(None, 1)[0]
            if pid != g.position_id(board):
                sys.exit(f"gnubg evaluated {pid}, not {g.position_id(board)}")
            m = re.search(r"^(\d+)-ply cubeless equity", block, flags=re.M)
            if not m or int(m.group(1)) != plies:
                sys.exit(f"no {plies}-ply cube analysis for {pid}:\n{block}")
            eq = {}
            for line in block.splitlines():
                c = CUBE_LINE.match(line)
                if c:
                    label = c.group(1).lower().replace("redouble", "double")
                    eq[label] = float(c.group(2))
            try:
                got[plies] = (eq["no double"], eq["double, take"], eq["double, pass"])
            except KeyError:
                sys.exit(f"cannot read gnubg's cube analysis of {pid}:\n{block}")
        answers.append(got)
    return answers


def close(nd, dt, dp, within):
    """A close decision for the doubler or the taker, the game not already won."""
    if abs(nd - 1) <= 0.005 and dt >= 1:
        return False  # a sure single win: cashing and playing on are worth the same
    return abs(nd - min(dt, dp)) <= within or abs(dt - dp) <= within


def proper(nd, dt, dp):
    """The right actions on these equities: (double, take)."""
    return min(dt, dp) > nd, dt <= dp


def doubler_error(nd, dt, dp, double):
    best = max(nd, min(dt, dp))
    return best - (min(dt, dp) if double else nd)


def taker_error(dt, dp, take):
    return (dt if take else dp) - min(dt, dp)


def tabula(command, position):
    """Tabula's (double, take) on `position`: `command` is the binary and any options of
    `tabula hint` after it (``PATH --plies 3``)."""
    binary, *options = command.split()
    out = subprocess.run(
        [binary, "hint", position, "--json", *options], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        sys.exit(f"tabula hint {position} failed: {out.stderr}")
    verdict = json.loads(out.stdout)["cube"]["verdict"]
    double = verdict.startswith(("Double", "Redouble"))
    take = verdict.endswith(("take", "beaver"))
    return double, take


class Tally:
    def __init__(self):
        self.d = self.d_agree = self.t = self.t_agree = 0
        self.d_err = self.t_err = 0.0
        self.early = self.too_good = self.missed = self.wrong_take = self.wrong_pass = 0

    def doubler(self, judge, chosen, err):
        nd, dt, dp = judge
        right, _ = proper(nd, dt, dp)
        self.d += 1
        self.d_err += err
        if chosen == right:
            self.d_agree += 1
        elif chosen and dt <= dp:
            self.early += 1
        elif chosen:
            self.too_good += 1
        else:
            self.missed += 1

    def taker(self, judge, chosen, err):
        _, dt, dp = judge
        _, right = proper(*judge)
        self.t += 1
        self.t_err += err
        if chosen == right:
            self.t_agree += 1
        elif chosen:
            self.wrong_take += 1
        else:
            self.wrong_pass += 1


def pct(a, b):
    return f"{100 * a / b:.1f} %" if b else "-"


def memg(x, n):
    return f"{1000 * x / n:.1f}" if n else "-"


def judged_key(args):
    """The settings that decide which positions are judged and how."""
    return {
        "positions": args.positions,
        "seed": args.seed,
        "close": args.close,
        "judge_plies": args.judge_plies,
        "redoubles": args.redoubles,
        "sample": args.sample,
        "batch": args.batch,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=200, help="close positions to judge")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--close",
        type=float,
        default=0.10,
        help="keep a position when the doubler's or the taker's two options are this close "
        "(cubeful equity per cube unit, the judge's)",
    )
    ap.add_argument("--judge-plies", type=int, default=2, help="gnubg's plies as the judge")
    ap.add_argument(
        "--redoubles",
        type=float,
        default=0.25,
        help="share of candidates with the cube at 2 owned by the player on roll",
    )
    ap.add_argument(
        "--sample", type=float, default=0.2, help="chance that a turn of self-play is a candidate"
    )
    ap.add_argument(
        "--takes",
        choices=["all", "doubles"],
        default="all",
        help="score the taker in every kept position, or only where the judge doubles",
    )
    ap.add_argument("--batch", type=int, default=400, help="candidates judged per round (split over --jobs gnubg processes)")
    ap.add_argument("--jobs", type=int, default=2, help="gnubg and tabula processes at once")
    ap.add_argument(
        "--tabula",
        action="append",
        metavar="NAME=PATH",
        help="a Tabula binary to judge, with any options of `tabula hint` after the path "
        "('NAME=PATH --plies 3'; repeatable; default: Tabula=" + TABULA + ")",
    )
    ap.add_argument(
        "--judged",
        metavar="FILE",
        help="keep the judged positions in FILE (JSON): read it when it exists, else write it, "
        "so that other binaries are judged on the same positions without asking gnubg again",
    )
    args = ap.parse_args()
    binaries = [t.split("=", 1) for t in (args.tabula or ["Tabula (tabula hint)=" + TABULA])]
    rng = random.Random(args.seed)

    plies_list = [args.judge_plies] + ([0] if args.judge_plies != 0 else [])
    kept = []
    seen = 0
    if args.judged and os.path.exists(args.judged):
        with open(args.judged) as f:
            saved = json.load(f)
        if saved["args"] != judged_key(args):
            sys.exit(f"{args.judged} was judged with other settings: {saved['args']}")
        seen = saved["seen"]
        kept = [((b, c, o), {int(k): tuple(v) for k, v in a.items()}) for (b, c, o), a in saved["kept"]]
    while len(kept) < args.positions:
        pool = candidates(args.batch, rng, args.sample, args.redoubles)
        chunks = [pool[i :: args.jobs] for i in range(args.jobs)]
        with ThreadPoolExecutor(args.jobs) as ex:
            answers = list(ex.map(lambda c: gnubg_cube(c, plies_list), chunks))
        for k, cand in enumerate(pool):
            if len(kept) == args.positions:
                break
            seen += 1
            a = answers[k % args.jobs][k // args.jobs]
            nd, dt, dp = a[args.judge_plies]
            if close(nd, dt, dp, args.close):
                kept.append((cand, a))

    if args.judged and not os.path.exists(args.judged):
        with open(args.judged, "w") as f:
            json.dump({"args": judged_key(args), "seen": seen, "kept": kept}, f)

    positions = [xgid(b, c, o) for (b, c, o), _ in kept]
    tabula_choices = {}
    for name, binary in binaries:
        with ThreadPoolExecutor(args.jobs) as ex:
            tabula_choices[name] = list(ex.map(lambda x: tabula(binary, x), positions))

    names = [name for name, _ in binaries] + ["gnubg 0-ply", "never double, always take"]
    tallies = {name: Tally() for name in names}
    for k, ((_, _, owned), a) in enumerate(kept):
        judge = a[args.judge_plies]
        nd, dt, dp = judge
        right_double, _ = proper(*judge)
        choices = {name: tabula_choices[name][k] for name, _ in binaries}
        choices["gnubg 0-ply"] = proper(*a[0])
        choices["never double, always take"] = (False, True)
        for name, (double, take) in choices.items():
            t = tallies[name]
            t.doubler(judge, double, doubler_error(nd, dt, dp, double))
            if args.takes == "all" or right_double:
                t.taker(judge, take, taker_error(dt, dp, take))

    n = len(kept)
    redoubles = sum(1 for (c, _) in kept if c[2])
    print(
        f"{n} close positions ({n - redoubles} cube centred, {redoubles} redoubles) of {seen} "
        f"candidates from gnubg 0-ply self-play, seed {args.seed}; money, no Jacoby, no beavers; "
        f"judge gnubg {args.judge_plies}-ply cubeful; close: within {args.close:.2f} per cube "
        f"unit; takes scored in {'every kept position' if args.takes == 'all' else 'judged doubles'}"
    )
    print()
    print(
        "| player | decisions | agreement | mEMG per decision | double/no double: agreement "
        "| mEMG | take/pass: agreement | mEMG | doubles too early | doubles too good "
        "| missed doubles | wrong takes | wrong passes |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, t in tallies.items():
        dec = t.d + t.t
        print(
            f"| {name} | {dec} | {pct(t.d_agree + t.t_agree, dec)} "
            f"| {memg(t.d_err + t.t_err, dec)} "
            f"| {pct(t.d_agree, t.d)} ({t.d}) | {memg(t.d_err, t.d)} "
            f"| {pct(t.t_agree, t.t)} ({t.t}) | {memg(t.t_err, t.t)} "
            f"| {t.early} | {t.too_good} | {t.missed} | {t.wrong_take} | {t.wrong_pass} |"
        )


if __name__ == "__main__":
    main()
