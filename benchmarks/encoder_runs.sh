#!/bin/bash
# Training runs behind the "Encoders, trainer, STS (issue 4)" section of benchmarks/RESULTS.md.
# Usage: bash benchmarks/encoder_runs.sh RUN...   RUN in: sp word-trigram random megabatch negatives
# Data: all of ../shared/data/bitext/cs-en except newstest2017 (held out), English side first. One thread each.
set -euo pipefail
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=1
PREFIXES=$(ls ../shared/data/bitext/cs-en/*.eng | sed 's/\.eng$//' | grep -v newstest2017)
OUT=work/enc
TRAIN="nice -n 10 .venv/bin/paranmt train --train $PREFIXES"
# --resume where a run left a checkpoint (paranmt refuses --resume with nothing to resume, docs/reliability.md)
resumable() { if [ -e "$1/checkpoint" ] || [ -e "$1/checkpoint.old" ]; then echo --resume; fi; }
for run in "$@"; do
  case $run in
    sp)            # the shipped bilingual encoder (assets/encoder-xling; assets/encoder-sp continues it)
      $TRAIN --config configs/train/sp-bitext.yaml --output $OUT/sp-bitext-8k $(resumable $OUT/sp-bitext-8k) ;;
    word-trigram)  # WORD,TRIGRAM concatenation, bilingual (no back-translated English pairs exist yet)
      $TRAIN --config configs/train/word-trigram.yaml --mode bilingual --output $OUT/word-trigram-bi \
        $(resumable $OUT/word-trigram-bi) ;;
    random)        # random-init baselines: SP (the shipped sentencepiece model = the sp run's) and TRIGRAM (bitext vocabulary)
      $TRAIN --encoder sp --sp-model assets/encoder-sp/sp.model --epochs 0 --output $OUT/random-sp --overwrite
      $TRAIN --encoder trigram --epochs 0 --output $OUT/random-trigram --overwrite ;;
    megabatch)     # M = 1 / 20 / 40 on the same data, same SP vocabulary, same steps (3 epochs)
      for m in 1 20 40; do
        $TRAIN --config configs/train/megabatch.yaml --sp-model assets/encoder-sp/sp.model \
          --megabatch-size $m --output $OUT/megabatch-$m $(resumable $OUT/megabatch-$m)
      done ;;
    negatives)     # MIX / RAND negatives at M = 40 (MAX at M = 40 is megabatch-40)
      for negatives in mix rand; do
        $TRAIN --config configs/train/megabatch.yaml --sp-model assets/encoder-sp/sp.model \
          --megabatch-size 40 --negatives $negatives --output $OUT/negatives-$negatives \
          $(resumable $OUT/negatives-$negatives)
      done ;;
    *) echo "unknown run $run" >&2; exit 2 ;;
  esac
done
