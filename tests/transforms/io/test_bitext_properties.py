"""Property-based tests of the readers and the clean stage on arbitrary bytes / text (hypothesis): they never
raise, and every input line ends as exactly one row or one reject with a unique id."""
import gzip
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paranmt.models.text.clean import CleanStage
from paranmt.schemas.build_config import CleanConfig
from paranmt.schemas.records import empty_row, is_reject
from paranmt.transforms.io.bitext import read_file
from paranmt.transforms.io.read_plan import ReadOptions, plan_inputs

READER_REASONS = {"wrong_column_count", "empty_line", "invalid_utf8", "line_too_long", "corrupt_file",
                  "line_count_mismatch", "bad_score"}
CLEAN_REASONS = {"control_characters", "empty_side", "too_many_chars", "too_few_tokens", "too_many_tokens",
                 "length_ratio"}
LINE_BYTES = st.lists(st.binary(max_size=60).map(lambda b: b.replace(b"\n", b"")), max_size=25)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def records(paths, fmt, max_line_bytes=40, **options):
    opts = ReadOptions(format=fmt, max_line_bytes=max_line_bytes, **options)
    out, counted = [], 0
    for unit in plan_inputs([str(p) for p in paths], fmt, opts.suffixes):
        for _, record in read_file(unit, opts):
            if "_count" in record:
                counted += record["_count"]["read"]
            else:
                out.append(record)
    return out, counted


def physical_lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


@SETTINGS
@given(lines=LINE_BYTES, fmt=st.sampled_from(["tsv", "czeng16"]), final_newline=st.booleans())
def test_any_bytes_give_one_record_per_line(tmp_path, lines, fmt, final_newline):
    data = b"\n".join(lines) + (b"\n" if final_newline and lines else b"")
    path = tmp_path / "f.tsv"
    path.write_bytes(data)
    out, counted = records([path], fmt)
    assert len(out) == counted == physical_lines(data)
    assert len({r["id"] for r in out}) == len(out) or fmt == "czeng16"
    assert all(r["reason"] in READER_REASONS for r in out if is_reject(r))


@SETTINGS
@given(lines=LINE_BYTES)
def test_czeng20_lines_are_records_or_separators(tmp_path, lines):
    data = b"\n".join(lines) + b"\n" if lines else b""
    (tmp_path / "c.tsv").write_bytes(data)
    out, counted = records([tmp_path / "c.tsv"], "czeng20")
    blank = sum(1 for line in lines if not line.strip())
    assert len(out) == counted == len(lines) - blank


@SETTINGS
@given(source=LINE_BYTES, reference=LINE_BYTES)
def test_moses_pairs_cover_the_longer_file(tmp_path, source, reference):
    (tmp_path / "m.cs").write_bytes(b"".join(line + b"\n" for line in source))
    (tmp_path / "m.en").write_bytes(b"".join(line + b"\n" for line in reference))
    out, counted = records([tmp_path / "m.cs"], "moses", suffixes=("cs", "en"))
    assert len(out) == counted == max(len(source), len(reference))
    mismatches = [r for r in out if is_reject(r) and r["reason"] == "line_count_mismatch"]
    assert len(mismatches) == abs(len(source) - len(reference))


@SETTINGS
@given(text=st.text(alphabet=string.ascii_letters + " \tčřž", max_size=400), cut=st.floats(0, 1))
def test_truncated_gzip_yields_a_prefix_and_one_reject(tmp_path, text, cut):
    lines = [f"{w}\t{w.upper()}" for w in text.split(" ") if w.strip() and "\t" not in w]
    data = gzip.compress("".join(line + "\n" for line in lines).encode())
    (tmp_path / "g.tsv.gz").write_bytes(data[: int(len(data) * cut)])
    out, counted = records([tmp_path / "g.tsv.gz"], "tsv", max_line_bytes=1 << 20)
    rows = [r for r in out if not is_reject(r)]
    assert [f"{r['cs']}\t{r['ref']}" for r in rows] == lines[: len(rows)]
    assert counted == len(out) and len(out) - len(rows) <= 1


@settings(max_examples=300, deadline=None)
@given(cs=st.text(max_size=80), ref=st.text(max_size=80))
def test_clean_never_raises_and_outputs_clean_text(cs, ref):
    [out] = CleanStage(CleanConfig(max_tokens=30), "cs", "en").process_batch([empty_row("h:f:1", "h", cs, ref)])
    if is_reject(out):
        assert out["reason"] in CLEAN_REASONS and out["raw"] == f"{cs}\t{ref}"
    else:
        for side in (out["cs"], out["ref"]):
            assert side and side == side.strip() and "\t" not in side and "\n" not in side
        assert 1 <= out["ref_len"] <= 30
