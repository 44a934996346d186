#!/bin/bash
# The multilingual encoder (issue 48): English with every language of ../shared/data at once
# (configs/train/sp-multi.yaml) and its evaluation per language: STS2017 (every track) and, on each language's
# held-out pairs (1,000 of Tatoeba for the bitext folders, up to 1,000 WMT segments for wmt-bt's other sources;
# benchmarks/xling_data.py), retrieval P@1 and mining F1.
# Usage: bash benchmarks/xling_multi.sh   (OUT=work/xling; each step resumes or is skipped when done)
set -euo pipefail
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
OUT=${OUT:-work/xling}
PARANMT=${PARANMT:-.venv/bin/paranmt}
BITEXT="cs-en:cs es-en:es ar-en:ar tr-en:tr de-en:de ru-en:ru"
WMT_ONLY="ha is ja liv uk zh he"   # wmt-bt sources without a bitext folder (cs, de, ru: their pairs join the bitext's)
inputs=()
for entry in $BITEXT; do
  pair=${entry%:*}
  [ -f "$OUT/data/$pair/train.tsv" ] || .venv/bin/python benchmarks/xling_data.py \
    --bitext "../shared/data/bitext/$pair" --output "$OUT/data/$pair"
  inputs+=("$OUT/data/$pair/train.tsv")
done
for lang in cs de ru $WMT_ONLY; do
  [ -f "$OUT/data/wmt-$lang/train.tsv" ] || .venv/bin/python benchmarks/xling_data.py --wmt-bt ../shared/data/wmt-bt \
    --lang "$lang" --output "$OUT/data/wmt-$lang"
  inputs+=("$OUT/data/wmt-$lang/train.tsv")
done
model=$OUT/sp-multi
resume=""; [ -e "$model/checkpoint" ] && resume=--resume
[ -f "$model/weights.npz" ] || $PARANMT train --config configs/train/sp-multi.yaml --train "${inputs[@]}" \
  --format tsv --output "$model" $resume
results=$OUT/results/sp-multi
[ -f "$results/sts/results.csv" ] || $PARANMT eval --model "$model" --sts-dir ../shared/data/sts --select STS2017 \
  --output "$results/sts"
for entry in $BITEXT $(for l in $WMT_ONLY; do echo "wmt-$l:$l"; done); do
  data=$OUT/data/${entry%:*}; lang=${entry#*:}
  code=$(ls "$data"/heldout.* | sed 's/.*\.//' | grep -v eng)
  [ -f "$results/xling-$lang/results.csv" ] || $PARANMT eval-xling --encoder "$model" --source "$data/heldout.$code" \
    --target "$data/heldout.eng" --source-lang "$lang" --target-lang en --output "$results/xling-$lang"
done
# ship: assets/encoder-multi = the model's three files and a MANIFEST.json with its languages and sha256s
# (MANIFEST.md, with the recipe, data and numbers, is written from benchmarks/RESULTS.md's tables)
asset=assets/encoder-multi
mkdir -p "$asset"
cp "$model/config.json" "$model/weights.npz" "$model/sp.model" "$asset/"
.venv/bin/python - "$asset" en cs es ar tr de ru ha is ja liv uk zh he <<'PY'
import json, sys
from pathlib import Path
from paranmt.models.files import file_sha256
asset, languages = Path(sys.argv[1]), sys.argv[2:]
files = [{"path": name, "sha256": file_sha256(asset / name), "bytes": (asset / name).stat().st_size}
         for name in ("config.json", "weights.npz", "sp.model")]
manifest = {"name": "encoder-multi",
            "what": "SP averaging multilingual encoder (one sentencepiece vocabulary shared by English and 13 other "
                    "languages, bilingual mode, mixed batches): xsim, `mine` and `eval-xling` for any listed "
                    "language; recipe, data and results in MANIFEST.md",
            "languages": sorted(languages), "recipe": "bash benchmarks/xling_multi.sh (configs/train/sp-multi.yaml)",
            "data": "../shared/data/bitext/{cs,es,ar,tr,de,ru}-en and ../shared/data/wmt-bt sources with their "
                    "references, minus the held-out pairs of benchmarks/xling_data.py",
            "files": files}
(asset / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")
PY
