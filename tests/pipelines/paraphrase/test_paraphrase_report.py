"""`paranmt report` on the shards of `paranmt paraphrase --input SHARDS --all` (real held-out pairs, the session's
tiny paraphrasers): candidates kept and dropped per reason, the summary's counts, and whole sampled sources with
every candidate; a rating sheet of paraphrase shards is refused in one line."""
import re
from collections import Counter

import pyarrow.parquet as pq

from paranmt.pipelines.cli import main


def attributes(page: str, pattern: str) -> list[dict]:
    """The data attributes of every tag of the page whose opening matches `pattern`."""
    return [dict(re.findall(r'data-([\w-]+)="([^"]*)"', tag)) for tag in re.findall(rf"<{pattern}[^>]*>", page)]


def test_a_report_of_paraphrase_shards(tiny_models, held_out_shards, tmp_path, capsys, one_line):
    shards = tmp_path / "paraphrased"
    assert main(["paraphrase", "--model", str(tiny_models), "--input", str(held_out_shards), "--output", str(shards),
                 "--templates", "top2", "--all", "--direct_running_mode=in_memory"]) == 0
    table = pq.read_table(shards).to_pandas()
    assert main(["report", "--input", str(shards), "--output", str(tmp_path / "r"), "--per-band", "4"]) == 0
    assert f"{len(table):,} rows of 1 shard file(s) ->" in capsys.readouterr().out
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    section = attributes(page, 'section id="paraphrases"')[0]
    assert (int(section["rows"]), int(section["kept"]), int(section["sources"])) == (
        len(table), int(table["kept"].sum()), table["source_id"].nunique())
    build = attributes(page, 'section id="build"')[0]
    assert (int(build["candidates"]), int(build["kept"])) == (len(table), int(table["kept"].sum()))
    sources = attributes(page, 'div class="source"')
    per_source = Counter(table["source_id"])
    assert len(sources) == 4 and all(int(s["candidates"]) == per_source[s["source"]] for s in sources)
    for reason, count in table["reason"].dropna().value_counts().items():
        assert re.search(rf'<span class="dropped">{re.escape(reason)}</span></td><td>{count}</td>', page), reason
    assert main(["report", "--input", str(shards), "--output", str(tmp_path / "sheet"), "--rate"]) == 2
    assert "holds paraphrase shards" in one_line("report")
