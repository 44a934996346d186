"""The argument groups that several commands add to their parsers (each command's own flags stay in its module)."""
from __future__ import annotations


def add_evaluation_arguments(parser, data_dir_help: str, output_help: str) -> None:
    """`--model`, `--data-dir`, `--output`, `--threads`: the arguments every evaluation command over a folder laid
    out like ../shared/data shares (eval-words, eval-transfer, finetune-sts)."""
    parser.add_argument("--model", required=True, help="encoder directory")
    parser.add_argument("--data-dir", required=True, help=f"folder laid out like ../shared/data ({data_dir_help})")
    parser.add_argument("--output", required=True, help=output_help)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
