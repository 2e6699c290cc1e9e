#!/usr/bin/env python3
"""Rules for the end of the level above strong's race, judged on the same races.

`scripts/chequer_error.py --players level-above:TRIALS:trace:FILE --dump D` writes, for
every decision that had a race, the race's course (each contender's searched equity, its
trials, its rollout equity, how far it trails the winner and the standard error of that
paired difference, whether it left the race) beside the judge's loss for each contender
(gnubg 1-ply, mEMG). The race was run holding the search's choice whenever it was still in
the race at the end; every rule below picks from the same race, so their differences are
the rules' alone, not the rollouts' luck:

- `search`: the search's choice (strong's play), the race ignored;
- `best mean`: the race's best mean among the plays still in it (the race until 6 December
  dropped the search's choice at 2 standard errors, not 4, so this is close to it, not it);
- `hold z`: the search's choice unless a play still in the race leads it by more than z
  standard errors of their paired difference (shipped: z = 1 since 7 December, 2 from 6
  December; the traces since 6 December were run holding to 4 standard errors, so every
  `hold z` is exactly what the level would have played with that z);
- `mix w`: among the plays still in the race, the best `w` x rollout + (1 - w) x searched
  equity, each taken as a difference from the search's choice.

    python3 scripts/race_rules.py D1 D2 ...          # dumps of one player, any shards
    python3 scripts/race_rules.py measurements/chequer/2026-12-06/race-trace-gen10-seed1.jsonl.xz
    python3 scripts/race_rules.py --plies 3 D1 ...     # the rules' picks judged by gnubg 3-ply
    python3 scripts/race_rules.py D1 D2 --versus E1 E2   # the shipped rule against another
                                                         # run's (other nets) on the same decisions

Decisions without a race count the player's own error under every rule. With `--plies N`
the judge is gnubg at N plies instead, and only where it is needed: in each raced decision
where the rules do not all pick the same contender, each pick is judged at that depth, and
the table gives each rule's equity gained on the shipped rule (mEMG a decision over all the
decisions, positive better; gnubg at 3 plies takes about 1.5 s a judgement). Two rows give the
scale: gnubg 0-ply's own choices, and the judge's best of each race's contenders (no rule
that picks among them can do better).
"""

import json
import lzma
import math
import sys


def pick_hold(plays, z):
    first = plays[0]
    if first["dropped"]:
        return winner(plays)
    alive = [p for p in plays if not p["dropped"]]
    best = max(alive, key=lambda p: p["equity"])
    if best is first:
        return first
    # With the search's choice held, every other play's `behind` is taken against it.
    lead, se = -best["behind"], best["std_err"]
    return best if lead > z * se else first


def winner(plays):
    alive = [p for p in plays if not p["dropped"]]
    return max(alive, key=lambda p: p["equity"])


def pick_mix(plays, w):
    first = plays[0]
    if first["dropped"]:
        return winner(plays)
    alive = [p for p in plays if not p["dropped"]]

    def score(p):
        return w * (p["equity"] - first["equity"]) + (1 - w) * (p["searched"] - first["searched"])

    return max(alive, key=score)


RULES = {"search": lambda plays: plays[0], "best mean": winner}
for z in (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0):
    RULES[f"hold {z:g}"] = lambda plays, z=z: pick_hold(plays, z)
for w in (0.25, 0.5, 0.75):
    RULES[f"mix {w:g}"] = lambda plays, w=w: pick_mix(plays, w)
SHIPPED = "hold 1"


def race_of(r):
    """The level above's name in a dumped decision and its race (None where nothing was
    raced)."""
    name = next(k for k in r["errors"] if k.startswith("level-above"))
    return name, (r.get("races") or {}).get(name)


def loss(r, pick):
    """The judged loss of `pick`'s choice in decision `r`: the level above's own play where
    nothing was raced."""
    name, race = race_of(r)
    return r["errors"][name] if race is None else pick(race["plays"])["loss"]


def mean_se(v):
    """The mean of `v` and its standard error."""
    n = len(v)
    m = sum(v) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1) / n)


def deeper(records, plies):
    """Each rule's equity gained on `hold 1` by gnubg at `plies`, where the rules differ."""
    from gnubg_board import mover_equity

    gains = {rule: [] for rule in RULES}
    for r in records.values():
        _, race = race_of(r)
        picks = {rule: pick(race["plays"])["board"] for rule, pick in RULES.items()} if race else {}
        if len({tuple(b) for b in picks.values()}) > 1:
            eq = {tuple(b): mover_equity([b[:25], b[25:]], plies) for b in picks.values()}
            for rule, b in picks.items():
                gains[rule].append(eq[tuple(b)] - eq[tuple(picks[SHIPPED])])
        else:
            for rule in RULES:
                gains[rule].append(0.0)
    n = len(records)
    print(f"{n} decisions; judge gnubg {plies}-ply; each rule's equity gained on `hold 1` (shipped), mEMG a decision")
    print("| rule | gained | decisions differing |")
    print("|---|---:|---:|")
    for rule, v in gains.items():
        m, se = mean_se(v)
        print(f"| {rule} | {1000 * m:+.2f} ± {1000 * se:.2f} | {sum(1 for x in v if x != 0)} |")


def read(paths):
    records = {}
    for path in paths:
        opener = lzma.open if path.endswith(".xz") else open
        for line in opener(path, "rt"):
            r = json.loads(line)
            old = records.get(r["index"])
            if old is not None and (old["position"], old["dice"]) != (r["position"], r["dice"]):
                sys.exit(f"{path}: decision {r['index']} is another position than in an "
                         "earlier dump: give one seed's dumps at a time")
            records[r["index"]] = r
    if not records:
        sys.exit("no decisions in the dumps given")
    return records


def versus(records, others):
    """The shipped rule on these races against the same rule on another run's races."""
    keys = sorted(set(records) & set(others))
    if len(keys) < 2:
        sys.exit("the two runs share fewer than two decisions")
    for k in keys:
        if (records[k]["position"], records[k]["dice"]) != (others[k]["position"], others[k]["dice"]):
            sys.exit(f"decision {k} is another position in the two runs: give the same seed's dumps")
    pick = RULES[SHIPPED]
    a = {k: loss(records[k], pick) for k in keys}
    b = {k: loss(others[k], pick) for k in keys}
    n = len(keys)
    d = [b[k] - a[k] for k in keys]
    m, se = mean_se(d)
    print(f"{n} decisions; `hold 1`, mEMG a decision: these dumps "
          f"{1000 * sum(a[k] for k in keys) / n:.2f}, the others "
          f"{1000 * sum(b[k] for k in keys) / n:.2f}; these gain {1000 * m:+.2f} ± "
          f"{1000 * se:.2f} on the others; {sum(1 for x in d if x)} choices differ")


def main():
    args = sys.argv[1:]
    plies = None
    if args[:1] == ["--plies"]:
        plies, args = int(args[1]), args[2:]
    if "--versus" in args:
        if plies is not None:
            sys.exit("--versus pairs by the 1-ply judge of the dumps: not with --plies")
        k = args.index("--versus")
        return versus(read(args[:k]), read(args[k + 1:]))
    records = read(args)
    if plies is not None:
        return deeper(records, plies)
    # For scale: gnubg 0-ply's own choice, and the judge's best of the race's contenders
    # (what no rule can beat: the race picks among those plays).
    scale = ["gnubg 0-ply", "best contender"]
    losses = {name: [] for name in scale + list(RULES)}
    raced = sum(1 for r in records.values() if race_of(r)[1] is not None)
    for r in records.values():
        losses["gnubg 0-ply"].append(r["errors"]["gnubg 0-ply"])
        losses["best contender"].append(loss(r, lambda plays: min(plays, key=lambda p: p["loss"])))
        for rule, pick in RULES.items():
            losses[rule].append(loss(r, pick))
    n = len(records)
    base = losses[SHIPPED]
    print(f"{n} decisions, {raced} raced; mEMG a decision, paired against `hold 1` (shipped)")
    print("| rule | mEMG | paired | choices differing |")
    print("|---|---:|---:|---:|")
    for rule, v in losses.items():
        d = [a - b for a, b in zip(v, base)]
        m, se = mean_se(d)
        changed = sum(1 for x in d if x != 0)
        print(f"| {rule} | {1000 * sum(v) / n:.2f} | {1000 * m:+.2f} ± {1000 * se:.2f} | {changed} |")


if __name__ == "__main__":
    main()
