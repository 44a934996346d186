"""After a build: DIR/__paranmt__/manifest.json and metrics.json from the counts the shards hold, the accounting
line `read N = written W + rejected R` and the notes."""
from __future__ import annotations

import sys

from paranmt.pipelines.runtime.building.plan import BuildPlan
from paranmt.schemas import layout


def write_manifest(plan: BuildPlan, fingerprints: dict[str, dict], shards: list[dict], done: set[str],
                   bt_sources: dict[str, int] | None = None) -> None:
    """DIR/__paranmt__/manifest.json: versions, config hash, input and its files' fingerprints (size, sha256:
    what --resume checks), stages, model identities, where the written rows' translations came from
    (`bt_sources`: `input`, `translate`; summed over the shards), the shards written and those a resume kept."""
    from paranmt.schemas.metadata import package_version
    from paranmt.schemas.records import SCHEMA_VERSION
    from paranmt.transforms.shards import join_path, write_json

    config = plan.config
    write_json(join_path(config.output, layout.MANIFEST), {
        "schema_version": SCHEMA_VERSION, "package_version": package_version(), "config_hash": config.hash(),
        "input": config.input, "format": config.format, "input_files": fingerprints, "stages": config.stages,
        "models": plan.models, "bt_sources": bt_sources or {}, "shards": shards, "resumed_shards": sorted(done)})


def report_build(plan: BuildPlan, done: set[str], result, elapsed: float, fingerprints: dict[str, dict]) -> dict:
    """After a run: write the manifest and metrics, print the accounting line, the rejects by reason and the
    notes, and raise AccountingError when read != written + rejected. Returns the totals."""
    from paranmt.models.nmt.model_dir import demo_model_notice
    from paranmt.transforms.io.writer import AccountingError
    from paranmt.transforms.shards import join_path, write_json

    config, counters = plan.config, beam_counters(result)
    shards, totals = summarize(config.output)
    write_manifest(plan, fingerprints, shards, done, totals["bt_sources"])
    write_json(join_path(config.output, layout.METRICS), {
        **totals, "seconds": round(elapsed, 3), "beam_counters": counters})
    balanced = totals["read"] == totals["written"] + totals["rejected"]
    print(f"paranmt build: read {totals['read']} = written {totals['written']} + rejected {totals['rejected']}"
          f"{'' if balanced else '  MISMATCH'}  ({len(shards)} shards, {elapsed:.1f} s; stages "
          f"{','.join(config.stages)})")
    for reason, n in totals["rejects_by_reason"].items():
        print(f"  rejected {reason}: {n}")
    if totals["bt_sources"]:
        print("  bt of the written rows: " + ", ".join(f"{n} from {'the ' if source == 'input' else ''}{source}"
                                                      for source, n in totals["bt_sources"].items()))
    notice = demo_model_notice(config.translate.model) if "translate" in config.stages else None
    if notice:
        print(f"  NOTE: {notice}")
    extra = counters.get("read/extra_columns", 0)
    if extra:
        print(f"  {extra} TSV line(s) had more columns than read.columns names; the extra columns were ignored "
              f"(--strict-columns rejects such lines)")
    other = counters.get("xsim/unsupported_language", 0)
    if other:
        prefix = "xsim/unsupported_language/"
        languages = sorted(((n, name[len(prefix):]) for name, n in counters.items() if name.startswith(prefix)),
                           key=lambda item: (-item[0], item[1]))
        print(f"  {other} row(s) have a src_lang the xsim encoder does not cover: their xsim is null ("
              + ", ".join(f"{language} {n}" for n, language in languages) + ")")
    for hint in encoding_hints(config.output, shards):
        print(f"paranmt build: {hint}", file=sys.stderr)
    print(f"  outputs: {config.output}/*.parquet, rejects in {join_path(config.output, layout.REJECTS)}/*.pq, "
          f"{layout.MANIFEST}, {layout.METRICS}, {layout.CONFIG}")
    if not balanced:
        raise AccountingError(f"read {totals['read']} != written {totals['written']} + rejected "
                              f"{totals['rejected']}")
    if totals["read"] and not totals["written"]:
        print(f"paranmt build: WARNING: every one of the {totals['read']} input records was rejected (reasons "
              f"above, rows in {join_path(config.output, layout.REJECTS)}/): check --format, --columns and the "
              f"input encoding", file=sys.stderr)
    return totals


def summarize(output: str) -> tuple[list[dict], dict]:
    """Per-shard counts read back from every data shard in `output`, and their totals."""
    from paranmt.transforms.shards import completed_shards, read_shard_counts, shard_path

    shards = [{"name": name, **read_shard_counts(shard_path(output, name))}
              for name in sorted(completed_shards(output))]
    totals = {"read": 0, "separators": 0, "written": 0, "rejected": 0, "rejects_by_reason": {}, "bt_sources": {}}
    for shard in shards:
        for key in ("read", "separators", "written", "rejected"):
            totals[key] += shard.get(key, 0)
        for key in ("rejects_by_reason", "bt_sources"):
            for name, n in shard.get(key, {}).items():
                totals[key][name] = totals[key].get(name, 0) + n
    for key in ("rejects_by_reason", "bt_sources"):
        totals[key] = dict(sorted(totals[key].items()))
    return shards, totals


def beam_counters(result) -> dict[str, int]:
    try:
        counters = result.metrics().query()["counters"]
    except Exception:  # noqa: BLE001 - not every runner reports metrics
        return {}
    return {f"{c.key.metric.namespace}/{c.key.metric.name}": c.committed or c.attempted for c in counters}


def encoding_hints(output: str, shards: list[dict]) -> list[str]:
    """One line per input file with lines that are not UTF-8 (encoding.encoding_advice: an encoding is guessed only
    when most of the file's lines fail; otherwise its first bad line is named), from the per-shard counts of
    `summarize` and the invalid_utf8 rejects of the file's first shard that has any."""
    from apache_beam.io.filesystems import FileSystems
    from paranmt.models.encoding import UTF8_PROBLEM, encoding_advice
    from paranmt.transforms.shards import reject_files, shard_name

    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    files: dict[str, list[dict]] = {}
    for shard in shards:
        files.setdefault(shard["name"].rsplit(".", 1)[0], []).append(shard)
    rejects = {shard_name(path): path for path in reject_files(output)}
    hints = []
    for stem, blocks in sorted(files.items()):
        invalid = [b for b in blocks if b.get("rejects_by_reason", {}).get("read/invalid_utf8")]
        if not invalid or invalid[0]["name"] not in rejects:
            continue
        with FileSystems.open(rejects[invalid[0]["name"]]) as handle:
            table = pq.read_table(handle, columns=["reason", "detail"])
        details = table.filter(pc.equal(table.column("reason"), "invalid_utf8")).column("detail").to_pylist()
        problems = [m for m in map(UTF8_PROBLEM.match, details) if m]
        first = min(problems, key=lambda m: int(m["line"]))[0] if problems else details[0]
        hints.append(encoding_advice(sum(b["rejects_by_reason"].get("read/invalid_utf8", 0) for b in blocks),
                                     sum(b.get("read", 0) for b in blocks), first, [m["guess"] for m in problems]))
    return hints
