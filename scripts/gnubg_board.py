"""Board helpers shared by the measuring scripts (chequer_error.py, cube_error.py) on
gnubg-nn's layout: two lists of 25, list 0 the player not on roll, list 1 the player on
roll, each from its own side, index 24 the bar.  gnubg-nn is a judge only."""

import gnubg_nn as g


def equity(p):
    """Cubeless money equity of five chances (win, win gammon, win bg, lose gammon, lose bg)."""
    win, wg, wbg, lg, lbg = p
    return 2 * win - 1 + wg - lg + wbg - lbg


def swap(board):
    return [list(board[1]), list(board[0])]


def results(board, d1, d2):
    """Every distinct legal result (mover still in list 1), as boards."""
    out = {}
    for m in g.moves(board, d1, d2):
        key = m[0] if isinstance(m, tuple) else m
        after = g.board_from_position_key(key)
        out[(tuple(after[0]), tuple(after[1]))] = after
    return list(out.values())


def mover_equity(after, plies):
    """The mover's cubeless equity after its play, the opponent then on roll."""
    return -equity(g.probabilities(swap(after), plies))


def finished(board):
    return sum(board[0]) == 0 or sum(board[1]) == 0


def selfplay_turn(board, rng):
    """One turn of gnubg 0-ply cubeless self-play from ``board`` (the mover in list 1):
    random dice, gnubg's best play.  The next board with the other player on roll, or None
    once the game is over."""
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    options = results(board, d1, d2)
    if options:
        board = max(options, key=lambda a: mover_equity(a, 0))
    if finished(board):
        return None
    return swap(board)
