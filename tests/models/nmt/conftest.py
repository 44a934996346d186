"""Tiny randomly initialized Hugging Face translation models (MarianMT, M2M-100, NLLB), built once per test session
in the published snapshot layout (paranmt.models.nmt.hf_build) from real Czech-English sentences, and their
CTranslate2 conversions."""
from pathlib import Path

import pytest

from paranmt.models.nmt.hf import convert_transformers_to_ctranslate2
from paranmt.models.nmt.hf_build import FAMILY_NAMES, build_hf_model

# weights N(0, 0.5^2) give peaked (deterministic-looking) distributions; the EOS bias makes most outputs end
# before the length limit (each family's logits have their own scale)
EOS_BIAS = {"marian": 10.0, "m2m100": 6.0, "nllb": 4.0}


@pytest.fixture(scope="session")
def training_sentences(bitext):
    cs = (bitext / "newstest2012.ces").read_text(encoding="utf-8").splitlines()[:2000]
    en = (bitext / "newstest2012.eng").read_text(encoding="utf-8").splitlines()[:2000]
    return cs, en


@pytest.fixture(scope="session")
def hf_models(built_once, training_sentences) -> dict[str, Path]:
    """{family: save_pretrained directory}."""
    def build(root: Path) -> None:
        cs, en = training_sentences
        for family in FAMILY_NAMES:
            build_hf_model(family, str(root / family), cs, en, init_std=0.5, eos_bias=EOS_BIAS[family])

    root = built_once("hf-models", build)
    return {family: root / family for family in FAMILY_NAMES}


@pytest.fixture(scope="session")
def ct2_models(built_once, hf_models) -> dict[str, Path]:
    """{family: CTranslate2 conversion (float32, as the reference comparison needs)}."""
    def build(root: Path) -> None:
        for family, path in hf_models.items():
            convert_transformers_to_ctranslate2(str(path), str(root / family), "float32")

    root = built_once("hf-ct2", build)
    return {family: root / family for family in hf_models}
