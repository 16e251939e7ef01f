"""The solver's search (:mod:`aluette.analysis.solver`), compiled by numba, on arrays.

Numba compiles it on the first call on a machine and caches the machine code beside this file (``cache=True``): the
compile time (:func:`warm_up` measures it) is paid once, later processes load it. The search is an alpha-beta over
an explicit stack of frames rather than a recursive function, since numba's cache cannot hold a recursive function
(numba/numba#6061). The helpers that every card play calls (``_enter``, ``_update``, ``_undo``, ``best_after``,
``_close``) are inlined into it (``inline='always'``, numba's own inlining: no call and no reference counting of the
arrays per card play; 8% faster, the same compile time; inlining every helper cost 40 s of compiling and was no faster).
Without numba the same functions run as plain Python (the same values, far slower).

Layout: seats 0-3 (N, E, S, W); one int64 work array ``W`` holds the hands (``cnt[seat, strength]``, strengths
1-19, and each seat's classes as the bits of one mask, kept in step with the counts: the strongest class, the
classes held and the group heads are read from the masks with the processor's bit counts, not by a pass over the 19
classes), the tricks won per seat, the trick of each seat's last win, the group heads and ranks at each trick
boundary, the moves to try at each ply, the payoff table and the counters (offsets below). The transposition table
holds, per entry, a 64-bit and a 32-bit Zobrist signature of the canonical position (classes renumbered by rank
among the cards still out, neighbouring classes that one seat alone holds merged; the leader; the trick counts; who
won their last trick first; the seat whose run can still be mordienne; a seat that can no longer win the deal only
as "out"), the bounds of its value and the best lead found, in 16 bytes; the four entries a position may take are
one 64-byte line of memory, so a look-up costs one cache miss. Two independent signatures of 95 bits in all (the
first's lowest bit is always set, so that 0 marks an empty entry) make a false match of two positions about one chance
in 2**95 per pair.
"""

from __future__ import annotations

import numpy as np

try:
    from numba import config as _numba_config
    from numba import njit
    # the processor's count of leading and trailing zero bits (LLVM's ctlz and cttz), for the masks of classes
    from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
    #: Whether the search is compiled (numba installed, and not switched off by NUMBA_DISABLE_JIT).
    COMPILED = not _numba_config.DISABLE_JIT
except ImportError:  # pragma: no cover - numba is a dependency; without it the same code runs uncompiled
    COMPILED = False

    def njit(**_options):
        return lambda function: function

if not COMPILED:  # the same counts in plain Python (an intrinsic runs only in compiled code)
    def leading_zeros(x):
        return 64 - int(x).bit_length()

    def trailing_zeros(x):
        return (int(x) & -int(x)).bit_length() - 1

# The work array W (int64): every small array of the search in one, so that each helper takes one array (each
# array argument costs reference counting on every call).
CNT = 0  # cnt[seat * 20 + strength]: the cards of each class each seat holds
COUNTS = 80  # tricks won per seat
LAST = 84  # trick (0-8) of each seat's last win, -1 for none
HEADS = 88  # heads[t]: the mask of the classes that head a merged group at trick t's boundary (the strongest of it)
RANK = 288  # rank[t * 20 + s]: the canonical rank of s's group from the top (1 = strongest), classes still out
MOVES = 488  # moves[ply * 20 + i]: the classes to try at each ply, in order
PAYOFF = 2088  # payoff[w * 2 + m]
NONE = 2096
CAPABLE = 2097  # 4 flags
NODES, MAX_NODES, ABORT, STORES = 2101, 2102, 2103, 2104
FRAMES, FIELDS = 2105, 24  # the explicit stack of the search: one frame of FIELDS per depth, 41 depths
MASK = FRAMES + 41 * FIELDS  # mask[seat]: bit s set when the seat holds a card of class s
WORK = MASK + 4
# the fields of a frame
F_LEADER, F_POS, F_BS, F_BW, F_ALIVE, F_T, F_A, F_B, F_AA, F_BB, F_LO, F_HI = range(12)
F_SLOT, F_N, F_I, F_VALUE, F_BEST, F_C, F_WIN, F_OLD = range(12, 20)
# the Zobrist array Z (uint64): two sets of signatures, each of ZSET entries, then each frame's two signatures
ZH, ZL, ZC, ZO, ZA, ZSET = 0, 840, 844, 884, 1140, 1145
ZFRAME = 2 * ZSET
_PROBES = 4


def _zobrist() -> np.ndarray:
    """The random signatures of the table (a fixed seed: the same on every machine)."""
    rng = np.random.default_rng(20261201)
    signatures = rng.integers(1, 2 ** 63, size=2 * ZSET, dtype=np.int64).astype(np.uint64)
    return np.concatenate([signatures, np.zeros(2 * 41, np.uint64)])


if True:  # noqa: SIM108 - one block of compiled functions
    @njit(cache=True)
    def _final(W, alive):
        c0, c1, c2, c3 = W[COUNTS], W[COUNTS + 1], W[COUNTS + 2], W[COUNTS + 3]
        top = max(c0, c1, c2, c3)
        if top == 0:
            return W[NONE]
        winner = -1
        for s in range(4):
            if W[COUNTS + s] == top and (winner < 0 or W[LAST + s] < W[LAST + winner]):
                winner = s
        if alive == winner and W[CAPABLE + winner]:
            return W[PAYOFF + 2 * winner + 1]
        return W[PAYOFF + 2 * winner]

    @njit(cache=True, inline='always')
    def _most(W, s):
        """The most tricks any seat but ``s`` has won."""
        return max(W[COUNTS + ((s + 1) & 3)], W[COUNTS + ((s + 2) & 3)], W[COUNTS + ((s + 3) & 3)])

    @njit(cache=True)
    def _bounds(W, alive, r, alpha, beta):
        """Bounds of the value with ``r`` tricks left, from what can still happen (see the solver's docstring): a
        seat can still win the deal only if its tricks plus ``r`` exceed every other seat's (winning all ``r`` it
        reaches its count last, so it loses a tie); a broken run can no longer be mordienne. Then the two ways an
        opponent side can keep its strongest cards and the way it can cover a seat's cards (below), the sure tricks
        and a sweep. Each bound on one side's behalf leaves out only the outcomes that one strategy of that side
        prevents, whatever the others play. The work stops as soon as a bound decides a search of the window
        ``(alpha, beta)`` (``lo >= beta`` or ``hi <= alpha``): the rest could only tighten a bound the search no
        longer needs (pass -99, 99 for the tightest bounds).

        The ninth trick: if each seat of a side keeps its strongest card for it, a seat of the other side whose
        strongest card is not above the keeper's cannot win that trick, so cannot make mordienne nor win a deal that
        needs every trick left.

        Two stoppers: the side keeps its two strongest cards x1 >= x2 and plays one (its holder playing after the
        lead) only when an opponent who won the trick before leads a card that the kept card beats or ties, while
        that opponent's run could still be a mordienne or win every trick left, or when its holder has nothing
        else. Which card stops: in the first of the tricks left, x2 only, and only against a lead of x2 or lower;
        later, the lower of the two that beats or ties the lead. Each such stop breaks that opponent's run for
        good, so each opponent is stopped at most once and the side holds a kept card of at least x2 until the
        ninth trick. An opponent who leads every trick of its run but the first must then lead each of those above
        a kept card. Winning every trick left takes ``r - 1`` cards above x1: x1 is still kept after the first
        trick, as nothing but x2 stops there. A live run takes ``r`` cards above x2. A run that starts later takes
        at least as many tricks as the most any other seat has, plus one: so that many cards above x2, less the
        first (at least one: the ninth trick). (A review found no position where these bounds exclude the value:
        about 1.2 million boundaries with two to five tricks left under 9 to 13 scorings, against an exact search.)

        Covers: a seat cannot win the deal if its opponents can hold it to fewer tricks than another seat has now
        (or as many, reached later: a tie goes to whoever reached the number first), which :func:`_cap` counts.
        """
        lo, hi = 99, -99
        if W[COUNTS] + W[COUNTS + 1] + W[COUNTS + 2] + W[COUNTS + 3] == 0:
            lo, hi = W[NONE], W[NONE]
        lo2, hi2 = lo, hi  # the same with the two stoppers in place of the ninth trick's keepers
        lo3, hi3 = lo, hi  # the same with the opponents' covers
        t = 9 - r
        ns1, ns2 = _two(W, 0)
        ew1, ew2 = _two(W, 1)
        for s in range(4):
            cs = W[COUNTS + s]
            most = _most(W, s)
            if cs + r <= most:
                continue
            ns = (s & 1) == 0
            x1, x2 = (ew1, ew2) if ns else (ns1, ns2)  # the opponents' two strongest cards
            above1, above2 = _above(W, s, x1), _above(W, s, x2)
            blocked = above1 == 0  # an opponent holds a card as strong as s's strongest
            capable = W[CAPABLE + s] != 0
            # s wins every trick left (the ninth too): mordienne iff its run is alive or starts after trick 1
            made = 1 if capable and (alive == s or (cs == 0 and t > 0)) else 0
            v = W[PAYOFF + 2 * s + made]
            stopped = above1 < r - 1 or (alive == s and made == 1 and above2 < r)
            # the opponents' covers hold s below (or level with, reached later) the most tricks another seat has
            covered = False
            if most > cs:  # s must take a trick to reach most: level with it, s reached it later
                covered = cs + _cap(W, s, r, most - cs) <= most
            lo, hi = _outcome(lo, hi, v, ns, blocked)
            lo2, hi2 = _outcome(lo2, hi2, v, ns, stopped)
            lo3, hi3 = _outcome(lo3, hi3, v, ns, covered)
            if cs + r - 1 > most:  # s loses a trick left and may still win the deal (a tie it would reach last)
                v = W[PAYOFF + 2 * s]
                lo, hi = min(lo, v), max(hi, v)
                lo2, hi2 = min(lo2, v), max(hi2, v)
                lo3, hi3 = _outcome(lo3, hi3, v, ns, covered)
                if capable and cs == 0:  # a run that starts later (and ends with the ninth trick)
                    v = W[PAYOFF + 2 * s + 1]
                    lo, hi = _outcome(lo, hi, v, ns, blocked)
                    lo2, hi2 = _outcome(lo2, hi2, v, ns, above2 < max(1, most))
                    lo3, hi3 = _outcome(lo3, hi3, v, ns, covered)
        lo, hi = max(lo, lo2, lo3), min(hi, hi2, hi3)
        # Sure tricks: for each class x the side holds, its w_a + w_b <= r cards of a class >= x, each played to a
        # trick of its own (a hand of r cards with w_a of them holds r - w_a >= w_b others for the partner's
        # tricks), win every such trick but those an opponent stops with a card of a class >= x: the opponents hold
        # m of those, so the side wins at least w = w_a + w_b - m of them (m = 0: cards stronger than every card
        # of the two opponents). Playing them (a strategy the side may choose: a bound on its side only), the side
        # ends with its best count at least the lowest the opponents can make it by choosing which to stop, each
        # opponent with at most its tricks plus the r - w left, and an opponent's run is broken: its mordienne
        # needs a run that starts after (no trick yet). The outcomes left: the side wins (with or without
        # mordienne), or an opponent that can still reach the side's best count wins; the best x is kept. (With
        # m > 0 as well as m = 0: 11% fewer card plays on 40 deals' third and second tricks, the same values.)
        if lo >= beta or hi <= alpha or lo == hi:
            return lo, hi
        out = W[MASK] | W[MASK + 1] | W[MASK + 2] | W[MASK + 3]
        for side in range(2):
            a, b = side, side + 2
            wa, wb, m = 0, 0, 0
            best = 99 if side == 1 else -99
            left = out
            while left:  # the classes still out, strongest first (an absent class changes nothing)
                s = _top(left)
                left ^= 1 << s
                m += W[CNT + 20 * ((a + 1) & 3) + s] + W[CNT + 20 * ((a + 3) & 3) + s]
                ha, hb = W[CNT + 20 * a + s], W[CNT + 20 * b + s]
                if ha + hb == 0:
                    continue
                wa += ha
                wb += hb
                if m == 0 and (wa == r and ha > 0 or wb == r and hb > 0):
                    # a sweep: every card of a seat above every opponent's, and its partner's each under one of
                    # them, win every trick left whatever anyone plays: its run is mordienne if it can be
                    sweep = _swept(W, a if wa == r else b, alive, r)
                    if sweep != 99:
                        best = max(best, sweep) if side == 0 else min(best, sweep)
                        if best >= beta if side == 0 else best <= alpha:
                            break
                if wa + wb > r:  # a partner may have to play a high card on the other's
                    break
                if wa + wb <= m:
                    continue
                worst = _cashed(W, side, wa, wb, m, r)
                best = max(best, worst) if side == 0 else min(best, worst)
                if best >= beta if side == 0 else best <= alpha:
                    break
            if side == 0:
                lo = max(lo, best)
                if lo >= beta:
                    return lo, hi
            else:
                hi = min(hi, best)
        return lo, hi

    @njit(cache=True)
    def _cap(W, s, r, need):
        """At most how many tricks seat ``s`` can take of the ``r`` left (its partner aside: the partner can only
        take some from it) when one of its opponents plays its cards strongest first and the other weakest first (a
        strategy of theirs, whatever anyone else plays: a bound on their behalf). For every class ``x`` at once,
        their ``n`` cards of class ``x`` or more then lie in tricks of their own (all ``r`` tricks when ``n >= r``),
        and ``s`` wins such a trick only with a card above ``x`` (the strongest card wins, a tie spoils: rules
        sheet, "gameplay"): so at most the ``r - n`` other tricks plus its cards above ``x``, the least of these
        over the classes ``x`` the opponents hold. The count depends only on which of their cards go together to a
        trick (the j-th strongest of one with the j-th weakest of the other, whichever of the two plays strongest
        first), so one play of theirs holds both seats of the other side to their counts. The count stops once it
        can no longer come down to ``need`` (it is then above ``need``, not always the least)."""
        o1, o2 = (s + 1) & 3, (s + 3) & 3
        theirs = W[MASK + o1] | W[MASK + o2]
        left = W[MASK + s] | theirs
        n, above, best = 0, 0, r
        while left and above <= need and above < best:  # the classes strongest first
            x = _top(left)
            left ^= 1 << x
            if (theirs >> x) & 1:
                n += W[CNT + 20 * o1 + x] + W[CNT + 20 * o2 + x]
                best = min(best, r - min(r, n) + above)
            above += W[CNT + 20 * s + x]
        return best

    @njit(cache=True, inline='always')
    def _outcome(lo, hi, v, ns, prevented):
        """The bounds ``(lo, hi)`` widened by an outcome of value ``v`` for a seat of N-S (``ns``) or E-W, unless
        the other side can prevent it (``prevented``): then it only widens the bound on its own side's behalf."""
        if not prevented:
            return min(lo, v), max(hi, v)
        if ns:
            return min(lo, v), hi
        return lo, max(hi, v)

    @njit(cache=True)
    def _two(W, side):
        """The classes of the two strongest cards of a side (0: N-S, 1: E-W): equal when it holds two cards of its
        strongest class; 0 for none."""
        m = W[MASK + side] | W[MASK + side + 2]
        x1 = _top(m)
        if W[CNT + 20 * side + x1] + W[CNT + 20 * (side + 2) + x1] >= 2:
            return x1, x1
        return x1, _top(m & ~(1 << x1))

    @njit(cache=True)
    def _above(W, s, x):
        """How many cards seat ``s`` holds of a class above ``x``."""
        left = W[MASK + s] >> (x + 1)
        n = 0
        while left:
            n += W[CNT + 20 * s + x + 1 + trailing_zeros(left)]
            left &= left - 1
        return n

    @njit(cache=True)
    def _placeable(W, a, b, x, r, wa):
        """Whether seat ``a`` can play its ``wa`` cards of a class at least ``x`` in tricks of their own with none of
        its partner ``b``'s cards of a class at least ``x`` tying or beating them: ``b`` plays its ``r - wa``
        strongest in the other tricks and each of the rest under a stronger card of ``a``'s (the j-th strongest of
        them under ``a``'s j-th strongest: possible iff at each class, no more of them are at least as strong as
        it than ``a`` has cards above it)."""
        free = r - wa
        placed, above = 0, 0
        left = ((W[MASK + a] | W[MASK + b]) >> x) << x
        while left:
            s = _top(left)
            left ^= 1 << s
            placed += W[CNT + 20 * b + s]
            if placed - free > above:
                return False
            above += W[CNT + 20 * a + s]
        return True

    @njit(cache=True)
    def _swept(W, s, alive, r):
        """The value when seat ``s``, whose every card is above every card of its opponents, wins every trick left
        with its partner playing under it; 99 if the partner cannot (it holds a card that would beat or tie one of
        them whatever it does) or if ``s`` would still not win the deal."""
        cs = W[COUNTS + s]
        most = _most(W, s)
        if cs + r <= most or not _placeable(W, s, (s + 2) & 3, 0, r, r):
            return 99
        made = 1 if W[CAPABLE + s] != 0 and (alive == s or (cs == 0 and r < 9)) else 0
        return W[PAYOFF + 2 * s + made]

    @njit(cache=True)
    def _later_runs(W, r, alpha, beta, lo, hi):
        """The bounds ``(lo, hi)`` of a trick boundary with ``r`` tricks left, tightened by each seat with no trick
        yet that is sure of a run of the last ``r - 1`` tricks (:func:`_later_run`), on its side's behalf. Only a
        bound that decides the window ``(alpha, beta)`` is looked for (pass 99, -99 for every one)."""
        for s in range(4):
            if W[COUNTS + s] == 0:
                v = W[PAYOFF + 2 * s + (1 if W[CAPABLE + s] != 0 else 0)]
                if (v >= beta and v > lo) if (s & 1) == 0 else (v <= alpha and v < hi):
                    if _later_run(W, s, r):
                        if (s & 1) == 0:
                            lo = v
                        else:
                            hi = v
        return lo, hi

    @njit(cache=True)
    def _later_run(W, s, r):
        """Whether seat ``s``, with no trick yet, can be sure to win the deal with a run of the last ``r - 1``
        tricks (a mordienne, when its mordienne counts), whatever its opponents play. It holds exactly ``r - 1``
        cards above every card of its opponents: it plays its other card to the first trick left (the free trick)
        and each strong one to a trick after, which it wins whatever anyone plays (the strongest card wins, a tie
        spoils: rules sheet, "gameplay") if its partner plays under each (:func:`_placeable`). Whoever takes the
        free trick, the run ends with the ninth: ``s`` taking it makes the run longer, a spoiled one counts as a
        trick before the run (decision mordienne-spoiled-counts-before). ``s`` then has at least ``r - 1`` tricks,
        reached last, so it needs more than every other seat (a tie goes to whoever reached the number first: rules
        sheet, "scoring"): an opponent may take the free trick (its tricks plus one below ``r - 1``); the partner
        either may too (the same, playing its strongest card to it) or plays to it a card no stronger than
        ``s``'s, which cannot win it (its tricks below ``r - 1``, its other cards under ``s``'s strong ones). Not
        with two free tricks: a low card of ``s`` that won the first could see its run broken in the second."""
        if W[COUNTS + s] != 0 or r >= 9:
            return False
        k = r - 1
        o1, o2, p = (s + 1) & 3, (s + 3) & 3, (s + 2) & 3
        if W[COUNTS + o1] + 1 >= k or W[COUNTS + o2] + 1 >= k:
            return False
        x1 = _top(W[MASK + o1] | W[MASK + o2])
        if _above(W, s, x1) != k:
            return False
        if W[COUNTS + p] + 1 < k and _placeable(W, s, p, x1 + 1, r, k):
            return True
        low = trailing_zeros(W[MASK + s])
        return W[COUNTS + p] < k and (W[MASK + p] & ((2 << low) - 1)) != 0 and _placeable(W, s, p, x1 + 1, k, k)

    @njit(cache=True)
    def _cashed(W, side, wa, wb, m, r):
        """The worst value for ``side`` once its seats play their ``wa`` and ``wb`` cards of a class at least some
        ``x`` in tricks of their own (``wa + wb <= r``) while the opponents hold ``m < wa + wb`` cards of a class at
        least ``x``: each opponent card can stop (beat or tie) one of them, so the side wins at least ``wa + wb - m``
        of those tricks, and the opponents choose which to stop (the side's best count as low as they can make it);
        the opponents win at most ``r - (wa + wb - m)`` tricks, and an opponent's run is broken (its mordienne needs
        a run that starts after, with no trick yet)."""
        a, b = side, side + 2
        w = wa + wb - m
        mine = 99
        for ka in range(max(0, m - wb), min(m, wa) + 1):
            mine = min(mine, max(W[COUNTS + a] + wa - ka, W[COUNTS + b] + wb - (m - ka)))
        worst = 99 if side == 0 else -99
        for x in range(4):
            if (x & 1) == side:
                can, made = True, W[CAPABLE + x] != 0
            else:
                cx = W[COUNTS + x]
                most = _most(W, x)
                # x must reach the side's best count, and pass every seat's count now unless it ties the first
                # already (a tie it would reach last loses)
                can = cx + r - w >= mine and (cx + r - w > most or cx == most)
                made = can and W[CAPABLE + x] != 0 and cx == 0
            if can:
                for k in range(2 if made else 1):
                    v = W[PAYOFF + 2 * x + k]
                    worst = min(worst, v) if side == 0 else max(worst, v)
        return worst

    @njit(cache=True)
    def _top(m):
        """The highest bit set in ``m`` (a mask of classes 1-19): the strongest class of the mask, 0 for none."""
        return 63 - leading_zeros(m | 1)

    @njit(cache=True)
    def _signature(W, Z, leader, alive, t):
        """Fill the group heads and ranks of trick ``t``'s boundary (the ranks of the classes still out: an absent
        class's is never read); return the two signatures of the canonical position."""
        rank = RANK + 20 * t
        groups = 0
        previous = 0
        heads = 0
        m0, m1, m2, m3 = W[MASK], W[MASK + 1], W[MASK + 2], W[MASK + 3]
        left = m0 | m1 | m2 | m3
        while left:  # the classes still out, strongest first; the played ones between them separate nothing
            s = _top(left)
            left ^= 1 << s
            mask = ((m0 >> s) & 1) | (((m1 >> s) & 1) << 1) | (((m2 >> s) & 1) << 2) | (((m3 >> s) & 1) << 3)
            single = mask if (mask & (mask - 1)) == 0 else 0
            if not (single != 0 and single == previous):
                groups += 1
                heads |= 1 << s
            W[rank + s] = groups
            previous = single
        W[HEADS + t] = heads
        # A seat that can no longer win the deal (its tricks plus every trick left reach at most another seat's
        # tricks, which that seat reached first) is "out": how many tricks it has, when it won them and whether its
        # run is alive change nothing of the value, so the key holds only that it is out (count code 9: no seat has
        # nine tricks at a boundary with a trick left).
        r = 9 - t
        c0, c1, c2, c3 = W[COUNTS], W[COUNTS + 1], W[COUNTS + 2], W[COUNTS + 3]
        out = 0
        for k in range(4):
            most = max(c1, c2, c3) if k == 0 else (max(c0, c2, c3) if k == 1 else
                                                   (max(c0, c1, c3) if k == 2 else max(c0, c1, c2)))
            if W[COUNTS + k] + r <= most:
                out |= 1 << k
        if alive >= 0 and (out >> alive) & 1:
            alive = -1
        h1 = Z[ZL + leader] ^ Z[ZA + alive + 1]
        h2 = Z[ZSET + ZL + leader] ^ Z[ZSET + ZA + alive + 1]
        code = 0
        for k in range(4):
            if (out >> k) & 1:
                h1 ^= Z[ZC + 10 * k + 9]
                h2 ^= Z[ZSET + ZC + 10 * k + 9]
                code = code * 4
                continue
            h1 ^= Z[ZC + 10 * k + W[COUNTS + k]]
            h2 ^= Z[ZSET + ZC + 10 * k + W[COUNTS + k]]
            # Who won their last trick first matters only between seats with as many tricks now: a seat that wins
            # again reaches its new count after every seat that stays, whatever the order was (scoring: a tie goes
            # to the seat that reached the number first).
            place = 0
            for j in range(4):
                if W[COUNTS + j] == W[COUNTS + k] and W[LAST + j] < W[LAST + k] and not (out >> j) & 1:
                    place += 1
            code = code * 4 + place
        h1 ^= Z[ZO + code]
        h2 ^= Z[ZSET + ZO + code]
        for k in range(4):
            # the seat's classes strongest first: those of one group are neighbours, so each group's cards are
            # summed in one run; then the group's rank from the bottom, and how many cards of it the seat holds
            base = CNT + 20 * k
            left = W[MASK + k]
            g, total = 0, 0
            while left:
                s = _top(left)
                left ^= 1 << s
                if W[rank + s] != g:
                    if total > 0:
                        h1, h2 = _group(Z, h1, h2, ZH + 210 * k + 10 * (groups + 1 - g) + total)
                    g, total = W[rank + s], 0
                total += W[base + s]
            if total > 0:
                h1, h2 = _group(Z, h1, h2, ZH + 210 * k + 10 * (groups + 1 - g) + total)
        return h1 | np.uint64(1), h2

    @njit(cache=True, inline='always')
    def _group(Z, h1, h2, i):
        """Both signatures with entry ``i`` of their Zobrist sets added (a seat's group: its rank and its cards)."""
        return h1 ^ Z[i], h2 ^ Z[ZSET + i]

    @njit(cache=True)
    def _order(W, seat, pos, best_s, best_w, t, hint, ply):
        """The classes ``seat`` may play (one per merged group) in the order to try them, at ``W[MOVES + 20 *
        ply:]``; their number. At a lead: the table's best lead, the strongest class, then low to high. After the
        partner's winning card: low to high. Else the cheapest class that wins, one that spoils, then low to high;
        the second hand tries its lowest class before those. (Measured by the card plays of 40 deals' third and
        second tricks: the second hand's lowest first and the lead's strongest then lowest save 23% and 33% of the
        card plays of high to low; killer moves, the third hand's strongest first and the fourth's spoiling first
        cost 10-80% more.)"""
        out = MOVES + 20 * ply
        P = W[MASK + seat] & W[HEADS + t]  # one class per merged group: its head
        m = 0
        if pos == 0:
            if hint > 0 and (P >> hint) & 1:
                W[out] = hint
                m = 1
            top = _top(P)
            if top != hint:
                W[out + m] = top
                m += 1
            left = P & ~(1 << top) & ~(1 << hint)
        elif best_w >= 0 and (best_w & 1) == (seat & 1):
            left = P
        else:
            above = (P >> (best_s + 1)) << (best_s + 1)
            win = trailing_zeros(above) if above else -1
            low = trailing_zeros(P)
            if pos == 1 and low != win:  # the second hand: its lowest card first, then the cheapest winner
                W[out] = low
                m = 1
            else:
                low = -1
            if win > 0:
                W[out + m] = win
                m += 1
            tie = best_s if best_w >= 0 and (P >> best_s) & 1 else -1
            if tie > 0 and tie != low:
                W[out + m] = tie
                m += 1
            left = P
            for c in (win, tie, low):
                if c > 0:
                    left &= ~(1 << c)
        while left:  # the rest low to high
            W[out + m] = trailing_zeros(left)
            left &= left - 1
            m += 1
        return m


    @njit(cache=True, inline='always')
    def _alive_after(W, alive, w, t):
        """The seat whose run can still be mordienne once seat ``w`` wins trick ``t`` (0-8; its count not yet
        raised): the same seat if its run goes on, ``w`` if this is its first trick and not the deal's first, else
        -1 (nobody)."""
        if alive == w:
            return alive
        return w if W[COUNTS + w] == 0 and t > 0 else -1

    @njit(cache=True)
    def _last_trick(W, alive):
        """The value of the deal when every seat holds one card: the ninth trick played out and scored."""
        w = _winner(_top(W[MASK]), _top(W[MASK + 1]), _top(W[MASK + 2]), _top(W[MASK + 3]))
        return _ninth(W, alive, w)

    @njit(cache=True, inline='always')
    def _ninth(W, alive, w):
        """The value of the deal once seat ``w`` wins the ninth trick (-1: nobody, it is spoiled)."""
        if w < 0:
            return _final(W, -1)
        new_alive = _alive_after(W, alive, w, 8)
        old = W[LAST + w]
        W[COUNTS + w] += 1
        W[LAST + w] = 8
        value = _final(W, new_alive)
        W[COUNTS + w] -= 1
        W[LAST + w] = old
        return value

    @njit(cache=True, inline='always')
    def _ends(W, alive, leader, c0, c1, c2, c3, d0, d1, d2, d3):
        """The value of the deal once its eighth trick is ``c0..c3`` and its ninth ``d0..d3``, each in the order the
        seats play from ``leader``."""
        w9 = _winner(d0, d1, d2, d3)
        w9 = (leader + w9) & 3 if w9 >= 0 else -1
        w = _winner(c0, c1, c2, c3)
        if w < 0:  # a spoiled trick breaks every run
            return _ninth(W, -1, w9)
        w = (leader + w) & 3
        new_alive = _alive_after(W, alive, w, 7)
        old = W[LAST + w]
        W[COUNTS + w] += 1
        W[LAST + w] = 7
        value = _ninth(W, new_alive, w9)
        W[COUNTS + w] -= 1
        W[LAST + w] = old
        return value

    @njit(cache=True, inline='always')
    def _winner(c0, c1, c2, c3):
        """The place (0-3) of the one strongest card of a trick, -1 when it is tied (spoiled: tricks.best_of; the
        order of play changes nothing of it)."""
        top = max(c0, c1, c2, c3)
        n = (c0 == top) + (c1 == top) + (c2 == top) + (c3 == top)
        if n > 1:
            return -1
        return 0 if c0 == top else (1 if c1 == top else (2 if c2 == top else 3))

    @njit(cache=True)
    def _two_left(W, leader, alive, alpha, beta):
        """The value with two tricks left (each seat holds two cards), ``leader`` to lead: each seat's choice of card
        for the eighth trick (the ninth's are the rest), alpha-beta inside ``(alpha, beta)`` (fail-soft, as
        :func:`_run`). Cheaper than the general search there, its bounds and its table: 3% fewer card plays counted
        and about 4% less time on 20 deals' second tricks. Its plays are not counted in the budget (``NODES``): at
        most 16 per call, and each call follows a counted card play."""
        m0, m1 = W[MASK + leader], W[MASK + ((leader + 1) & 3)]
        m2, m3 = W[MASK + ((leader + 2) & 3)], W[MASK + ((leader + 3) & 3)]
        h0, l0, h1, l1 = _top(m0), trailing_zeros(m0), _top(m1), trailing_zeros(m1)
        h2, l2, h3, l3 = _top(m2), trailing_zeros(m2), _top(m3), trailing_zeros(m3)
        max0 = (leader & 1) == 0  # the leader and the third hand's side; the second and fourth play for the other
        max1 = not max0
        v0, a0, b0 = -99 if max0 else 99, alpha, beta
        for i0 in range(1 if h0 == l0 else 2):
            c0, d0 = (h0, l0) if i0 == 0 else (l0, h0)
            v1, a1, b1 = -99 if max1 else 99, a0, b0
            for i1 in range(1 if h1 == l1 else 2):
                c1, d1 = (h1, l1) if i1 == 0 else (l1, h1)
                v2, a2, b2 = -99 if max0 else 99, a1, b1
                for i2 in range(1 if h2 == l2 else 2):
                    c2, d2 = (h2, l2) if i2 == 0 else (l2, h2)
                    v3, a3, b3 = -99 if max1 else 99, a2, b2
                    for i3 in range(1 if h3 == l3 else 2):
                        c3, d3 = (h3, l3) if i3 == 0 else (l3, h3)
                        v3, a3, b3 = _take(v3, a3, b3, _ends(W, alive, leader, c0, c1, c2, c3, d0, d1, d2, d3), max1)
                        if a3 >= b3:
                            break
                    v2, a2, b2 = _take(v2, a2, b2, v3, max0)
                    if a2 >= b2:
                        break
                v1, a1, b1 = _take(v1, a1, b1, v2, max1)
                if a1 >= b1:
                    break
            v0, a0, b0 = _take(v0, a0, b0, v1, max0)
            if a0 >= b0:
                break
        return v0

    @njit(cache=True, inline='always')
    def _take(best, a, b, v, maximise):
        """A reply's value ``v`` taken by the seat to play: its best value so far and its window (alpha-beta)."""
        if maximise:
            best = max(best, v)
            return best, max(a, best), b
        best = min(best, v)
        return best, a, min(b, best)

    @njit(cache=True, inline='always')
    def _enter(W, Z, T, d, leader, pos, best_s, best_w, alive, t, alpha, beta):
        """Open the node at depth ``d``: (True, its value) when it is decided at once (the last trick is over, the
        bounds or the table decide it), else (False, 0) with its frame filled and its moves ordered."""
        lo, hi = -99, 99
        h1 = np.uint64(0)
        h2 = np.uint64(0)
        hint = 0
        slot = -1
        if pos == 0:
            r = 9 - t
            if r == 0:
                return True, _final(W, alive)
            if r == 1:  # one card each: no choice left, the last trick is played out at once
                return True, _last_trick(W, alive)
            if r == 2:  # two cards each: at most 16 ways to play the eighth trick, played out without the table
                return True, _two_left(W, leader, alive, alpha, beta)
            lo, hi = _bounds(W, alive, r, alpha, beta)
            if lo >= beta or lo == hi:
                return True, lo
            if hi <= alpha:
                return True, hi
            h1, h2 = _signature(W, Z, leader, alive, t)
            base = _bucket(T, h1)
            check = h2 >> np.uint64(32)
            for i in range(base, base + _PROBES):
                if T[2 * i] == h1 and (T[2 * i + 1] >> np.uint64(32)) == check:
                    slot = i
                    break
            if slot >= 0:
                packed = _packed(T, slot)
                lo = max(lo, (packed & 15) - 8)
                hi = min(hi, ((packed >> 4) & 15) - 8)
                if lo >= beta or lo == hi:
                    return True, lo
                if hi <= alpha:
                    return True, hi
                stored = (packed >> 8) & 31
                if stored > 0:  # stored as a canonical rank: back to this position's class
                    rank = RANK + 20 * t
                    left = W[MASK + leader] & W[HEADS + t]
                    while left:
                        s = trailing_zeros(left)
                        left &= left - 1
                        if W[rank + s] == stored:
                            hint = s
                            break
            lo, hi = _later_runs(W, r, alpha, beta, lo, hi)  # after the table: the positions it searches only
            if lo >= beta or lo == hi:
                return True, lo
            if hi <= alpha:
                return True, hi
            a = max(alpha, lo)
            b = min(beta, hi)
        else:
            a, b = alpha, beta
        f = FRAMES + FIELDS * d
        seat = (leader + pos) & 3
        W[f + F_LEADER] = leader
        W[f + F_POS] = pos
        W[f + F_BS] = best_s
        W[f + F_BW] = best_w
        W[f + F_ALIVE] = alive
        W[f + F_T] = t
        W[f + F_A] = a
        W[f + F_B] = b
        W[f + F_AA] = a
        W[f + F_BB] = b
        W[f + F_LO] = lo
        W[f + F_HI] = hi
        W[f + F_SLOT] = slot
        W[f + F_N] = _order(W, seat, pos, best_s, best_w, t, hint, t * 4 + pos)
        W[f + F_I] = 0
        W[f + F_VALUE] = -99 if (seat & 1) == 0 else 99
        W[f + F_BEST] = 0
        Z[ZFRAME + 2 * d] = h1
        Z[ZFRAME + 2 * d + 1] = h2
        return False, 0

    @njit(cache=True, inline='always')
    def _packed(T, i):
        """Entry ``i``'s packed bounds, best lead and trick: the low 32 bits of its second word."""
        return np.int64(T[2 * i + 1] & np.uint64(0xFFFFFFFF))

    @njit(cache=True)
    def _bucket(T, h1):
        """The first entry of ``h1``'s bucket: _PROBES entries of 16 bytes in one 64-byte line of memory."""
        return np.int64(h1 & np.uint64(T.shape[0] // 2 - 1)) & ~(_PROBES - 1)

    @njit(cache=True, inline='always')
    def _close(W, Z, T, d):
        """The value of the node at depth ``d`` once its moves are searched (or cut off); a trick boundary stores
        its bounds and best lead in the table."""
        f = FRAMES + FIELDS * d
        value = W[f + F_VALUE]
        if W[f + F_POS] == 0:
            a, b, lo, hi = W[f + F_A], W[f + F_B], W[f + F_LO], W[f + F_HI]
            if value <= a:
                hi = min(hi, value)
            elif value >= b:
                lo = max(lo, value)
            else:
                lo = value
                hi = value
            h1, h2 = Z[ZFRAME + 2 * d], Z[ZFRAME + 2 * d + 1]
            slot = W[f + F_SLOT]
            if slot < 0:  # an empty slot of the bucket, else the one of the latest trick (the cheapest to redo)
                base = _bucket(T, h1)
                slot = base
                latest = -1
                for i in range(base, base + _PROBES):
                    if T[2 * i] == 0:
                        slot = i
                        break
                    trick = _packed(T, i) >> 13
                    if trick > latest:
                        latest = trick
                        slot = i
                W[STORES] += 1
            best = W[f + F_BEST]
            # the best lead as its canonical rank: the same number in every equivalent position
            packed = ((lo + 8) | ((hi + 8) << 4) | ((W[RANK + 20 * W[f + F_T] + best] if best > 0 else 0) << 8)
                      | (W[f + F_T] << 13))
            T[2 * slot] = h1
            T[2 * slot + 1] = ((h2 >> np.uint64(32)) << np.uint64(32)) | np.uint64(packed)
        return value

    @njit(cache=True, inline='always')
    def _undo(W, d):
        """Take back the card the node at depth ``d`` is trying (and the trick it completed)."""
        f = FRAMES + FIELDS * d
        seat = (W[f + F_LEADER] + W[f + F_POS]) & 3
        W[CNT + 20 * seat + W[f + F_C]] += 1
        W[MASK + seat] |= 1 << W[f + F_C]
        w = W[f + F_WIN]
        if w >= 0:
            W[COUNTS + w] -= 1
            W[LAST + w] = W[f + F_OLD]

    @njit(cache=True, inline='always')
    def _update(W, d, v):
        """Take the value ``v`` of the card tried at depth ``d``: alpha-beta, and a cut-off ends the node."""
        f = FRAMES + FIELDS * d
        maximise = ((W[f + F_LEADER] + W[f + F_POS]) & 1) == 0
        if (v > W[f + F_VALUE]) if maximise else (v < W[f + F_VALUE]):
            W[f + F_VALUE] = v
            W[f + F_BEST] = W[f + F_C]
        if maximise:
            W[f + F_AA] = max(W[f + F_AA], v)
        else:
            W[f + F_BB] = min(W[f + F_BB], v)
        if W[f + F_AA] >= W[f + F_BB]:
            W[f + F_I] = W[f + F_N]

    @njit(cache=True, inline='always')
    def best_after(c, seat, best_s, best_w):
        """(the strongest class of the trick, its seat or -1 when tied) after ``seat`` plays class ``c`` to a trick
        whose strongest class so far is ``best_s``, played by ``best_w`` (tricks.best_of: a tie for the strongest
        class spoils the trick)."""
        if c > best_s:
            return c, seat
        if c == best_s:
            return c, -1
        return best_s, best_w

    @njit(cache=True)
    def _run(W, Z, T, leader, pos, best_s, best_w, alive, t, alpha, beta):
        """Fail-soft alpha-beta from a position with ``pos`` cards of trick ``t`` played (N-S maximise): exact inside
        ``(alpha, beta)``, a bound on the side it fails; an explicit stack of frames instead of recursion, so that
        numba can cache it."""
        decided, value = _enter(W, Z, T, 0, leader, pos, best_s, best_w, alive, t, alpha, beta)
        if decided:
            return value
        d = 0
        while True:
            f = FRAMES + FIELDS * d
            i = W[f + F_I]
            if i < W[f + F_N]:
                W[f + F_I] = i + 1
                leader, pos, t = W[f + F_LEADER], W[f + F_POS], W[f + F_T]
                seat = (leader + pos) & 3
                c = W[MOVES + 20 * (t * 4 + pos) + i]
                W[NODES] += 1
                if W[NODES] > W[MAX_NODES]:
                    W[ABORT] = 1
                    return 0
                W[CNT + 20 * seat + c] -= 1
                if W[CNT + 20 * seat + c] == 0:
                    W[MASK + seat] ^= 1 << c
                W[f + F_C] = c
                W[f + F_WIN] = -1
                bs, bw = best_after(c, seat, W[f + F_BS], W[f + F_BW])
                aa, bb, alive = W[f + F_AA], W[f + F_BB], W[f + F_ALIVE]
                if pos < 3:
                    decided, v = _enter(W, Z, T, d + 1, leader, pos + 1, bs, bw, alive, t, aa, bb)
                elif bw < 0:
                    decided, v = _enter(W, Z, T, d + 1, leader, 0, 0, -1, -1, t + 1, aa, bb)
                else:
                    new_alive = _alive_after(W, alive, bw, t)
                    W[f + F_WIN] = bw
                    W[f + F_OLD] = W[LAST + bw]
                    W[COUNTS + bw] += 1
                    W[LAST + bw] = t
                    decided, v = _enter(W, Z, T, d + 1, bw, 0, 0, -1, new_alive, t + 1, aa, bb)
                if decided:
                    _undo(W, d)
                    _update(W, d, v)
                else:
                    d += 1
            else:
                v = _close(W, Z, T, d)
                if d == 0:
                    return v
                d -= 1
                _undo(W, d)
                _update(W, d, v)


class Kernel:
    """The arrays of one search: the transposition table (``2**bits`` entries), the scoring tables, counters."""

    def __init__(self, payoff, none, capable, max_nodes, bits: int = 20):
        self.W = np.zeros(WORK, np.int64)
        self.W[PAYOFF:PAYOFF + 8] = np.asarray(payoff, dtype=np.int64).reshape(8)
        self.W[NONE] = int(none)
        self.W[CAPABLE:CAPABLE + 4] = np.asarray(capable, dtype=np.int64)
        self.W[MAX_NODES] = max_nodes
        size = 1 << bits
        # entry i: T[2i] the first signature, T[2i + 1] the second's high 32 bits above the packed bounds, best
        # lead and trick; the array starts on a 64-byte line, so that a bucket is one line (one cache miss)
        whole = np.zeros(2 * size + 8, np.uint64)
        skip = (-whole.ctypes.data % 64) // 8
        self.T = whole[skip:skip + 2 * size]
        self.Z = _ZOBRIST.copy()  # its tail holds the signatures of the frames being searched

    @property
    def nodes(self) -> int:
        return int(self.W[NODES])

    @property
    def entries(self) -> int:
        """Positions stored in the table (new entries, counting those that replaced another)."""
        return int(min(self.W[STORES], self.T.shape[0] // 2))

    @property
    def table_bytes(self) -> int:
        return self.T.nbytes

    def _load(self, state) -> int:
        """Put ``state``'s hands, trick counts and last wins in the work array; the index of its trick (0-8)."""
        hands, leader, pos, best_s, best_w, counts, last, alive = state
        W = self.W
        W[CNT:CNT + 80] = 0
        W[MASK:MASK + 4] = 0
        for k, hand in enumerate(hands):
            for s in hand:
                W[CNT + 20 * k + s] += 1
                W[MASK + k] |= 1 << s
        W[COUNTS:COUNTS + 4] = counts
        W[LAST:LAST + 4] = last
        return 9 - len(hands[leader]) if pos == 0 else 8 - len(hands[leader])

    def signature(self, state) -> tuple[int, int]:
        """The transposition table's two signatures of a trick boundary ``state`` (``pos`` 0): equal for positions
        the search takes as one (the same canonical position), different otherwise."""
        if state[2] != 0:
            raise ValueError("the table keys trick boundaries only")
        t = self._load(state)
        h1, h2 = _signature(self.W, self.Z, state[1], state[7], t)
        return int(h1), int(h2)

    def bounds(self, state) -> tuple[int, int]:
        """The static bounds (lowest, highest) of a trick boundary ``state``'s value, before any search: what the
        tricks taken and left still allow (:func:`_bounds`), and a seat sure of a run of the tricks left but one
        (:func:`_later_run`)."""
        if state[2] != 0:
            raise ValueError("the bounds are taken at trick boundaries only")
        t = self._load(state)
        lo, hi = _bounds(self.W, state[7], 9 - t, -99, 99)
        lo, hi = _later_runs(self.W, 9 - t, 99, -99, lo, hi)
        return int(lo), int(hi)

    def value(self, state, alpha: int, beta: int) -> int | None:
        """The value of ``state`` (the solver's integer tuple) within ``(alpha, beta)``; ``None`` when the node
        budget ran out."""
        hands, leader, pos, best_s, best_w, counts, last, alive = state
        W = self.W
        t = self._load(state)
        if pos > 0:  # a trick under way: no merged classes (they are worked out at a trick boundary)
            W[HEADS + t] = (1 << 20) - 2
        W[ABORT] = 0
        value = _run(W, self.Z, self.T, leader, pos, best_s, best_w, alive, t, alpha, beta)
        if W[ABORT]:
            return None
        return int(value)


_ZOBRIST = _zobrist()


def warm_up() -> float:
    """Compile the search (or load it from numba's cache) by solving a tiny position; returns the seconds it took:
    a minute or two the first time on a machine, a few seconds or less once cached."""
    import time
    started = time.perf_counter()
    kernel = Kernel(((1, 2), (-1, -2), (1, 2), (-1, -2)), 0, (True,) * 4, 1000, bits=8)
    kernel.value((((19,), (18,), (17,), (16,)), 0, 0, 0, -1, (2, 2, 2, 2), (1, 3, 5, 7), -1), -99, 99)
    return time.perf_counter() - started
