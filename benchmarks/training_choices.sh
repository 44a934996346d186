#!/usr/bin/env bash
# The papers' training choices and model comparisons that no table here had measured (issue 44 items 3 and 6), as
# short runs of `paranmt probe` on one sample of real pairs: the wmt-bt pairs of WMT22 cs-en, de-en and ru-en (every
# system's output beside its reference; 53,764 usable pairs). Run from the repository root:
#     bash benchmarks/training_choices.sh OUT RUN...
#         RUN in: corpus negatives differences recurrent anneal dim charagram gates
# Each RUN resumes (`--resume` where a probe left results.csv; a finished script output is kept). One thread each.
# PAIRS (default 20000) pairs per run, EPOCHS (default 3) passes over them: 600 mini-batches of 100 pairs; the
# annealed runs grow M by 1 every PAIRS x EPOCHS / 100 / 40 mini-batches, so that M reaches 40 just before the end.
# TRANSFER_LIMIT (default 0: all) caps the examples per split of the dim run's transfer tasks.
# Tables: benchmarks/RESULTS.md, "The papers' experiments never run before (issue 44)".
set -euo pipefail
OUT=${1:?usage: benchmarks/training_choices.sh OUT RUN...}
shift
PARANMT=${PARANMT:-paranmt}
PYTHON=${PYTHON:-python}
DATA=${WMT_BT:-../shared/data/wmt-bt}
STS=${STS:-../shared/data/sts}
PAIRS=${PAIRS:-20000}
EPOCHS=${EPOCHS:-3}
ANNEAL_EVERY=$(( PAIRS * EPOCHS / 100 / 40 > 0 ? PAIRS * EPOCHS / 100 / 40 : 1 ))
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
CORPUS=$OUT/wmt22-cs-de-ru
YEARS="STS2012-test STS2013-test STS2014-test STS2015-test STS2017/track5.en-en"
mkdir -p "$OUT"
resume() { if [ -f "$1/results.csv" ]; then echo --resume; fi; }
resumed() { if [ -d "$1" ]; then echo --resume; fi; }
# probe NAME FLAGS...: PAIRS pairs of the corpus, EPOCHS passes, scored on STS 2012-15 and STS2017 en-en
probe() { local name=$1; shift
          $PARANMT probe --input "$CORPUS" --pairs "$PAIRS" --sts-dir "$STS" --datasets $YEARS \
            --set train.epochs="$EPOCHS" --output "$OUT/$name" $(resume "$OUT/$name") "$@"; }
for run in "$@"; do
  case $run in
    corpus)        # read + clean only (no score stage: training needs no para_score)
      $PARANMT build --input "$DATA/wmt22.cs-en.tsv.gz,$DATA/wmt22.de-en.tsv.gz,$DATA/wmt22.ru-en.tsv.gz" \
        --format tsv --columns id=id,corpus=src_lang,src_lang=src_lang,cs=source,ref=ref,bt=bt --stages read,clean \
        --set clean.max_length_ratio=0 --output "$CORPUS" $(resumed "$CORPUS") ;;
    negatives)     # P18 Table 7: the shipped encoder's hardest negatives at M = 1, 20, 40
      $PYTHON benchmarks/megabatch_negatives.py --input "$CORPUS" --queries 4 --sibling-negatives > "$OUT/negatives.md"
      $PYTHON benchmarks/megabatch_negatives.py --input "$CORPUS" --queries 4 --one-per-reference \
        > "$OUT/negatives-one-per-reference.md" ;;
    differences)   # P18 Table 10: WORD, TRIGRAM, SP (and LSTMavg, GRAN when `recurrent` ran) per STS dataset
      probe differences --models word trigram sp --set train.sp_model=assets/encoder-sp/sp.model
      $PYTHON benchmarks/model_differences.py --probe "$OUT/differences/results.csv" \
        $(ls "$OUT/recurrent/results.csv" 2>/dev/null) > "$OUT/differences.md" ;;
    recurrent)     # P17 Tables 4, 7, 9-11 (and LSTMavg for P18 Table 10): WORD, LSTMavg, GRAN, one epoch each
      EPOCHS=1 probe recurrent --models word lstm gran --keep-encoders
      $PYTHON benchmarks/error_analysis.py --model lstm="$OUT/recurrent/runs/wmt22-cs-de-ru.all.lstm" \
        --model word="$OUT/recurrent/runs/wmt22-cs-de-ru.all.word" --sts-dir "$STS" > "$OUT/errors-lstm-word.md"
      $PYTHON benchmarks/error_analysis.py --model gran="$OUT/recurrent/runs/wmt22-cs-de-ru.all.gran" \
        --model word="$OUT/recurrent/runs/wmt22-cs-de-ru.all.word" --sts-dir "$STS" > "$OUT/errors-gran-word.md" ;;
    anneal)        # P19 §2: at an equal number of updates, M fixed at 1, fixed at 40, annealed 1 -> 40
      for setting in fixed-1:1:0 fixed-40:40:0 annealed-40:40:$ANNEAL_EVERY; do
        IFS=: read -r name m every <<< "$setting"
        probe "anneal-$name" --models word sp --set train.sp_model=assets/encoder-sp/sp.model \
          --set train.megabatch_size="$m" --set train.anneal_every="$every"
      done ;;
    dim)           # P19 Table 2 (P18 Table 8): SP's embedding size with everything else fixed; STS, then transfer
      for dim in 100 300 1024; do
        probe "dim-$dim" --models sp --set train.sp_model=assets/encoder-sp/sp.model --set train.dim=$dim \
          --keep-encoders
        if [ ! -f "$OUT/transfer-sp-$dim/results.csv" ]; then
          $PARANMT eval-transfer --model "$OUT/dim-$dim/runs/wmt22-cs-de-ru.all.sp" --data-dir "$(dirname "$STS")" \
            --name "sp-$dim" --tasks mr cr subj sick-e mrpc --folds 5 --inner-folds 3 --c-grid 0.01 0.1 1 10 \
            --limit "${TRANSFER_LIMIT:-0}" --baselines --output "$OUT/transfer-sp-$dim"
        fi
      done ;;
    charagram)     # thesis Tables 19-21: CHARAGRAM's n-gram orders; WORD vs CHARAGRAM by unknown words and length
      probe charagram-234 --models word charagram --keep-encoders
      for orders in 2 2,3 2,3,4,5; do
        probe "charagram-${orders//,/}" --models charagram --set "train.ngram_orders=[$orders]"
      done
      $PYTHON benchmarks/sts_bins.py --vocabulary "$OUT/charagram-234/runs/wmt22-cs-de-ru.all.word" \
        --model word="$OUT/charagram-234/runs/wmt22-cs-de-ru.all.word" \
        charagram="$OUT/charagram-234/runs/wmt22-cs-de-ru.all.charagram" --sts-dir "$STS" > "$OUT/charagram-bins.md" ;;
    gates)         # P17 Tables 9-11: GRAN's gate norms by POS and phrase label (run `recurrent` first)
      $PYTHON benchmarks/gran_gates.py --model "$OUT/recurrent/runs/wmt22-cs-de-ru.all.gran" \
        --treebank "$(dirname "$STS")/treebank/ptb-sample" > "$OUT/gates.md" ;;
    *) echo "unknown run $run (corpus negatives differences recurrent anneal dim charagram gates)" >&2; exit 2 ;;
  esac
done
