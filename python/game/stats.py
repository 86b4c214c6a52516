"""Confidence intervals and paired comparisons for simulation results (no dependency).

Every interval here is a Student-t interval for the mean of independent *units*: hands in a normal
run, walls in a duplicate run (a wall's unit value for a bot is its points summed over the wall's
four seatings, so the luck of the deal cancels inside the unit). The t distribution's CDF comes
from the regularised incomplete beta function (continued fraction, modified Lentz), its quantiles
by bisection on that CDF — exact enough (1e-10) for 95% intervals and p-values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence

# (the functions making them — estimate, combine, t_cdf, ... — are the layers' helpers, importable but not public)
__all__ = ["Estimate", "Comparison"]

#: the smallest p-value printed as a number; below it (a double's tail underflows near 1e-308) the
#: text says "p < 1e-300" rather than a misleading "p = 0"
P_FLOOR = 1e-300


def format_p_value(p: float) -> str:
    """'p = 0.0123' (three significant digits), or 'p < 1e-300' for smaller values (0 included)."""
    return f"p < {P_FLOOR:.0e}" if p < P_FLOOR else f"p = {p:.3g}"


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1.0 - x) / b


def _two_sided_tail(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom."""
    if math.isinf(df):
        return math.erfc(abs(t) / math.sqrt(2.0))
    return _betainc(df / 2.0, 0.5, df / (df + t * t))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` (> 0; `math.inf`: the normal distribution)."""
    tail = _two_sided_tail(t, df) / 2.0
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The t value with P(T <= t) = p (0 < p < 1)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie strictly between 0 and 1, got {p}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class Estimate:
    """A mean with its confidence interval (None when fewer than two units: no spread to measure)."""

    mean: float
    low: Optional[float]
    high: Optional[float]
    #: standard error of the mean
    se: Optional[float]
    #: independent units the mean is over (hands, or walls in duplicate mode)
    units: int
    level: float = 0.95
    df: Optional[float] = None

    def contains(self, value: float) -> bool:
        return self.low is not None and self.high is not None and self.low <= value <= self.high

    def to_dict(self) -> Dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "se": self.se, "units": self.units,
                "level": self.level}

    def __str__(self) -> str:
        if self.low is None or self.high is None:
            return f"{self.mean:+.3f} (no interval: {self.units} unit(s))"
        return f"{self.mean:+.3f} [{self.low:+.3f}, {self.high:+.3f}]"

    def interval_text(self, digits: int = 2) -> str:
        """'[low, high]' with signs and `digits` decimals, or '-' when there is no interval."""
        if self.low is None or self.high is None:
            return "-"
        return f"[{self.low:+.{digits}f}, {self.high:+.{digits}f}]"

    def __repr__(self) -> str:
        level = "" if self.low is None else f" ({self.level:.0%})"
        return f"Estimate({self}{level}, {self.units} units)"


def _interval(mean: float, se: Optional[float], df: Optional[float], units: int, level: float) -> Estimate:
    if se is None or df is None or df <= 0:
        return Estimate(mean, None, None, None, units, level, df)
    if se == 0.0:
        return Estimate(mean, mean, mean, 0.0, units, level, df)
    half = t_quantile(0.5 + level / 2.0, df) * se
    return Estimate(mean, mean - half, mean + half, se, units, level, df)


def estimate(n: int, total: float, total_sq: float, *, scale: float = 1.0, level: float = 0.95) -> Estimate:
    """The mean of `n` unit values (from their sum and sum of squares), times `scale`, with its t interval."""
    if n < 1:
        return Estimate(0.0, None, None, None, 0, level)
    mean = total / n
    if n < 2:
        return Estimate(mean * scale, None, None, None, n, level)
    var = max((total_sq - total * total / n) / (n - 1), 0.0)
    return _interval(mean * scale, math.sqrt(var / n) * abs(scale), n - 1, n, level)


def combine(parts: Sequence[Estimate], *, level: float = 0.95) -> Estimate:
    """The unweighted mean of independent estimates (a league's tables), with a Welch–Satterthwaite t interval."""
    parts = list(parts)
    if not parts:
        return Estimate(0.0, None, None, None, 0, level)
    k = len(parts)
    mean = sum(p.mean for p in parts) / k
    units = sum(p.units for p in parts)
    if any(p.se is None or p.df is None for p in parts):
        return Estimate(mean, None, None, None, units, level)
    var = sum(p.se * p.se for p in parts) / (k * k)  # type: ignore[operator, misc]
    denominator = sum((p.se ** 4) / p.df for p in parts if p.se) / k ** 4  # type: ignore[operator, misc]
    df = var * var / denominator if denominator > 0 else math.inf
    return _interval(mean, math.sqrt(var), df, units, level)


@dataclass(frozen=True)
class Comparison:
    """`a` minus `b` in points per hand, paired over units (walls in duplicate mode)."""

    a: str
    b: str
    difference: Estimate
    #: two-sided p of a zero difference; None with fewer than two units (no spread, no test)
    p_value: Optional[float]
    paired_over: str

    def to_dict(self) -> Dict[str, Any]:
        return {"a": self.a, "b": self.b, "difference": self.difference.to_dict(), "p_value": self.p_value,
                "paired_over": self.paired_over}

    def __str__(self) -> str:
        d = self.difference
        if self.p_value is None:
            return (f"{self.a} - {self.b}: {d.mean:+.3f} points/hand (no interval, no p-value: "
                    f"{d.units} {self.paired_over})")
        return (f"{self.a} - {self.b}: {d} points/hand ({d.level:.0%} CI), {format_p_value(self.p_value)}, "
                f"paired over {d.units} {self.paired_over}")

    def __repr__(self) -> str:
        return f"<Comparison {self}>"


def paired_p_value(diff: Estimate) -> Optional[float]:
    """Two-sided p-value of the t test that the mean difference is 0; None without an interval
    (fewer than two units: nothing to test with)."""
    if diff.se is None or diff.df is None:
        return None
    if diff.se == 0.0:
        return 1.0 if diff.mean == 0.0 else 0.0
    return _two_sided_tail(diff.mean / diff.se, diff.df)
