"""The statistics held to known answers (published tables and examples, or worked by hand), and
the properties the report's claims rest on: identical sides never come out different, and a
difference is called only when its corrected interval excludes 0."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bolivia.compare.statistics import (
    METHODS,
    Difference,
    benjamini_hochberg,
    bonferroni,
    clustered_mean_ci,
    clustered_ratio_ci,
    clustered_share,
    correct,
    count_mean_ci,
    detectable_difference,
    difference_from_sums,
    holm,
    holm_log,
    log_normal_p,
    log_t_p,
    mcnemar_p,
    mean_ci,
    no_change_bound,
    normal_quantile,
    p_json,
    paired_difference,
    paired_mean,
    paired_proportions,
    paired_ratio_ci,
    paired_share,
    proportion_ci,
    t_cdf,
    t_quantile,
    units_for_power,
    units_for_precision,
)
from tests.strategies import difference_families, unit_differences

# Student's sleep data (Cushny and Peebles; Student 1908): extra hours of sleep of ten patients
# under two drugs; R's t.test(extra ~ group, data = sleep, paired = TRUE) gives t = 4.0621,
# df = 9, p = 0.002833, 95% interval [0.7001142, 2.4598858] for the mean difference 1.58
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]

# Benjamini and Hochberg (1995), section 4.1: fifteen p-values; at 0.05 Bonferroni (and Holm)
# reject the first three, their procedure the first four
BH_1995 = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240,
           0.4262, 0.5719, 0.6528, 0.7590, 1.000]  # fmt: skip


@pytest.mark.parametrize(
    ("hits", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),  # z^2 / (n + z^2)
        (5, 10, 0.2366, 0.7634),
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998), Table I, method 3
        (10, 10, 0.7225, 1.0),
    ],
)
def test_wilson_intervals_match_published_values(hits: int, n: int, low: float, high: float):
    estimate = proportion_ci(hits, n)
    assert estimate.low == pytest.approx(low, abs=5e-5)
    assert estimate.high == pytest.approx(high, abs=5e-5)


@given(st.integers(1, 10**6))
def test_a_row_with_no_events_gets_an_interval_of_some_width(n: int) -> None:
    assert proportion_ci(0, n).high > 0
    counts = count_mean_ci([0] * min(n, 1000))
    assert counts.low == 0 and counts.high == pytest.approx(3.6889 / min(n, 1000), rel=1e-4)


def test_counts_with_events_keep_the_mean_interval_floored_at_zero() -> None:
    assert count_mean_ci([0, 0, 1, 0]) == mean_ci([0, 0, 1, 0], floor=0.0)


# t(0.975) from the published table (two-sided 5%), to three decimals
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 5: 2.571, 9: 2.262, 10: 2.228, 20: 2.086, 29: 2.045,
         30: 2.042, 60: 2.000, 120: 1.980, 10**6: 1.960}  # fmt: skip


@pytest.mark.parametrize(("df", "quantile"), sorted(T_975.items()))
def test_t_quantiles_match_the_table(df: int, quantile: float) -> None:
    assert round(t_quantile(0.975, df), 3) == quantile
    assert t_quantile(0.025, df) == -t_quantile(0.975, df)


def test_t_quantiles_of_other_levels() -> None:
    assert t_quantile(0.995, 9) == pytest.approx(3.250, abs=5e-4)  # table: 99% two-sided
    assert t_quantile(0.8, 33) == pytest.approx(0.853, abs=5e-4)
    assert t_quantile(0.5, 4) == 0.0


@given(st.floats(0.001, 0.999), st.integers(1, 400))
def test_the_t_quantile_inverts_the_distribution(p: float, df: int) -> None:
    assert t_cdf(t_quantile(p, df), df) == pytest.approx(p, abs=1e-9)


def test_the_paired_interval_of_the_sleep_data() -> None:
    difference = paired_difference(SLEEP_2, SLEEP_1)
    interval = difference.interval()
    assert difference.value == pytest.approx(1.58)
    assert difference.value / difference.se == pytest.approx(4.0621, abs=5e-5)
    assert (interval.low, interval.high) == pytest.approx((0.7001142, 2.4598858), abs=1e-6)
    assert difference.p_value() == pytest.approx(0.002833, abs=5e-7)
    assert difference.interval(0.99).low < interval.low


def test_sums_give_the_same_difference_as_the_values() -> None:
    values = [3, -1, 4, 1, -5, 9, 2, -6]
    direct = paired_mean(values)
    summed = difference_from_sums(len(values), sum(values), sum(v * v for v in values))
    assert summed == direct
    halved = difference_from_sums(len(values), sum(values), sum(v * v for v in values), 0.5)
    assert halved == paired_mean([v / 2 for v in values])


def test_fewer_than_two_units_give_no_interval() -> None:
    one = paired_mean([5])
    assert (one.interval().low, one.interval().high) == (-math.inf, math.inf)
    assert one.as_json()["low"] is None and one.p_value() == 1.0
    assert paired_mean([]).n == 0


def test_paired_proportions_are_the_paired_mean_of_the_indicators() -> None:
    # 20 units: 5 with the event under a alone, 1 under b alone, the rest concordant
    a = [1] * 5 + [0] * 1 + [1] * 8 + [0] * 6
    b = [0] * 5 + [1] * 1 + [1] * 8 + [0] * 6
    assert paired_proportions(5, 1, 20) == paired_difference(a, b)
    assert paired_proportions(5, 1, 20).value == pytest.approx(0.2)
    # McNemar's exact test by hand: 2 * P(X <= 1), X ~ Bin(6, 1/2) = 2 * 7/64
    assert mcnemar_p(5, 1) == pytest.approx(14 / 64)
    assert mcnemar_p(3, 10) == pytest.approx(2 * (1 + 13 + 78 + 286) / 2**13)
    assert mcnemar_p(0, 0) == 1.0 and mcnemar_p(4, 4) == 1.0
    with pytest.raises(ValueError, match="discordant"):
        paired_proportions(5, 6, 10)


def test_holm_and_bh_on_the_textbook_example() -> None:
    alpha = 0.05
    assert sum(q <= alpha for q in bonferroni(BH_1995)) == 3
    assert sum(q <= alpha for q in holm(BH_1995)) == 3
    assert sum(q <= alpha for q in benjamini_hochberg(BH_1995)) == 4
    # worked by hand (R's p.adjust agrees): p = .01 .04 .03 .005
    p = [0.01, 0.04, 0.03, 0.005]
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert bonferroni(p) == pytest.approx([0.04, 0.16, 0.12, 0.02])


def _with_p(p: float, n: int = 1000) -> Difference:
    """A difference whose two-sided p-value is p (t with n - 1 df, se 1)."""
    return Difference(t_quantile(1 - p / 2, n - 1), 1.0, n)


def test_corrected_intervals_and_calls() -> None:
    family = [_with_p(p) for p in BH_1995]
    calls = {method: [c.different for c in correct(family, method)] for method in METHODS}
    assert sum(calls["bonferroni"]) == sum(calls["holm"]) == 3
    assert sum(calls["bh"]) == 4
    bonferroni_levels = [c.level for c in correct(family, "bonferroni")]
    assert bonferroni_levels == [pytest.approx(1 - 0.05 / 15)] * 15
    holm_levels = [c.level for c in correct(family, "holm")]
    assert holm_levels[0] == pytest.approx(1 - 0.05 / 15)
    assert holm_levels[-1] == pytest.approx(0.95)
    assert [c.level for c in correct(family, "bh")] == [pytest.approx(1 - 4 * 0.05 / 15)] * 15
    with pytest.raises(ValueError, match="method"):
        correct(family, "sidak")  # type: ignore[arg-type]


@given(difference_families, st.integers(0, 11))
def test_identical_sides_never_come_out_different(family: list[list[int]], where: int) -> None:
    """The same ruleset under two ids, or a bot against itself: the difference is 0 on every
    unit, its interval [0, 0], and no correction calls it."""
    same = paired_difference(family[0], family[0])
    assert (same.value, same.se, same.p_value()) == (0.0, 0.0, 1.0)
    assert (same.interval().low, same.interval().high) == (0.0, 0.0)
    differences = [paired_mean(values) for values in family]
    differences.insert(min(where, len(differences)), same)
    for method in METHODS:
        corrected = correct(differences, method)
        assert not corrected[min(where, len(differences) - 1)].different


@given(difference_families, st.sampled_from(METHODS))
def test_a_difference_is_called_only_when_its_corrected_interval_excludes_zero(
    family: list[list[int]], method: str
) -> None:
    corrected = correct([paired_mean(values) for values in family], method)  # type: ignore[arg-type]
    for c in corrected:
        if c.different:
            assert c.interval.low > 0 or c.interval.high < 0
        assert c.adjusted >= c.p - 1e-12
        assert 0.95 <= c.level < 1


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_the_adjustments_are_ordered(p: list[float]) -> None:
    for b, h, q, raw in zip(bonferroni(p), holm(p), benjamini_hochberg(p), p, strict=True):
        assert raw <= q + 1e-12 and q <= h + 1e-12 and h <= b + 1e-12


@given(unit_differences)
def test_a_constant_difference_has_no_spread(values: list[int]) -> None:
    constant = paired_mean([values[0]] * len(values))
    interval = constant.interval()
    assert interval.low == interval.high == values[0]
    # no spread: the exact sign test, 2^(1-n), never 0 (all n of one sign by chance)
    assert constant.p_value() == pytest.approx(1.0 if values[0] == 0 else 2.0 ** (1 - len(values)))
    assert constant.log_p() == (0.0 if values[0] == 0 else (1 - len(values)) * math.log(2))


def test_detectable_difference_and_units_needed() -> None:
    # a paired t test detecting half a standard deviation with 80% power at 5% needs 34 pairs
    # (the exact noncentral t, as G*Power gives it)
    assert units_for_power(0.5, 1.0) == 34
    assert detectable_difference(34, 1.0) <= 0.5 < detectable_difference(33, 1.0)
    # for many units: (z(0.975) + z(0.8)) * sd / sqrt(n) = 2.8016 * sd / sqrt(n)
    assert detectable_difference(10**6, 1900.0) == pytest.approx(2.8016 * 1.9, abs=1e-3)
    assert detectable_difference(1, 1.0) == math.inf
    assert units_for_power(1.0, 0.0) == 2


@given(st.floats(0.01, 10), st.floats(0.1, 100))
def test_units_for_precision_is_the_smallest_that_gives_it(half: float, sd: float) -> None:
    n = units_for_precision(half, sd, limit=10**7)
    assert n == 10**7 or t_quantile(0.975, n - 1) * sd / math.sqrt(n) <= half
    assert n == 2 or t_quantile(0.975, n - 2) * sd / math.sqrt(n - 1) > half


# Fagerland, Lydersen and Laake (2014), "Recommended tests and confidence intervals for paired
# binomial proportions", their example (Bentur et al.: airway hyper-responsiveness before and
# after stem cell transplantation, 21 patients, 1 and 7 discordant): Tango's asymptotic score
# interval for the difference -0.286 is [-0.517, -0.026]
def test_the_paired_score_interval_of_the_published_example() -> None:
    d = paired_share(1, 7, 21)
    assert d.value == pytest.approx(-6 / 21)
    e = d.interval()
    assert e.low == pytest.approx(-0.5172, abs=5e-4) and e.high == pytest.approx(-0.0260, abs=5e-4)
    mirrored = paired_share(7, 1, 21).interval()
    assert (mirrored.low, mirrored.high) == pytest.approx((-e.high, -e.low))


@given(st.integers(1, 100_000), st.sampled_from([0.95, 0.99, 0.999]))
def test_no_discordant_unit_gives_the_closed_form_width(n: int, level: float) -> None:
    # with no discordant unit, Tango's bound solves n d / (1 - d) = z^2: d = z^2 / (n + z^2)
    z = normal_quantile(0.5 + level / 2)
    e = paired_share(0, 0, n).interval(level)
    assert e.high == pytest.approx(z * z / (n + z * z), rel=1e-6)
    assert e.low == pytest.approx(-e.high, rel=1e-9)


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_the_score_interval_excludes_zero_exactly_when_mcnemar_rejects(
    only_a: int, only_b: int, both: int
) -> None:
    d = paired_share(only_a, only_b, only_a + only_b + both + 1)
    e = d.interval()
    excludes = e.low > 0 or e.high < 0
    if abs(d.p_value() - 0.05) > 1e-6:
        assert excludes == (d.p_value() < 0.05)
    if only_a + only_b:
        z = (only_a - only_b) / math.sqrt(only_a + only_b)
        assert d.p_value() == pytest.approx(2 * (1 - NormalDist().cdf(abs(z))))


def test_the_bound_on_units_that_differ_when_none_did() -> None:
    assert no_change_bound(1) == pytest.approx(0.975)
    assert no_change_bound(100) == pytest.approx(0.036217, abs=1e-6)  # 1 - 0.025 ** (1 / 100)


# Two-sided p-values far in the tails, base-10 logarithms, from scipy 1.17 (``t.logsf`` and
# ``norm.logsf`` plus log 2), where 2 * (1 - cdf) gives exactly 0
@pytest.mark.parametrize(
    ("t", "df", "log10_p"),
    [(2.0, 5, -0.99165759), (10.0, 30, -10.33958504), (40.0, 99, -62.19483331)],
)
def test_a_t_p_value_is_its_tail_however_small(t: float, df: int, log10_p: float) -> None:
    assert log_t_p(t, df) / math.log(10) == pytest.approx(log10_p, abs=1e-7)
    assert log_t_p(-t, df) == log_t_p(t, df)
    if t >= 10:
        assert 2 * (1 - t_cdf(t, df)) < 1e-9  # what the old formula lost


@pytest.mark.parametrize(
    ("z", "log10_p"), [(1.0, -0.49851555), (20.0, -88.25906535), (40.0, -349.13597646)]
)
def test_a_normal_p_value_is_its_tail_however_small(z: float, log10_p: float) -> None:
    assert log_normal_p(z) / math.log(10) == pytest.approx(log10_p, abs=1e-6)


def test_no_p_value_is_zero_and_the_corrections_keep_the_true_order() -> None:
    # differences far past a float's smallest p-value (t of 200 to 400 on 1,000 units)
    family = [Difference(v, 1.0, 1000) for v in (300.0, 200.0, 400.0, 0.5)]
    logs = [d.log_p() for d in family]
    assert all(math.isfinite(v) for v in logs) and logs[2] < logs[0] < logs[1] < logs[3]
    assert all(d.p_value() == 0.0 for d in family[:3])  # as floats they are lost...
    written = [d.as_json() for d in family]
    assert all(w["p"] > 0 for w in written)  # ...but never written as 0
    assert written[2]["log10_p"] < written[0]["log10_p"] < written[1]["log10_p"] < -800
    corrected = correct(family, "holm")
    adjusted = [c.log_adjusted for c in corrected]
    # Holm steps in the order of the true p-values: 400, 300, 200, then the small one
    assert adjusted[2] < adjusted[0] < adjusted[1] < adjusted[3] <= 0
    assert adjusted[2] == pytest.approx(math.log(4) + logs[2])
    assert holm_log(logs) == adjusted
    assert p_json(-1e4) == {"p": 1e-300, "log10_p": round(-1e4 / math.log(10), 3)}


@given(st.lists(st.integers(0, 60), min_size=2, max_size=30))
def test_groups_of_one_value_are_the_plain_mean(values: list[int]) -> None:
    plain = mean_ci([float(v) for v in values])
    grouped = clustered_mean_ci([[float(v)] for v in values])
    assert grouped.value == pytest.approx(plain.value)
    assert grouped.low == pytest.approx(plain.low) and grouped.high == pytest.approx(plain.high)


def test_values_alike_within_a_group_widen_the_interval() -> None:
    # the same 30 values, as 30 deals of one pick-up, or as 3 deals of 10 alike pick-ups
    values = [4.0] * 10 + [9.0] * 10 + [14.0] * 10
    plain = clustered_mean_ci([[v] for v in values])
    grouped = clustered_mean_ci([values[:10], values[10:20], values[20:]])
    assert plain.value == grouped.value == 9.0 and plain.n == grouped.n == 30
    # 3 units, not 30: t(2) and the spread of three group means
    assert grouped.high - grouped.low > 4 * (plain.high - plain.low)
    assert grouped.high == pytest.approx(9.0 + t_quantile(0.975, 2) * 5.0 / math.sqrt(3))


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=2, max_size=40))
def test_a_share_from_running_sums_is_the_clustered_ratio(units: list[tuple[int, int]]) -> None:
    """``clustered_share`` (a match's tally: sums only) agrees with ``clustered_ratio_ci`` (the
    units themselves), but where every unit went all one way: then the exact bound."""
    units = [(min(won, ended), ended) for won, ended in units]
    hits = sum(w for w, _ in units)
    count = sum(n for _, n in units)
    share = clustered_share(
        len(units),
        hits,
        count,
        sum(w * w for w, _ in units),
        sum(w * n for w, n in units),
        sum(n * n for _, n in units),
    )
    direct = clustered_ratio_ci([float(w) for w, _ in units], [n for _, n in units])
    assert share.value == pytest.approx(direct.value) and share.n == direct.n
    if count and hits in (0, count):
        bound = no_change_bound(len(units))
        assert (share.low, share.high) == ((0.0, bound) if hits == 0 else (1 - bound, 1.0))
    elif count:
        assert share.low == pytest.approx(max(0.0, direct.low), abs=1e-9)
        assert share.high == pytest.approx(min(1.0, direct.high), abs=1e-9)


@given(st.integers(0, 40), st.integers(0, 40))
def test_a_share_of_one_unit_or_of_nothing_claims_nothing(hits: int, items: int) -> None:
    """One deal (or game) played says nothing of how deals differ: every share is possible."""
    hits = min(hits, items)
    share = clustered_share(1, hits, items, hits * hits, hits * items, items * items)
    assert (share.low, share.high) == (0.0, 1.0)
    assert (clustered_share(3, 0, 0, 0, 0, 0).low, clustered_share(3, 0, 0, 0, 0, 0).high) == (0, 1)


_AMOUNTS = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=3, max_size=40)


@given(_AMOUNTS, st.sampled_from([0.95, 0.99, 0.9988]))
def test_the_relative_interval_leaves_out_1_exactly_when_the_difference_leaves_out_0(
    units: list[tuple[int, int]], level: float
) -> None:
    """Fieller's interval of a paired ratio against the paired t interval of the difference at
    the same level: one leaves out no change exactly when the other does; at its ends the t
    statistic of ``a - r * b`` is the quantile itself; and the ratio lies inside."""
    a = [float(x) for x, _ in units]
    b = [float(y) for _, y in units]
    ratio = paired_ratio_ci(a, b, level)
    diff = paired_difference(a, b).interval(level)
    if ratio is None:
        return
    assert ratio.low <= ratio.value <= ratio.high
    if not math.isclose(diff.low, 0, abs_tol=1e-9) and not math.isclose(diff.high, 0, abs_tol=1e-9):
        assert (ratio.low > 1 or ratio.high < 1) == (diff.low > 0 or diff.high < 0)
    quantile = t_quantile(0.5 + level / 2, len(a) - 1)
    for r in (ratio.low, ratio.high):
        d = paired_difference(a, [r * y for y in b])
        if d.se > 1e-9:
            assert abs(d.value / d.se) == pytest.approx(quantile, rel=1e-6)


def test_a_ratio_with_no_bound_or_no_positive_mean_is_none() -> None:
    assert paired_ratio_ci([5.0, 6.0], [0.0, 0.0]) is None  # b's mean is 0
    assert paired_ratio_ci([1.0, 9.0, 0.0], [0.0, 9.0, 0.0]) is None  # b not told apart from 0
    assert paired_ratio_ci([3.0], [2.0]) is None  # one unit
    assert paired_ratio_ci([12.0, 9.0, 15.0, 13.0], [10.0, 8.0, 11.0, 10.0]) is not None
