#!/usr/bin/env bash
# The real back-translated corpus through paranmt (issues 31, 32): ../shared/data/wmt-bt (WMT21-23 into-English
# system outputs beside their references; 330,179 pairs, 10 source languages) -> scored shards -> a train/dev/test
# split by source segment -> parsed shards. Run from the repository root:
#     benchmarks/wmt_bt_corpus.sh [OUT]          (default OUT=work/wmt-bt; each step resumes / skips when done)
# Steps and what they cost are in benchmarks/RESULTS.md, "The real corpus: wmt-bt (issue 31)".
set -euo pipefail
OUT=${1:-work/wmt-bt}
DATA=${WMT_BT:-../shared/data/wmt-bt}
PARANMT=${PARANMT:-paranmt}
# the parse stage's condition on the training part (what train-paraphraser and the stats of parsed pairs use)
TRAIN_PARSE_IF=${TRAIN_PARSE_IF:-"para_score >= 0.7 and ref_len <= 40 and bt_len <= 40"}
mkdir -p "$OUT"

# step NAME COMMAND...: runs once (OUT/.done-NAME marks it finished); a step stopped half-way is rerun: a build
# with --resume (resumed(DIR) adds it when DIR exists), a filter or stats with --overwrite
resumed() { if [ -d "$1" ]; then echo --resume; fi; }
step() { local name=$1; shift; if [ -f "$OUT/.done-$name" ]; then echo "== $name: done"; return; fi
         echo "== $name: $*"; "$@"; touch "$OUT/.done-$name"; }

# 1. every system output with its reference: read, clean, score (bring your own translations: the bt column).
#    The corpus column is the source language, so `stats` reports one row per language (P18 Table 1's corpora).
#    clean.max_length_ratio 0: WMT test sets are aligned by construction, and Chinese/Japanese sources are one
#    or two Moses tokens long.
step scored $PARANMT build --input "$DATA/wmt2*.tsv.gz" --format tsv \
    --columns id=id,corpus=src_lang,src_lang=src_lang,cs=source,ref=ref,bt=bt \
    --stages read,clean,score --set clean.max_length_ratio=0 --output "$OUT/scored" $(resumed "$OUT/scored")
# 2. the 9,217 pairs of two human references of one source (no source text: ref_a stands in for cs, which no
#    later stage reads)
step refs-scored $PARANMT build --input "$DATA/refs.tsv.gz" --format tsv --columns id=id,cs=ref_a,ref=ref_a,bt=ref_b \
    --corpus human-refs --stages read,clean,score --set source_lang=en --output "$OUT/refs-scored" $(resumed "$OUT/refs-scored")
# 3. train / dev / test by source segment (configs/wmt-bt/split-*.yaml: 94/3/3% of the segments)
for part in train dev test; do
  for corpus in scored refs-scored; do
    step "$corpus-$part" $PARANMT filter --config "configs/wmt-bt/split-$part.yaml" --input "$OUT/$corpus" \
      --output "$OUT/$corpus-$part" --overwrite
  done
done
# 4. parses: every row of dev and test and of the human pairs; the training part where TRAIN_PARSE_IF holds
#    (the other rows keep parse_skipped = only_if; `build --format shards --stages parse` parses them later)
for corpus in scored-dev scored-test refs-scored-train refs-scored-dev refs-scored-test; do
  step "parsed-$corpus" $PARANMT build --input "$OUT/$corpus" --format shards --stages parse \
    --output "$OUT/parsed-$corpus" $(resumed "$OUT/parsed-$corpus")
done
step parsed-scored-train $PARANMT build --input "$OUT/scored-train" --format shards --stages parse \
  --set "parse.only_if=$TRAIN_PARSE_IF" --output "$OUT/parsed-scored-train" \
  $(resumed "$OUT/parsed-scored-train")
# 5. statistics (P18 Tables 1-2): all rows by language; the parsed dev + test rows for the parse columns
step stats-scored $PARANMT stats --input "$OUT/scored" --output "$OUT/stats-scored" --overwrite
