#!/bin/bash
# P19's Table 2 here (issue 48): bilingual SP and TRIGRAM encoders for es-en, ar-en and tr-en, each with both
# languages through one vocabulary (SP: one sentencepiece model; TRIGRAM: the character trigrams of both sides) and
# the mega-batch margin loss of configs/train/sp-bitext.yaml (the recipe of assets/encoder-xling; a trigram run sets
# only --encoder trigram) for EPOCHS epochs, a random-init baseline of the same vocabulary, STS (every STS2017 track)
# and the Tatoeba-style held-out retrieval of `paranmt eval-xling` (OUT/results/<model>/{sts,xling}; the table:
# python benchmarks/xling_table.py OUT/results/*). Results: benchmarks/RESULTS.md, "Bilingual encoders beyond Czech
# (issue 48)".
# Usage: bash benchmarks/xling_runs.sh RUN...   RUN: a pair (es-en ar-en tr-en de-en ru-en) or es-en@N (the first
# N training pairs of a seeded shuffle: the size curve), then :sp (the default) or :trigram for the encoder, e.g.
# es-en:trigram. Models: OUT/sp-RUN, OUT/random-PAIR (SP); OUT/trigram-RUN, OUT/random-trigram-PAIR. Every step
# resumes or is skipped when done.
set -euo pipefail
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
EPOCHS=${EPOCHS:-5}
OUT=${OUT:-work/xling}
PARANMT=${PARANMT:-.venv/bin/paranmt}
resumable() { if [ -e "$1/checkpoint" ] || [ -e "$1/checkpoint.old" ]; then echo --resume; fi; }
for arg in "$@"; do
  run=${arg%:*}; kind=sp; [ "$arg" != "$run" ] && kind=${arg##*:}
  case $kind in
    sp) random=$OUT/random-${run%@*}; encoder=() ;;
    trigram) random=$OUT/random-trigram-${run%@*}; encoder=(--encoder trigram) ;;
    *) echo "xling_runs.sh: unknown encoder kind '$kind' in $arg (sp or trigram)" >&2; exit 2 ;;
  esac
  pair=${run%@*}; limit=0; [ "$run" != "$pair" ] && limit=${run#*@}
  data=$OUT/data/$run; model=$OUT/$kind-$run
  [ -f "$data/train.eng" ] || .venv/bin/python benchmarks/xling_data.py --bitext "../shared/data/bitext/$pair" \
    --output "$data" --limit "$limit"
  code=$(ls "$data"/heldout.* | sed 's/.*\.//' | grep -v eng)
  if [ ! -f "$model/weights.npz" ]; then      # (a finished training keeps checkpoint/ beside its weights)
    $PARANMT train --config configs/train/sp-bitext.yaml "${encoder[@]}" --epochs "$EPOCHS" --train "$data/train" \
      --suffixes "eng,$code" --output "$model" $(resumable "$model")
  fi
  vocabulary=(); [ "$kind" = sp ] && vocabulary=(--sp-model "$model/sp.model")   # trigrams: the same data's
  [ "$limit" = 0 ] && [ ! -f "$random/weights.npz" ] && $PARANMT train --config configs/train/sp-bitext.yaml \
    "${encoder[@]}" --epochs 0 "${vocabulary[@]}" --train "$data/train" --suffixes "eng,$code" --output "$random"
  for m in "$model" $([ "$limit" = 0 ] && echo "$random"); do
    results=$OUT/results/$(basename "$m")       # (an output inside the model it reads is refused)
    [ -f "$results/sts/results.csv" ] || $PARANMT eval --model "$m" --sts-dir ../shared/data/sts --select STS2017 \
      --output "$results/sts"
    [ -f "$results/xling/results.csv" ] || $PARANMT eval-xling --encoder "$m" --source "$data/heldout.$code" \
      --target "$data/heldout.eng" --source-lang "${pair%-en}" --target-lang en --output "$results/xling"
  done
done
