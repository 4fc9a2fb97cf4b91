"""Match statistics for tools/match.py: Elo from a score, its 95% error bar, the
likelihood of superiority, and the SPRT log-likelihood ratio.

Scores are in [0, 1] from engine A's view. A sample is one game (trinomial: 0, 1/2, 1)
or one pair of games with the colours swapped (pentanomial: the pair's mean, 0, 1/4,
1/2, 3/4, 1). Pairs share an opening, so their two games are correlated; the variance
of pair means is the honest one and the one used once a match has whole pairs.

The SPRT is the GSPRT of fishtest and cutechess in its normal approximation (M. Van den
Bergh): with the bounds s0, s1 the expected scores of logistic Elo elo0, elo1, N samples
of mean m and variance v (per sample),  LLR = N (s1 - s0) (2m - s0 - s1) / (2v).
The test stops at LLR >= log((1 - beta) / alpha) (accept elo1: the change gains) or at
LLR <= log(beta / (1 - alpha)) (accept elo0). Empty outcome classes count 1e-3 in the
ratio (regularize), so a one-sided match also ends.
"""

import math
from statistics import NormalDist

# The pentanomial outcomes of a pair, by the pair's total score (0, 0.5, 1, 1.5, 2).
PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)


def elo(score):
    """Logistic Elo difference of an expected score in (0, 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_of(elo_diff):
    """The expected score of a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))


def mean_var(freqs, values):
    """(number of samples, mean, population variance) of a frequency table."""
    n = sum(freqs)
    if n == 0:
        return 0, 0.0, 0.0
    mu = sum(f * x for f, x in zip(freqs, values)) / n
    var = sum(f * (x - mu) ** 2 for f, x in zip(freqs, values)) / n
    return n, mu, var


def trinomial(wins, draws, losses):
    return mean_var((losses, draws, wins), (0.0, 0.5, 1.0))


def pentanomial(pairs):
    """pairs: counts of pair totals 0, 0.5, 1, 1.5, 2 (LL, LD, DD+WL, WD, WW)."""
    return mean_var(pairs, tuple(x / 2 for x in PAIR_SCORES))


def regularize(freqs, eps=1e-3):
    """Empty outcome classes given a tiny count, as fastchess does before the LLR: a
    sample with no spread (every pair lost) would otherwise have no variance and the
    ratio would stay 0 for ever."""
    return tuple(f if f else eps for f in freqs)


def elo_interval(n, mu, var, confidence=0.95):
    """(Elo, half-width of its `confidence` interval) from n samples of mean mu and
    variance var, as cutechess reports it: the score interval mu +- z sqrt(var / n)
    mapped through elo(), half its width; inf when that interval reaches a score of 0
    or 1."""
    if n == 0:
        return 0.0, math.inf
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    d = z * math.sqrt(var / n)
    lo, hi = mu - d, mu + d
    centre = elo(mu) if 0.0 < mu < 1.0 else math.copysign(math.inf, mu - 0.5)
    if lo <= 0.0 or hi >= 1.0:
        return centre, math.inf
    return centre, (elo(hi) - elo(lo)) / 2


def los(wins, losses):
    """Likelihood of superiority: the probability that A is the stronger, from the
    decisive games alone (draws carry no information on who is stronger)."""
    if wins + losses == 0:
        return 0.5
    return NormalDist().cdf((wins - losses) / math.sqrt(wins + losses))


def llr(n, mu, var, elo0, elo1):
    """The GSPRT log-likelihood ratio of elo1 against elo0 (logistic Elo) for n samples
    of mean mu and per-sample variance var (normal approximation)."""
    if n == 0 or var <= 0.0:
        return 0.0
    s0, s1 = score_of(elo0), score_of(elo1)
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


def sprt_bounds(alpha=0.05, beta=0.05):
    """(lower, upper) LLR bounds: below lower accept H0 (elo0), above upper accept H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_state(value, alpha=0.05, beta=0.05):
    lower, upper = sprt_bounds(alpha, beta)
    if value >= upper:
        return "H1"
    if value <= lower:
        return "H0"
    return None


def fmt_elo(e, err):
    if abs(e) == float("inf"):
        return "%sinf" % ("+" if e > 0 else "-")
    return "%+.1f ± %s" % (e + 0.0, "inf" if err == float("inf") else "%.1f" % err)
