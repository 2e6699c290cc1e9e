#!/usr/bin/env python3
"""Compares gnubg's analysis of a set of matches with Tabula's (docs/gnubg.md, "Twelve
5-point matches on the neural bot").

    scripts/compare_analysis.py [DIR...]     (default /tmp/matches)

Several DIRs are read as one set of matches, in the order given. Each DIR is what scripts/gnubg_matches.sh wrote (gnubg.log, matchN.sgf analysed by gnubg) plus,
for every match, matchN.json from `tabula analyse DIR/matchN.mat --json`. Prints:

1. gnubg's `show statistics match` per match and in total: the winner, each player's chequer,
   cube and overall error rates in mEMG (as gnubg prints them, signs dropped), their
   unweighted means over the matches, and the decision-weighted totals (error total EMG over
   unforced moves, close-or-actual cube decisions, and both).
2. The same from Tabula's analysis (its JSON: error rates per counted decision).
3. Decision by decision: gnubg's marks, read from the analysed SGF, against Tabula's. gnubg
   writes a chequer play's mark on its move node as BM[2] (very bad), BM[1] (bad) or DO[]
   (doubtful), and the cube decision before that roll (a missed double) on the same node as
   BC[2], BC[1] or DC[]; on double, take and drop nodes the cube mark is BM[2]/BM[1]/DO[]
   (gnubg's sgf.c, WriteSkill and WriteSkillCube). Decisions are matched by game, player and
   the number of moves (dances included) played before them in the game; chequer plays are
   also checked by the dice. gnubg 1.07 marks from 0.030 (doubtful), 0.060 (bad) and 0.120
   EMG (very bad) by default, and Tabula's analysis (`analyse::Mark`) from the same
   thresholds; the table also counts Tabula's errors at the two upper ones directly.

Standard library only.
"""
import glob
import json
import os
import re
import sys
from collections import Counter, defaultdict

MARKS = ["", "doubtful", "bad", "very bad"]
CUBE_KINDS = ["Missed doubles below CP", "Missed doubles above CP", "Wrong doubles below DP",
              "Wrong doubles above TG", "Wrong takes", "Wrong passes"]


# ----------------------------------------------------------------------------- gnubg.log


def parse_log(path):
    """Per match (in order): winner and, per seat (0 = gnubg, 1 = Tabula), the statistics."""
    text = open(path, encoding="utf-8", errors="replace").read()
    winners = re.findall(r"(\w+) has won the match\.", text)
    scores = re.findall(r"The score \(after (\d+) games?\) is: \w+ (\d+), \w+ (\d+)[^\n]*?"
                        r"\w+ has won the match\.", text)
    blocks = text.split("Chequerplay statistics")[1:]
    matches = []
    for i, block in enumerate(blocks):
        block = block.split("A new ")[0]

        def rows(label):
            out = []
            for line in block.splitlines():
                if line.startswith(label):
                    out.append(line[len(label):])
            return out

        def ints(label):
            return [int(x) for x in re.findall(r"-?\d+", rows(label)[0])[:2]]

        # gnubg's unit: MWC in a match, Points in a money session
        unit = "Points" if "EMG (Points)" in block else "MWC"

        def emg(label):
            # "Error total EMG (MWC)   -0.116 ( -2.556%)   -0.806 (-15.672%)" (a money
            # session: "-0.107 ( -0.231)"): EMG of each side
            vals = []
            for line in rows(label.replace("MWC", unit)):
                nums = re.findall(r"(-?\d+\.\d+)\s*\(\s*[-+]?\d+\.\d+%?\)", line)
                vals.append([abs(float(x)) for x in nums[:2]])
            return vals

        def pair(label):
            # "Luck adjusted result   -0.103   +0.103": one figure a side, unbracketed
            return [float(x) for x in re.findall(r"[-+]?\d+\.\d+", rows(label)[0])[:2]]

        cube_kinds = {}
        for label in CUBE_KINDS:
            line = rows(label + " (EMG (%s))" % unit)[0]
            # "   1 (-0.013 ( -0.104%))   0": count and EMG per side
            cells = re.findall(r"(\d+)(?:\s*\((-?\d+\.\d+)\s*\([^)]*\)\))?", line)
            cube_kinds[label] = [(int(c), abs(float(e)) if e else 0.0) for c, e in cells[:2]]
        totals = emg("Error total EMG (MWC)")
        rates = emg("Error rate mEMG (MWC)")
        m = {
            "winner": winners[i] if i < len(winners) else None,
            "score": "%s-%s in %s" % (scores[i][1], scores[i][2], scores[i][0])
                     if i < len(scores) else "",
            "unforced": ints("Unforced moves"),
            "close_cube": ints("Close or actual cube decisions"),
            "very_bad": ints("Moves marked very bad"),
            "bad": ints("Moves marked bad"),
            "doubtful": ints("Moves marked doubtful"),
            # chequer, cube, overall
            "total": totals[:3],
            "rate": rates[:3],
            "cube_kinds": cube_kinds,
        }
        if unit == "Points":
            # money: the session's totals in points
            m["actual"] = pair("Actual result")
            m["adjusted"] = pair("Luck adjusted result")
        matches.append(m)
    return matches


# ----------------------------------------------------------------------------- SGF


def sgf_games(path):
    """The games of an SGF file, each a list of nodes (dict: property -> list of values)."""
    text = open(path, encoding="utf-8", errors="replace").read()
    games = []
    i = 0
    n = len(text)
    game = None
    node = None
    while i < n:
        c = text[i]
        if c == "(":
            game = []
            games.append(game)
            i += 1
        elif c == ")":
            i += 1
        elif c == ";":
            node = {}
            game.append(node)
            i += 1
        elif c.isupper():
            j = i
            while text[j].isupper():
                j += 1
            name = text[i:j]
            vals = []
            while j < n and text[j] == "[":
                k = j + 1
                buf = []
                while text[k] != "]":
                    if text[k] == "\\":
                        k += 1
                    buf.append(text[k])
                    k += 1
                vals.append("".join(buf))
                j = k + 1
                while j < n and text[j] in " \n\r\t":
                    j += 1
            node.setdefault(name, []).extend(vals)
            i = j
        else:
            i += 1
    return games


def skill(node, bad, doubtful):
    if bad in node:
        return "very bad" if node[bad][0] == "2" else "bad"
    if doubtful in node:
        return "doubtful"
    return ""


def chequer_error(node):
    """gnubg's error of the play made, EMG, from the node's A[] list: A[i] is the index of
    the play made, then one entry per play, best first: "move E ver 3 p1..p5 equity ..."."""
    a = node.get("A")
    if not a:
        return 0.0
    idx = int(a[0])
    eqs = [float(x.split()[9]) for x in a[1:]]
    return eqs[0] - eqs[idx] if idx < len(eqs) else None


def gnubg_decisions(path):
    """gnubg's decisions: key (game, seat, 'move'|'cube', moves before) -> (mark, what, error
    in EMG for chequer plays, None for cube decisions)."""
    out = {}
    for g, nodes in enumerate(sgf_games(path), start=1):
        moves = 0
        for node in nodes:
            for colour, seat in (("W", 0), ("B", 1)):
                if colour not in node:
                    continue
                v = node[colour][0]
                if v == "double":
                    out[(g, seat, "cube", moves)] = (skill(node, "BM", "DO"), "double", None)
                elif v in ("take", "drop"):
                    out[(g, seat, "cube", moves)] = (skill(node, "BM", "DO"), v, None)
                elif re.match(r"^\d\d", v):
                    dice = "%s-%s" % (max(v[0], v[1]), min(v[0], v[1]))
                    out[(g, seat, "move", moves)] = (skill(node, "BM", "DO"), dice,
                                                       chequer_error(node))
                    if len(v) == 2:  # no legal play: no decision for Tabula
                        out[(g, seat, "dance", moves)] = ("", dice, None)
                    cube = skill(node, "BC", "DC")
                    if cube or "DA" in node:
                        out.setdefault((g, seat, "cube", moves), (cube, "no-double", None))
                    moves += 1
    return out


# ----------------------------------------------------------------------------- Tabula JSON


def tabula_decisions(doc, sgf):
    """Tabula's decisions keyed as gnubg_decisions, aligned on gnubg's move list."""
    seat = {}
    for p in doc["players"]:
        seat[p["colour"]] = 0 if p["name"] == "gnubg" else 1
    # gnubg's chequer plays per game, in order: (seat, dice, moves before)
    sgf_moves = defaultdict(list)
    for (g, s, kind, m), (_mark, dice, _err) in sgf.items():
        if kind == "move":
            sgf_moves[g].append((m, s, dice, (g, s, "dance", m) in sgf))
    for g in sgf_moves:
        sgf_moves[g].sort()
    out = {}
    unmatched = 0
    pos = defaultdict(int)  # next gnubg move index per game
    last = {}  # moves before the next decision, per game
    for d in doc["decisions"]:
        g = d["game"]
        s = seat[d["player"]]
        if d["kind"] == "move":
            lst = sgf_moves[g]
            k = pos[g]
            # skip gnubg's dances (no decision for Tabula) until player and dice agree
            while k < len(lst) and (lst[k][1] != s or lst[k][2] != d["dice"]):
                k += 1
            if k == len(lst):
                unmatched += 1
                continue
            m = lst[k][0]
            pos[g] = k + 1
            last[g] = m + 1
            out[(g, s, "move", m)] = d
        else:
            lst = sgf_moves[g]
            if d["kind"] in ("no-double", "double"):
                # the roller's decision: step over the opponent's dances since the last play
                k = pos[g]
                while k < len(lst) and lst[k][1] != s and lst[k][3]:
                    k += 1
                pos[g] = k
                last[g] = lst[k][0] if k < len(lst) else (lst[-1][0] + 1 if lst else 0)
            m = last.get(g, 0)
            key = (g, s, "cube", m)
            if key in out and MARKS.index(out[key]["mark"]) >= MARKS.index(d["mark"]):
                continue
            out[key] = d
    return out, unmatched


# ----------------------------------------------------------------------------- report


def fmt(x, w=7, p=1):
    return ("%*.*f" % (w, p, x)) if x is not None else " " * (w - 1) + "-"


def main():
    folders = sys.argv[1:] or ["/tmp/matches"]
    # Several folders (the parts of scripts/gnubg_match_parts.sh) are read as one set of
    # matches, in the order given: each folder's matches that gnubg finished and saved.
    stats, sgfs, jsons = [], [], []
    for folder in folders:
        folder_stats = parse_log(os.path.join(folder, "gnubg.log"))
        folder_sgfs = sorted(glob.glob(os.path.join(folder, "match*.sgf")),
                             key=lambda p: int(re.findall(r"(\d+)\.sgf$", p)[0]))
        k = min(len(folder_stats), len(folder_sgfs))
        stats += folder_stats[:k]
        sgfs += folder_sgfs[:k]
        jsons += [os.path.join(folder, "match%d.json" % (i + 1)) for i in range(k)]
    n = len(stats)
    names = ["gnubg 0-ply", "Tabula strong"]

    print("== gnubg's analysis (show statistics match), error rates in mEMG ==")
    print("match  winner  score (games) | gnubg: chequer  cube overall |"
          " Tabula: chequer  cube overall")
    won = Counter()
    for i in range(n):
        m = stats[i]
        won[m["winner"]] += 1
        r = m["rate"]
        print("%5d  %-7s %-13s | %15s %5s %7s | %16s %5s %7s" % (
            i + 1, m["winner"], m["score"], fmt(r[0][0]), fmt(r[1][0], 5), fmt(r[2][0]),
            fmt(r[0][1]), fmt(r[1][1], 5), fmt(r[2][1])))
    print()
    print("| | matches won | chequer mEMG | cube mEMG | overall mEMG |"
          " chequer (weighted) | cube (weighted) | overall (weighted) |"
          " unforced moves | close cube decisions | very bad / bad / doubtful moves |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    gnubg_rows = []
    for s in (0, 1):
        mean = [sum(stats[i]["rate"][k][s] for i in range(n)) / n for k in range(3)]
        tot = [sum(stats[i]["total"][k][s] for i in range(n)) for k in range(3)]
        unf = sum(stats[i]["unforced"][s] for i in range(n))
        cub = sum(stats[i]["close_cube"][s] for i in range(n))
        w = [1000 * tot[0] / unf if unf else None, 1000 * tot[1] / cub if cub else None,
             1000 * tot[2] / (unf + cub) if unf + cub else None]
        marks = [sum(stats[i][k][s] for i in range(n)) for k in ("very_bad", "bad", "doubtful")]
        wins = won["gnubg"] if s == 0 else n - won["gnubg"]
        gnubg_rows.append((mean, w))
        print("| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %d | %d | %d / %d / %d |" % (
            names[s], wins, mean[0], mean[1], mean[2], w[0] or 0, w[1] or 0, w[2] or 0,
            unf, cub, *marks))
    print()
    print("gnubg's cube errors over all matches (count, EMG):")
    for label in CUBE_KINDS:
        cells = []
        for s in (0, 1):
            c = sum(stats[i]["cube_kinds"][label][s][0] for i in range(n))
            e = sum(stats[i]["cube_kinds"][label][s][1] for i in range(n))
            cells.append("%s %d (%.3f)" % (names[s], c, e))
        print("  %-24s %s" % (label, ",  ".join(cells)))
    print()

    # Tabula's analysis
    docs = []
    for i in range(n):
        path = jsons[i]
        if not os.path.exists(path):
            print("missing %s: run `tabula analyse %s --json > %s`" % (
                path, path[:-5] + ".mat", path))
            docs.append(None)
            continue
        try:
            docs.append(json.load(open(path)))
        except ValueError:
            print("unreadable %s (still being written?)" % path)
            docs.append(None)
    have = [i for i in range(n) if docs[i] is not None]
    if not have:
        return
    plies = sorted({docs[i]["plies"] for i in have})
    secs = sum(docs[i]["seconds"] for i in have)
    print("== Tabula's analysis (tabula analyse --json, %s-ply, %d matches, %.0f s) ==" % (
        "/".join(map(str, plies)), len(have), secs))
    print("match | gnubg: chequer  cube overall | Tabula: chequer  cube overall")
    per = {}
    for i in have:
        ps = {}
        for p in docs[i]["players"]:
            ps[0 if p["name"] == "gnubg" else 1] = p
        per[i] = ps
        print("%5d | %15s %5s %7s | %16s %5s %7s" % (
            i + 1, fmt(ps[0]["chequer_error_rate"]), fmt(ps[0]["cube_error_rate"], 5),
            fmt(ps[0]["overall_error_rate"]), fmt(ps[1]["chequer_error_rate"]),
            fmt(ps[1]["cube_error_rate"], 5), fmt(ps[1]["overall_error_rate"])))
    print()
    print("Side by side, mEMG: unweighted mean of the per-match rates (weighted by decisions)")
    print("| player | analysis | chequer | cube | overall | chequer decisions | cube decisions |"
          " very bad / bad / doubtful (all decisions) |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for s in (0, 1):
        mean, w = gnubg_rows[s]
        unf = sum(stats[i]["unforced"][s] for i in have)
        cub = sum(stats[i]["close_cube"][s] for i in have)
        print("| %s | gnubg | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) | %d | %d | see above (moves only) |"
              % (names[s], mean[0], w[0], mean[1], w[1], mean[2], w[2], unf, cub))
        k = len(have)
        mr = [sum(per[i][s][f] for i in have) / k
              for f in ("chequer_error_rate", "cube_error_rate", "overall_error_rate")]
        cd = sum(per[i][s]["chequer_decisions"] for i in have)
        kd = sum(per[i][s]["cube_decisions"] for i in have)
        ce = sum(per[i][s]["chequer_error_rate"] * per[i][s]["chequer_decisions"] for i in have)
        ke = sum(per[i][s]["cube_error_rate"] * per[i][s]["cube_decisions"] for i in have)
        marks = [sum(per[i][s][f] for i in have) for f in ("very_bad", "bad", "doubtful")]
        print("| %s | Tabula | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) | %d | %d | %d / %d / %d |" % (
            names[s], mr[0], ce / cd if cd else 0, mr[1], ke / kd if kd else 0, mr[2],
            (ce + ke) / (cd + kd) if cd + kd else 0, cd, kd, *marks))
    print()

    # decision by decision
    print("== gnubg's marks against Tabula's, decision by decision ==")
    agree = {}
    unmatched_total = 0
    worst = []
    diffs = []
    errs = {}  # Tabula's errors on gnubg's very bad decisions
    for i in have:
        g = gnubg_decisions(sgfs[i])
        t, unmatched = tabula_decisions(docs[i], g)
        unmatched_total += unmatched
        for key, (gmark, what, gerr) in g.items():
            s, kind = key[1], key[2]
            d = t.get(key)
            tmark = d["mark"] if d else None
            agree.setdefault((s, kind), Counter())[(gmark, tmark)] += 1
            if gmark == "very bad" and d is not None:
                errs.setdefault((s, kind), []).append(d["error"])
            if gmark == "very bad" or (tmark == "very bad"):
                worst.append((i + 1, key, gmark, what, d, gerr))
            if kind == "move" and d is not None and gerr is not None:
                diffs.append((abs(gerr - d["error"]), i + 1, key, gerr, d))
        # Tabula's decisions with no gnubg counterpart
        for key, d in t.items():
            if key not in g:
                agree.setdefault((key[1], key[2]), Counter())[(None, d["mark"])] += 1
    if unmatched_total:
        print("(%d Tabula chequer plays could not be matched to gnubg's)" % unmatched_total)
    print("| player | decisions | gnubg very bad | Tabula also very bad | Tabula bad |"
          " Tabula doubtful | Tabula unmarked | not in Tabula's analysis |"
          " Tabula's error >= 0.12 / >= 0.06 |"
          " gnubg bad: Tabula bad or worse | Tabula very bad: gnubg very bad / bad / less |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---|---|")
    for s in (0, 1):
        for kind in ("move", "cube"):
            c = agree.get((s, kind), Counter())
            gvb = sum(v for (gm, tm), v in c.items() if gm == "very bad")
            row = [sum(v for (gm, tm), v in c.items() if gm == "very bad" and tm == x)
                   for x in ("very bad", "bad", "doubtful", "")]
            missing = sum(v for (gm, tm), v in c.items() if gm == "very bad" and tm is None)
            gb = sum(v for (gm, tm), v in c.items() if gm == "bad")
            gb_t = sum(v for (gm, tm), v in c.items() if gm == "bad" and tm in ("bad", "very bad"))
            tvb = [sum(v for (gm, tm), v in c.items() if tm == "very bad" and gm == x)
                   for x in ("very bad", "bad")]
            tvb_all = sum(v for (gm, tm), v in c.items() if tm == "very bad")
            e = errs.get((s, kind), [])
            print("| %s | %s | %d | %d | %d | %d | %d | %d | %d / %d | %d of %d | %d / %d / %d |" % (
                names[s], "chequer" if kind == "move" else "cube", gvb, *row, missing,
                sum(1 for x in e if x >= 0.12), sum(1 for x in e if x >= 0.06),
                gb_t, gb, tvb[0], tvb[1], tvb_all - tvb[0] - tvb[1]))
    print()
    print("Very bad by either analysis (match, game, player, dice or cube action, gnubg's mark"
          " and error, Tabula's mark and error, in EMG; play made / Tabula's best):")
    for m, key, gmark, what, d, gerr in worst:
        g, s, kind, mv = key
        if d is None:
            print("  match %2d game %d %-6s %-9s gnubg %-8s Tabula (none)" % (
                m, g, ["gnubg", "Tabula"][s], what, gmark))
            continue
        extra = ""
        if d["kind"] == "move":
            extra = "%s  %s / %s" % (d["dice"], d["played"], d["best"])
        else:
            extra = "%s, proper: %s" % (d["kind"], d.get("proper", ""))
        print("  match %2d game %d %-6s %-9s gnubg %-8s %6s  Tabula %-8s %.3f  %s" % (
            m, g, ["gnubg", "Tabula"][s], what, gmark or "-",
            "%.3f" % gerr if gerr is not None else "", d["mark"] or "-", d["error"], extra))
    print()
    print("Chequer plays where the two analyses differ most (error EMG, gnubg vs Tabula):")
    diffs.sort(key=lambda x: -x[0])
    for _, m, key, gerr, d in diffs[:15]:
        print("  match %2d game %d %-6s %s  gnubg %.3f  Tabula %.3f  %s / Tabula's best %s" % (
            m, key[0], ["gnubg", "Tabula"][key[1]], d["dice"], gerr, d["error"], d["played"],
            d["best"]))
    for s in (0, 1):
        ge = sum(gerr for _, m, key, gerr, d in diffs if key[1] == s)
        te = sum(d["error"] for _, m, key, gerr, d in diffs if key[1] == s)
        print("%s: chequer plays matched %d, error total gnubg %.3f EMG, Tabula %.3f EMG" % (
            names[s], sum(1 for x in diffs if x[2][1] == s), ge, te))


if __name__ == "__main__":
    main()
