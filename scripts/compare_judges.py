#!/usr/bin/env python3
"""Three judges of the same chequer plays: gnubg's analysis at its default depth (2-ply),
gnubg's analysis one ply deeper, and Tabula's (docs/gnubg.md, "A deeper gnubg judge").

    scripts/compare_judges.py SHALLOW_DIR DEEP_DIR

Each DIR holds the same match sets' parts (part1 ... partN, each with matchK.sgf analysed by
gnubg; SHALLOW_DIR's parts also with matchK.json from `tabula analyse matchK.mat --json`):
`scripts/gnubg_reanalyse.sh` makes SHALLOW_DIR's SGFs, `GNUBG_PLIES=3
scripts/gnubg_reanalyse.sh` DEEP_DIR's. The chequer plays are matched between the files as
`scripts/compare_analysis.py` matches them (game, player, moves before, dice). Prints, per
player:

1. the overall error rates, decision-weighted (error totals over unforced plays and close or
   actual cube decisions), by each judge: gnubg's from its statistics of each match
   (matchK.stats, which `scripts/gnubg_reanalyse.sh` writes), Tabula's from its JSON;
2. each judge's chequer error total (EMG) and rate (mEMG per unforced play: a play with two
   or more analysed choices in gnubg's file) on the plays matched;
3. the same by the game's phase (the position's XGID in Tabula's JSON: a race, or contact
   with 250 pips or more of both sides together, 150 to 249, fewer);
4. where the shallow gnubg judge and Tabula disagree about a play's error by more than a
   margin, which of the two the deeper gnubg judge is nearer to.

The judges are named by the depth read from their SGFs (gnubg writes each evaluation's plies
in them); two folders analysed at the same depth are refused, since gnubg_reanalyse.sh keeps
an SGF already there whatever its depth.

gnubg is a judge here only. Standard library only.
"""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_analysis as ca  # noqa: E402

NAMES = ["gnubg 0-ply", "Tabula strong"]


def parts(root):
    return sorted(glob.glob(os.path.join(root, "part*")),
                  key=lambda p: int(re.findall(r"(\d+)$", p)[0]))


def matches(part):
    return sorted(glob.glob(os.path.join(part, "match*.sgf")),
                  key=lambda p: int(re.findall(r"(\d+)\.sgf$", p)[0]))


def match_files(shallow, deep):
    """(shallow SGF, deep SGF, Tabula's JSON) of every match the three judges have; and how
    many matches were left out for a missing file."""
    found, missing = [], 0
    for p_s, p_d in zip(parts(shallow), parts(deep)):
        for m_s in matches(p_s):
            files = (m_s, os.path.join(p_d, os.path.basename(m_s)), m_s[:-4] + ".json")
            if all(os.path.exists(f) for f in files):
                found.append(files)
            else:
                missing += 1
    return found, missing


def depth(paths):
    """The plies of gnubg's analysis in these SGFs: the depth its best play of each move was
    judged at (`3C` in an A[] entry: 3-ply cubeful), the most frequent."""
    seen = {}
    for path in paths:
        for plies in re.findall(r"\bA\[\d+\]\[\w+ E ver \d+(?: \S+){6} (\d+)C ", open(path).read()):
            seen[plies] = seen.get(plies, 0) + 1
    return int(max(seen, key=seen.get)) if seen else None


def unforced(path):
    """Keys (as gnubg_decisions) of the plays with two or more analysed choices."""
    out = set()
    for g, nodes in enumerate(ca.sgf_games(path), start=1):
        moves = 0
        for node in nodes:
            for colour, seat in (("W", 0), ("B", 1)):
                if colour in node and re.match(r"^\d\d", node[colour][0]):
                    if len(node.get("A", [])) > 2:
                        out.add((g, seat, "move", moves))
                    moves += 1
    return out


def stats(path):
    """gnubg's `show statistics match` (matchK.stats): per seat (0 = gnubg, 1 = Tabula) the
    chequer, cube and overall error totals (EMG), unforced moves, close cube decisions."""
    out = [dict(chequer=0.0, cube=0.0, overall=0.0, unforced=0, close=0) for _ in (0, 1)]
    section = None
    for line in open(path, encoding="utf-8", errors="replace"):
        for name in ("Chequerplay", "Cube", "Overall"):
            if line.startswith(name + " statistics"):
                section = name.lower()
        m = re.match(r"Error total EMG \(MWC\)\s+(\S+) \([^)]*\)\s+(\S+)", line)
        if m and section in ("chequerplay", "cube", "overall"):
            key = "chequer" if section == "chequerplay" else section
            for s in (0, 1):
                out[s][key] = abs(float(m.group(1 + s)))
        m = re.match(r"(Unforced moves|Close or actual cube decisions)\s+(\d+)\s+(\d+)", line)
        if m:
            key = "unforced" if m.group(1).startswith("Unforced") else "close"
            for s in (0, 1):
                out[s][key] = int(m.group(2 + s))
    return out


def rates(totals):
    """mEMG a decision: chequer, cube and overall, decision-weighted."""
    u, c = totals["unforced"], totals["close"]
    return [1000 * totals["chequer"] / u if u else 0.0, 1000 * totals["cube"] / c if c else 0.0,
            1000 * totals["overall"] / (u + c) if u + c else 0.0]


def overall(files, labels):
    """Per judge and seat, the summed totals over the matches whose statistics every judge
    has."""
    judges = {name: [] for name in labels}
    for m_s, m_d, js in files:
        stats_files = [m_s[:-4] + ".stats", m_d[:-4] + ".stats"]
        if not all(os.path.exists(f) for f in stats_files):
            continue
        for name, f in zip(labels, stats_files):
            judges[name].append(stats(f))
        seats = [None, None]
        for p in json.load(open(js))["players"]:
            s = 0 if p["name"] == "gnubg" else 1
            n, k = p["chequer_decisions"], p["cube_decisions"]
            seats[s] = dict(chequer=p["chequer_error_rate"] * n / 1000, unforced=n,
                            cube=p["cube_error_rate"] * k / 1000, close=k,
                            overall=p["overall_error_rate"] * (n + k) / 1000)
        judges[labels[2]].append(seats)
    n = len(judges[labels[2]])
    print("Overall error rates over %d matches, mEMG a decision, decision-weighted "
          "(chequer / cube / overall):" % n)
    print("| player | %s |" % " | ".join(labels))
    print("|---|---|---|---|")
    for s in (0, 1):
        cells = []
        for name in labels:
            tot = {k: sum(m[s][k] for m in judges[name])
                   for k in ("chequer", "cube", "overall", "unforced", "close")}
            cells.append("%.1f / %.1f / **%.1f**" % tuple(rates(tot)))
        print("| %s | %s |" % (NAMES[s], " | ".join(cells)))
    print()


def phase(xgid):
    """`race`, or contact by the pips of both sides together: `250+`, `150-249`, `<150`;
    `?` without an XGID (a JSON from before they were written)."""
    if not xgid:
        return "?"
    board = xgid[5:].split(":")[0] if xgid.startswith("XGID=") else xgid.split(":")[0]
    bottom = [ord(c) - 64 if "A" <= c <= "O" else 0 for c in board]
    top = [ord(c) - 96 if "a" <= c <= "o" else 0 for c in board]
    # XG's board: the bottom player moves from 24 (and its bar, 25) towards 1; the top
    # player's checker at index i has 25 - i pips to go (its bar is index 0)
    pips = sum(i * n for i, n in enumerate(bottom)) + sum((25 - i) * n for i, n in enumerate(top))
    rear = max((i for i in range(26) if bottom[i]), default=0)
    front = min((i for i in range(26) if top[i]), default=25)
    if rear <= front:
        return "race"
    return "250+" if pips >= 250 else "150-249" if pips >= 150 else "<150"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    files, missing = match_files(*sys.argv[1:])
    if not files:
        sys.exit("no match with both SGFs and Tabula's JSON")
    if missing:
        print("(%d matches without both SGFs and Tabula's JSON left out)" % missing)
    # The judges are named by the depth their files were analysed at, read from the files: a
    # folder whose SGFs were made at gnubg's default depth stays at it (gnubg_reanalyse.sh
    # does not remake an existing SGF), and two judges of one depth compare nothing.
    plies = [depth(f[k] for f in files) for k in (0, 1)]
    if plies[0] == plies[1]:
        sys.exit("both folders' SGFs were analysed at %s plies" % plies[0])
    labels = ["gnubg %s-ply" % p for p in plies] + ["Tabula"]
    overall(files, labels)
    rows = []  # (seat, shallow gnubg error, deep gnubg error, Tabula's error, phase)
    for m_s, m_d, js in files:
        g_s = ca.gnubg_decisions(m_s)
        g_d = ca.gnubg_decisions(m_d)
        t, _ = ca.tabula_decisions(json.load(open(js)), g_s)
        for key in unforced(m_s):
            e_s, e_d, d = g_s[key][2], g_d.get(key, (None, None, None))[2], t.get(key)
            if e_s is None or e_d is None or d is None:
                continue
            rows.append((key[1], e_s, e_d, d["error"], phase(d.get("xgid"))))
    print("| player | unforced plays matched | %s |" % " | ".join(labels))
    print("|---|---:|---:|---:|---:|")
    for s in (0, 1):
        r = [x for x in rows if x[0] == s]
        n = len(r)
        tot = [sum(x[k] for x in r) for k in (1, 2, 3)]
        print("| %s | %d | %s |" % (NAMES[s], n, " | ".join(
            "%.3f EMG, %.1f mEMG" % (t, 1000 * t / n if n else 0) for t in tot)))
    print()
    print("By phase (contact by the pips of both sides together; '?': no XGID in the JSON):")
    print("| player | phase | unforced plays | %s |" % " | ".join(labels))
    print("|---|---|---:|---:|---:|---:|")
    for s in (0, 1):
        for ph in ("250+", "150-249", "<150", "race", "?"):
            r = [x for x in rows if x[0] == s and x[4] == ph]
            if r:
                print("| %s | %s | %d | %s |" % (NAMES[s], ph, len(r), " | ".join(
                    "%.3f" % sum(x[k] for x in r) for k in (1, 2, 3))))
    print()
    print("Where %s and Tabula disagree about a play's error by more than the margin," % labels[0])
    print("is %s's error nearer to %s's or to Tabula's?" % (labels[1], labels[0]))
    print("| player | margin | plays | nearer %s | nearer Tabula |"
          " error totals there: %s |" % (labels[0], " / ".join(labels)))
    print("|---|---:|---:|---:|---:|---|")
    for s in (0, 1):
        for margin in (0.02, 0.05):
            r = [x for x in rows if x[0] == s and abs(x[1] - x[3]) > margin]
            near_g = sum(1 for x in r if abs(x[2] - x[1]) < abs(x[2] - x[3]))
            near_t = sum(1 for x in r if abs(x[2] - x[3]) < abs(x[2] - x[1]))
            tot = [sum(x[k] for x in r) for k in (1, 2, 3)]
            print("| %s | %.2f | %d | %d | %d | %.3f / %.3f / %.3f |" % (
                NAMES[s], margin, len(r), near_g, near_t, *tot))


if __name__ == "__main__":
    main()
