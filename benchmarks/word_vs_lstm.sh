#!/bin/bash
# WORD and LSTMavg given the same training time on the same pairs (issue 43's "Done when": within 2 points on STS):
# one `paranmt probe` over a seeded draw of PAIRS pairs of the wmt-bt training part, each encoder trained by the
# probe's recipe (300-d, batch 100, mega-batch annealed 1 -> 40) until MINUTES of training time are spent, then
# scored on STS 2012-2015 (every subset), STS2017 en-en and STS-B dev. Prints one row per encoder: each year's
# mean Pearson x 100 over its subsets, the mean of the four years, STS2017, STS-B dev.
#
#   bash benchmarks/word_vs_lstm.sh OUT [MINUTES]      (MINUTES default 12; PAIRS default 100000)
#
# WMT_BT_TRAIN: the training part (default work/wmt-bt/scored-train, as benchmarks/wmt_bt_corpus.sh writes it).
# MODELS (default "word lstm": trained one after the other; one each into two OUTs runs them side by side, e.g. on
# one GPU under CUDA MPS, benchmarks/gpu_rows.sh), DEVICE (train.device: cpu, cuda; default the trainer's auto),
# FP16 (train.fp16: off, bf16, ...; default the trainer's auto: fp32 on the CPU; bf16 on a CPU with AMX runs the
# LSTM in bf16, models/recurrence.py), STS_DIR (default ../shared/data/sts).
# The budget is wall time of the training steps: run it on a quiet core (one thread). Rerunning resumes (`--resume`:
# the runs already in OUT/results.csv are kept; the trained encoders stay in OUT/runs/, for
# benchmarks/error_analysis.py). Numbers: benchmarks/RESULTS.md, "Trainers at the machine's limit".
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$1; MINUTES=${2:-12}
TRAIN=${WMT_BT_TRAIN:-work/wmt-bt/scored-train}
[ -d "$TRAIN" ] || { echo "WMT_BT_TRAIN: $TRAIN is not a shard directory (benchmarks/wmt_bt_corpus.sh)" >&2; exit 2; }
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
PY=${PY:-.venv/bin/python}
nice -n "${NICE:-10}" "$PY" -m paranmt.pipelines.cli probe --input "$TRAIN" --pairs "${PAIRS:-100000}" \
  --models ${MODELS:-word lstm} --keep-encoders --sts-dir "${STS_DIR:-../shared/data/sts}" --output "$OUT" \
  $( [ -s "$OUT/results.csv" ] && echo --resume || true) \
  --datasets STS2012-test STS2013-test STS2014-test STS2015-test STS2017/track5.en-en stsbenchmark/sts-dev \
  --set train.epochs=1000 --set "train.time_budget_minutes=$MINUTES" ${DEVICE:+--set train.device=$DEVICE} ${FP16:+--set train.fp16=$FP16}
"$PY" - "$OUT/results.csv" <<'PY'
import csv, sys
from collections import defaultdict
scores = defaultdict(lambda: defaultdict(list))
for row in csv.DictReader(open(sys.argv[1], encoding="utf-8")):
    scores[row["model"]][row["dataset"].split("/")[0].replace("-test", "")].append(100 * float(row["pearson"]))
years = ["STS2012", "STS2013", "STS2014", "STS2015"]
print("| encoder | " + " | ".join(years) + " | mean | STS2017 | STS-B dev |\n|---|" + "---:|" * 7)
for model, by in scores.items():
    means = [sum(by[y]) / len(by[y]) for y in years]
    print(f"| {model} | " + " | ".join(f"{m:.1f}" for m in means) + f" | {sum(means) / 4:.1f} | "
          f"{by['STS2017'][0]:.1f} | {by['stsbenchmark'][0]:.1f} |")
PY
