"""The output contract (pipelines/runtime/outputs.py) of `filter`, `export`, `stats` and `lexicon`: an output that is,
holds or lies inside the input is refused; an earlier run's output is refused without --overwrite (they cannot
resume: the line names --overwrite alone), and --overwrite deletes what the earlier run wrote, so that no file of it
(a shard of another sharding) is left beside the new ones. Each refusal is one line, exit 2, before any work."""
import pytest

from paranmt.pipelines.cli import main

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]
COMMANDS = {"filter": ["filter", "--config", "lexicon"], "export": ["export", "--format", "hf"],
            "stats": ["stats"], "lexicon": ["lexicon"]}
# what an earlier run of each leaves in its output (one file is enough to be refused)
EARLIER = {"filter": "shard-00000.parquet", "export": "README.md", "stats": "stats.json",
           "lexicon": "lexicon-00000-of-00001.tsv"}


def one_line(capsys, command: str) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"paranmt {command}: configuration error: "), err
    return err


@pytest.mark.parametrize("command", COMMANDS)
def test_outputs_apart_from_the_input_and_no_earlier_run_replaced_by_surprise(command, corpus_shards, tmp_path,
                                                                            capsys):
    argv = [*COMMANDS[command], "--input", str(corpus_shards), *LOCAL, "--output"]
    assert main([*argv, str(corpus_shards)]) == 2
    assert f"--output {corpus_shards} is the input {corpus_shards}" in one_line(capsys, command)
    assert main([*argv, str(corpus_shards / "out")]) == 2
    assert f"is inside the input {corpus_shards}" in one_line(capsys, command)
    output = tmp_path / "out"
    output.mkdir()
    (output / EARLIER[command]).write_text("x")
    assert main([*argv, str(output)]) == 2
    line = one_line(capsys, command)
    assert f"--output {output} already holds " in line and "give --overwrite to replace it" in line
    assert "--resume" not in line


def test_overwrite_leaves_nothing_of_the_earlier_run(corpus_shards, tmp_path):
    dataset = tmp_path / "dataset"
    argv = ["export", "--format", "hf", "--input", str(corpus_shards), "--output", str(dataset), *LOCAL]
    assert main(argv) == 0
    written = sorted(p.name for p in (dataset / "data").iterdir())
    (dataset / "data" / "an-earlier-shard.parquet").write_bytes((dataset / "data" / written[0]).read_bytes())
    assert main(argv) == 2
    assert main([*argv, "--overwrite"]) == 0
    assert sorted(p.name for p in (dataset / "data").iterdir()) == written
    lexicon = tmp_path / "lexicon"
    lexicon.mkdir()
    (lexicon / "lexicon-00003-of-00007.tsv").write_text("u\tv\n")             # a shard of another sharding
    assert main(["lexicon", "--input", str(corpus_shards), "--output", str(lexicon), "--overwrite", *LOCAL]) == 0
    assert not (lexicon / "lexicon-00003-of-00007.tsv").exists() and list(lexicon.glob("lexicon-*.tsv"))
