#!/usr/bin/env bash
# ParaNMT-50M's data experiments on the wmt-bt corpus (issue 31 item 3), as runs of `paranmt probe`, over the
# outputs of benchmarks/wmt_bt_corpus.sh. Run from the repository root:
#     benchmarks/wmt_bt_probes.sh [OUT] [PROBES]     (defaults work/wmt-bt, work/wmt-bt-probes; --resume-safe)
# Tables and plots: benchmarks/RESULTS.md, "The real corpus: wmt-bt (issue 31)".
set -euo pipefail
OUT=${1:-work/wmt-bt}
PROBES=${2:-work/wmt-bt-probes}
PARANMT=${PARANMT:-paranmt}
STS=${STS:-../shared/data/sts}
MODELS=${MODELS:-word trigram}
TRAIN=$OUT/scored-train
mkdir -p "$PROBES"
resume() { if [ -f "$1/results.csv" ]; then echo --resume; fi; }

# (a) Table 4: one corpus per source language (the corpus column is src_lang), 10,000 pairs each (Icelandic has
#     9,4k training pairs, Livonian - labelled `li` in the data - 2.0k), and all languages at 10k and 100k
LANGS=""
for lang in cs de ha he is ja li ru uk zh; do
  if [ ! -f "$OUT/lang-$lang/__paranmt__/filter_report.json" ]; then
    printf 'filters:\n  - {type: values, column: corpus, values: [%s]}\ndedup: []\nsample: null\n' "$lang" > "$PROBES/lang-$lang.yaml"
    $PARANMT filter --config "$PROBES/lang-$lang.yaml" --input "$TRAIN" --output "$OUT/lang-$lang" --overwrite
  fi
  LANGS="$LANGS $OUT/lang-$lang"
done
$PARANMT probe --input $LANGS "$TRAIN" --pairs 10000 --models $MODELS --sts-dir "$STS" \
  --datasets STS2017/track5.en-en stsbenchmark/sts-dev --output "$PROBES/table4-languages" $(resume "$PROBES/table4-languages")
# the same 10k pairs a language for 5 epochs (one epoch of 10k pairs is 100 updates: WORD is far from converged)
$PARANMT probe --input $LANGS "$TRAIN" --pairs 10000 --models $MODELS --sts-dir "$STS" --set train.epochs=5 \
  --datasets STS2017/track5.en-en stsbenchmark/sts-dev --output "$PROBES/table4-languages-5ep" \
  $(resume "$PROBES/table4-languages-5ep")
$PARANMT probe --input "$TRAIN" --pairs 100000 --models $MODELS --sts-dir "$STS" \
  --datasets STS2017/track5.en-en stsbenchmark/sts-dev --output "$PROBES/table4-all-100k" $(resume "$PROBES/table4-all-100k")

# (b) Table 5: the training part ranked by each measure, in tenths (about 31k pairs each), one epoch per tenth
for measure in trigram_overlap para_score simile; do
  $PARANMT probe --input "$TRAIN" --by $measure --folds 10 --models $MODELS --sts-dir "$STS" \
    --datasets STS2017/track5.en-en stsbenchmark/sts-dev --output "$PROBES/table5-$measure" \
    $(resume "$PROBES/table5-$measure")
done

# (c) Table 6: mega-batch size M (fixed: anneal_every 0) on 100k pairs of the paper's training set recipe (top two
#     para_score tenths, <= 30 tokens, no copies, no loops, English: the paranmt-5m preset)
if [ ! -f "$OUT/paranmt-5m/__paranmt__/filter_report.json" ]; then
  $PARANMT filter --config paranmt-5m --input "$TRAIN" --output "$OUT/paranmt-5m" --overwrite
fi
for m in 1 20 40; do
  $PARANMT probe --input "$OUT/paranmt-5m" --pairs 100000 --models $MODELS --sts-dir "$STS" \
    --datasets STS2017/track5.en-en stsbenchmark/sts-dev --set train.megabatch_size=$m --set train.anneal_every=0 \
    --set train.epochs=${TABLE6_EPOCHS:-3} --output "$PROBES/table6-m$m" $(resume "$PROBES/table6-m$m")
done
