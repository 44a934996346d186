#!/bin/bash
# The parse stage over built shards with their parse columns nulled, without and with a paranmt-5m-style
# parse.only_if, alternated twice; CPU seconds (user + sys) from /usr/bin/time. Results: benchmarks/RESULTS.md,
# "Parse only what is kept (issue 25)".
#   benchmarks/bench_parse_only_if.sh SHARDS_DIR WORK_DIR [CONDITION]
set -euo pipefail
shards=$1; work=$2
cond=${3:-"para_score >= 0.58 and ref_len <= 30 and bt_len <= 30 and bt_repetition <= 0"}
python=${PYTHON:-python}
mkdir -p "$work/unparsed"
"$python" - "$shards" "$work/unparsed" <<'PY'
import sys
from pathlib import Path
import numpy as np, pyarrow as pa, pyarrow.parquet as pq
from paranmt.schemas.layout import local_shards
scores = []
for path in local_shards(sys.argv[1]):
    table = pq.read_table(path)
    for column in ("ref_parse", "ref_template", "bt_parse", "bt_template"):
        index = table.schema.get_field_index(column)
        table = table.set_column(index, table.schema.field(column), pa.nulls(table.num_rows, pa.string()))
    pq.write_table(table, f"{sys.argv[2]}/{Path(path).name}")
    scores += [s for s in table.column("para_score").to_pylist() if s is not None]
print(f"{len(scores)} scored pairs; para_score 0.8 quantile (paranmt-5m keeps the top two tenths): "
      f"{np.quantile(scores, 0.8):.3f}")
PY
export OMP_NUM_THREADS=1
for round in 1 2; do
  for mode in all only_if; do
    out=$work/out-$mode-$round; rm -rf "$out"
    if [ $mode = all ]; then set -- ; else set -- --set "parse.only_if=$cond"; fi
    /usr/bin/time -f "$mode round$round user %U sys %S elapsed %e maxrss_kb %M" nice -n 10 "$python" -m \
      paranmt.pipelines.cli build --input "$work/unparsed" --format shards --output "$out" --stages parse "$@" \
      --runner DirectRunner --direct_running_mode in_memory --direct_num_workers 1 > "$work/log-$mode-$round.txt" 2>&1
    tail -1 "$work/log-$mode-$round.txt"; uptime
  done
done
