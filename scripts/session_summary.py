#!/usr/bin/env python3
"""Adds up gnubg's `show statistics session` of several money sessions against Tabula
(the parts of scripts/gnubg_session_parts.sh, or single runs of scripts/gnubg_session.sh).

    python3 scripts/session_summary.py DIR [DIR...]

Each DIR holds gnubg.log, whose last statistics block is the session's (read by
scripts/compare_analysis.py's parse_log). Prints, for each player (seat 0 gnubg, seat 1
Tabula): decision-weighted chequer, cube and overall error rates in mEMG (error totals over
unforced moves, close-or-actual cube decisions and both, as gnubg computes each session's
rate), the cube errors by kind, and the actual and luck-adjusted results in points per game
(gnubg gives each session's totals in points).

Standard library only.
"""
import os
import re
import sys

from compare_analysis import CUBE_KINDS, parse_log


def part(folder):
    path = os.path.join(folder, "gnubg.log")
    blocks = parse_log(path)
    if not blocks or "adjusted" not in blocks[-1]:
        raise ValueError("%s: no session statistics (analysis not finished?)" % folder)
    text = open(path, encoding="utf-8", errors="replace").read()
    stats = blocks[-1]
    stats["games"] = max(int(n) for n in re.findall(r"The score \(after (\d+) games?\)", text))
    return stats


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
        close = sum(p["close_cube"][s] for p in parts)
        cheq = sum(p["total"][0][s] for p in parts)
        cube = sum(p["total"][1][s] for p in parts)
        actual = sum(p["actual"][s] for p in parts) / games
        adjusted = sum(p["adjusted"][s] for p in parts) / games
        print("| %s | %.1f | %.1f | %.1f | %d | %d | %+.3f | %+.3f |" % (
            name, 1000 * cheq / unf, 1000 * cube / close, 1000 * (cheq + cube) / (unf + close),
            unf, close, actual, adjusted))
    print()
    print("Cube errors by kind (count, EMG):")
    for k in CUBE_KINDS:
        cells = []
        for s, name in ((0, "gnubg"), (1, "Tabula")):
            c = sum(p["cube_kinds"][k][s][0] for p in parts)
            e = sum(p["cube_kinds"][k][s][1] for p in parts)
            cells.append("%s %d (%.3f)" % (name, c, e))
        print("  %-24s %s" % (k, ",  ".join(cells)))


if __name__ == "__main__":
    main()
