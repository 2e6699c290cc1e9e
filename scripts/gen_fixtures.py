#!/usr/bin/env python3
"""Generate move-generator and Position ID test fixtures from GNU Backgammon.

Purpose
-------
Tabula's Rust move generator and Position ID codec are checked against GNU
Backgammon, reached only through the PyPI package ``gnubg-nn`` (Python bindings
to gnubg's evaluator and move generator).  No gnubg source is copied here; this
script only calls the package and writes plain-text fixtures:

* ``crates/tables/tests/fixtures/gnubg_moves.txt``: (position, dice) cases and
  the set of distinct positions gnubg says can result from a legal play.
* ``crates/tables/tests/fixtures/gnubg_position_ids.txt``: boards with their
  gnubg Position IDs, for encode/decode tests.

How to run (from the repository root)::

    pip install gnubg-nn && python3 scripts/gen_fixtures.py

The output is deterministic: all randomness comes from ``random.Random(SEED)``
and gnubg's move generation and 0-ply move choice are deterministic.

Board convention of gnubg_nn (verified by experiment, and re-checked by
``check_conventions`` below every time this script runs)
-----------------------------------------------------------------------
A board is two lists of 25 ints: ``board[0]`` is the opponent (the player NOT
on roll), ``board[1]`` is the player ON ROLL (the mover).  In each list index i
(0..23) is point i+1 counted from that player's own perspective (its own ace
point is index 0, its own bear-off direction is towards index 0) and index 24
is that player's bar.  The mover's point p is the opponent's point 25-p, i.e.
mover index i <-> opponent index 23-i.

``gnubg_nn.moves(board, d1, d2)`` moves the checkers of ``board[1]``; each key
decodes (``board_from_position_key``) to the board after the play, still with
the mover in list 1 (not swapped; hit opponent checkers appear on index 24 of
list 0).

``gnubg_nn.position_id(board)`` is the standard gnubg 80-bit key (for each of
the two lists in turn, for each of the 25 indices incl. bar: that many 1-bits,
then one 0-bit; bits packed LSB-first into 10 bytes; base64 without the '='
padding -> 14 chars) with LIST 0 (the player NOT on roll) ENCODED FIRST and
list 1 (the mover) second.  Note that the gnubg manual describes the ID as
"player on roll first"; with gnubg_nn's board convention the list encoded
first is board[0], the opponent of the player who moves in ``moves``.  All IDs
in the fixtures use exactly this convention.
"""

import base64
import os
import random
import sys

import gnubg_nn as g

try:
    from importlib.metadata import version as _pkg_version

    GNUBG_NN_VERSION = _pkg_version("gnubg-nn")
except Exception:  # pragma: no cover
    GNUBG_NN_VERSION = "unknown"

SEED = 20240611
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
FIXDIR = os.path.join(ROOT, "crates", "tables", "tests", "fixtures")
MOVES_FILE = os.path.join(FIXDIR, "gnubg_moves.txt")
IDS_FILE = os.path.join(FIXDIR, "gnubg_position_ids.txt")
COMMAND = "pip install gnubg-nn && python3 scripts/gen_fixtures.py"

ROLLS = [(d1, d2) for d1 in range(6, 0, -1) for d2 in range(d1, 0, -1)]  # 21, d1 >= d2
START_ID = "4HPwATDgc/ABMA"

rng = random.Random(SEED)


# --------------------------------------------------------------------------
# Independent Position ID codec (written from the published description), used
# to prove the convention documented above on every board we emit.
# --------------------------------------------------------------------------
def my_encode(first, second):
    bits = []
    for side in (first, second):
        for n in side:
            bits.extend([1] * n)
            bits.append(0)
    assert len(bits) <= 80
    key = bytearray(10)
    for i, b in enumerate(bits):
        if b:
            key[i // 8] |= 1 << (i % 8)
    return base64.b64encode(bytes(key)).decode("ascii").rstrip("=")


def my_decode(pid):
    key = base64.b64decode(pid + "==")
    sides = [[0] * 25, [0] * 25]
    s, i = 0, 0
    for bit in range(80):
        if s >= 2:
            break
        if key[bit // 8] >> (bit % 8) & 1:
            sides[s][i] += 1
        else:
            i += 1
            if i == 25:
                s, i = s + 1, 0
    return sides


def lists(board):
    return [list(board[0]), list(board[1])]


def pid(board):
    p = g.position_id([list(board[0]), list(board[1])])
    assert p == my_encode(board[0], board[1]), (board, p)
    return p


def swap(board):
    return [list(board[1]), list(board[0])]


def valid(board):
    opp, me = board
    if len(opp) != 25 or len(me) != 25:
        return False
    if any(x < 0 for x in opp + me):
        return False
    if not (1 <= sum(me) <= 15 and 1 <= sum(opp) <= 15):
        return False
    for i in range(24):
        if me[i] and opp[23 - i]:
            return False
    return True


def check_conventions():
    start = lists(g.board_from_position_id(START_ID))
    assert start[0] == start[1] == [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2, 0]
    # Asymmetric position: list 0 has 2 on its ace point and 1 on the bar, list 1
    # has 3 on its 6 point and 4 on its 13 point.
    a = [0] * 25
    a[0], a[24] = 2, 1
    c = [0] * 25
    c[5], c[12] = 3, 4
    b = [a, c]
    p = g.position_id(b)
    assert p == my_encode(a, c) and p != my_encode(c, a), "position_id encodes list 0 first"
    assert lists(g.board_from_position_id(p)) == b
    assert my_decode(p) == b
    for k in g.moves(b, 6, 5):
        after = lists(g.board_from_position_key(k))
        assert after[0] == a, "moves() must move list 1 (the player on roll)"
        assert after[1] != c
    # The opening 3-1 must contain 8/5 6/5 (mover unchanged in list 1).
    m = start[1][:]
    m[7] -= 1
    m[5] -= 1
    m[4] += 2
    res = {pid(lists(g.board_from_position_key(k))) for k in g.moves(start, 3, 1)}
    assert pid([start[0], m]) in res
    # best_move(..., b=1) returns a key already swapped for the next player.
    mv, key = g.best_move(start, 3, 1, b=1)
    nb = lists(g.board_from_position_key(key))
    assert nb[1] == start[0] and nb[0] == m, (mv, nb)


# --------------------------------------------------------------------------
# Move generation through gnubg
# --------------------------------------------------------------------------
def results(board, d1, d2):
    out = set()
    opp, me = board
    for k in g.moves([list(opp), list(me)], d1, d2):
        a = lists(g.board_from_position_key(k))
        # sanity: checker conservation; opponent can only lose checkers to its bar
        assert sum(a[1]) <= sum(me) and sum(a[0]) == sum(opp), (board, d1, d2, a)
        for i in range(24):
            assert a[0][i] <= opp[i]
        assert a[0][24] >= opp[24]
        out.add(pid(a))
    return sorted(out)


def max_steps(board, d1, d2):
    mv = g.moves([list(board[0]), list(board[1])], d1, d2, 1)
    return max((len(steps) for _, steps in mv), default=0)


def play_key(board, d1, d2, eps):
    """Next board (swapped: the other player on roll) after a strong or random play."""
    if rng.random() < eps:
        keys = g.moves([list(board[0]), list(board[1])], d1, d2)
        if not keys:
            return swap(board)
        after = lists(g.board_from_position_key(rng.choice(sorted(keys))))
        return swap(after)
    mv, key = g.best_move([list(board[0]), list(board[1])], d1, d2, b=1)
    return lists(g.board_from_position_key(key))


def roll():
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    return (max(a, b), min(a, b))


# --------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------
def has_contact(board):
    opp, me = board
    hi_m = max(i for i in range(25) if me[i])
    hi_o = max(i for i in range(25) if opp[i])
    return hi_m + hi_o > 23


def prime_ahead(board, length=5):
    """Opponent holds >= `length` consecutive made points in front of a mover checker."""
    opp, me = board
    made = [opp[23 - i] >= 2 for i in range(24)]  # in mover coordinates
    hi_m = max(i for i in range(25) if me[i])
    run = 0
    for i in range(24):
        run = run + 1 if made[i] else 0
        if run >= length and hi_m > i:
            return True
    return False


def classify(board):
    opp, me = board
    if me[24]:
        return "bar"
    if prime_ahead(board):
        return "closed"
    if all(me[i] == 0 for i in range(6, 25)):
        return "bearoff"
    if not has_contact(board):
        return "race"
    return "contact"


# --------------------------------------------------------------------------
# Random / targeted position construction
# --------------------------------------------------------------------------
def scatter(n, idxs, weights=None):
    side = [0] * 25
    idxs = list(idxs)
    for _ in range(n):
        if weights is None:
            i = rng.choice(idxs)
        else:
            i = rng.choices(idxs, weights=weights)[0]
        side[i] += 1
    return side


def free_for_opp(me):
    return [j for j in range(24) if me[23 - j] == 0]


def free_for_me(opp):
    return [i for i in range(24) if opp[23 - i] == 0]


def synthetic():
    while True:
        n_me = rng.choice([15] * 4 + list(range(1, 15)))
        n_op = rng.choice([15] * 4 + list(range(1, 15)))
        bar_me = min(n_me, rng.choice([0] * 6 + [1, 1, 2, 3, 4]))
        bar_op = min(n_op, rng.choice([0] * 8 + [1, 2]))
        # pick a random set of points for each player (disjoint across colours)
        pts = list(range(24))
        rng.shuffle(pts)
        k_me = rng.randint(1, 10)
        k_op = rng.randint(1, 10)
        mine = pts[:k_me]
        theirs = [23 - p for p in pts[k_me:k_me + k_op]]
        me = scatter(n_me - bar_me, mine) if n_me > bar_me else [0] * 25
        op = scatter(n_op - bar_op, theirs) if n_op > bar_op else [0] * 25
        me[24] += bar_me
        op[24] += bar_op
        b = [op, me]
        if valid(b):
            return b


def random_opp_home_board(made_pts, extra_total=15):
    """Opponent with the given indices (0..5 = its home board) made, rest spread."""
    op = [0] * 25
    for j in made_pts:
        op[j] = 2
    for j in made_pts:
        if sum(op) < extra_total and rng.random() < 0.25:
            op[j] += 1
    return op


def bar_position():
    nbar = rng.choice([1, 1, 1, 2, 2, 3, 4])
    k = rng.choice([6, 5, 5, 5, 4, 4, 4, 3, 3, 2, 1, 0])
    made = rng.sample(range(6), k)
    op = random_opp_home_board(made)
    left = 15 - sum(op)
    # some opponent checkers elsewhere (its outfield), some maybe borne off
    left -= rng.randint(0, min(max(left, 0), 3))
    op_extra = scatter(left, [j for j in range(6, 24)])
    op = [x + y for x, y in zip(op, op_extra)]
    me = [0] * 25
    me[24] = nbar
    free = free_for_me(op)
    rest = rng.randint(0, 15 - nbar)
    if rest:
        m2 = scatter(rest, rng.sample(free, min(len(free), rng.randint(1, 6))))
        me = [x + y for x, y in zip(me, m2)]
    if rng.random() < 0.1:
        op[24] += 1
    b = [op, me]
    return b if valid(b) else None


def blocked_position():
    """Mover has a few loose checkers behind / inside heavy opposing blocks."""
    op = [0] * 25
    n_made = rng.randint(3, 7)
    start = rng.randint(0, 23 - n_made + 1)
    pts = list(range(start, start + n_made))
    # punch a hole sometimes
    if rng.random() < 0.5 and len(pts) > 3:
        pts.remove(rng.choice(pts))
    for j in pts:
        op[j] = 2
    extra = 15 - sum(op) - rng.randint(0, 3)
    if extra > 0:
        more = [j for j in range(24) if j not in pts]
        rng.shuffle(more)
        for j in more[: rng.randint(0, 3)]:
            add = min(extra, rng.choice([1, 2, 2, 3]))
            op[j] += add
            extra -= add
        if extra > 0:
            op[rng.choice(pts)] += extra
    me = [0] * 25
    free = free_for_me(op)
    nm = rng.choice([1, 1, 2, 2, 3, 4, 15])
    if nm == 15:
        # everything else stacked deep in the mover's home board / borne off
        home = [i for i in free if i < 6]
        if not home:
            return None
        me = scatter(rng.randint(0, 12), home)
        nm = rng.randint(1, 3)
    for _ in range(nm):
        if rng.random() < 0.2:
            me[24] += 1
        else:
            me[rng.choice(free)] += 1
    if sum(me) > 15:
        return None
    b = [op, me]
    return b if valid(b) else None


def one_die_position():
    """1-3 mover checkers outside the home board (rest borne off) in a field of
    opposing points: often either die alone is playable but not both, so the
    'play the larger die' rule decides."""
    op = [0] * 25
    for j in rng.sample(range(24), rng.randint(4, 7)):
        op[j] = 2
    if sum(op) > 15:
        return None
    me = [0] * 25
    free = [i for i in free_for_me(op) if i >= 6]
    if not free:
        return None
    for _ in range(rng.randint(1, 3)):
        me[rng.choice(free)] += 1
    b = [op, me]
    return b if valid(b) else None


def can_play(board, d):
    return max_steps(board, d, d) >= 1


def bearoff_position():
    n = rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 12, 15])
    style = rng.random()
    if style < 0.35:
        idxs, w = list(range(6)), [8, 6, 4, 2, 1, 1]  # low points -> overshoot
    elif style < 0.6:
        idxs, w = list(range(6)), [1, 1, 2, 3, 5, 8]  # high points
    else:
        idxs, w = list(range(6)), None
    me = scatter(n, idxs, w)
    r = rng.random()
    if r < 0.6:
        # pure race opponent (no contact)
        op = scatter(rng.randint(1, 15), range(0, rng.randint(1, 17)))
    elif r < 0.85:
        # opponent anchor / blots in the mover's home board (contact bear-off)
        free = [j for j in range(18, 24) if me[23 - j] == 0]
        op = [0] * 25
        if free:
            for j in rng.sample(free, min(len(free), rng.randint(1, 2))):
                op[j] = rng.choice([1, 2, 2, 3])
        op2 = scatter(rng.randint(1, 15 - sum(op)), range(0, 12))
        op = [x + y for x, y in zip(op, op2)]
    else:
        # opponent on the bar
        op = scatter(rng.randint(0, 12), range(0, 10))
        op[24] = rng.randint(1, 2)
    b = [op, me]
    return b if valid(b) else None


def race_position():
    me = scatter(rng.randint(3, 15), range(0, rng.randint(8, 18)))
    hi_m = max(i for i in range(25) if me[i])
    # opponent strictly "past" the mover: opponent index j must satisfy j < 23 - hi_m
    lim = 23 - hi_m
    if lim <= 0:
        return None
    op = scatter(rng.randint(3, 15), range(0, lim))
    b = [op, me]
    return b if valid(b) and not has_contact(b) else None


# --------------------------------------------------------------------------
# Collection
# --------------------------------------------------------------------------
cases = {}  # (pid, d1, d2) -> (category, results)
order = []
stats = {}
id_boards = {}  # pid -> board for the Position ID fixture pool, by category
id_pool = {}


def add_case(cat, board, d1, d2):
    assert valid(board), board
    p = pid(board)
    key = (p, d1, d2)
    if key in cases:
        return False
    res = results(board, d1, d2)
    cases[key] = (cat, res)
    order.append(key)
    stats[cat] = stats.get(cat, 0) + 1
    id_pool.setdefault(cat, {})
    id_pool[cat].setdefault(p, board)
    return True


def add_position(cat, board, nrolls):
    rolls = ROLLS if nrolls >= 21 else rng.sample(ROLLS, nrolls)
    for d1, d2 in rolls:
        add_case(cat, board, d1, d2)


def game_positions(n_games):
    pos = []
    start = lists(g.board_from_position_id(START_ID))
    for gi in range(n_games):
        eps = [0.0, 0.1, 0.3, 0.6, 1.0][gi % 5]
        b = [start[0][:], start[1][:]]
        for ply in range(400):
            d1, d2 = roll()
            if ply > 0:
                pos.append((b, (d1, d2)))
            nb = play_key(b, d1, d2, eps)
            # game over when the player who just moved (now list 0) has no checker left
            if sum(nb[0]) == 0:
                break
            assert valid(nb), nb
            b = nb
    return pos


def main():
    check_conventions()
    os.makedirs(FIXDIR, exist_ok=True)

    # 1. opening position, all 21 rolls
    start = lists(g.board_from_position_id(START_ID))
    add_position("opening", start, 21)

    # 2. positions reached in self-play (strong and random moves mixed)
    games = game_positions(700)
    rng.shuffle(games)
    quota = {"contact": 5800, "race": 2600, "bearoff": 2600, "bar": 1500, "closed": 1200}
    for b, (d1, d2) in games:
        cat = classify(b)
        if stats.get(cat, 0) >= quota[cat]:
            continue
        # the roll actually thrown, plus a few more
        add_case(cat, b, d1, d2)
        for r in rng.sample(ROLLS, 3 if cat == "contact" else 5):
            add_case(cat, b, *r)

    # 3. targeted constructions
    # 3a. bar: entering against 0..6 made points, one and several on the bar
    while stats.get("bar", 0) < 4000:
        b = bar_position()
        if b:
            closed = all(b[0][j] >= 2 for j in range(6))
            add_position("bar", b, 2 if closed else (21 if rng.random() < 0.3 else 7))
    # 3b. closed: blocked positions; keep rolls where <= partial play happens
    #     (no move, only one die of a non-double, doubles with 1..3 steps)
    tries = 0
    target_closed = stats.get("closed", 0) + 3000
    while stats.get("closed", 0) < target_closed and tries < 400000:
        tries += 1
        b = blocked_position()
        if not b:
            continue
        for d1, d2 in ROLLS:
            s = max_steps(b, d1, d2)
            full = 4 if d1 == d2 else 2
            if s < full or rng.random() < 0.05:
                add_case("closed", b, d1, d2)
    # 3b'. only one die of a non-double playable although each die alone is:
    #      the larger die must be played (and forced-smaller-die cases)
    n_rule = 0
    tries = 0
    while n_rule < 700 and tries < 200000:
        tries += 1
        b = one_die_position()
        if not b:
            continue
        for d1, d2 in ROLLS:
            if d1 == d2 or max_steps(b, d1, d2) != 1:
                continue
            if can_play(b, d1) and can_play(b, d2):
                n_rule += add_case("closed", b, d1, d2)
            elif rng.random() < 0.3:
                add_case("closed", b, d1, d2)

    # 3c. bear-offs: few checkers, low points with big dice, overshoot, contact
    while stats.get("bearoff", 0) < 6000:
        b = bearoff_position()
        if b:
            add_position("bearoff", b, 21 if sum(b[1]) <= 4 else 8)
    # 3d. races
    while stats.get("race", 0) < 3500:
        b = race_position()
        if b:
            add_position("race", b, 5)

    # 4. synthetic random positions
    while stats.get("synthetic", 0) < 3500:
        add_position("synthetic", synthetic(), 4)

    write_moves()
    write_ids()


def write_moves():
    lines = [
        "# gnubg move-generator fixtures for Tabula (generated; do not edit by hand).",
        "# Generated by: " + COMMAND,
        "# Source: GNU Backgammon's move generator via the PyPI package gnubg-nn "
        "(version %s), gnubg_nn.moves()." % GNUBG_NN_VERSION,
        "#",
        "# One case per line, space-separated:",
        "#   <category> <position-id> <d1>-<d2> <count> <result-id-1> ... <result-id-count>",
        "# category: opening|contact|race|bearoff|bar|closed|synthetic (how the position was",
        "#   produced: opening = start position; contact/race/bearoff/bar/closed = reached in",
        "#   self-play or built on purpose for that edge case; synthetic = random legal",
        "#   distribution of checkers).",
        "# position-id: gnubg Position ID of the position, player on roll = the mover.",
        "# d1-d2: the dice, d1 >= d2 (all 21 distinct rolls occur).",
        "# count: number of DISTINCT resulting positions (0 = no legal move; no ids follow).",
        "# result ids: Position IDs of every distinct position after a legal play, seen from",
        "#   the SAME side as the input (the mover is still the player on roll in the encoding",
        "#   convention below, i.e. NOT swapped for the next turn), deduplicated and sorted",
        "#   ascending by byte (ASCII) order.",
        "#",
        "# Position ID convention (verified against gnubg_nn and an independent encoder):",
        "#   80-bit key: for list 0 then list 1, for each of the 25 indices (points 1..24",
        "#   from that player's own side, then its bar): that many 1-bits, then a 0-bit; pad",
        "#   with 0-bits to 80; bit k goes to byte k/8, bit position k%8 (LSB first); base64",
        "#   (A-Z a-z 0-9 + /) of the 10 bytes, '=' padding dropped -> 14 characters.",
        "#   LIST 0 = the player NOT on roll (opponent of the mover) is encoded FIRST;",
        "#   LIST 1 = the player ON ROLL (the mover) is encoded SECOND.",
        "#   gnubg_nn.position_id(board) expects the mover in board[1] (list 1).",
        "#   Mover point p (index p-1) is opponent point 25-p (index 24-p).",
        "#   Start position: 4HPwATDgc/ABMA.",
        "#",
    ]
    cnt = {}
    for k in order:
        cnt[cases[k][0]] = cnt.get(cases[k][0], 0) + 1
    lines.append("# cases: %d total; %s" % (
        len(order), ", ".join("%s=%d" % (c, cnt[c]) for c in sorted(cnt))))
    for key in order:
        p, d1, d2 = key
        cat, res = cases[key]
        lines.append(" ".join([cat, p, "%d-%d" % (d1, d2), str(len(res))] + res))
    with open(MOVES_FILE, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def fmt(side):
    return " ".join(str(x) for x in side)


def write_ids():
    chosen = []
    seen = set()

    def take(board):
        p = pid(board)
        if p in seen:
            return
        seen.add(p)
        # round trip through gnubg and the independent decoder
        assert lists(g.board_from_position_id(p)) == [list(board[0]), list(board[1])]
        assert my_decode(p) == [list(board[0]), list(board[1])]
        chosen.append((p, board))

    start = lists(g.board_from_position_id(START_ID))
    take(start)
    # hand-made edge cases
    a = [0] * 25; a[0] = 2; a[24] = 1
    c = [0] * 25; c[5] = 3; c[12] = 4
    take([a, c])
    take([c, a])
    a = [0] * 25; a[23] = 15
    c = [0] * 25; c[23] = 15
    take([a, c])  # 80 bits used exactly (15+25 per side)
    a = [0] * 25; a[24] = 15
    c = [0] * 25; c[0] = 1
    take([a, c])
    take([c, a])
    a = [0] * 25; a[0] = 1
    c = [0] * 25; c[24] = 3; c[5] = 12
    take([a, c])
    take([c, a])
    # sample from every category pool
    per = {"opening": 1, "contact": 70, "race": 35, "bearoff": 45, "bar": 45,
           "closed": 40, "synthetic": 60}
    for cat in sorted(id_pool):
        boards = sorted(id_pool[cat].items())
        for p, b in rng.sample(boards, min(per.get(cat, 10), len(boards))):
            take(b)
    lines = [
        "# gnubg Position ID fixtures for Tabula (generated; do not edit by hand).",
        "# Generated by: " + COMMAND,
        "# Source: gnubg_nn.position_id / board_from_position_id (gnubg-nn %s)." %
        GNUBG_NN_VERSION,
        "#",
        "# Format: <position-id> <25 ints: player ON ROLL> | <25 ints: opponent>",
        "#   Each 25-int group is that player's checkers on its own points 1..24 (its ace",
        "#   point first, counted from its own side) followed by its bar.",
        "#   Player on roll's point p is the opponent's point 25-p.",
        "# Encoding: the Position ID encodes the OPPONENT (second group on the line, gnubg_nn",
        "#   board[0]) FIRST and the player on roll (first group, gnubg_nn board[1]) SECOND:",
        "#   for each of its 25 indices, that many 1-bits then a 0-bit; pad to 80 bits; bit",
        "#   k -> byte k/8, bit k%8 (LSB first); standard base64 without '=' -> 14 chars.",
        "#   Start position: 4HPwATDgc/ABMA.",
        "#",
    ]
    for p, b in chosen:
        lines.append("%s %s | %s" % (p, fmt(b[1]), fmt(b[0])))
    with open(IDS_FILE, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("position ids: %d" % len(chosen), file=sys.stderr)


if __name__ == "__main__":
    main()
    print("moves: %d cases %s" % (len(order), stats), file=sys.stderr)
    for f in (MOVES_FILE, IDS_FILE):
        print("%s: %d bytes" % (os.path.relpath(f, ROOT), os.path.getsize(f)), file=sys.stderr)
