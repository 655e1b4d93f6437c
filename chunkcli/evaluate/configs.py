"""`NAME=SPLIT OPTIONS` -> a named SplitOptions, e.g. `small=--max-tokens 300 --split-on h3`.

The options are split's own flags that shape chunk boundaries, written as on split's command
line (`--max-tokens 300` or `--max-tokens=300`); anything else is an error naming the config.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from chunkcli.errors import UsageError
from chunkcli.split.options import SplitMode, SplitOptions

# split's flags that move chunk boundaries -> their SplitOptions field.
_INT_FLAGS = {
    "--max-tokens": "max_tokens",
    "--min-tokens": "min_tokens",
    "--overlap-sentences": "overlap_sentences",
    "--rows-per-chunk": "rows_per_chunk",
}
_TEXT_FLAGS = {"--encoding": "encoding", "--split-on": "split_on", "--mode": "mode"}


@dataclass(frozen=True, slots=True)
class EvalConfig:
    name: str
    spec: str  # the options as given
    options: SplitOptions


def parse_config(given: str) -> EvalConfig:
    """One `--config` value; raises UsageError naming it."""
    name, sep, spec = given.partition("=")
    name = name.strip()
    if not sep or not name:
        raise UsageError(f'--config expects NAME="SPLIT OPTIONS", got {given!r}')
    try:
        words = shlex.split(spec)
    except ValueError as exc:
        raise UsageError(f"--config {name}: {exc}") from None
    numbers: dict[str, int] = {}
    texts: dict[str, str] = {}
    while words:
        flag, _, inline = words.pop(0).partition("=")
        if flag not in _INT_FLAGS and flag not in _TEXT_FLAGS:
            known = ", ".join([*_INT_FLAGS, *_TEXT_FLAGS])
            raise UsageError(f"--config {name}: unknown split option {flag!r} (known: {known})")
        if not inline and not words:
            raise UsageError(f"--config {name}: {flag} needs a value")
        value = inline or words.pop(0)
        if flag in _TEXT_FLAGS:
            texts[_TEXT_FLAGS[flag]] = value
        else:
            numbers[_INT_FLAGS[flag]] = _number(value, flag, name)
    try:
        options = _options(numbers, texts).validated()
    except UsageError as exc:
        raise UsageError(f"--config {name}: {exc}") from None
    return EvalConfig(name, spec.strip(), options)


def _number(value: str, flag: str, name: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise UsageError(f"--config {name}: {flag} expects a whole number, got {value!r}") from None


def _options(numbers: dict[str, int], texts: dict[str, str]) -> SplitOptions:
    default = SplitOptions()
    return SplitOptions(
        max_tokens=numbers.get("max_tokens", default.max_tokens),
        min_tokens=numbers.get("min_tokens", default.min_tokens),
        overlap_sentences=numbers.get("overlap_sentences", default.overlap_sentences),
        encoding=texts.get("encoding", default.encoding),
        split_on=texts.get("split_on", default.split_on),
        mode=SplitMode.parse(texts.get("mode", default.mode)),
        rows_per_chunk=numbers.get("rows_per_chunk", default.rows_per_chunk),
    )


def parse_configs(given: list[str]) -> list[EvalConfig]:
    """Every `--config`, names unique; none given means split's defaults, named `default`."""
    configs = [parse_config(g) for g in given] or [EvalConfig("default", "", SplitOptions())]
    names = [c.name for c in configs]
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"--config name {name!r} is used more than once")
    return configs


def parse_ks(given: str) -> tuple[int, ...]:
    """`1,3,5,10` -> (1, 3, 5, 10), sorted and unique; raises UsageError."""
    try:
        ks = sorted({int(part) for part in given.split(",") if part.strip()})
    except ValueError:
        raise UsageError(f"--k expects whole numbers separated by commas, got {given!r}") from None
    if not ks or ks[0] < 1:
        raise UsageError(f"--k expects numbers >= 1, got {given!r}")
    return tuple(ks)
