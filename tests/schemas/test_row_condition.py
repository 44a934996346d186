"""parse.only_if's condition language: what it accepts and how it evaluates, and every kind of mistake as one
ConfigError naming the key (exit 2 from the command line, before any work)."""
import math

import pytest

from paranmt.pipelines.cli import main
from paranmt.schemas.build_config import BuildConfig, load_build_config
from paranmt.schemas.errors import ConfigError
from paranmt.schemas.row_condition import NUMERIC_COLUMNS, ConditionError, parse_condition


def test_numeric_columns_come_from_the_schema():
    assert {"para_score", "trigram_overlap", "bt_score", "xsim", "ref_len", "bt_len"} <= set(NUMERIC_COLUMNS)
    assert not {"ref", "ref_template", "id", "parse_skipped"} & set(NUMERIC_COLUMNS)


@pytest.mark.parametrize("text, row, expected", [
    ("para_score >= 0.5", {"para_score": 0.5}, True),
    ("para_score >= 0.5", {"para_score": 0.49}, False),
    ("para_score>0.5 and trigram_overlap<0.7", {"para_score": 0.6, "trigram_overlap": 0.7}, False),
    ("para_score>0.5 and trigram_overlap<0.7", {"para_score": 0.6, "trigram_overlap": 0.2}, True),
    ("ref_len <= 3 or para_score >= 0.9 and bt_len != 2", {"ref_len": 9, "para_score": 0.95, "bt_len": 5}, True),
    ("(ref_len <= 3 or para_score >= 0.9) and bt_len != 2", {"ref_len": 1, "para_score": 0.1, "bt_len": 2}, False),
    ("bt_score > -1e-1", {"bt_score": -0.05}, True),
    ("xsim == 1", {"xsim": 1.0}, True),
    # a null or NaN score fails every comparison
    ("para_score >= 0.5", {"para_score": None}, False),
    ("para_score < 0.5", {}, False),
    ("para_score != 0.5", {"para_score": math.nan}, False),
])
def test_conditions_evaluate(text, row, expected):
    assert parse_condition(text)(row) is expected


@pytest.mark.parametrize("text, message", [
    ("", "empty condition"),
    ("para_scor >= 0.5", "unknown column 'para_scor'.*did you mean 'para_score'"),
    ("ref >= 0.5", "unknown column 'ref'"),
    ("para_score 0.5", "expected a comparison"),
    ("para_score >= high", "expected a number after para_score >="),
    ("para_score >= 0.5 and", "expected a column name at the end"),
    ("para_score >= 0.5 trigram_overlap < 1", "unexpected 'trigram_overlap'"),
    ("(para_score >= 0.5", "expected '\\)' at the end"),
    ("__import__('os').system('true')", "unexpected"),
    ("para_score >= 0.5; rm", "unexpected ';"),
])
def test_bad_conditions_say_why(text, message):
    with pytest.raises(ConditionError, match=message):
        parse_condition(text)


def test_a_bad_condition_is_a_config_error_naming_the_key():
    config = load_build_config(None, {"input": "x", "output": "y",
                                      "parse.only_if": "para_score >= 0.5 or"})
    with pytest.raises(ConfigError, match=r"^parse.only_if 'para_score >= 0.5 or': expected a column name"):
        config.validate()
    assert BuildConfig().parse.only_if is None
    good = load_build_config(None, {"input": "x", "output": "y", "parse.only_if": "para_score >= 0.5"})
    assert good.validate().parse.condition()({"para_score": 0.7}) is True


def test_cli_exits_2_with_one_line_before_any_work(tmp_path, capsys):
    code = main(["build", "--input", str(tmp_path / "none.tsv"), "--output", str(tmp_path / "out"),
                 "--set", "parse.only_if=para_score >> 0.5"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "parse.only_if" in err
    assert not (tmp_path / "out").exists()


def test_condition_names_the_columns_it_reads():
    condition = parse_condition("(para_score >= 0.5 or xsim > 0.2) and ref_len <= 30 and para_score < 0.99")
    assert condition.columns == {"para_score", "xsim", "ref_len"}


@pytest.mark.parametrize("stages, condition, message", [
    ("read,clean,translate,parse", "para_score >= 0.5",
     "parse.only_if reads para_score, which no stage of this build fills (the score stage fills it: add score"),
    ("read,clean,translate,score,parse", "xsim > 0.3 and para_score >= 0.5",
     "parse.only_if reads xsim, which no stage of this build fills (the xsim stage fills it"),
])
def test_only_if_over_a_column_no_planned_stage_fills_is_refused(tmp_path, capsys, stages, condition, message):
    """Without the stage that fills it the column is null on every row, so nothing would be parsed."""
    config = load_build_config(None, {"input": "x", "output": "y", "stages": stages.split(","),
                                      "parse.only_if": condition})
    with pytest.raises(ConfigError, match=r"^" + message.replace("(", r"\(")):
        config.validate()
    code = main(["build", "--input", str(tmp_path / "none.tsv"), "--output", str(tmp_path / "out"),
                 "--stages", stages, "--set", f"parse.only_if={condition}"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and message in err


@pytest.mark.parametrize("stages, fmt", [("read,clean,translate,score,parse", "tsv"), ("parse", "shards")])
def test_only_if_over_filled_columns_or_over_shards_is_accepted(stages, fmt):
    config = load_build_config(None, {"input": "x", "output": "y", "format": fmt, "stages": stages.split(","),
                                      "parse.only_if": "para_score >= 0.58 and ref_len <= 30 and bt_len <= 30"})
    assert config.validate().parse.condition().columns == {"para_score", "ref_len", "bt_len"}
