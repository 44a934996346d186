#!/bin/bash
# How the multilingual encoder's batches mix languages (issue 48 item 2): the recipe of benchmarks/xling_multi.sh
# (configs/train/sp-multi.yaml) at a reduced size, on the bitext of LANGS only (default es ar tr: the languages of
# STS2017's cross-lingual tracks), trained twice: `--batch-languages mixed`
# (every mega-batch from all languages, what encoder-multi did) and `per-pair` (each mega-batch one language pair),
# the second with the first's sentencepiece model (one vocabulary for both); each scored on STS2017 (every track) and
# on each language's 1,000 held-out Tatoeba pairs (P@1 both ways, mining F1; benchmarks/xling_data.py). The table:
# python benchmarks/xling_table.py --languages es,ar,tr OUT/results/batches-mixed OUT/results/batches-per-pair
# Results: benchmarks/RESULTS.md, "One multilingual encoder". Usage: bash benchmarks/xling_batches.sh
# (OUT=work/xling, LANGS="es ar tr"; each step resumes or is skipped when done)
set -euo pipefail
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
OUT=${OUT:-work/xling}
PARANMT=${PARANMT:-.venv/bin/paranmt}
LANGS=${LANGS:-es ar tr}
inputs=()
for lang in $LANGS; do
  [ -f "$OUT/data/$lang-en/train.tsv" ] || .venv/bin/python benchmarks/xling_data.py \
    --bitext "../shared/data/bitext/$lang-en" --output "$OUT/data/$lang-en"
  inputs+=("$OUT/data/$lang-en/train.tsv")
done
vocabulary=()
for batches in mixed per-pair; do
  model=$OUT/batches-$batches
  resume=""; [ -e "$model/checkpoint" ] && resume=--resume
  [ -f "$model/weights.npz" ] || $PARANMT train --config configs/train/sp-multi.yaml --batch-languages "$batches" \
    "${vocabulary[@]}" --train "${inputs[@]}" --format tsv --output "$model" $resume
  vocabulary=(--sp-model "$OUT/batches-mixed/sp.model")
  results=$OUT/results/batches-$batches
  [ -f "$results/sts/results.csv" ] || $PARANMT eval --model "$model" --sts-dir ../shared/data/sts \
    --select STS2017 --output "$results/sts"
  for lang in $LANGS; do
    data=$OUT/data/$lang-en
    code=$(ls "$data"/heldout.* | sed 's/.*\.//' | grep -v eng)
    [ -f "$results/xling-$lang/results.csv" ] || $PARANMT eval-xling --encoder "$model" \
      --source "$data/heldout.$code" --target "$data/heldout.eng" --source-lang "$lang" --target-lang en \
      --output "$results/xling-$lang"
  done
done
