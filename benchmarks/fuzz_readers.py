"""Fuzz the bitext readers and the clean stage at scale with hypothesis (the properties of
tests/transforms/io/test_bitext_properties.py, many more examples, also compressed and truncated inputs).

    .venv/bin/python benchmarks/fuzz_readers.py --examples 20000

Property checked on every input: reading never raises, and every physical line (or pair of lines) ends as exactly
one row or one reject (`read` count == rows + rejects); clean never raises and returns a row or a known reject.
Prints the number of inputs tried per target and in total.
"""
from __future__ import annotations

import bz2
import gzip
import lzma
import os
import sys
import tempfile
import time

import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paranmt.models.text.clean import CleanStage
from paranmt.pipelines.cli import CommandLineParser, exit_code
from paranmt.schemas.build_config import CleanConfig
from paranmt.schemas.records import empty_row, is_reject
from paranmt.transforms.io.bitext import read_file
from paranmt.transforms.io.read_plan import ReadOptions, plan_inputs

COMPRESSORS = {"": lambda b: b, ".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress,
               ".zst": zstandard.ZstdCompressor().compress}
LINES = st.lists(st.binary(max_size=80).map(lambda b: b.replace(b"\n", b"")), max_size=30)
tried = {"readers": 0, "moses": 0, "clean": 0}


def read(paths, fmt, **options):
    opts = ReadOptions(format=fmt, max_line_bytes=50, **options)
    records, counted = 0, 0
    for unit in plan_inputs(paths, fmt, opts.suffixes):
        for _, record in read_file(unit, opts):
            if "_count" in record:
                counted += record["_count"]["read"] + record["_count"]["separators"]
            else:
                records += 1
    return records, counted


def main() -> None:
    parser = CommandLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=20000)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp()
    config = settings(max_examples=args.examples, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))

    @config
    @given(lines=LINES, fmt=st.sampled_from(["tsv", "czeng16", "czeng20"]),
           suffix=st.sampled_from(sorted(COMPRESSORS)), cut=st.one_of(st.none(), st.floats(0, 1)))
    def readers(lines, fmt, suffix, cut):
        tried["readers"] += 1
        data = COMPRESSORS[suffix](b"".join(line + b"\n" for line in lines))
        if cut is not None:
            data = data[: int(len(data) * cut)]
        path = os.path.join(workdir, f"f.tsv{suffix}")
        with open(path, "wb") as handle:
            handle.write(data)
        records, counted = read([path], fmt)
        separators = counted - records
        assert separators >= 0
        if cut is None:
            assert records + separators == len(lines) if fmt == "czeng20" else records == len(lines)

    @config
    @given(source=LINES, reference=LINES)
    def moses(source, reference):
        tried["moses"] += 1
        for suffix, lines in (("cs", source), ("en", reference)):
            with open(os.path.join(workdir, f"m.{suffix}"), "wb") as handle:
                handle.write(b"".join(line + b"\n" for line in lines))
        records, counted = read([os.path.join(workdir, "m.cs")], "moses", suffixes=("cs", "en"))
        assert records == counted == max(len(source), len(reference))

    stage = CleanStage(CleanConfig(max_tokens=40), "cs", "en")

    @config
    @given(cs=st.text(max_size=120), ref=st.text(max_size=120))
    def clean(cs, ref):
        tried["clean"] += 1
        [out] = stage.process_batch([empty_row("f:f:1", "f", cs, ref)])
        assert is_reject(out) or (out["cs"] and out["ref"])

    start = time.time()
    for target in (readers, moses, clean):
        target()
    print(f"inputs tried: {tried} total {sum(tried.values())} in {time.time() - start:.0f} s, no failure")


if __name__ == "__main__":
    sys.exit(exit_code(main))
