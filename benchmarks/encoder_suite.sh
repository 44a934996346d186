#!/bin/bash
# The encoder comparison (benchmarks/RESULTS.md "Encoder comparison (issue 22)", docs/encoders.md "Comparison"):
# every encoder trained on the same data with the same recipe and budget (configs/train/encoder-suite.yaml plus the
# flags below), then STS (`paranmt eval`), transfer (`paranmt eval-transfer`, reduced protocol) and encoding speed.
#
#   bash benchmarks/encoder_suite.sh ROOT DATA [KIND ...]
#     ROOT  output root (models, evaluations, logs: ROOT/DATA/KIND/{model,sts,transfer})
#     DATA  bitext: ../shared/data/bitext/cs-en minus newstest2017, bilingual mode (English side 1)
#           demo:   the shards of a `paranmt build --config configs/demo.yaml` (DEMO_SHARDS, default
#                   ROOT/demo-shards), monolingual mode (ref, back-translation)
#     KIND  encoders to run (default: all of SUITE below, fastest first)
# Every step resumes (a finished step is skipped), so rerunning continues an interrupted suite. At the end:
# `python benchmarks/bench_encoders.py suite-table --root ROOT/DATA` prints the table.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$1; DATA=$2; shift 2
SUITE="word trigram sp add proj dan charagram charagram-word word+trigram word,trigram lstm blstm blstm-ff lstm-last
       gran gran-2 gran-5 bigran rnn irnn lstm-og lstm-nog gran-3 gran-4 word+trigram+lstm word,trigram,lstm"
KINDS=${*:-$SUITE}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
PY=${PY:-.venv/bin/python}
PARANMT="nice -n 10 $PY -m paranmt.pipelines.cli"
# the suite's budget (the machine is shared: small enough for ~26 encoders x 2 data sets in about an hour)
BUDGET="--dim 100 --batch-size 50 --megabatch-size 10 --max-steps 150 --max-words 40"
case $DATA in
  bitext) INPUTS=$(ls ../shared/data/bitext/cs-en/*.eng | sed 's/\.eng$//' | grep -v newstest2017); MODE=bilingual ;;
  demo)   INPUTS=${DEMO_SHARDS:-$ROOT/demo-shards}; MODE=monolingual ;;
  *) echo "DATA must be bitext or demo" >&2; exit 2 ;;
esac
OUT=$ROOT/$DATA
mkdir -p "$OUT"
for kind in $KINDS; do
  dir=$OUT/$kind
  mkdir -p "$dir"
  if ! grep -qs '"done"' "$dir/model/metrics.jsonl"; then
    echo "$(date -u +%T) train $kind" >> "$OUT/suite.log"
    $PARANMT train --train $INPUTS --config configs/train/encoder-suite.yaml --encoder "$kind" --mode $MODE $BUDGET \
      --sp-model assets/encoder-sp/sp.model --output "$dir/model" --resume > "$dir/train.log" 2>&1
  fi
  if [ ! -s "$dir/sts/results.csv" ]; then
    echo "$(date -u +%T) eval $kind" >> "$OUT/suite.log"
    $PARANMT eval --model "$dir/model" --sts-dir ../shared/data/sts --output "$dir/sts" > "$dir/eval.log" 2>&1
  fi
  if [ ! -s "$dir/transfer/results.csv" ]; then
    echo "$(date -u +%T) transfer $kind" >> "$OUT/suite.log"
    $PARANMT eval-transfer --model "$dir/model" --data-dir ../shared/data --output "$dir/transfer" --name "$kind" \
      --baselines --limit 1000 --folds 5 --inner-folds 3 > "$dir/transfer.log" 2>&1
  fi
done
echo "$(date -u +%T) speed" >> "$OUT/suite.log"
MODELS=$(for kind in $KINDS; do echo "$kind=$OUT/$kind/model"; done)
nice -n 10 $PY benchmarks/bench_encoders.py speed --model $MODELS --sentences 6400 --minilm-sentences 0 \
  > "$OUT/speed.md" 2> "$OUT/speed.log"
echo "$(date -u +%T) done" >> "$OUT/suite.log"
