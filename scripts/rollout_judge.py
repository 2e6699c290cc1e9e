#!/usr/bin/env python3
"""Rollouts as the judge of the plays where gnubg's analysis and Tabula's disagree
(docs/gnubg.md, "Who is right where the analyses disagree").

    scripts/rollout_judge.py DIR [--margin 0.05] [--limit 40] [--trials 324]
                             [--tabula-trials 648] [--out FILE] [--report FILE]

DIR holds the match sets' parts (part1 ... partN) as `scripts/compare_judges.py`'s SHALLOW_DIR:
each matchK.sgf analysed by gnubg (`scripts/gnubg_reanalyse.sh`) beside matchK.json from
`tabula analyse matchK.mat --json`. The unforced chequer plays are matched between the two
files as `scripts/compare_analysis.py` matches them, and those where the two analyses' errors
differ by more than MARGIN (EMG) are judged again, the largest differences first, at most
LIMIT of them, in one frame for everybody: cubeless money equity.

For each such play (the position and dice from the XGID in Tabula's file, the play made read
from its notation), every legal result is valued by gnubg 2-ply (gnubg-nn) and by Tabula
2-ply (`chances --plies 2`, the nets' cubeless search). The candidates are the play made,
gnubg 2-ply's best, Tabula 2-ply's best (every legal play searched, where the analysis
searches those its move filter keeps) and the best of Tabula's analysis; each is then
rolled out twice, to the end, cubeless, with variance reduction:

- by gnubg's nets at 0-ply (this script, on gnubg-nn: each trial subtracts the luck of every
  roll, the 0-ply value of the roll's best play against the mean over the 21 rolls; the
  trials' dice are the same for every candidate of a position, and trial i's first two
  rolls are the (i mod 36)-th and ((i div 36) mod 36)-th of the 36);
- by Tabula's nets at 0-ply (`chances --rollout N`, `study::rollout`).

Each judge's error of the play made is its equity shortfall against the best of the
candidates by that judge. The report: per play the four judges' errors; per player and
overall, which static judge (gnubg 2-ply or Tabula 2-ply) each rollout is nearer to, and
the mean absolute distance of each static judge's candidate equities from each rollout's.

`--out` keeps every play's values as a JSON line (the run resumes from it: plays already
there are not judged again); `--report FILE` prints the report of such a file alone.

gnubg is a judge here only: nothing of it becomes a target.
"""
import argparse
import json
import multiprocessing
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_analysis as ca  # noqa: E402
import compare_judges as cj  # noqa: E402
from gnubg_board import equity as money  # noqa: E402
from gnubg_board import results as legal_results  # noqa: E402
from gnubg_board import swap  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHANCES = os.path.join(ROOT, "target", "release", "examples", "chances")
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
DISTINCT = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]



# ----------------------------------------------------------------------------- positions


def board_of_xgid(xgid):
    """gnubg-nn's board (list 0 the player not on roll, list 1 the player on roll, each from
    its own side, index 24 the bar) and the dice of an XGID with two dice rolled."""
    fields = (xgid[5:] if xgid.startswith("XGID=") else xgid).split(":")
    chars, turn, dice = fields[0], int(fields[3]), fields[4]
    bottom = [ord(c) - 64 if "A" <= c <= "O" else 0 for c in chars]
    top = [ord(c) - 96 if "a" <= c <= "o" else 0 for c in chars]
    # bottom's point k is index k (its bar 25); top's point k is index 25 - k (its bar 0)
    b_side = [bottom[k] for k in range(1, 25)] + [bottom[25]]
    t_side = [top[25 - k] for k in range(1, 25)] + [top[0]]
    mover, other = (b_side, t_side) if turn == 1 else (t_side, b_side)
    return [other, mover], (int(dice[0]), int(dice[1]))


def apply_play(board, play):
    """The board after `play` in Tabula's notation ("13/11 5/4", "20/19*/16", "8/4(2)",
    "bar/23", "6/off"), the mover still in list 1."""
    other, mover = list(board[0]), list(board[1])
    for token in play.split():
        times = 1
        if token.endswith(")"):
            token, n = token[:-1].split("(")
            times = int(n)
        steps = [s.rstrip("*") for s in token.split("/")]
        points = [25 if s == "bar" else 0 if s == "off" else int(s) for s in steps]
        for _ in range(times):
            for a, b in zip(points, points[1:]):
                if mover[a - 1] <= 0:
                    raise ValueError("no checker on %d for %r" % (a, play))
                mover[a - 1] -= 1
                if b > 0:
                    mover[b - 1] += 1
                    if other[24 - b] == 1:  # the opponent's point 25 - b: a blot hit
                        other[24 - b] = 0
                        other[24] += 1
    return [other, mover]


def key(board):
    return (tuple(board[0]), tuple(board[1]))


# ----------------------------------------------------------------------------- gnubg


def outcome(board):
    """The chances, for the player in list 1, of a finished game (list 1 has borne off)."""
    loser = board[0]
    gammon = sum(loser) == 15
    bg = gammon and (loser[24] > 0 or any(loser[18:24]))
    return [1.0, float(gammon), float(bg), 0.0, 0.0]


def flip(p):
    """The other side's chances."""
    return [1.0 - p[0], p[3], p[4], p[1], p[2]]


def flip_delta(d):
    """A difference of chances seen from the other side."""
    return [-d[0], d[3], d[4], d[1], d[2]]


def finished(board):
    return sum(board[1]) == 0


def value_after(g, after):
    """The mover's chances once it has played (the mover in list 1), at gnubg 0-ply."""
    if finished(after):
        return outcome(after)
    return flip(list(g.probabilities(swap(after), 0)))


def best_after(g, board, a, b):
    """gnubg 0-ply's play for the roll: the board after it (the mover in list 1)."""
    play, pos_key = g.best_move(board, a, b, b=1)
    if not play:  # no legal play: the board stays
        return board
    # best_move's key is the board with the opponent on roll (the mover in list 0)
    return swap(g.board_from_position_key(pos_key))


def gnubg_trial(g, root, t):
    """One variance-reduced trial from `root` (the player on roll in list 1, to roll),
    played by gnubg 0-ply: the root player's chances less the luck of every roll, all from
    the root player's side."""
    rng = random.Random(7919 * t + 1)
    board, root_moves, ply = root, True, 0
    total = [0.0] * 5
    while True:
        if ply == 0:
            d = ROLLS[t % 36]
        elif ply == 1:
            d = ROLLS[(t // 36) % 36]
        else:
            d = (rng.randint(1, 6), rng.randint(1, 6))
        roll = (max(d), min(d))
        # every roll's luck is subtracted (a trial's standard deviation is then some 0.2
        # in the opening, against 1.2 with the luck of the first 8 rolls only)
        options = {r: best_after(g, board, *r) for r in DISTINCT}
        values = {r: value_after(g, options[r]) for r in DISTINCT}
        mean = [sum(values[(max(a, b), min(a, b))][k] for a, b in ROLLS) / 36 for k in range(5)]
        luck = [values[roll][k] - mean[k] for k in range(5)]
        after = options[roll]
        if not root_moves:
            luck = flip_delta(luck)
        total = [total[k] - luck[k] for k in range(5)]
        if finished(after):
            res = outcome(after) if root_moves else flip(outcome(after))
            return [total[k] + res[k] for k in range(5)]
        board = swap(after)
        root_moves = not root_moves
        ply += 1


def gnubg_rollout(job):
    """(job id, the mover's cubeless money equity after its play, its standard error) by a
    gnubg 0-ply rollout of `trials` trials of the position the play leaves."""
    import gnubg_nn as g
    ident, after, trials = job
    root = swap(after)  # the opponent on roll
    eqs = [-money(gnubg_trial(g, root, t)) for t in range(trials)]
    mean = sum(eqs) / trials
    var = sum((e - mean) ** 2 for e in eqs) / max(1, trials - 1)
    return ident, mean, (var / trials) ** 0.5


# ----------------------------------------------------------------------------- Tabula


def tabula_chances(boards, *args):
    """Tabula's chances of the player on roll (list 1) of each board, by `chances ARGS`."""
    if not boards:
        return []
    text = "".join(" ".join(str(n) for n in b[0] + b[1]) + "\n" for b in boards)
    out = subprocess.run([CHANCES, *args], input=text, capture_output=True, text=True,
                         check=True).stdout.split("\n")
    return [[float(x) for x in line.split()] for line in out if line.strip()]


def tabula_values(afters, *args):
    """The mover's cubeless money equity after each play, by Tabula."""
    chances = tabula_chances([swap(a) for a in afters], *args)
    return [-money(p) for p in chances]


# ----------------------------------------------------------------------------- selection


def disagreements(root, margin):
    """The unforced plays whose errors by gnubg's analysis and Tabula's differ by more than
    `margin`, largest first: (difference, match file, key, gnubg's error, Tabula's decision)."""
    rows = []
    for part in cj.parts(root):
        for sgf in cj.matches(part):
            js = sgf[:-4] + ".json"
            try:
                doc = json.load(open(js))
            except (OSError, ValueError):
                print("%s: no analysis by Tabula; left out" % js, file=sys.stderr)
                continue
            g_s = ca.gnubg_decisions(sgf)
            t, _ = ca.tabula_decisions(doc, g_s)
            for k in cj.unforced(sgf):
                e, d = g_s[k][2], t.get(k)
                if e is None or d is None or not d.get("xgid") or not d.get("played"):
                    continue
                if abs(e - d["error"]) > margin:
                    rows.append((abs(e - d["error"]), sgf, k, e, d))
    rows.sort(key=lambda r: -r[0])
    return rows


def match_name(sgf):
    """`partN/matchK.sgf`: a match's name whatever folder the parts were copied to."""
    return "/".join(sgf.split(os.sep)[-2:])


def judge_play(row, trials, tabula_trials, pool):
    """The four judges' values of one disagreement's candidates."""
    import gnubg_nn as g
    _, sgf, k, e_g, d = row
    board, (a, b) = board_of_xgid(d["xgid"])
    afters = [[list(x[0]), list(x[1])] for x in legal_results(board, a, b)]
    results = {key(x): x for x in afters}
    played = apply_play(board, d["played"])
    if key(played) not in results:
        raise ValueError("%s: %s is not a legal play of %s" % (d["xgid"], d["played"], (a, b)))
    g2 = [money_after(g, x) for x in afters]
    t2 = tabula_values(afters, "--plies", "2")
    cands = {key(played)}
    cands.add(key(afters[max(range(len(afters)), key=lambda i: g2[i])]))
    cands.add(key(afters[max(range(len(afters)), key=lambda i: t2[i])]))
    analysis_best = apply_play(board, d["best"]) if d.get("best") else played
    cands.add(key(analysis_best))
    cands = sorted(cands)
    by_key = {key(x): i for i, x in enumerate(afters)}
    jobs = [(c, results[c], trials) for c in cands]
    g_ro = {c: (m, se) for c, m, se in pool.map(gnubg_rollout, jobs)}
    t_ro = tabula_values([results[c] for c in cands], "--rollout", str(tabula_trials))
    match = match_name(sgf)
    return {
        "match": match, "game": k[0], "seat": k[1], "moves": k[3], "xgid": d["xgid"],
        "player": cj.NAMES[k[1]], "play": d["played"], "phase": cj.phase(d["xgid"]),
        "gnubg_analysis_error": e_g, "tabula_analysis_error": d["error"],
        "candidates": [{
            "played": c == key(played), "analysis_best": c == key(analysis_best),
            "board": [list(c[0]), list(c[1])],
            "gnubg_2ply": g2[by_key[c]], "tabula_2ply": t2[by_key[c]],
            "gnubg_rollout": g_ro[c][0], "gnubg_rollout_se": g_ro[c][1],
            "tabula_rollout": t_ro[i],
        } for i, c in enumerate(cands)],
    }


def money_after(g, after):
    """The mover's cubeless money equity after its play, by gnubg 2-ply."""
    if finished(after):
        return money(outcome(after))
    return -money(g.probabilities(swap(after), 2))


# ----------------------------------------------------------------------------- report

JUDGES = ["gnubg_2ply", "tabula_2ply", "gnubg_rollout", "tabula_rollout"]


def error(rec, judge):
    c = rec["candidates"]
    return max(x[judge] for x in c) - next(x[judge] for x in c if x["played"])


def report(recs):
    print("| match | game | player | phase | play | error by gnubg 2-ply | Tabula 2-ply |"
          " gnubg rollout | Tabula rollout | (the analyses: gnubg / Tabula) |")
    print("|---|---:|---|---|---|---:|---:|---:|---:|---|")
    for r in recs:
        print("| %s | %d | %s | %s | %s | %s | %.3f / %.3f |" % (
            r["match"][:-4], r["game"],
            r["player"], r["phase"], r["play"],
            " | ".join("%.3f" % error(r, j) for j in JUDGES),
            r["gnubg_analysis_error"], r["tabula_analysis_error"]))
    print()
    print("Which static judge each rollout is nearer to, by the play's error; and the mean")
    print("absolute distance of each static judge's candidate equities from the rollout's")
    print("(each judge's values shifted by their mean over the candidates, so that only the")
    print("differences between the plays count):")
    print("| player | plays | rollout | nearer gnubg 2-ply | nearer Tabula 2-ply | ties |"
          " error totals: gnubg 2-ply / Tabula 2-ply / rollout | distance: gnubg 2-ply |"
          " Tabula 2-ply |")
    print("|---|---:|---|---:|---:|---:|---|---:|---:|")
    groups = [(who, lambda r, w=who: r["player"] == w) for who in cj.NAMES]
    groups += [("both", lambda r: True),
               ("both, 250+ pips", lambda r: r["phase"] == "250+"),
               ("both, fewer or a race", lambda r: r["phase"] != "250+")]
    for who, keep in groups:
        rs = [r for r in recs if keep(r)]
        if not rs:
            continue
        for ro in ("gnubg_rollout", "tabula_rollout"):
            ng = nt = ties = 0
            for r in rs:
                dg = abs(error(r, "gnubg_2ply") - error(r, ro))
                dt = abs(error(r, "tabula_2ply") - error(r, ro))
                if abs(dg - dt) < 1e-9:
                    ties += 1
                elif dg < dt:
                    ng += 1
                else:
                    nt += 1
            tot = [sum(error(r, j) for r in rs) for j in ("gnubg_2ply", "tabula_2ply", ro)]
            dist = [distance(rs, j, ro) for j in ("gnubg_2ply", "tabula_2ply")]
            print("| %s | %d | %s | %d | %d | %d | %.3f / %.3f / %.3f | %.4f | %.4f |" % (
                who, len(rs), ro.replace("_", " "), ng, nt, ties, *tot, *dist))
    both = [abs(error(r, "gnubg_rollout") - error(r, "tabula_rollout")) for r in recs]
    same = sum(1 for r in recs if best(r, "gnubg_rollout") == best(r, "tabula_rollout"))
    print()
    print("The two rollouts: the same best candidate in %d of %d plays; the played play's "
          "error differs by %.3f EMG on average between them." % (
              same, len(recs), sum(both) / len(both) if both else 0.0))


def best(rec, judge):
    c = rec["candidates"]
    return max(range(len(c)), key=lambda i: c[i][judge])


def distance(recs, judge, ro):
    n, tot = 0, 0.0
    for r in recs:
        c = r["candidates"]
        if len(c) < 2:
            continue
        mj = sum(x[judge] for x in c) / len(c)
        mr = sum(x[ro] for x in c) / len(c)
        for x in c:
            tot += abs((x[judge] - mj) - (x[ro] - mr))
            n += 1
    return tot / n if n else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", nargs="?")
    ap.add_argument("--margin", type=float, default=0.05)
    ap.add_argument("--limit", type=int, default=40)
    ap.add_argument("--trials", type=int, default=324)
    ap.add_argument("--tabula-trials", type=int, default=648)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out")
    ap.add_argument("--report")
    args = ap.parse_args()
    if args.report:
        report([json.loads(line) for line in open(args.report)])
        return
    if not args.dir:
        sys.exit("give the folder of analysed matches, or --report FILE")
    if not os.path.exists(CHANCES):
        sys.exit("build the chances example first: cargo build --release -p tabula-ai "
                 "--example chances")
    done = set()
    recs = []
    if args.out and os.path.exists(args.out):
        for line in open(args.out):
            r = json.loads(line)
            recs.append(r)
            done.add((r["match"], r["game"], r["seat"], r["moves"]))
    found = disagreements(args.dir, args.margin)
    rows = found[: args.limit]
    print("%d plays where the analyses differ by more than %.2f EMG; judging %d" % (
        len(found), args.margin, len(rows)), file=sys.stderr)
    with multiprocessing.Pool(args.threads) as pool:
        for i, row in enumerate(rows):
            k = row[2]
            if (match_name(row[1]), k[0], k[1], k[3]) in done:
                continue
            rec = judge_play(row, args.trials, args.tabula_trials, pool)
            recs.append(rec)
            if args.out:
                with open(args.out, "a") as f:
                    f.write(json.dumps(rec) + "\n")
            print("%d/%d %s %s" % (i + 1, len(rows), rec["xgid"], rec["play"]),
                  file=sys.stderr)
    report(recs)


if __name__ == "__main__":
    main()
