#!/usr/bin/env python3
"""Adds up gnubg's `show statistics session` of several money sessions against Tabula
(the parts of scripts/gnubg_session_parts.sh, or single runs of scripts/gnubg_session.sh).

    python3 scripts/session_summary.py DIR [DIR...]

Each DIR holds gnubg.log, whose last statistics block is the session's. Prints, for each
player (seat 0 gnubg, seat 1 Tabula): games, decision-weighted chequer, cube and overall
error rates in mEMG (error totals over unforced moves, close-or-actual cube decisions and
both, as gnubg computes each session's rate), the cube errors by kind, and the actual and
luck-adjusted results in points per game (gnubg gives each session's totals in points).

Standard library only.
"""
import os
import re
import sys

KINDS = ["Missed doubles below CP", "Missed doubles above CP", "Wrong doubles below DP",
         "Wrong doubles above TG", "Wrong takes", "Wrong passes"]
NUM = r"([-+]?\d+(?:\.\d+)?)"


def two(block, label):
    """The two numbers (seat 0, seat 1) after `label` on its line ("UNIT" in the label stands
    for gnubg's unit, "Points" in money play)."""
    pattern = re.escape(label).replace("UNIT", r"(?:MWC|Points)")
    # Each seat's figure may be followed by its other unit in brackets: "-0.061 ( -0.061)".
    m = re.search(pattern + r"\s+" + NUM + r"(?:\s*\([^)\n]*\))?\s+" + NUM, block)
    if not m:
        raise ValueError("no %r in the statistics" % label)
    return float(m.group(1)), float(m.group(2))


def kind(block, label):
    """Count and EMG of one kind of cube error, per seat: `N (x.xxx)` or `0`."""
    line = re.search(re.escape(label) + r" \(EMG \((?:MWC|Points)\)\)([^\n]*)", block).group(1)
    # "0" or "2 (-0.061 ( -0.061))": a count, then the EMG in brackets.
    cells = re.findall(r"(\d+)(?:\s*\(\s*([-+]?\d+\.\d+)\s*\(\s*[-+]?\d+\.\d+\)\))?", line)
    return [(int(c), abs(float(e)) if e else 0.0) for c, e in cells[:2]]


def part(folder):
    text = open(os.path.join(folder, "gnubg.log"), encoding="utf-8", errors="replace").read()
    if "Chequerplay statistics" not in text:
        raise ValueError("%s: no statistics (analysis not finished?)" % folder)
    block = "Chequerplay statistics" + text.split("Chequerplay statistics")[-1]
    cheq, luck = block.split("Luck statistics", 1)
    cube, overall = luck.split("Cube statistics", 1)[1].split("Overall statistics", 1)
    games = max(int(n) for n in re.findall(r"The score \(after (\d+) games?\)", text))
    return {
        "games": games,
        "unforced": two(cheq, "Unforced moves"),
        "cheq": two(cheq, "Error total EMG (UNIT)"),
        "close": two(cube, "Close or actual cube decisions"),
        "cube": two(cube, "Error total EMG (UNIT)"),
        "kinds": {k: kind(cube, k) for k in KINDS},
        "actual": two(overall, "Actual result"),
        "adjusted": two(overall, "Luck adjusted result"),
    }


def main():
    folders = sys.argv[1:]
    if not folders:
        sys.exit(__doc__)
    parts = [part(f) for f in folders]
    games = sum(p["games"] for p in parts)
    print("%d parts, %d games" % (len(parts), games))
    print()
    print("| player | chequer mEMG | cube mEMG | overall mEMG | unforced moves |"
          " close cube decisions | points per game | luck-adjusted points per game |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for s, name in ((0, "gnubg 0-ply"), (1, "Tabula")):
        unf = sum(p["unforced"][s] for p in parts)
        close = sum(p["close"][s] for p in parts)
        cheq = sum(abs(p["cheq"][s]) for p in parts)
        cube = sum(abs(p["cube"][s]) for p in parts)
        actual = sum(p["actual"][s] for p in parts) / games
        adjusted = sum(p["adjusted"][s] for p in parts) / games
        print("| %s | %.1f | %.1f | %.1f | %d | %d | %+.3f | %+.3f |" % (
            name, 1000 * cheq / unf, 1000 * cube / close, 1000 * (cheq + cube) / (unf + close),
            unf, close, actual, adjusted))
    print()
    print("Cube errors by kind (count, EMG):")
    for k in KINDS:
        cells = []
        for s, name in ((0, "gnubg"), (1, "Tabula")):
            c = sum(p["kinds"][k][s][0] for p in parts)
            e = sum(p["kinds"][k][s][1] for p in parts)
            cells.append("%s %d (%.3f)" % (name, c, e))
        print("  %-24s %s" % (k, ",  ".join(cells)))


if __name__ == "__main__":
    main()
