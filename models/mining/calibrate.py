"""The mining threshold calibrated from the margins of the data at hand (`paranmt mine --threshold auto`, the default).

Why: the margin that best separates translations from the rest moves with the share of sentences that have a
translation and with the size of the corpora (measured on held-out newstest2017, docs/mining.md: the F1-optimal
threshold runs from ~1.5 when 1% of the Czech sentences have their translation to ~1.25 at 30%, and lower on larger
pools), so no fixed value holds F1 over that range (1.45 lost up to 12 F1 points at 30%).

How, on the margins m_1..m_n of the selected candidates (one per sentence, `max` strategy, no threshold):
1. The null distribution (candidates that are not translations) is a Gumbel(a, b) (margins of best candidates are
   maxima) fitted by least squares to the NULL_QUANTILES (2%..30%) of the margins: the lower part of the margins
   holds almost only non-translations as long as at most about a third of the sentences have a translation.
2. With that null fixed, EM fits the share pi of translations among the candidates and their margins as a normal
   N(mu, s) (mixture pi N(mu, s) + (1 - pi) Gumbel(a, b); s >= MIN_SCALE).
3. The threshold t keeps the expected false positives at a fixed fraction of the expected translations:
       (1 - pi) * P_null(margin >= t) = FALSE_POSITIVE_RATIO * pi
   i.e. t = Gumbel(a, b).isf(FALSE_POSITIVE_RATIO * pi / (1 - pi)), clamped to CLAMP.
   FALSE_POSITIVE_RATIO 0.3 was chosen on newstest2017 lines 1-1500 (dev) and reported on lines 1501-3005 (test):
   F1 within 3% of the best threshold's on average over 1-30% and 1k-5k sentences per side (benchmarks/RESULTS.md).
With fewer than MIN_CANDIDATES candidates the fit is not attempted and FALLBACK_THRESHOLD is used.
Mostly parallel input: when most candidates are translations, the lower margins are translations too and step 1
cannot see the null. The median candidate margin tells: for sentences without a translation it is 1.05-1.11 on
every pool measured (1k-5k sentences per side), and the median of all candidates stays below 1.2 up to 30% of
translations; above DENSE_MEDIAN the data are taken as mostly parallel and DENSE_THRESHOLD is used (on newstest2017
with 66-100% of the sentences translated it kept 99.3-99.6% correct pairs, F1 0.94-0.98; 1.45 had F1 0.81-0.95).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

NULL_QUANTILES = np.linspace(0.02, 0.30, 15)
FALSE_POSITIVE_RATIO = 0.3
CLAMP = (1.2, 1.7)
MIN_SCALE = 0.03
MIN_CANDIDATES = 200
FALLBACK_THRESHOLD = 1.45
DENSE_MEDIAN = 1.25
DENSE_THRESHOLD = 1.2
EM_ITERATIONS = 200


@dataclass
class Calibration:
    """The calibrated threshold and the fitted mixture (None fields: not fitted, the fallback was used)."""
    threshold: float
    candidates: int
    translated_share: float | None = None       # pi: share of the candidates estimated to be translations
    null_location: float | None = None          # Gumbel a
    null_scale: float | None = None             # Gumbel b
    translation_mean: float | None = None       # mu
    translation_scale: float | None = None      # s
    dense: bool = False                         # the median margin says: mostly parallel (DENSE_THRESHOLD)

    def describe(self) -> str:
        if self.dense:
            return (f"margin >= {self.threshold:g} (the median candidate margin is above {DENSE_MEDIAN}: mostly parallel "
                    f"input, the threshold for it)")
        if self.translated_share is None:
            return (f"margin >= {self.threshold:g} (fallback: {self.candidates} candidates are too few to calibrate "
                    f"on, {MIN_CANDIDATES} needed)")
        return (f"margin >= {self.threshold:.3f} (calibrated: ~{self.translated_share:.1%} of the "
                f"{self.candidates} candidates look like translations)")


def gumbel_sf(x, location: float, scale: float):
    return -np.expm1(-np.exp(-(np.asarray(x, dtype=np.float64) - location) / scale))


def gumbel_pdf(x, location: float, scale: float):
    z = (np.asarray(x, dtype=np.float64) - location) / scale
    return np.exp(-(z + np.exp(-z))) / scale


def normal_pdf(x, mean: float, scale: float):
    return np.exp(-0.5 * ((np.asarray(x, dtype=np.float64) - mean) / scale) ** 2) / (scale * math.sqrt(2 * math.pi))


def fit_null(margins: np.ndarray) -> tuple[float, float]:
    """Gumbel (location, scale) by least squares on NULL_QUANTILES of `margins` against -log(-log(q))."""
    values = np.quantile(margins, NULL_QUANTILES)
    scale, location = np.polyfit(-np.log(-np.log(NULL_QUANTILES)), values, 1)
    return float(location), float(max(scale, 1e-6))


def calibrate_threshold(margins) -> Calibration:
    """The threshold of the module docstring for the candidate margins `margins` (any order; -inf/NaN ignored)."""
    m = np.asarray(margins, dtype=np.float64)
    m = m[np.isfinite(m)]
    if len(m) < MIN_CANDIDATES:
        return Calibration(FALLBACK_THRESHOLD, len(m))
    if np.median(m) > DENSE_MEDIAN:
        return Calibration(DENSE_THRESHOLD, len(m), dense=True)
    location, scale = fit_null(m)
    null_density = gumbel_pdf(m, location, scale)
    share, mean, spread = 0.05, float(np.quantile(m, 0.99)), 0.15
    for _ in range(EM_ITERATIONS):
        weighted = share * normal_pdf(m, mean, spread)
        responsibility = weighted / np.maximum(weighted + (1 - share) * null_density, 1e-300)
        total = max(float(responsibility.sum()), 1e-9)
        share = float(np.clip(responsibility.mean(), 1e-5, 0.95))
        mean = float((responsibility * m).sum() / total)
        spread = max(math.sqrt(float((responsibility * (m - mean) ** 2).sum()) / total), MIN_SCALE)
    tail = min(FALSE_POSITIVE_RATIO * share / (1 - share), 0.5)
    threshold = location - scale * math.log(-math.log1p(-tail))
    return Calibration(float(np.clip(threshold, *CLAMP)), len(m), share, location, scale, mean, spread)
