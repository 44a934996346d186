"""Every `paranmt` command shown in README.md and docs/*.md is covered here, and a test fails when a page shows one
this table does not cover (or the table lists one no page shows any more).

How each command is covered (COVERAGE):
- RUN: run as written, with the working directory a temporary folder where `data/sample` holds the first pairs of
  the bundled sample and other inputs the command names are made small (see `workspace`); exit code 0. Local runs
  add `--direct_running_mode in_memory` (the same pipeline in one process) to keep the test quick.
- DATAFLOW: a Dataflow launch, run as `paranmt check-dataflow` with the same arguments (offline: no account, no
  network): exit 0 means Beam built the job and no launch warning fired.
- ARGUMENTS: a synopsis with placeholders (`DIR`, `[--flag X]`, `{a,b}`), a fragment (`paranmt build ... --set
  K=V`), or a command that runs for an hour or writes into the repository (training the shipped models,
  `eval-nmt --record`): parsed by the command's real parser (an unknown flag or a bad choice fails), and for
  build commands the typed config is loaded from its --config and --set values (unknown keys, bad values fail).
  A fragment of another command (`paranmt train-paraphraser ... --resume`): its flags are that command's.
Commands of other tools (make, docker, gcloud, huggingface-cli, pip) are not paranmt's and not run here.
"""
from __future__ import annotations

import gzip
import re
import shlex
from pathlib import Path

import pytest

from paranmt.pipelines import cli
from paranmt.pipelines.runtime.arguments import parser_flags

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
RUN, DATAFLOW, ARGUMENTS = "run", "dataflow", "arguments"
SAMPLE_PAIRS = 12


def documented_commands() -> list[tuple[str, str]]:
    """(page, command) of every line starting with `paranmt ` in a fenced block of the pages: continuation lines
    (`\\` at the end) joined, a trailing `# comment` dropped, spaces collapsed."""
    found = []
    for page in PAGES:
        for block in re.findall(r"^ *```[a-z]*\n(.*?)^ *```", page.read_text(), re.S | re.M):
            text = re.sub(r"\\\n\s*", " ", block)
            for line in text.splitlines():
                line = re.sub(r"\s+#\s.*$", "", line).strip()
                if line.startswith("paranmt "):
                    found.append((page.relative_to(REPO).as_posix(), " ".join(line.split())))
    return found


COVERAGE = {
    # README.md
    "paranmt build --input GLOB --format {czeng16,czeng20,moses,tsv,parquet,jsonl,shards} --output DIR": ARGUMENTS,
    "paranmt build --input 'data/sample/*' --format moses --output out/sample": RUN,
    "paranmt build --input '/data/czeng20/*.gz' --format czeng20 --output out/czeng --config configs/demo.yaml":
        ARGUMENTS,                                                 # an absolute path outside the test's folder
    "paranmt build --input out/czeng --format shards --stages score,parse --output out/czeng-scored": RUN,
    "paranmt build --config configs/dataflow-gpu.yaml --input 'gs://my-bucket/czeng16/*.gz' --format czeng16 "
    "--output gs://my-bucket/paranmt/czeng --set translate.model=gs://my-bucket/models/nmt-cs-en "
    "--set score.encoder=gs://my-bucket/models/encoder-sp --set xsim.encoder=gs://my-bucket/models/encoder-xling "
    "--set parse.model_dir=gs://my-bucket/models/parser-en --runner DataflowRunner --project my-project "
    "--region europe-west4 --temp_location gs://my-bucket/tmp "
    "--sdk_container_image europe-west4-docker.pkg.dev/my-project/paranmt/worker:0.1.0 "
    "--experiments use_runner_v2 --number_of_worker_harness_threads 4": DATAFLOW,
    "paranmt convert-nmt --transformers models/opus-mt-cs-en --output models/opus-mt-cs-en-ct2 "
    "--quantization int8": ARGUMENTS,                              # a downloaded model
    "paranmt build ... --set translate.model=models/opus-mt-cs-en-ct2": ARGUMENTS,
    "paranmt build ... --set translate.backend=transformers --set translate.model=models/opus-mt-cs-en": ARGUMENTS,
    # docs/architecture.md
    "paranmt build --config configs/demo.yaml --shard-rows 5000 --set clean.max_tokens=100": ARGUMENTS,
    # docs/dataflow.md
    "paranmt build --config configs/demo.yaml --output out/demo --direct_num_workers 8": ARGUMENTS,  # 8 processes
    "paranmt build --config configs/demo.yaml --output out/demo --runner DirectRunner "
    "--direct_running_mode in_memory": RUN,
    "paranmt build --input 'czeng/*.gz' --format czeng16 --output out/clean --stages read,clean": RUN,
    "paranmt build --input out/clean --format shards --output out/bt --stages translate "
    "--set translate.device=cuda --set translate.batch_tokens=16384": ARGUMENTS,            # a GPU
    "paranmt build --input out/bt --format shards --output out/scored --stages score,parse": RUN,
    "paranmt build ... --set translate.model=gs://my-bucket/models/nmt-cs-en "
    "--set score.encoder=gs://my-bucket/models/encoder-sp --set xsim.encoder=gs://my-bucket/models/encoder-xling "
    "--set parse.model_dir=gs://my-bucket/models/parser-en": ARGUMENTS,
    "paranmt build --input 'gs://my-bucket/czeng16/*.gz' --format czeng16 --output gs://my-bucket/paranmt/clean "
    "--stages read,clean --runner DataflowRunner --project my-project --region europe-west4 "
    "--temp_location gs://my-bucket/tmp --setup_file ./setup.py --machine_type n2-standard-4 "
    "--max_num_workers 50 --experiments use_runner_v2": DATAFLOW,
    "paranmt build --config configs/dataflow-gpu.yaml --input 'gs://my-bucket/czeng16/*.gz' --format czeng16 "
    "--output gs://my-bucket/paranmt/out --set translate.model=gs://my-bucket/models/nmt-cs-en "
    "--set score.encoder=gs://my-bucket/models/encoder-sp --set xsim.encoder=gs://my-bucket/models/encoder-xling "
    "--set parse.model_dir=gs://my-bucket/models/parser-en --runner DataflowRunner --project my-project --region europe-west4 --temp_location gs://my-bucket/tmp "
    "--sdk_container_image europe-west4-docker.pkg.dev/my-project/paranmt/paranmt-worker:0.1.0 "
    "--experiments use_runner_v2 --machine_type n1-standard-8 --max_num_workers 20 "
    "--number_of_worker_harness_threads 4": DATAFLOW,
    "paranmt check-dataflow --config configs/dataflow-gpu.yaml --input 'data/sample/*' --format moses "
    "--output gs://my-bucket/paranmt/out --job-dir out/dataflow-job "
    "--set translate.model=gs://my-bucket/models/nmt-cs-en --set score.encoder=gs://my-bucket/models/encoder-sp "
    "--set xsim.encoder=gs://my-bucket/models/encoder-xling --set parse.model_dir=gs://my-bucket/models/parser-en "
    "--runner DataflowRunner --project my-project "
    "--region europe-west4 --temp_location gs://my-bucket/tmp "
    "--sdk_container_image europe-west4-docker.pkg.dev/my-project/paranmt/paranmt-worker:0.1.0 "
    "--number_of_worker_harness_threads 4": DATAFLOW,
    # docs/encoders.md
    "paranmt train --config configs/train/sp-bitext.yaml --train $PREFIXES --output work/enc/sp-bitext-8k":
        ARGUMENTS,                                                 # the bilingual encoder's training: hours
    "paranmt train --config configs/train/sp-bitext.yaml --mode monolingual "
    "--sp-model assets/encoder-xling/sp.model --init-embeddings assets/encoder-xling --train work/wmt-bt/scored-train "
    "--output work/enc/sp-continued": ARGUMENTS,                 # how assets/encoder-sp was made: minutes, real data
    "paranmt eval --model DIR --sts-dir ../shared/data/sts --output DIR [--select NAME ...] [--overwrite]":
        ARGUMENTS,
    "paranmt export-encoder --format sentence-transformers --model assets/encoder-sp "
    "--output work/encoder-sp-st": RUN,
    "paranmt eval-transfer --model DIR --data-dir ../shared/data --output DIR [--tasks mr cr subj sick-e mrpc]":
        ARGUMENTS,
    "paranmt finetune-sts --model DIR --task {sick-r,stsb,sts12-15,sick-e,sst2} --data-dir ../shared/data --output DIR": ARGUMENTS,
    # docs/filtering.md
    "paranmt filter --input SHARDS --output DIR [--config paranmt-5m|simile|lexicon|FILE.yaml]": ARGUMENTS,
    "paranmt stats --input SHARDS --output DIR [--sample-size 100000] [--idf-reference FILE]": ARGUMENTS,
    "paranmt export --format paranmt-txt --input SHARDS --output para-nmt.txt [--lowercase|--no-lowercase]":
        ARGUMENTS,
    "paranmt export --format scpn --input SHARDS --output scpn-train.tsv": ARGUMENTS,
    "paranmt export --format hf --input SHARDS --output DATASET_DIR": ARGUMENTS,
    "paranmt filter --config lexicon --input SHARDS --output LEXDATA": ARGUMENTS,
    "paranmt lexicon --input LEXDATA --output DIR [--min-count 2] [--alpha 1.0] [--simlex FILE]": ARGUMENTS,
    # docs/report.md
    "paranmt report --input SHARDS --output DIR [--by COLUMN] [--per-band 10] [--seed paranmt] [--where COND] "
    "[--rate [--blind]] [--sample-size 10000] [--overwrite]": ARGUMENTS,
    "paranmt report --ratings FILE.csv [FILE.csv ...] --output DIR [--overwrite]": ARGUMENTS,
    'paranmt report --input out/sample --output out/sample-report --where "para_score >= 0.5 and '
    'trigram_overlap <= 0.7"': RUN,
    "paranmt report --input out/sample --output out/rating-sheet --rate --per-band 100": RUN,
    "paranmt report --input out/sample --output out/blind-sheet --rate --blind --per-band 100": RUN,
    "paranmt report --ratings ratings.csv --output out/ratings": ARGUMENTS,     # a CSV a person saved
    # docs/mining.md
    "paranmt mine --source CS --target EN --output DIR [--k 4] [--strategy forward|backward|intersection|max]":
        ARGUMENTS,
    "paranmt eval-xling --source CS_FILE --target EN_FILE --output DIR [--encoder DIR] [--gold-fraction 0.2] "
    "[--seed 1]": ARGUMENTS,
    "paranmt train --encoder sp --sp-model assets/encoder-xling/sp.model --epochs 0 --train work/xling/dev "
    "--suffixes en,cs --output work/enc/sp-random": ARGUMENTS,    # work/xling/dev: the page's own split
    "paranmt eval-xling --encoder assets/encoder-xling --source ../shared/data/bitext/cs-en/newstest2017.ces "
    "--target ../shared/data/bitext/cs-en/newstest2017.eng --output work/xling/encoder-xling-full": RUN,
    "paranmt eval-xling --encoder work/enc/sp-random --source ../shared/data/bitext/cs-en/newstest2017.ces "
    "--target ../shared/data/bitext/cs-en/newstest2017.eng --output work/xling/sp-random-full": ARGUMENTS,
    # docs/parsing.md
    "paranmt build --input 'data/sample/*' --format moses --output out/demo --stages read,clean,parse": RUN,
    "paranmt build --input 'out/demo/*.parquet' --format shards --output out/demo-parsed --stages parse": RUN,
    'paranmt build ... --set parse.only_if="para_score >= 0.5 and trigram_overlap <= 0.7"': ARGUMENTS,
    "paranmt build --input 'out/demo/*.parquet' --format shards --output out/demo-all --stages parse": RUN,
    "paranmt convert-nmt --transformers models/opus-mt-cs-en --output models/opus-mt-cs-en-ct2 --vmap-source "
    "train.cs --vmap-target train.en": ARGUMENTS,                   # a downloaded model outside the test's folder
    "paranmt build ... --set translate.use_vmap=true": ARGUMENTS,
    "paranmt convert-nmt --transformers models/opus-mt-cs-en --output models/opus-mt-cs-en-ct2 --vmap-source "
    "sample.cs": ARGUMENTS,                   # the map from the model's own translations (tests/models/nmt/test_vmap.py)
    "paranmt eval-nmt --model models/opus-mt-cs-en-ct2 --source test.cs --reference test.en --use-vmap "
    "--hypotheses with-vmap.txt": ARGUMENTS,
    "paranmt train-parser --config configs/parser/ptb-sample.yaml --work-dir work/parser-en "
    "--output assets/parser-en --overwrite": ARGUMENTS,                        # an hour; writes the shipped parser
    "paranmt train-parser --config configs/parser/ptb-sample-h64-compound.yaml --work-dir work/parser-h64c "
    "--output models/parser-h64c": ARGUMENTS,                      # an hour (the vectors and tagger steps too)
    "paranmt build ... --set parse.model_dir=models/parser-h64c": ARGUMENTS,
    # docs/translate.md
    "paranmt build --input 'data/sample/*' --format moses --output out/demo --stages read,clean,translate":
        ARGUMENTS,                                # the same pipeline as parsing.md's, which writes out/demo first
    "paranmt build ... --set translate.backend=fairseq --set translate.beam=5 --set translate.nbest=5": ARGUMENTS,
    "paranmt build --input 'mine/*.tsv' --format tsv --columns cs=0,ref=1,bt=2 --output out/mine": ARGUMENTS,
    "paranmt build --input '../shared/data/wmt-bt/wmt22.cs-en.tsv.gz' --format tsv "     # parses 15,928 pairs
    "--columns id=id,cs=source,ref=ref,bt=bt --stages read,clean,score,parse --output out/wmt22-cs": ARGUMENTS,
    "paranmt build --input 'llm/*.jsonl' --format jsonl --columns cs=source --set source_lang=de "
    "--stages read,clean,score,parse --output out/llm-de": ARGUMENTS,
    "paranmt train-nmt --config configs/nmt/cs-en-small.yaml": ARGUMENTS,              # 1.6 h of training
    "paranmt convert-nmt --recipe configs/nmt/cs-en-small.yaml --output assets/nmt-cs-en --average-last 1 "
    "--quantization int8": ARGUMENTS,                              # needs that training; writes the shipped model
    "paranmt eval-nmt --model assets/nmt-cs-en --source ../shared/data/bitext/cs-en/newstest2017.ces "
    "--reference ../shared/data/bitext/cs-en/newstest2017.eng --skip-first 500 --beam 12 --record": ARGUMENTS,
    "paranmt convert-nmt --fairseq-checkpoint mymodel/model.pt --output mymodel/ct2 --quantization int8":
        ARGUMENTS,
    "paranmt build ... --set translate.model=mymodel": ARGUMENTS,
    "paranmt build ... --set translate.model=mymodel --set translate.backend=fairseq": ARGUMENTS,
    "paranmt build --config configs/demo.yaml --set translate.model=models/opus-mt-cs-en-ct2": ARGUMENTS,
    "paranmt build --config configs/demo.yaml --set translate.backend=transformers "
    "--set translate.model=models/opus-mt-cs-en": ARGUMENTS,
    "paranmt eval-nmt --model models/opus-mt-cs-en-ct2 --source ../shared/data/bitext/cs-en/newstest2017.ces "
    "--reference ../shared/data/bitext/cs-en/newstest2017.eng --beam 12": ARGUMENTS,
    "paranmt build --config configs/dataflow-gpu.yaml --input 'gs://B/czeng16/*.gz' --format czeng16 "
    "--output gs://B/paranmt/out --set translate.device=cuda "
    "--set 'translate.accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver' --runner DataflowRunner "
    "--project P --region R --temp_location gs://B/tmp --sdk_container_image IMAGE --experiments=use_runner_v2 "
    "--number_of_worker_harness_threads=1 --machine_type n1-standard-8": ARGUMENTS,   # placeholders P, R, B
    # README.md (added after the pages' authors wrote them: parsed; promote to RUN where quick)
    "paranmt build --input 'data/sample/*' --format moses --output out/corpus": RUN,
    "paranmt stats --input out/corpus --output out/stats": ARGUMENTS,
    "paranmt train-paraphraser --task scpn --input out/corpus --output models/scpn": ARGUMENTS,
    "paranmt train-paraphraser --task parse-generator --input out/corpus --output models/parse-generator": ARGUMENTS,
    "paranmt train-paraphraser --task plain --input out/corpus --output models/plain": ARGUMENTS,
    "paranmt paraphrase --model models --templates top20:out/stats --input sentences.txt --output "
    "paraphrases.parquet": ARGUMENTS,
    "paranmt paraphrase --model models --input out/corpus --output out/corpus-paraphrased": ARGUMENTS,
    "paranmt eval-paraphraser --model models --input out/held-out --output out/eval": ARGUMENTS,
    "paranmt eval-paraphraser --model models --input held-out-pairs.tsv --output out/eval": ARGUMENTS,
    # docs/encoders.md (added after the pages' authors wrote them: parsed; promote to RUN where quick)
    "paranmt train --train PATH [PATH ...] --encoder KIND (a kind above, or a sum/concatenation of them) "
    "--output DIR [--config YAML] [--mode monolingual|bilingual] [--resume | --overwrite] [flags]": ARGUMENTS,
    "paranmt lexicon --input SHARDS --output LEX": ARGUMENTS,
    "paranmt probe --input CORPUS [CORPUS ...] --output DIR --sts-dir ../shared/data/sts [--by COLUMN [--folds 10]] "
    "[--pairs 100000] [--models KIND [KIND ...]] [--resume | --overwrite] [--config YAML] [--set KEY=VALUE ...]": ARGUMENTS,
    "paranmt probe --input out/corpus --by para_score --output out/probe-para --sts-dir ../shared/data/sts": ARGUMENTS,
    "paranmt probe --input out/filtered-0.5 out/filtered-0.7 --models word trigram lstm "
    "--output out/probe-thresholds --sts-dir ../shared/data/sts": ARGUMENTS,
    "paranmt probe --input wmt-bt-all.tsv --output probe-100k --sts-dir ../shared/data/sts": ARGUMENTS,   # minutes
    "paranmt probe --input wmt22.cs-en.tsv --pairs 15000 --models word trigram lstm --output probe-cs15k --sts-dir "
    "../shared/data/sts --datasets STS2017/track5.en-en stsbenchmark/sts-dev": ARGUMENTS,
    "paranmt train-words --input LEX --output WORDS [--init-vectors FILE.txt] [--dim 300] [--similarity "
    "cosine|dot]": ARGUMENTS,
    "paranmt train-words --input ppdb-2.0-s-lexical --format ppdb --output WORDS": ARGUMENTS,
    "paranmt eval-words --model WORDS --data-dir ../shared/data --output DIR": ARGUMENTS,
    # docs/paraphrase.md (added after the pages' authors wrote them: parsed; promote to RUN where quick)
    "paranmt paraphrase --input sentences.txt --output paraphrases.parquet": ARGUMENTS,
    'paranmt paraphrase --templates "(SBARQ(WHADVP)(SQ)(.))" --input sentences.txt --output out.tsv': ARGUMENTS,
    "paranmt paraphrase --templates top10:out/demo/stats --input sentences.txt --output out.jsonl": ARGUMENTS,
    "paranmt paraphrase --task plain --n-best 5 --beam 5 --input sentences.txt --output out.jsonl": ARGUMENTS,
    "paranmt paraphrase --model models/ --input out/corpus --output out/corpus-paraphrased": ARGUMENTS,
    "paranmt paraphrase --input gs://bucket/corpus --output gs://bucket/corpus-paraphrased --model "
    "gs://bucket/models/scpn --parse-generator gs://bucket/models/parse-generator --parser "
    "gs://bucket/models/parser-en --encoder gs://bucket/models/encoder-sp --templates top20 --accelerator "
    '"type:nvidia-tesla-t4;count:1;install-nvidia-driver" --runner DataflowRunner --project my-project '
    "--region europe-west4 --temp_location gs://bucket/tmp --sdk_container_image "
    "europe-west4-docker.pkg.dev/my-project/paranmt/worker:0.1.0 --experiments use_runner_v2": ARGUMENTS,
    "paranmt train-paraphraser --input out/corpus --output models/scpn --task scpn": ARGUMENTS,
    "paranmt train-paraphraser --input out/corpus --output models/parse-generator --task parse-generator": ARGUMENTS,
    "paranmt train-paraphraser --input out/corpus --output models/plain --task plain": ARGUMENTS,
    "paranmt train-paraphraser --input scpn-train.tsv --output models/scpn --task scpn": ARGUMENTS,
    "paranmt train-paraphraser --sentences english.txt --input pairs.tsv --output models/scpn --task scpn": ARGUMENTS,
    "paranmt train-paraphraser --input out/corpus --output models/bart-scpn --task scpn --arch "
    "transformers --hf-model ~/models/bart-base --lr 3e-5 --batch-size 32 --device cuda": ARGUMENTS,
    "paranmt train-paraphraser ... --resume": ARGUMENTS,
    "paranmt train-paraphraser ... --overwrite": ARGUMENTS,
    # docs/cluster.md (the Dask builds start worker processes: tests/pipelines/test_dask.py runs them)
    "paranmt build --config configs/demo.yaml --output out/demo --runner dask --dask-workers 4": ARGUMENTS,
    "paranmt build ... --runner dask --dask-address tcp://login1:8786": ARGUMENTS,
    "paranmt cluster-config --scheduler slurm --output cluster/": RUN,
    "paranmt cluster-config --config my-cluster.yaml --output cluster/ --set gpu.jobs=8": ARGUMENTS,
    "paranmt cluster-config --config slurm-czeng --output cluster-czeng/ --set scheduler_address=tcp://login1:8786 "
    "--set account=OPEN-1-2": RUN,
    "paranmt build --input '/data/czeng16/*.gz' --format czeng16 --output /scratch/paranmt/czeng --config "
    "configs/dataflow-gpu.yaml --set translate.model=/models/opus-mt-cs-en-ct2 --runner dask --dask-address "
    "tcp://login1:8786": ARGUMENTS,
    "paranmt build ... --runner FlinkRunner --flink_master flink-jm:8081 --flink_version 1.20 --flink_job_server_jar "
    "/shared/jars/beam-runners-flink-1.20-job-server-2.77.0.jar --environment_type DOCKER --sdk_container_image "
    "REGISTRY/paranmt-worker:0.1.0": ARGUMENTS,
    "paranmt build ... --runner SparkRunner --spark_master_url spark://spark-master:7077 --spark_job_server_jar "
    "/shared/jars/beam-runners-spark-3-job-server-2.77.0.jar --environment_type PROCESS --environment_config "
    "'{\"command\": \"/opt/apache/beam/boot\"}'": ARGUMENTS,
    # added by the paraphrase and adversarial pages (parsed)
    "paranmt adversarial --task sick-e --paraphraser assets --output out/adversarial-sick [--attack-rows 200] "
    "[--augment-rows 500] [--epochs 3] [--dim 100] [--hidden 100] [--resume | --overwrite]": ARGUMENTS,
    "paranmt eval-paraphraser --model assets --input HELD_OUT_SHARDS --output out/eval [--max-pairs 500] "
    "[--overwrite]": ARGUMENTS,
    "paranmt eval-paraphraser --model assets --input held-out-pairs.tsv --output out/eval [--templates top10]":
        ARGUMENTS,
    "paranmt adversarial --task sick-e --paraphraser MODELS --output OUT --train-rows 2000 --attack-rows 60 "
    "--augment-rows 60 --epochs 2": ARGUMENTS,
    # docs/generative.md (BGT trains for hours; MRT stages train minutes to hours: parsed)
    "paranmt train-bgt --train PREFIX [PREFIX ...] --output DIR [--variant bgt] [--config FILE.yaml]": ARGUMENTS,
    "paranmt eval --model DIR --sts-dir ../shared/data/sts --output DIR/sts --hard": ARGUMENTS,
    "paranmt eval-xling --encoder DIR --source newstest2017.ces --target newstest2017.eng --output DIR/xling":
        ARGUMENTS,
    "paranmt export-encoder --format sentence-transformers --model DIR --output DIR-st": ARGUMENTS,
    "paranmt train-nmt --config configs/nmt/mrt-demo.yaml": ARGUMENTS,
    "paranmt train-nmt --config configs/nmt/mrt-demo.yaml --mrt-cost bleu --work-dir work/nmt-mrt-bleu": ARGUMENTS,
    "paranmt train-nmt --config configs/nmt/cs-en-small.yaml --objective mrt --mrt-cost both --mrt-gamma 0.3 "
    "--mrt-nbest 8": ARGUMENTS,
}


def test_every_documented_command_is_covered_and_every_covered_one_documented():
    commands = {command for _, command in documented_commands()}
    missing = sorted(commands - set(COVERAGE))
    assert not missing, "documented commands no test covers (add them to COVERAGE):\n" + "\n".join(missing)
    stale = sorted(set(COVERAGE) - commands)
    assert not stale, "COVERAGE lists commands no page shows any more:\n" + "\n".join(stale)


def synopsis_arguments(command: str) -> list[str]:
    """The words of a synopsis as a user would type one instance of it: optional flags opened (`[--k V]`), other
    bracketed words (`[flags]`) dropped, the first of `{a,b}` / `a|b` alternatives, `...` dropped."""
    words = []
    command = re.sub(r"\[(?!-)[^]]*\]", " ", command)
    command = re.sub(r" \((?=[^)]*\s)[^)]*\)", " ", command)      # prose in parentheses
    for word in shlex.split(command.replace("[", " ").replace("]", " "))[1:]:
        word = re.sub(r"\{([^,}]*)[^}]*\}", r"\1", word).split("|")[0]
        if word and word != "...":
            words.append(word)
    return words


def parsed(argv: list[str]):
    """argv parsed by the command's real parser; fails on an unknown flag (Beam options aside) or a bad value."""
    parser = cli.make_parser(argv[0])
    try:
        args, extra = parser.parse_known_args(argv)
    except cli.ConfigError:
        pytest.fail(f"the parser of `paranmt {argv[0]}` refuses: {' '.join(argv)}")
    assert not extra or (getattr(args, "accepts_beam_options", False) and extra[0].startswith("--")), extra
    if extra:       # the Beam options a command passes on are not refused as mistyped flags of its own
        cli.check_unrecognized(extra, parser, argv[0], beam=True)
    return args


def check_arguments(command: str) -> None:
    argv = synopsis_arguments(command)
    if command.split()[2:3] == ["..."] and argv[0] != "build":    # a fragment: its flags must exist
        known = parser_flags(cli.make_parser(argv[0]).commands[argv[0]])
        assert {word for word in argv[1:] if word.startswith("--")} <= known, command
        return
    args = parsed(argv)
    if argv[0] in ("build", "check-dataflow"):
        from paranmt.schemas.build_config import BuildConfig
        from paranmt.schemas.config import load_config, parse_assignments

        if args.config and Path(args.config).stem.isupper():
            args.config = None                       # a placeholder (FILE.yaml)
        elif args.config:
            args.config = str(REPO / args.config)    # a preset of the repository: must exist
        load_config(BuildConfig, args.config, {**{key: getattr(args, key) for key in args.config_keys},
                                               **parse_assignments(args.set)})   # --set keys and values checked


@pytest.mark.parametrize("command", sorted(c for c, how in COVERAGE.items() if how == ARGUMENTS))
def test_documented_arguments_parse(command):
    check_arguments(command)


def czeng16_file(path: Path, sample: Path) -> None:
    """A gzip'd CzEng 1.6 export (`id TAB filter_score TAB cs TAB en`) of the sample's first pairs."""
    cs = (sample / "tatoeba-every13th.cs").read_text(encoding="utf-8").splitlines()
    en = (sample / "tatoeba-every13th.en").read_text(encoding="utf-8").splitlines()
    path.parent.mkdir(parents=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for i, (c, e) in enumerate(zip(cs, en)):
            handle.write(f"subtitlesM-b1-00train-f00001-s{i}\t0.9\t{c}\t{e}\n")


# what a page's RUN commands read that an earlier command of the page (or a GPU step, covered by ARGUMENTS) writes
PREREQUISITES = {"README.md": ("out/czeng",), "docs/dataflow.md": ("out/bt",)}


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory, sample_dir):
    """page -> its working directory, made on first use and shared by the page's RUN commands (in page order), as
    in a source checkout: `data/sample` (SAMPLE_PAIRS pairs of each bundled file), `configs` and `assets` (the
    repository's), `czeng/part.gz` (a CzEng 1.6 file of those pairs), and the translated shards of PREREQUISITES
    (built here on the CPU)."""
    made = {}

    def workspace(page: str) -> Path:
        if page not in made:
            root = made[page] = tmp_path_factory.mktemp(page.replace("/", "-"))
            (root / "data" / "sample").mkdir(parents=True)
            for path in sample_dir.glob("*.[ce][sn]"):
                lines = path.read_text(encoding="utf-8").splitlines(keepends=True)[:SAMPLE_PAIRS]
                (root / "data" / "sample" / path.name).write_text("".join(lines), encoding="utf-8")
            for name in ("configs", "assets"):
                (root / name).symlink_to(REPO / name)
            czeng16_file(root / "czeng" / "part.gz", root / "data" / "sample")
            for output in PREREQUISITES.get(page, ()):
                assert cli.main(["build", "--input", f"{root}/data/sample/*", "--format", "moses", "--output",
                                 str(root / output), "--stages", "read,clean,xsim,translate",
                                 "--direct_running_mode", "in_memory"]) == 0
        return made[page]

    return workspace


def run_documented(command: str) -> int:
    argv = shlex.split(command)[1:]
    if "--direct_running_mode" not in argv and argv[0] in ("build", "filter", "stats", "export", "lexicon"):
        argv += ["--direct_running_mode", "in_memory"]
    return cli.main(argv)


@pytest.mark.parametrize("page, command", [(p, c) for p, c in documented_commands() if COVERAGE.get(c) == RUN])
def test_documented_commands_run(page, command, workspaces, monkeypatch):
    root = workspaces(page)
    monkeypatch.chdir(root)
    (root.parent / "shared").exists() or (root.parent / "shared").symlink_to(REPO.parent / "shared")
    assert run_documented(command) == 0
    argv = shlex.split(command)
    assert (root / argv[argv.index("--output") + 1]).exists()


@pytest.mark.parametrize("command", sorted(c for c, how in COVERAGE.items() if how == DATAFLOW))
def test_documented_dataflow_launches_pass_check_dataflow(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    argv = ["check-dataflow", *shlex.split(command)[2:]]
    if "--job-dir" in argv:                          # the page's own check-dataflow: its job goes to tmp_path
        argv[argv.index("--job-dir") + 1] = str(tmp_path / "job")
    else:
        argv += ["--job-dir", str(tmp_path / "job")]
    code = cli.main(argv)
    printed = capsys.readouterr()
    assert code == 0, printed.out + printed.err
    assert "WARNING" not in printed.out
