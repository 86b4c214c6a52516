# Cython declarations for rules/sichuan/scoring.py (an augmenting .pxd): the count scans that pick
# 查大叫's best wait (`_best_wait`, `_pattern_key`) run as C loops over byte buffers when compiled.

cimport cython


@cython.locals(c="unsigned char*", h="const unsigned char*", n=int, k=int, t=int, r=int, s=int, suits=int,
               roots=int, key=int, total=int, best_tile=int, gen=bint, only_258=bint)
cpdef int _best_wait(counts, held, int n_melds, unsigned long long kongs, bint melds_outside,
                     unsigned long long mask, unsigned long long std_mask, int void, rules) except? -2

@cython.locals(n=int, k=int, lo=int, rest=int, pairs=int, best=int, key=int, pairs_only=bint, quad=bint,
               pungs=bint, outside=bint)
cdef int _pattern_key(const unsigned char* c, int n_melds, bint std, bint pure, bint only_258,
                      bint melds_outside) noexcept

@cython.locals(t=int, n=int, r=int, suits=int, only_258=bint)
cpdef _held_of(hand)

@cython.locals(key=int, best=int)
cpdef _score(hand, context, void_suit, rules)

@cython.locals(kind=long, rank=long, pungs=bint, outside=bint)
cpdef _best_pattern(reading, held, context)
cdef long _CHOW_KIND, _PUNG_KIND, _KONG_KIND

# The steps of a score, called from `_score_win` and `_score` as C functions (each a Python call
# of ~1 k instructions otherwise; a Sichuan hand scores every win and 查大叫's best waits).
cpdef _wins(hand, suits, void_suit)
cpdef _check_rules(rules)
cpdef _complete_hand(hand, win_tile)
cpdef _root_item(roots)
cpdef _extras(context, roots)
cpdef _result(items, pattern, win_tile, context, reading, rules)
cpdef _cap(fan, rules)
cpdef hand_points(fan, rules=*)
cpdef _payment(uncapped_fan, context, rules)
