#!/bin/bash
# The encoder comparison (benchmarks/RESULTS.md "Encoder comparison (issue 22)", docs/encoders.md "Comparison"):
# every encoder trained on the same data with the same recipe and budget (configs/train/encoder-suite.yaml plus the
# flags below), then STS (`paranmt eval`), transfer (`paranmt eval-transfer`, reduced protocol: at most 1,000
# examples per split, 5 folds, 3 inner folds, no baseline rows) and encoding speed.
#
#   bash benchmarks/encoder_suite.sh ROOT DATA [KIND ...]
#     ROOT  output root (models, evaluations, logs: ROOT/DATA/KIND/{model,sts,transfer})
#     DATA  bitext: ../shared/data/bitext/cs-en minus newstest2017, bilingual mode (English side 1)
#           demo:   the shards of a `paranmt build --config configs/demo.yaml` (DEMO_SHARDS, default
#                   ROOT/demo-shards), monolingual mode (ref, back-translation)
#           wmt-bt: the training part of the real corpus (WMT_BT_TRAIN, default work/wmt-bt/scored-train, as
#                   benchmarks/wmt_bt_corpus.sh writes it), monolingual mode, 300-d, trained to convergence
#                   (issue 31 item 3d): the dev STS (STS2017 en-en) is scored at every checkpoint, the best
#                   model is kept (DIR/best/, which the evaluations score) and training stops after PATIENCE
#                   (default 5) evaluations without a new best, or when its family's budget of training time is
#                   spent: AVG_MINUTES (default 10) for averaging encoders, checkpoint every AVG_EVERY (1000)
#                   mini-batches; REC_MINUTES (default 25) for those with a recurrent part, every REC_EVERY (100)
#                   (command and cost: RESULTS.md "On the real corpus, to convergence")
#     KIND  encoders to run (default: all of SUITE below, fastest first; wmt-bt: every `--encoder` kind of the code,
#           ENCODER_KINDS, averaging ones first, then recurrent ones, objective variants, random baselines); besides the
#           `--encoder` names, the objective variants add-bicvm (ADD + BiCVM, k = 5, margin 1) and word-euclidean
#           (WORD, margin objective with squared Euclidean distance, margin 1), and random-KIND (KIND at its random
#           initialization, no training: the baseline every trained row should beat)
# Every step resumes (a finished step is skipped), so rerunning continues an interrupted suite (a training is finished
# by its metrics' `"done": true` line; one that diverged keeps its checkpoint and is resumed, at the config's lr, by a
# rerun; its best/ is evaluated all the same); two processes with
# disjoint KIND lists may share a ROOT (one per core). At the end:
# `python benchmarks/bench_encoders.py suite-table --root ROOT/DATA` prints the table.
# NICE (default 10): the niceness of the trainings and evaluations (0 on a machine kept for the suite: the wmt-bt
# budgets are wall time). Cheaper evaluations (smoke runs only): STS_SETS (the STS datasets), TRANSFER_LIMIT (examples per split),
# SPEED_SENTENCES.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$1; DATA=$2; shift 2
SUITE="word trigram sp add proj dan charagram charagram-word word+trigram word,trigram lstm blstm blstm-ff lstm-last
       gran gran-2 gran-5 bigran add-bicvm word-euclidean rnn irnn lstm-og lstm-nog gran-3 gran-4 word+trigram+lstm
       word,trigram,lstm random-word random-trigram random-sp random-lstm random-gran"
VARIANTS="add-bicvm word-euclidean random-word random-trigram random-sp random-lstm random-gran"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
PY=${PY:-.venv/bin/python}
PARANMT="nice -n ${NICE:-10} $PY -m paranmt.pipelines.cli"
# the suite's budget (the machine is shared: small enough for ~26 encoders x 2 data sets in about 1.5 hours):
# 100-d, 300 mini-batches of 100 pairs (0.7 epoch of the bitext; 15 epochs of the demo corpus), M = 10
BUDGET="--dim 100 --batch-size 100 --megabatch-size 10 --max-steps 300 --max-words 40"
case $DATA in
  bitext) INPUTS=$(ls ../shared/data/bitext/cs-en/*.eng | sed 's/\.eng$//' | grep -v newstest2017); MODE=bilingual ;;
  demo)   INPUTS=${DEMO_SHARDS:-$ROOT/demo-shards}; MODE=monolingual ;;
  wmt-bt) INPUTS=${WMT_BT_TRAIN:-work/wmt-bt/scored-train}; MODE=monolingual
          [ -d "$INPUTS" ] || { echo "WMT_BT_TRAIN: $INPUTS is not a shard directory (benchmarks/wmt_bt_corpus.sh)" >&2
                                exit 2; }
          # every kind of `paranmt train --encoder` (models/encoders ENCODER_KINDS), those without a recurrent
          # part first; RECURRENT: the kinds with one (their family's budget)
          CODE_KINDS=$($PY - <<'PY'
from paranmt.models.encoders import ENCODER_KINDS, RECURRENT_KINDS, check_kind
recurrent = [k for k in ENCODER_KINDS if set(check_kind(k)[0]) & set(RECURRENT_KINDS)]
print(" ".join([k for k in ENCODER_KINDS if k not in recurrent] + recurrent), " ".join(recurrent), sep="|")
PY
)
          ENCODERS=${CODE_KINDS%|*}; RECURRENT=${CODE_KINDS#*|}
          SUITE="$ENCODERS $VARIANTS"
          # 300-d, M = 40 annealed (the trainer's defaults, P18), no step limit: dev STS at each checkpoint,
          # keep-best, patience and a training-time budget per family (see the header)
          BUDGET="--dim 300 --batch-size 100 --megabatch-size 40 --anneal-every 150 --max-words 40 --epochs 1000
                  --max-steps 0 --log-every 100 --dev-sts-dir ../shared/data/sts --dev-at checkpoint
                  --patience ${PATIENCE:-5}" ;;
  *) echo "DATA must be bitext, demo or wmt-bt" >&2; exit 2 ;;
esac
KINDS=${*:-$SUITE}
STS=${STS_SETS:-"STS2012-test STS2013-test STS2014-test STS2015-test track5.en-en sts-dev SICK_test"}
OUT=$ROOT/$DATA
mkdir -p "$OUT"
flags_of() {   # the training flags of a suite entry
  case $1 in
    add-bicvm)      echo "--encoder add --objective bicvm --margin 1.0 --noise-samples 5" ;;
    word-euclidean) echo "--encoder word --distance euclidean --margin 1.0" ;;
    random-*)       echo "--encoder ${1#random-} --epochs 0" ;;
    *)              echo "--encoder $1" ;;
  esac
  if [ "$DATA" = wmt-bt ]; then  # the family's budget
    if [[ " $RECURRENT " == *" ${1#random-} "* ]]; then
      echo "--time-budget-minutes ${REC_MINUTES:-25} --checkpoint-every ${REC_EVERY:-100}"
    else
      echo "--time-budget-minutes ${AVG_MINUTES:-10} --checkpoint-every ${AVG_EVERY:-1000}"
    fi
  fi
}
for kind in $KINDS; do
  dir=$OUT/$kind
  mkdir -p "$dir"
  if ! grep -qs '"done": true' "$dir/model/metrics.jsonl"; then
    echo "$(date -u +%T) train $kind" >> "$OUT/suite.log"
    $PARANMT train --train $INPUTS --config configs/train/encoder-suite.yaml --mode $MODE $BUDGET $(flags_of "$kind") \
      --sp-model assets/encoder-sp/sp.model --output "$dir/model" \
      $( [ -e "$dir/model/checkpoint" ] && echo --resume || true) > "$dir/train.log" 2>&1
  fi
  model=$dir/model
  if [ -d "$model/best" ]; then       # with a dev set (wmt-bt): the best dev evaluation's encoder
    model=$model/best
    # the run is done: its checkpoint (weights + Adam moments, ~0.7 GB for 200k x 300) only costs disk
    grep -qs '"done": true' "$dir/model/metrics.jsonl" && rm -rf "$dir/model/checkpoint"
  fi
  if [ ! -s "$dir/sts/results.csv" ]; then
    echo "$(date -u +%T) eval $kind" >> "$OUT/suite.log"
    $PARANMT eval --model "$model" --sts-dir ../shared/data/sts --output "$dir/sts" --select $STS \
      > "$dir/eval.log" 2>&1
  fi
  if [ ! -s "$dir/transfer/results.csv" ]; then
    echo "$(date -u +%T) transfer $kind" >> "$OUT/suite.log"
    $PARANMT eval-transfer --model "$model" --data-dir ../shared/data --output "$dir/transfer" --name "$kind" \
      --baselines --limit "${TRANSFER_LIMIT:-1000}" --folds 5 --inner-folds 3 > "$dir/transfer.log" 2>&1
  fi
  if [ ! -s "$dir/speed.md" ]; then    # sentences/s, 1 thread, batch 128, 6,400 English bitext sentences
    echo "$(date -u +%T) speed $kind" >> "$OUT/suite.log"
    nice -n ${NICE:-10} $PY benchmarks/bench_encoders.py speed --model "$kind=$model" --sentences "${SPEED_SENTENCES:-6400}" \
      --minilm-sentences 0 > "$dir/speed.md" 2> "$dir/speed.log"
  fi
done
echo "$(date -u +%T) done" >> "$OUT/suite.log"
