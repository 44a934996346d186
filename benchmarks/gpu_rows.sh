#!/bin/bash
# Issue 43 items 3-4 on one GPU: the recurrent rows of the wmt-bt encoder comparison (benchmarks/encoder_suite.sh's
# wmt-bt recipe: 300-d, batch 100, M = 40 annealed every 150, dev STS2017 every 300 updates, patience 5, siblings
# allowed as negatives as in the CPU rows, fp32), BLSTM-SP, and BGT on the cs-en bitext (all prefixes but
# newstest2017, patience 3 epochs), all at once on one card, each until patience stops it or REC_MINUTES of
# training; STS and transfer evaluations right after each row; bench_train_limit.py --device cuda first.
#
#   bash benchmarks/gpu_rows.sh ROOT [KIND ...]      (KIND: the encoder rows; default: the list below)
#
# ROOT/wmt-bt/KIND/{model,sts,transfer,train.log} as encoder_suite.sh lays them out (so
# `python benchmarks/bench_encoders.py suite-table --root ROOT/wmt-bt` prints the table), ROOT/bgt/model,
# ROOT/bench.md, ROOT/driver.log (seconds since the start, each step's exit code). CUDA MPS is started when
# nvidia-cuda-mps-control is there (the processes' kernels then run side by side, not in time slices: 2-4x the
# updates per second of 14 processes here), else the processes share the card in time slices. One CPU thread each.
# Environment: PY (python), WMT_BT_TRAIN (work/wmt-bt/scored-train: benchmarks/wmt_bt_corpus.sh), STS_DIR
# (../shared/data/sts), DATA_DIR (../shared/data: eval-transfer's), BITEXT (../shared/data/bitext/cs-en),
# BENCH_PAIRS (pairs for the bench; none: no bench), BENCH_S (60), REC_MINUTES (6.8), DEADLINE_S (565: waiting
# stops then and whatever is unfinished is left as it is).
# The session-21 run (benchmarks/RESULTS.md "On a GPU"): an H200 with 16 cores, everything at its defaults.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=${1:?usage: gpu_rows.sh ROOT [KIND ...]}; shift
KINDS=${*:-gran-2 gran-3 gran-4 gran-5 bigran lstm-og lstm-nog irnn rnn blstm-ff word,trigram,lstm lstm blstm-sp}
PARANMT="${PY:-python} -m paranmt.pipelines.cli"
TRAIN=${WMT_BT_TRAIN:-work/wmt-bt/scored-train}; STS_DIR=${STS_DIR:-../shared/data/sts}
DATA_DIR=${DATA_DIR:-../shared/data}; BITEXT=${BITEXT:-../shared/data/bitext/cs-en}
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONUNBUFFERED=1 TQDM_MININTERVAL=30
T0=$(date +%s); S=$ROOT/wmt-bt; mkdir -p "$S" "$ROOT/bgt"
log() { echo "$(($(date +%s) - T0))s $*" | tee -a "$ROOT/driver.log"; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > "$ROOT/machine.txt" 2>&1
export CUDA_MPS_PIPE_DIRECTORY=$ROOT/.mps CUDA_MPS_LOG_DIRECTORY=$ROOT/.mps-log; mkdir -p "$ROOT/.mps" "$ROOT/.mps-log"
if command -v nvidia-cuda-mps-control > /dev/null && nvidia-cuda-mps-control -d && \
   timeout 25 ${PY:-python} -c "import torch; torch.ones(8, device='cuda').sum().item()" > /dev/null 2>&1; then
  log "MPS on"; trap 'echo quit | nvidia-cuda-mps-control' EXIT
else
  echo quit | nvidia-cuda-mps-control 2> /dev/null; unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY; log "MPS off"
fi
if [ -n "${BENCH_PAIRS:-}" ]; then     # the step costs on the card alone, before the rows start
  B="benchmarks/bench_train_limit.py --input $BENCH_PAIRS --pairs 4000 --work $ROOT/bench --device cuda"
  B="$B --bgt-input $BITEXT/newstest2016 --bgt-steps 5"
  timeout "${BENCH_S:-60}" bash -c "echo '## fp32'; ${PY:-python} $B --fp16 off --kinds word lstm blstm gran-3 lstm-og
    echo '## bf16'; ${PY:-python} $B --fp16 bf16 --kinds lstm gran-3" > "$ROOT/bench.md" 2> "$ROOT/bench.log"
  log "bench rc $?"
fi
REC="--config configs/train/encoder-suite.yaml --mode monolingual --dim 300 --batch-size 100 --megabatch-size 40
     --anneal-every 150 --max-words 40 --epochs 1000 --max-steps 0 --log-every 100 --dev-sts-dir $STS_DIR
     --dev-at checkpoint --patience 5 --sibling-negatives true --sp-model assets/encoder-sp/sp.model
     --checkpoint-every 300 --device cuda --fp16 off --time-budget-minutes ${REC_MINUTES:-6.8}"
STS="STS2012-test STS2013-test STS2014-test STS2015-test track5.en-en sts-dev SICK_test"
row() {  # KIND: train (blstm-sp: blstm over the sentencepiece units), then the suite's STS and transfer evaluations
  local kind=$1 dir=$S/$1 flags="--encoder $1"
  [ "$kind" = blstm-sp ] && flags="--encoder blstm --recurrent-units sp"
  mkdir -p "$dir"
  $PARANMT train --train "$TRAIN" $REC $flags --output "$dir/model" > "$dir/train.log" 2>&1; log "$kind train rc $?"
  $PARANMT eval --model "$dir/model/best" --sts-dir "$STS_DIR" --output "$dir/sts" --select $STS > "$dir/eval.log" 2>&1
  $PARANMT eval-transfer --model "$dir/model/best" --data-dir "$DATA_DIR" --output "$dir/transfer" --name "$kind" \
    --baselines --limit 1000 --folds 5 --inner-folds 3 > "$dir/transfer.log" 2>&1; log "$kind evals rc $?"
}
for kind in $KINDS; do row "$kind" & done
BGT_TRAIN=$(ls "$BITEXT"/*.eng | sed 's/\.eng$//' | grep -v newstest2017)
( $PARANMT train-bgt --train $BGT_TRAIN --output "$ROOT/bgt/model" --sp-model assets/nmt-cs-en/spm.model --epochs 1000 \
    --patience 3 --checkpoint-every 100000 --log-every 50 --set dev_sts_dir="$STS_DIR" --device cuda \
    --time-budget-minutes "${REC_MINUTES:-6.8}" > "$ROOT/bgt/train.log" 2>&1; log "bgt rc $?" ) &
sleep 90; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv > "$ROOT/load.txt" 2>&1
while [ $(($(date +%s) - T0)) -lt "${DEADLINE_S:-565}" ] && [ -n "$(jobs -rp)" ]; do sleep 5; done
log "done (jobs still running: $(jobs -rp | wc -l))"
