"""The settings of a mining (`paranmt mine`, and `paranmt eval-xling`'s mining task): the language pair, the
encoder, the candidate strategy and threshold, the k-NN search (`MiningSettings`, a typed Config whose fields carry
their flags' help), and the selection of the pairs at the threshold (`choose_pairs`)."""
from __future__ import annotations

import argparse
import dataclasses
import math

from paranmt.models.mining.calibrate import Calibration, calibrate_threshold
from paranmt.models.mining.knn import SearchConfig
from paranmt.models.mining.margin import STRATEGIES, MinedPairs
from paranmt.schemas.config import bounded, choice, setting
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.metadata import covers, manifest_languages
from paranmt.schemas.paths import asset_path

AUTO = "auto"              # the default threshold: calibrated on the margins of the data (models/mining/calibrate.py)
DEFAULT_ENCODER = "assets/encoder-xling"   # the bilingual encoder


def threshold_flag(text: str) -> str:
    """`--threshold`: `auto` or a number (the argparse type of the flag: `parse_threshold`, its mistake said as it
    is)."""
    try:
        return str(parse_threshold(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


@dataclasses.dataclass
class MiningSettings(SearchConfig):
    """The encoder, selection and search settings of `mine` and `eval-xling`: the k-NN search's (SearchConfig:
    index, block_size, ef_search, hnsw_m, approx_above, threads, which is also the encoder's threads),
    `threshold`: `auto` or a number (text, so that YAML and --set take either), and the languages of the source and
    target sentences (ISO 639-1 codes; the names of `mine`'s output columns and of eval-xling's directions)."""
    source_lang: str = setting("cs", help="language of the source sentences (ISO 639-1); an encoder whose "
                               "MANIFEST.json lists languages must list it")
    target_lang: str = setting("en", help="language of the target sentences (ISO 639-1), as --source-lang")
    strategy: str = choice("max", STRATEGIES, help="candidate strategy")
    threshold: str = setting(AUTO, flag={"type": threshold_flag}, help="minimum margin, or auto: calibrated on the "
                             "margins of the data at hand (docs/mining.md)")
    encoder: str = setting(DEFAULT_ENCODER, help="bilingual or multilingual encoder directory")
    k: int = bounded(4, 1, help="neighbours for the margin and the candidates")
    batch_size: int = bounded(1024, 1, help="sentences per encoder call")

    def validate(self):
        for name, language in (("source_lang", self.source_lang), ("target_lang", self.target_lang)):
            if not language.strip() or not language.replace("-", "").isalnum():
                raise ConfigError(f"--{name.replace('_', '-')} must be a language code such as en, not {language!r}")
        if self.source_lang == self.target_lang:
            raise ConfigError(f"--source-lang and --target-lang are both {self.source_lang}: a mining pairs two "
                              "languages")
        if self.threshold_value() != AUTO and not math.isfinite(self.threshold_value()):
            raise ConfigError(f"--threshold must be a finite number or {AUTO}, not {self.threshold}")
        return super().validate()

    def threshold_value(self):
        """`auto` or the number."""
        try:
            return parse_threshold(self.threshold)
        except ValueError as error:
            raise ConfigError(f"--threshold: {error}") from None

    def check_encoder_languages(self) -> None:
        """ConfigError when the encoder's MANIFEST.json declares its languages (schemas/metadata.py) and the source
        or target language is not among them; an encoder that declares none is not checked."""
        languages = manifest_languages(asset_path(self.encoder))
        missing = [lang for lang in (self.source_lang, self.target_lang) if not covers(languages, lang)]
        if missing:
            raise ConfigError(f"{self.encoder} encodes {', '.join(languages)} (its MANIFEST.json), not "
                              f"{', '.join(missing)}: give --encoder DIR trained on "
                              f"{self.source_lang}-{self.target_lang}")


def parse_threshold(text: str):
    """`auto` or a number; ValueError for anything else."""
    if text == AUTO:
        return AUTO
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"expected a number or {AUTO}, got {text!r}") from None


def choose_pairs(candidates: MinedPairs, threshold) -> tuple[MinedPairs, Calibration]:
    """The candidates with margin >= `threshold`, a number, or, for `auto`, the threshold calibrated on their
    margins (models/mining/calibrate.py); and that Calibration (a given number: only `threshold` set)."""
    calibration = calibrate_threshold(candidates.margin) if threshold == AUTO else \
        Calibration(float(threshold), len(candidates))
    return candidates.at_least(calibration.threshold), calibration
