"""eval: measure retrieval on gold answer spans and compare split configurations, offline.

gold (parse, locate spans) -> sources (read once) -> split per config -> retriever (BM25 or a
user's embedding) -> metrics (per question, per config) -> report (Markdown or JSON).
"""

from __future__ import annotations

from chunkcli.evaluate.configs import EvalConfig, parse_config, parse_configs, parse_ks
from chunkcli.evaluate.gold import GoldError, GoldQuestion, TextSpan
from chunkcli.evaluate.report import to_json, to_markdown
from chunkcli.evaluate.run import ConfigResult, EvalReport, run_eval
from chunkcli.evaluate.template import make_gold

__all__ = [
    "ConfigResult",
    "EvalConfig",
    "EvalReport",
    "GoldError",
    "GoldQuestion",
    "TextSpan",
    "make_gold",
    "parse_config",
    "parse_configs",
    "parse_ks",
    "run_eval",
    "to_json",
    "to_markdown",
]
