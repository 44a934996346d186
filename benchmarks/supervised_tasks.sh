#!/usr/bin/env bash
# The supervised tasks of the thesis' §3.2.4 (Tables 5-6) and P17 (Tables 5, 8) on one encoder (issue 44
# item 5): SICK-E and SST-2 accuracy, SICK relatedness and P17's STS 2012-15 split Pearson, each in four
# settings of `paranmt finetune-sts`: the encoder fine-tuned with the head, the "universal" setting (fine-tuned,
# pulled back toward the starting weights), frozen features (head only), and frozen features projected to 1200
# dimensions. Run from the repository root:
#     benchmarks/supervised_tasks.sh [ENCODER] [OUT]     (defaults assets/encoder-sp, work/supervised)
# SST2_EPOCHS (default 2) and EPOCHS (default 10, SICK and STS) set the passes; a finished run (results.csv) is skipped.
# Tables: benchmarks/RESULTS.md, "Supervised tasks: SICK-E, SST-2, the universal setting (issue 44 item 5)".
set -euo pipefail
ENCODER=${1:-assets/encoder-sp}
OUT=${2:-work/supervised}
PARANMT=${PARANMT:-paranmt}
DATA=${DATA:-../shared/data}
EPOCHS=${EPOCHS:-10}
SST2_EPOCHS=${SST2_EPOCHS:-2}
L2=${L2:-1e-4}
mkdir -p "$OUT"
for task in sick-e sst2 sick-r sts12-15; do
  epochs=$EPOCHS
  if [ "$task" = sst2 ]; then epochs=$SST2_EPOCHS; fi
  for setting in fine-tuned universal frozen frozen-1200; do
    case $setting in
      fine-tuned) flags="" ;;
      universal) flags="--l2-to-init $L2" ;;
      frozen) flags="--freeze-encoder" ;;
      frozen-1200) flags="--freeze-encoder --projection 1200" ;;
    esac
    run="$OUT/$task-$setting"
    if [ -f "$run/results.csv" ]; then continue; fi
    echo "== $task $setting"
    # shellcheck disable=SC2086
    $PARANMT finetune-sts --model "$ENCODER" --task $task --data-dir "$DATA" --output "$run" --epochs $epochs \
      $flags --overwrite
  done
done
