"""Changbai settlement: pair amounts, hand-computed ledgers for every payment rule, the dealer
rules, rejected events, and the zero-sum property. Every scenario asserts every transfer."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from depth import examples

from mahjong_core import IllegalActionError, InvalidHandError
from mahjong_core.game import new_game
from mahjong_core.rules.changbai import ChangbaiSettlement, Rules, next_dealer, pair_amount, score
from mahjong_core.rules.ledger import Ledger, Transfer

# Winners (doublings worked out in test_changbai_score.py):
WIN_E = score("123m456p789s123sEE")  # 单吊 1 + 门清 1 + 单吊幺九 1 = 3, on a discard
WIN_E_SELF = score("123m456p789s123sEE", self_drawn=True)  # 3, self-drawn
WIN_CHOWS = score("[123m,1][123m,3]456p789s5s5s")  # 单吊 1 + 一般高(明) 1 = 2, on a discard
WIN_ORPHANS_SELF = score("19m19p19s12345667z", self_drawn=True)  # 十三幺: 0 doublings, x13
WIN_ROBBED = score("123m789m789s46pEE5p", robbed_kong=True)  # 坎张 1 + 门清 1 = 2, robbing 5p
# Losers (13 - 3*melds tiles) and their loser-side doublings:
L0 = "[123m,1]456p789s12sCC"  # 0
L1 = "123m456p789s12sCC"  # 门清: 1
L2 = "[123m,1][123m,2][123m,3]789s5s"  # 两般高(明): 2
L_ROBBED = "[555p,1]123m456s789sN"  # 0 (the pung whose added kong was robbed)


def T(payer, payee, amount, reason, ref=None):
    return Transfer(payer, payee, amount, reason, ref)


def test_the_fixtures_are_what_the_comments_say():
    assert (WIN_E.doublings, WIN_E_SELF.doublings, WIN_CHOWS.doublings, WIN_ROBBED.doublings) == (3, 3, 2, 2)
    assert (WIN_ORPHANS_SELF.doublings, WIN_ORPHANS_SELF.multiplier) == (0, 13)


# ---------------------------------------------------------------------------------------------
# pair_amount: base × 2^(D_win + D_lose + D_dealer) × (13 if 十三幺) + piao(W) + piao(L)


def test_pair_amount_formula():
    assert pair_amount(0, 0, False) == 1
    assert pair_amount(3, 1, False) == 16
    assert pair_amount(3, 1, True) == 32
    assert pair_amount(3, 1, True, 4, 2) == 38
    assert pair_amount(2, 0, False, multiplier=13) == 52
    assert pair_amount(2, 0, False, 6, 0, multiplier=13) == 58
    assert pair_amount(1, 1, False, extra_doublings=1) == 8
    assert pair_amount(1, 1, False, rules=Rules(base=5)) == 20


def test_pair_amount_rule_keys():
    assert pair_amount(3, 1, True, rules=Rules(dealer_doubling=False)) == 16
    assert pair_amount(5, 2, True, 2, 4, rules=Rules(max_doublings=4)) == 16 + 6  # 2^8 capped at 2^4
    assert pair_amount(1, 0, True, rules=Rules(max_doublings=4)) == 4  # under the cap: unchanged


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((-1, 0, False), {}, "winner_doublings"),
        ((0, -1, False), {}, "loser_doublings"),
        ((0, 0, False), dict(extra_doublings=-1), "extra_doublings"),
        ((1.5, 0, False), {}, "winner_doublings"),
        ((0, 0, False), dict(multiplier=0), "multiplier"),
        ((0, 0, False, 3, 0), {}, "piao_winner"),
        ((0, 0, False, 0, 8), {}, "piao_loser"),
    ],
)
def test_pair_amount_rejects_impossible_values(args, kwargs, message):
    with pytest.raises(IllegalActionError, match=message):
        pair_amount(*args, **kwargs)


# ---------------------------------------------------------------------------------------------
# Self-draw: all three others pay


def test_self_draw_by_the_dealer():
    s = ChangbaiSettlement(dealer=0, piao=(2, 0, 4, 6))
    assert s.self_drawn_win(0, WIN_E_SELF, {1: L0, 2: L1, 3: L2}) == (0, 1, 2)
    assert list(s.ledger) == [
        T(1, 0, 2**(3 + 0 + 1) + 2 + 0, "self_drawn"),  # 18
        T(2, 0, 2**(3 + 1 + 1) + 2 + 4, "self_drawn"),  # 38
        T(3, 0, 2**(3 + 2 + 1) + 2 + 6, "self_drawn"),  # 72
    ]
    assert s.ledger.totals() == [128, -18, -38, -72]
    assert s.finished and s.winners == (0,)
    assert s.next_dealer() == 0  # the dealer won: 连庄


def test_self_draw_by_a_non_dealer_dealer_doubling_only_with_the_dealer():
    s = ChangbaiSettlement(dealer=1)
    s.self_drawn_win(2, WIN_E_SELF, [L1, L2, None, L0])  # hands as a 4-list, the winner's unused
    assert list(s.ledger) == [
        T(3, 2, 8, "self_drawn"),  # 2^(3+0)
        T(0, 2, 16, "self_drawn"),  # 2^(3+1)
        T(1, 2, 64, "self_drawn"),  # 2^(3+2+1 dealer)
    ]
    assert s.next_dealer() == 2


def test_self_drawn_thirteen_orphans_multiplies_by_13():
    s = ChangbaiSettlement(dealer=0, piao=(2, 4, 0, 0))
    s.self_drawn_win(1, WIN_ORPHANS_SELF, {2: L0, 3: L1, 0: L2})
    assert list(s.ledger) == [
        T(2, 1, 13 * 1 + 4 + 0, "self_drawn"),  # 17
        T(3, 1, 13 * 2 + 4 + 0, "self_drawn"),  # 30
        T(0, 1, 13 * 2**(0 + 2 + 1) + 4 + 2, "self_drawn"),  # 110
    ]


def test_cap_and_no_dealer_doubling_in_a_self_draw():
    s = ChangbaiSettlement(Rules(max_doublings=3, dealer_doubling=False), dealer=0)
    s.self_drawn_win(0, WIN_E_SELF, {1: L0, 2: L1, 3: L2})
    assert list(s.ledger) == [T(1, 0, 8, "self_drawn"), T(2, 0, 8, "self_drawn"), T(3, 0, 8, "self_drawn")]


# ---------------------------------------------------------------------------------------------
# Discard wins


def test_discard_win_the_discarder_pays():
    s = ChangbaiSettlement(dealer=3, piao=(4, 2, 0, 0))
    assert s.discard_win(0, {1: WIN_E}, {0: L1}) == (0,)
    assert list(s.ledger) == [T(0, 1, 2**(3 + 1) + 2 + 4, "discard_win")]  # 22
    assert s.next_dealer() == 0  # dealer 3 did not win: the deal passes to seat 0


def test_discard_win_all_pay_the_discarder_one_doubling_more():
    s = ChangbaiSettlement(Rules(discard_payers="all"), dealer=1, piao=(0, 2, 4, 6))
    s.discard_win(0, {3: WIN_E}, {0: L1, 1: L0, 2: L2})
    assert list(s.ledger) == [
        T(0, 3, 2**(3 + 1 + 1) + 0 + 6, "discard_win"),  # discarder: +1 doubling → 38
        T(1, 3, 2**(3 + 0 + 1) + 2 + 6, "discard_win"),  # the dealer → 24
        T(2, 3, 2**(3 + 2) + 4 + 6, "discard_win"),  # → 42
    ]
    assert s.next_dealer() == 2


def test_several_winners_each_settled_with_the_discarder_deal_passes():
    s = ChangbaiSettlement(dealer=3)
    s.discard_win(0, {3: WIN_E, 1: WIN_CHOWS}, {0: L0})
    assert list(s.ledger) == [
        T(0, 1, 2**2, "discard_win"),  # winners in turn order after the discarder: 1 first
        T(0, 3, 2**(3 + 1), "discard_win"),  # the dealer's pair doubles
    ]
    assert s.winners == (1, 3) and s.discarder == 0
    assert s.next_dealer() == 0  # first winner after the discarder is seat 1, not the dealer


def test_several_winners_dealer_first_after_the_discarder_keeps_the_deal():
    s = ChangbaiSettlement(dealer=3)
    s.discard_win(2, {1: WIN_CHOWS, 3: WIN_E}, {2: L1})
    assert list(s.ledger) == [
        T(2, 3, 2**(3 + 1 + 1), "discard_win"),  # 32
        T(2, 1, 2**(2 + 1), "discard_win"),  # 8
    ]
    assert s.next_dealer() == 3


def test_several_winners_with_all_paying():
    s = ChangbaiSettlement(Rules(discard_payers="all"), dealer=0)
    s.discard_win(0, {1: WIN_E, 2: WIN_CHOWS}, {0: L0, 3: L1})
    # Each winner is paid by the non-winners (3 and the discarder 0), the discarder doubled once more.
    assert list(s.ledger) == [
        T(3, 1, 2**(3 + 1), "discard_win"),  # 16
        T(0, 1, 2**(3 + 0 + 1 + 1), "discard_win"),  # discarder + dealer: 32
        T(3, 2, 2**(2 + 1), "discard_win"),  # 8
        T(0, 2, 2**(2 + 0 + 1 + 1), "discard_win"),  # 16
    ]
    assert s.next_dealer() == 1


def test_robbed_kong_the_robbed_player_pays_as_discarder_and_the_kong_scores_nothing():
    s = ChangbaiSettlement(dealer=0, piao=(0, 2, 0, 0))
    s.discard_win(2, {3: WIN_ROBBED}, {2: L_ROBBED})
    assert list(s.ledger) == [T(2, 3, 2**2, "robbed_kong")]
    assert s.next_dealer() == 1


# ---------------------------------------------------------------------------------------------
# Kongs and the drawn hand


def test_kong_scores_and_the_drawn_hand():
    s = ChangbaiSettlement(Rules(base=2), dealer=0, piao=(6, 6, 6, 6))
    assert s.kong(1, concealed=False) == (0, 1, 2)
    assert s.kong(2, concealed=True) == (3, 4, 5)
    assert s.drawn_hand() == (6, 7, 8)
    assert list(s.ledger) == [
        T(2, 1, 2, "melded_kong"), T(3, 1, 2, "melded_kong"), T(0, 1, 2, "melded_kong"),  # 1 base each, no 飘
        T(3, 2, 4, "concealed_kong"), T(0, 2, 4, "concealed_kong"), T(1, 2, 4, "concealed_kong"),  # 2 base
        T(0, 1, 4, "drawn_hand"), T(0, 2, 4, "drawn_hand"), T(0, 3, 4, "drawn_hand"),  # dealer pays 2 base
    ]
    assert s.ledger.totals() == [-18, 6, 14, -2]
    assert s.drawn and s.next_dealer() == 0


def test_kong_scores_do_not_follow_the_dealer():
    by_dealer = ChangbaiSettlement(dealer=1)
    by_dealer.kong(1, concealed=True)
    assert [t.amount for t in by_dealer.ledger] == [2, 2, 2]


def test_kong_scores_stand_when_a_hand_is_won():
    s = ChangbaiSettlement(dealer=0)
    s.kong(3, concealed=False)
    s.discard_win(1, {2: WIN_E}, {1: L0})
    assert list(s.ledger) == [
        T(0, 3, 1, "melded_kong"), T(1, 3, 1, "melded_kong"), T(2, 3, 1, "melded_kong"),
        T(1, 2, 8, "discard_win"),
    ]


def test_drawn_hand_refunds_kongs_when_the_rules_say_so():
    s = ChangbaiSettlement(Rules(keep_kong_scores_on_draw=False), dealer=3)
    s.kong(0, concealed=True)
    s.drawn_hand()
    assert list(s.ledger) == [
        T(1, 0, 2, "concealed_kong"), T(2, 0, 2, "concealed_kong"), T(3, 0, 2, "concealed_kong"),
        T(3, 0, 2, "drawn_hand"), T(3, 1, 2, "drawn_hand"), T(3, 2, 2, "drawn_hand"),
        T(0, 1, 2, "kong_refund", 0), T(0, 2, 2, "kong_refund", 1), T(0, 3, 2, "kong_refund", 2),
    ]
    assert s.ledger.totals() == [2, 2, 2, -6]  # the kong is undone; the dealer paid 2 to each


def test_drawn_hand_with_piao_when_the_rules_say_so():
    s = ChangbaiSettlement(Rules(drawn_hand_piao=True), dealer=0, piao=(2, 0, 4, 6))
    s.drawn_hand()
    assert list(s.ledger) == [T(0, 1, 4, "drawn_hand"), T(0, 2, 8, "drawn_hand"), T(0, 3, 10, "drawn_hand")]


def test_zero_value_payments_are_not_recorded():
    s = ChangbaiSettlement(Rules(melded_kong_base=0, drawn_hand_base=0), dealer=0)
    assert s.kong(1, concealed=False) == ()
    assert s.drawn_hand() == ()
    assert len(s.ledger) == 0


def test_settlement_appends_to_a_given_ledger():
    ledger = Ledger(4)
    ledger.add(0, 1, 5, "earlier hand")
    s = ChangbaiSettlement(dealer=0, ledger=ledger)
    assert s.kong(2, concealed=True) == (1, 2, 3)
    assert s.ledger is ledger and len(ledger) == 4


def test_repr():
    s = ChangbaiSettlement(dealer=2, piao=(0, 2, 0, 0))
    assert repr(s) == "ChangbaiSettlement(dealer 2, piao [0, 2, 0, 0], in play, 0 transfers)"
    s.drawn_hand()
    assert repr(s) == "ChangbaiSettlement(dealer 2, piao [0, 2, 0, 0], drawn, 3 transfers)"


# ---------------------------------------------------------------------------------------------
# next_dealer


@pytest.mark.parametrize(
    "dealer, winners, discarder, drawn, expected",
    [
        (2, (), None, True, 2),  # drawn: the dealer stays
        (2, (2,), None, False, 2),  # the dealer self-draws
        (2, (2,), 0, False, 2),  # the dealer wins on a discard
        (2, (1,), 0, False, 3),  # a non-dealer wins: next seat
        (3, (1,), None, False, 0),  # wraps around
        (3, (1, 3), 0, False, 0),  # after discarder 0: 1 first → passes
        (3, (1, 3), 2, False, 3),  # after discarder 2: 3 (dealer) first → stays
        (0, (1, 2, 3), 0, False, 1),  # the dealer discarded: passes
        (2, (3, 0, 2), 1, False, 2),  # three winners after discarder 1: 2 first → stays
        (2, (3, 0), 1, False, 3),  # 2 did not win
    ],
)
def test_next_dealer(dealer, winners, discarder, drawn, expected):
    assert next_dealer(dealer, winners, discarder, drawn) == expected


@pytest.mark.parametrize(
    "args, message",
    [
        ((0, (1,), None, True), "drawn hand has no winners"),
        ((0, (), None, False), "at least one winner"),
        ((0, (1, 2)), "pass the discarder"),
        ((0, (1, 2), 1), "cannot be a winner"),
        ((0, (1, 1), 0), "repeat"),
        ((4, (1,)), "dealer must be a seat"),
        ((0, (5,)), "winner must be a seat"),
        ((0, (1, 2), 9), "discarder must be a seat"),
    ],
)
def test_next_dealer_rejects_impossible_outcomes(args, message):
    with pytest.raises(IllegalActionError, match=message):
        next_dealer(*args)


# ---------------------------------------------------------------------------------------------
# Rejected events leave the ledger unchanged


def _started():
    s = ChangbaiSettlement(dealer=0)
    s.kong(1, concealed=True)
    return s


@pytest.mark.parametrize(
    "event, message",
    [
        (lambda s: s.self_drawn_win(0, WIN_E, {1: L0, 2: L0, 3: L0}), "on a discard"),
        (lambda s: s.discard_win(1, {0: WIN_E_SELF}, {1: L0}), "self-drawn"),
        (lambda s: s.discard_win(1, {0: None}, {1: L0}), "expected the ChangbaiScore"),
        (lambda s: s.discard_win(1, {1: WIN_E}, {1: L0}), "its own discard"),
        (lambda s: s.discard_win(1, {}, {1: L0}), "at least one winner"),
        (lambda s: s.discard_win(1, {0: WIN_E, 2: WIN_ROBBED}, {1: L0}), "disagree on robbed_kong"),
        (lambda s: s.discard_win(1, {0: WIN_E}, {2: L0}), r"no hand given for seat 1"),
        (lambda s: s.self_drawn_win(0, WIN_E_SELF, {1: L0, 2: L0}), r"no hand given for seat 3"),
        (lambda s: s.self_drawn_win(0, WIN_E_SELF, [None, L0, None, L0]), r"no hand given for seat 2"),
        (lambda s: s.kong(4, concealed=True), "seat must be a seat"),
        (lambda s: s.self_drawn_win(-1, WIN_E_SELF, {}), "winner must be a seat"),
        (lambda s: s.discard_win(7, {0: WIN_E}, {}), "discarder must be a seat"),
        (lambda s: s.next_dealer(), "not finished"),
    ],
)
def test_rejected_events_change_nothing(event, message):
    s = _started()
    before = list(s.ledger)
    with pytest.raises(IllegalActionError, match=message):
        event(s)
    assert list(s.ledger) == before and not s.finished


def test_a_payer_hand_of_the_wrong_size_is_an_invalid_hand_and_changes_nothing():
    s = _started()
    with pytest.raises(InvalidHandError, match="13 concealed tiles"):
        s.self_drawn_win(0, WIN_E_SELF, {1: L0, 2: L1, 3: "123m456p789s123sEE"})
    assert len(s.ledger) == 3 and not s.finished


def test_one_winner_only_when_the_rules_say_so():
    s = ChangbaiSettlement(Rules(multiple_winners=False), dealer=0)
    with pytest.raises(IllegalActionError, match="multiple_winners=False"):
        s.discard_win(0, {1: WIN_E, 2: WIN_CHOWS}, {0: L0})
    assert len(s.ledger) == 0


@pytest.mark.parametrize("finish", [lambda s: s.drawn_hand(), lambda s: s.discard_win(2, {3: WIN_E}, {2: L0})])
@pytest.mark.parametrize(
    "event",
    [
        lambda s: s.kong(1, concealed=False),
        lambda s: s.drawn_hand(),
        lambda s: s.self_drawn_win(1, WIN_E_SELF, {0: L0, 2: L0, 3: L0}),
        lambda s: s.discard_win(2, {3: WIN_E}, {2: L0}),
    ],
)
def test_no_event_after_the_hand_is_settled(finish, event):
    s = ChangbaiSettlement(dealer=0)
    finish(s)
    before = list(s.ledger)
    with pytest.raises(IllegalActionError, match="already settled"):
        event(s)
    assert list(s.ledger) == before


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(dealer=4), "dealer must be a seat"),
        (dict(dealer=0, piao=(0, 2, 4)), "one value per seat"),
        (dict(dealer=0, piao=(0, 2, 4, 5)), "piao of seat 3"),
        (dict(dealer=0, ledger=Ledger(3)), "4 seats"),
    ],
)
def test_bad_settlement_setup(kwargs, message):
    with pytest.raises(IllegalActionError, match=message):
        ChangbaiSettlement(**kwargs)


# ---------------------------------------------------------------------------------------------
# Property: every ledger sums to zero, and every transfer goes where the rules send it

DISCARD_WINS = [WIN_E, WIN_CHOWS, score("19m19p19s12345667z"), score("1122334455669m9m", after_kong_discard=True)]
SELF_WINS = [WIN_E_SELF, WIN_ORPHANS_SELF, score("[EEEE]123m456p789s5s5s", self_drawn=True, kong_replacement=True)]
LOSERS = [L0, L1, L2, L_ROBBED, "[123m,1][555p,1][666s,2][789s,1]E", "[EEEE]123m456p789s5s"]
RULES = [Rules(), Rules(discard_payers="all"), Rules(base=3, max_doublings=5), Rules(dealer_doubling=False),
         Rules(keep_kong_scores_on_draw=False, drawn_hand_piao=True)]


@st.composite
def hands_of_play(draw):
    rules = draw(st.sampled_from(RULES))
    dealer = draw(st.integers(0, 3))
    piao = tuple(draw(st.lists(st.sampled_from(rules.piao_choices), min_size=4, max_size=4)))
    kongs = draw(st.lists(st.tuples(st.integers(0, 3), st.booleans()), max_size=4))
    hands = [draw(st.sampled_from(LOSERS)) for _ in range(4)]
    ending = draw(st.sampled_from(["self", "discard", "drawn"]))
    if ending == "self":
        end = (draw(st.integers(0, 3)), draw(st.sampled_from(SELF_WINS)))
    elif ending == "discard":
        discarder = draw(st.integers(0, 3))
        others = [s for s in range(4) if s != discarder]
        winners = draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True))
        end = (discarder, {w: draw(st.sampled_from(DISCARD_WINS)) for w in winners})
    else:
        end = None
    return rules, dealer, piao, kongs, hands, ending, end


@settings(max_examples=examples(200), deadline=None)
@given(hands_of_play())
def test_every_ledger_sums_to_zero_and_pays_the_right_seats(play):
    rules, dealer, piao, kongs, hands, ending, end = play
    s = ChangbaiSettlement(rules, dealer=dealer, piao=piao)
    for seat, concealed in kongs:
        entries = s.kong(seat, concealed=concealed)
        assert len(entries) == 3 and all(s.ledger[i].payee == seat for i in entries)
    if ending == "self":
        winner, win = end
        entries = s.self_drawn_win(winner, win, hands)
        assert len(entries) == 3
        winners = {winner}
    elif ending == "discard":
        discarder, wins = end
        entries = s.discard_win(discarder, wins, hands)
        per_winner = 1 if rules.discard_payers == "discarder" else 4 - len(wins)
        assert len(entries) == per_winner * len(wins)
        winners = set(wins)
    else:
        entries = s.drawn_hand()
        winners = set()
        for i in entries:
            t = s.ledger[i]
            if t.reason == "drawn_hand":
                assert t.payer == dealer
            else:  # a refund undoes an earlier kong payment
                kong = s.ledger[t.ref]
                assert t.reason == "kong_refund" and (t.payer, t.payee, t.amount) == (kong.payee, kong.payer, kong.amount)
    totals = s.ledger.totals()
    assert sum(totals) == 0
    assert sum(t.amount for t in s.ledger if t.payee == 0) - sum(t.amount for t in s.ledger if t.payer == 0) == totals[0]
    for i in entries:
        t = s.ledger[i]
        assert t.amount > 0
        if winners:
            assert t.payee in winners and t.payer not in winners
            # Every hand payment is at least the smallest hand value (1 base) plus both 飘.
            assert t.amount >= rules.base + piao[t.payer] + piao[t.payee]
    assert s.finished
    assert 0 <= s.next_dealer() <= 3


def test_a_games_settlement_is_the_checked_constructors():
    """ChangbaiGame opens its hand's settlement without the constructor's checks (its engine made
    them): the same state as the constructor gives, for every 飘 and dealer, and it settles alike."""
    S = ChangbaiSettlement
    rules = Rules()
    for dealer in range(4):
        for piao in ((0, 0, 0, 0), (2, 0, 4, 6), tuple(rules.piao_choices[-1:] * 4)):
            fast, checked = S._for_game(rules, dealer, piao, Ledger(4)), S(rules, dealer=dealer, piao=piao, ledger=Ledger(4))
            assert {k: v for k, v in vars(fast).items() if k != "ledger"} == \
                   {k: v for k, v in vars(checked).items() if k != "ledger"}
            assert fast.drawn_hand() == checked.drawn_hand() and fast.ledger == checked.ledger
    game = new_game("changbai", seed=4)
    while game.settlement is None or game.phase == 0:  # answer the 飘 window
        for seat, actions in game.pending().items():
            game.act(seat, actions[-1])
    s = game.settlement
    assert type(s) is S and s.ledger is game.ledger and s.dealer == game.dealer and s.piao == tuple(game.piao)
