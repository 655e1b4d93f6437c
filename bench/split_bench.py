"""Split benchmark: chunkcli split vs LangChain's header -> recursive pipeline, same Markdown.

    python bench/split_bench.py [--max-tokens 300] [--target-mb 5] [--corpus DIR] [--pdfs N]
                                [--distinct] [--markdown FILE] [--rounds N]

The Markdown: samples/*.expected.md, plus (when the corpus folder exists) its *.groundtruth.md
files and the Markdown chunkcli converts from its first N PDFs; all of it repeated until it
reaches --target-mb. Both tools get the same string and the same offline cl100k_base counter:
  chunkcli   split_markdown(markdown, SplitOptions(max_tokens=N))
  langchain  MarkdownHeaderTextSplitter on H1-H3 (headers kept), then
             RecursiveCharacterTextSplitter.from_tiktoken_encoder(chunk_size=N, chunk_overlap=0)
Quality columns, counted the same way for both (outside the timed part):
  table cuts   chunks holding some but not all body rows of a table, without its header rows
  over limit   chunks whose text counts more than N tokens (chunkcli: all flagged `oversize`)
  not at offsets  chunkcli: body != markdown[start:end]; LangChain has no offsets, so: chunk
                  text not found verbatim in the Markdown near the previous chunk
chonkie runs twice: with the same cl100k_base Encoding (the comparison that counts: the same
tokens), and with its default tokenizer, which counts characters (a row for its speed alone).
The tiktoken row encodes the whole text once with the same Encoding: the floor of any chunker
whose token counts are exact. chonkie remembers the counts of the last 4,096 texts it counted,
which the default text (its parts repeated) serves mostly from memory: stderr says how many;
--distinct builds a text in which no part repeats.
--processes N times chunkcli split, its start-up (a 10-line file), `chunkcli --version` and the
LangChain pipeline as whole processes, N times each in turn; --before TREE adds the same
chunkcli rows for another checkout (a folder holding its `chunkcli` package), taken in the
same turns, so that before and after share the machine's load.
--rounds N times the in-process tools N times each, in turns (the order reversed every other
round, chonkie's count cache emptied before each of its runs, as in a fresh process), and
prints each tool's median and range of CPU seconds and the ratio chunkcli / chonkie of each
round: one run moves by ±20 % on this shared machine, more than the trees compared differ.
Prints a Markdown table (MB = 10^6 bytes of UTF-8).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from chunkcli.markdown_lines import line_offsets  # noqa: E402
from chunkcli.split import SplitOptions, split_markdown  # noqa: E402
from chunkcli.split.blocks import block_parser  # noqa: E402
from chunkcli.tokens import load_encoding, tiktoken_counter  # noqa: E402

DEFAULT_CORPUS = Path("/work/shared/corpus/pdfs")
# Chunks are searched for near where the previous one was found; LangChain drops a little
# whitespace between chunks, never this much.
SEARCH_WINDOW_CHARS = 20_000
# Split by both tools before timing, so that one-time set-up is not counted as throughput.
WARM_UP_MARKDOWN = "# Title\n\n## Part\n\nSome text. More.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"


@dataclass(frozen=True)
class Result:
    tool: str
    seconds: float  # wall clock
    cpu_seconds: float  # this process's CPU time: steadier when other jobs share the machine
    chunks: int
    table_cuts: int
    over_limit: int
    not_at_offsets: int


def build_markdown(
    corpus: Path, pdf_count: int, target_mb: float, distinct: bool = False
) -> tuple[str, list[str]]:
    """The benchmark text and the names of its parts. By default the parts are repeated until
    the text reaches `target_mb`; with `distinct` they are not (whole parts are taken while
    the text stays within it, the PDFs converted until it is reached): no text repeats, so
    no tool gains by remembering the counts of texts it has seen."""
    parts: list[tuple[str, str]] = []
    for path in sorted((REPO_ROOT / "samples").glob("*.expected.md")):
        parts.append((path.name, path.read_text(encoding="utf-8")))
    if corpus.is_dir():
        for path in sorted(corpus.glob("*.md")):
            parts.append((path.name, path.read_text(encoding="utf-8")))
        parts += convert_some(sorted(corpus.glob("*.pdf"))[:pdf_count])
    if distinct:
        return _distinct_text(parts, target_mb)
    unit = "\n\n".join(text for _, text in parts)
    repeats = max(1, round(target_mb * 1e6 / max(1, len(unit.encode("utf-8")))))
    return "\n\n".join([unit] * repeats), [name for name, _ in parts]


def _distinct_text(parts: list[tuple[str, str]], target_mb: float) -> tuple[str, list[str]]:
    """The parts, each once, that fit within `target_mb` together (in order, skipping those
    that would go past it)."""
    kept: list[tuple[str, str]] = []
    size = 0
    for name, text in parts:
        part_size = len(text.encode("utf-8")) + 2
        if size + part_size <= target_mb * 1e6:
            kept.append((name, text))
            size += part_size
    return "\n\n".join(text for _, text in kept), [name for name, _ in kept]


def convert_some(paths: Sequence[Path]) -> list[tuple[str, str]]:
    from chunkcli.convert.pipeline import convert_pdf
    from chunkcli.errors import ChunkcliError

    converted = []
    for path in paths:
        try:
            converted.append((path.name, convert_pdf(path).markdown))
        except ChunkcliError:
            continue
    return converted


def table_line_sets(markdown: str) -> tuple[dict[str, set[str]], dict[str, int], dict[str, str]]:
    """line -> tables (by text) holding it, lines per table, header lines per table."""
    lines_of: dict[str, set[str]] = {}
    sizes: dict[str, int] = {}
    headers: dict[str, str] = {}
    starts = [*line_offsets(markdown, lone_cr_ends=True)[0], len(markdown)]
    for token in block_parser().parse(markdown):
        if token.type != "table_open" or token.level != 0 or token.map is None:
            continue
        first, last = token.map
        lines = [markdown[starts[i] : starts[i + 1]].strip() for i in range(first, last)]
        key = "\n".join(lines)
        rows = set(lines[2:])  # body rows; delimiter lines are shared by many tables
        sizes[key] = len(rows)
        headers[key] = "\n".join(lines[:2])
        for line in rows:
            lines_of.setdefault(line, set()).add(key)
    return lines_of, sizes, headers


def count_table_cuts(texts: Sequence[str], markdown: str) -> int:
    """Chunks with a table row none of whose tables is intact in the chunk (intact: all its
    rows are there, or its header is). A row can belong to several tables (repeated text)."""
    lines_of, sizes, headers = table_line_sets(markdown)
    cuts = 0
    for text in texts:
        stripped = [line.strip() for line in text.split("\n")]
        rows = [line for line in set(stripped) if line in lines_of]
        present: Counter[str] = Counter(key for line in rows for key in lines_of[line])
        joined = "\n".join(stripped)
        intact = {k for k, n in present.items() if n == sizes[k] or headers[k] in joined}
        if any(not (lines_of[line] & intact) for line in rows):
            cuts += 1
    return cuts


def count_not_found(texts: Sequence[str], markdown: str) -> int:
    missing, cursor = 0, 0
    for text in texts:
        found = markdown.find(text, cursor, cursor + len(text) + SEARCH_WINDOW_CHARS)
        if found < 0:
            missing += 1
        else:
            cursor = found + 1
    return missing


def run_chunkcli(markdown: str, max_tokens: int) -> Result:
    # Warm up on a small text: load the encoding and build the parser before timing.
    split_markdown(WARM_UP_MARKDOWN, SplitOptions(max_tokens=max_tokens))
    began, began_cpu = time.perf_counter(), time.process_time()
    chunks = split_markdown(markdown, SplitOptions(max_tokens=max_tokens))
    seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - began_cpu
    return Result(
        "chunkcli split",
        seconds,
        cpu_seconds,
        len(chunks),
        count_table_cuts([c.text for c in chunks], markdown),
        sum(c.tokens > max_tokens for c in chunks),
        sum(markdown[c.start : c.end] != c.body for c in chunks),
    )


def print_chunkcli_memo(markdown: str, max_tokens: int) -> None:
    """How many of chunkcli's piece counts its CountMemo served (one more split, untimed), as
    chonkie's cache is reported: what remembering counts buys on this text."""
    from chunkcli.split import counting

    memos: list[counting.CountMemo] = []
    made = counting.CountMemo.__init__

    def spy(memo: counting.CountMemo, count: Callable[[str], int]) -> None:
        made(memo, count)
        memos.append(memo)

    counting.CountMemo.__init__ = spy  # type: ignore[method-assign,assignment]
    try:
        split_markdown(markdown, SplitOptions(max_tokens=max_tokens))
    finally:
        counting.CountMemo.__init__ = made  # type: ignore[method-assign]
    served = sum(memo.remembered for memo in memos)
    counted = sum(memo.counted for memo in memos)
    print(f"chunkcli: {served:,} piece counts remembered, {counted:,} counted", file=sys.stderr)


def run_langchain(markdown: str, max_tokens: int) -> Result:
    import tiktoken
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    offline = load_encoding("cl100k_base")
    # from_tiktoken_encoder would download cl100k_base: hand it the offline copy instead.
    tiktoken.get_encoding = lambda name: offline  # type: ignore[assignment]
    headers = MarkdownHeaderTextSplitter(
        [("#", "h1"), ("##", "h2"), ("###", "h3")], strip_headers=False
    )
    recursive = RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name="cl100k_base", chunk_size=max_tokens, chunk_overlap=0, disallowed_special=()
    )

    def split(text: str) -> list[str]:
        return [doc.page_content for doc in recursive.split_documents(headers.split_text(text))]

    split(WARM_UP_MARKDOWN)  # the same warm-up as chunkcli's
    began, began_cpu = time.perf_counter(), time.process_time()
    texts = split(markdown)
    seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - began_cpu
    count = tiktoken_counter("cl100k_base")
    return Result(
        "LangChain header→recursive",
        seconds,
        cpu_seconds,
        len(texts),
        count_table_cuts(texts, markdown),
        sum(count(text) > max_tokens for text in texts),
        count_not_found(texts, markdown),
    )


def run_tiktoken_floor(markdown: str, max_tokens: int) -> Result:
    """One encoding of the whole text with the same cl100k Encoding and nothing else: the floor
    of any chunker whose counts are exact (a row, not a chunker)."""
    encoding = load_encoding("cl100k_base")
    encoding.encode_ordinary(WARM_UP_MARKDOWN)
    began, began_cpu = time.perf_counter(), time.process_time()
    tokens = encoding.encode_ordinary(markdown)
    seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - began_cpu
    return Result(
        "tiktoken encode_ordinary, whole text (floor)",
        seconds,
        cpu_seconds,
        len(tokens) // max_tokens,
        0,
        0,
        0,
    )


def run_chonkie(markdown: str, max_tokens: int) -> Result:
    # The offline cl100k_base Encoding: chonkie wraps a tiktoken Encoding as its tokenizer.
    return _run_chonkie(markdown, max_tokens, load_encoding("cl100k_base"), "cl100k")


def run_chonkie_characters(markdown: str, max_tokens: int) -> Result:
    """chonkie's default tokenizer counts characters: not the same chunks (a limit of
    `max_tokens` characters), a row for its speed."""
    return _run_chonkie(markdown, max_tokens, "character", "its default: characters")


def _run_chonkie(markdown: str, max_tokens: int, tokenizer: object, counted: str) -> Result:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=tokenizer, chunk_size=max_tokens)  # type: ignore[arg-type]
    # Its count cache lives on the class: emptied, so each run starts as a fresh process does.
    getattr(RecursiveChunker._estimate_token_count, "cache_clear", lambda: None)()
    chunker.chunk(WARM_UP_MARKDOWN)
    counts = getattr(RecursiveChunker._estimate_token_count, "cache_info", None)
    before = counts() if counts else None
    began, began_cpu = time.perf_counter(), time.process_time()
    chunks = chunker.chunk(markdown)
    seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - began_cpu
    if counts and before:
        # chonkie remembers the counts of the last 4,096 texts it counted (an lru_cache): on a
        # text that repeats (the default bench text is its parts over and over) most of its
        # counts are looked up, not counted.
        after = counts()
        hits, misses = after.hits - before.hits, after.misses - before.misses
        print(
            f"chonkie ({counted}): {hits:,} counts remembered, {misses:,} counted", file=sys.stderr
        )
    return Result(
        f"chonkie RecursiveChunker ({counted})",
        seconds,
        cpu_seconds,
        len(chunks),
        count_table_cuts([c.text for c in chunks], markdown),
        sum(c.token_count > max_tokens for c in chunks),
        sum(markdown[c.start_index : c.end_index] != c.text for c in chunks),
    )


# The LangChain pipeline as a whole process, as `chunkcli split FILE -o OUT` is one: read the
# file, split, recover each chunk's offsets (searched for from the previous chunk on), write
# JSON Lines of text and offsets.
LANGCHAIN_PROCESS = r"""
import json, sys
import tiktoken
from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter
sys.path.insert(0, sys.argv[1])
from chunkcli.tokens import load_encoding
source, output, max_tokens = sys.argv[2], sys.argv[3], int(sys.argv[4])
offline = load_encoding("cl100k_base")
tiktoken.get_encoding = lambda name: offline
headers = MarkdownHeaderTextSplitter([("#", "h1"), ("##", "h2"), ("###", "h3")],
                                     strip_headers=False)
recursive = RecursiveCharacterTextSplitter.from_tiktoken_encoder(
    encoding_name="cl100k_base", chunk_size=max_tokens, chunk_overlap=0, disallowed_special=())
with open(source, encoding="utf-8") as file:
    markdown = file.read()
cursor = 0
with open(output, "w", encoding="utf-8") as out:
    for doc in recursive.split_documents(headers.split_text(markdown)):
        text = doc.page_content
        found = markdown.find(text, cursor, cursor + len(text) + 20_000)
        start = cursor if found < 0 else found
        cursor = start + 1
        row = {"text": text, "start": start, "end": start + len(text), **doc.metadata}
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
"""


@dataclass(frozen=True)
class ProcessResult:
    tool: str
    seconds: float  # wall clock of the whole process
    cpu_seconds: float  # its user + system CPU
    peak_mb: float  # its peak RSS
    output_mb: float


# The command is started by a small launcher that reports its child's CPU and peak RSS: a
# child started by this process directly inherits its high-water mark (the fork, or vfork's
# borrowed memory, counts this process's size), which hid the child's own peak.
LAUNCHER = (
    "import os, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.execv(sys.argv[1], sys.argv[1:])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "print(os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss)\n"
)


def time_process(
    tool: str, command: list[str], output: Path | None, tree: Path = REPO_ROOT
) -> ProcessResult:
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-S", "-c", LAUNCHER, *command],
        capture_output=True,
        text=True,
        cwd=tree,  # `-m chunkcli` runs that tree's chunkcli (the working folder comes first)
    )
    seconds = time.perf_counter() - began
    code, cpu_seconds, peak_kb = done.stdout.splitlines()[-1].split()  # (after the command's)
    if int(code) != 0:
        raise SystemExit(f"{tool}: exit {code}: {done.stderr.strip()[-300:]}")
    size = output.stat().st_size / 1e6 if output else 0.0
    return ProcessResult(tool, seconds, float(cpu_seconds), int(peak_kb) / 1024, size)


def run_processes(
    markdown: str, max_tokens: int, runs: int, before: Path | None = None
) -> list[ProcessResult]:
    """Each tool as a whole process on the same file, `runs` times alternating; the least CPU
    of each kept (load from other jobs only ever adds). With `before`, that checkout's chunkcli
    rows too, each run just before this tree's."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "input.md")
        source.write_text(markdown, encoding="utf-8")
        tiny = Path(folder, "tiny.md")
        tiny.write_text(WARM_UP_MARKDOWN, encoding="utf-8")
        # Bytecode compiled first, as `pip install` of a wheel does (PYTHONDONTWRITEBYTECODE
        # would have every run compile the tree's changed modules).
        trees = [REPO_ROOT] if before is None else [before.resolve(), REPO_ROOT]
        compiling = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}
        for tree in trees:
            command = [sys.executable, "-m", "compileall", "-q", str(tree / "chunkcli")]
            subprocess.run(command, check=True, env=compiling)
        commands: list[tuple[str, list[str], Path | None, Path]] = []
        for tree in trees:
            name = "" if before is None else (" before" if tree != REPO_ROOT else " after")
            out, floor = Path(folder, f"chunkcli{len(commands)}.jsonl"), Path(folder, "floor.jsonl")
            chunkcli = [sys.executable, "-m", "chunkcli"]
            commands += [
                (f"chunkcli split{name} (process)",
                 [*chunkcli, "split", str(source), "-q", "--max-tokens", str(max_tokens),
                  "-o", str(out)], out, tree),
                (f"chunkcli split{name} of a 10-line file (its start-up)",
                 [*chunkcli, "split", str(tiny), "-q", "--max-tokens", str(max_tokens),
                  "-o", str(floor)], floor, tree),
                (f"chunkcli{name} --version", [*chunkcli, "--version"], None, tree),
            ]  # fmt: skip
        lc = Path(folder, "lc.jsonl")
        commands.append((
            "LangChain header→recursive (process)",
            [sys.executable, "-c", LANGCHAIN_PROCESS, str(REPO_ROOT), str(source), str(lc),
             str(max_tokens)],
            lc, REPO_ROOT,
        ))  # fmt: skip
        best: dict[str, ProcessResult] = {}
        for _ in range(runs):
            for tool, command, output, tree in commands:
                result = time_process(tool, command, output, tree)
                if tool not in best or result.cpu_seconds < best[tool].cpu_seconds:
                    best[tool] = result
    return list(best.values())


def print_processes(results: Sequence[ProcessResult], megabytes: float) -> None:
    peer = next(r for r in results if r.tool.startswith("LangChain"))
    floors = {("before" in r.tool): r for r in results if "start-up" in r.tool}
    print(f"\nWhole processes on the same {megabytes:.2f} MB file (least CPU of the runs; "
          f"load {os.getloadavg()[0]:.1f}):\n")  # fmt: skip
    print(
        "| process | CPU s | wall s | MB/s (CPU) | × LangChain (CPU) | × LangChain (wall) "
        "| peak RSS MB | RSS / input | (RSS − start-up) / input | output MB |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        floor = floors["before" in r.tool]  # (its own checkout's start-up)
        print(
            f"| {r.tool} | {r.cpu_seconds:.2f} | {r.seconds:.2f} "
            f"| {megabytes / r.cpu_seconds:.2f} | {peer.cpu_seconds / r.cpu_seconds:.2f} "
            f"| {peer.seconds / r.seconds:.2f} | {r.peak_mb:.0f} | {r.peak_mb / megabytes:.1f} "
            f"| {(r.peak_mb - floor.peak_mb) / megabytes:.1f} | {r.output_mb:.1f} |"
        )


def print_scaling(markdown: str, max_tokens: int) -> None:
    """chunkcli's CPU time on prefixes of the text of growing size: linear means flat MB/s."""
    print("\n| Markdown MB | chunkcli CPU s | MB/s (CPU) |\n|---:|---:|---:|")
    for share in (0.125, 0.25, 0.5, 1.0):
        part = markdown[: int(len(markdown) * share)]
        megabytes = len(part.encode("utf-8")) / 1e6
        began = time.process_time()
        split_markdown(part, SplitOptions(max_tokens=max_tokens))
        seconds = time.process_time() - began
        print(f"| {megabytes:.2f} | {seconds:.2f} | {megabytes / seconds:.2f} |")


def print_table(results: Sequence[Result], megabytes: float, max_tokens: int) -> None:
    base = {r.tool: r for r in results}
    langchain = base.get("LangChain header→recursive")
    print(
        f"Markdown: {megabytes:.2f} MB, limit {max_tokens} cl100k tokens, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}\n"
    )
    print(
        "| tool | MB/s (wall) | MB/s (CPU) | × LangChain (wall) | × LangChain (CPU) | chunks "
        "| table cuts | over limit | not at offsets |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        wall = f"{langchain.seconds / r.seconds:.1f}" if langchain else "-"
        cpu = f"{langchain.cpu_seconds / r.cpu_seconds:.1f}" if langchain else "-"
        print(
            f"| {r.tool} | {megabytes / r.seconds:.2f} | {megabytes / r.cpu_seconds:.2f} "
            f"| {wall} | {cpu} | {r.chunks} | {r.table_cuts} | {r.over_limit} "
            f"| {r.not_at_offsets} |"
        )
    chonkie = base.get("chonkie RecursiveChunker (cl100k)")
    ours = base.get("chunkcli split")
    if chonkie and ours:
        print(
            "\nchunkcli / chonkie with the same cl100k counts (CPU, in process): "
            f"{chonkie.cpu_seconds / ours.cpu_seconds:.2f}"
        )
    floor = base.get("tiktoken encode_ordinary, whole text (floor)")
    for r in (chonkie, ours):
        if floor and r:
            print(f"{r.tool} / the tiktoken floor (CPU): {r.cpu_seconds / floor.cpu_seconds:.2f}x")


def run_rounds(
    runners: Sequence[Callable[[str, int], Result]], markdown: str, max_tokens: int, rounds: int
) -> list[list[Result]]:
    """Each runner `rounds` times, in turns: round r runs them in order, or reversed when r is
    odd (so no tool always runs right after the same one); results by runner."""
    results: list[list[Result]] = [[] for _ in runners]
    order = list(range(len(runners)))
    for turn in range(rounds):
        for index in order if turn % 2 == 0 else order[::-1]:
            results[index].append(runners[index](markdown, max_tokens))
    return results


def print_rounds(results: Sequence[Sequence[Result]], megabytes: float, loads: str) -> None:
    """Median and range of each tool's CPU seconds over the rounds, and chunkcli / chonkie
    (chonkie's CPU seconds over chunkcli's: above 1, chunkcli is quicker) round by round."""
    rounds = len(results[0])
    print(f"\n{rounds} rounds in turns, CPU seconds in process (load {loads}):\n")
    print("| tool | median s | min-max s | median MB/s (CPU) |\n|---|---:|---:|---:|")
    for runs in results:
        seconds = [r.cpu_seconds for r in runs]
        median = statistics.median(seconds)
        print(
            f"| {runs[0].tool} | {median:.3f} | {min(seconds):.3f}-{max(seconds):.3f} "
            f"| {megabytes / median:.2f} |"
        )
    by_tool = {runs[0].tool: runs for runs in results}
    ours, chonkie = by_tool.get("chunkcli split"), by_tool.get("chonkie RecursiveChunker (cl100k)")
    if ours and chonkie:
        ratios = [c.cpu_seconds / o.cpu_seconds for o, c in zip(ours, chonkie, strict=True)]
        listed = ", ".join(f"{ratio:.2f}" for ratio in ratios)
        print(
            f"\nchunkcli / chonkie (CPU) by round: {listed}; median "
            f"{statistics.median(ratios):.2f}, range {min(ratios):.2f}-{max(ratios):.2f}"
        )


def _loads() -> str:
    return "/".join(f"{load:.1f}" for load in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-tokens", type=int, default=300)
    parser.add_argument("--target-mb", type=float, default=5.0)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--pdfs", type=int, default=12, help="corpus PDFs to convert")
    parser.add_argument("--tools", default="chunkcli,langchain,chonkie,chonkie-characters,tiktoken")
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        metavar="RUNS",
        help="also time chunkcli split and LangChain as whole processes, RUNS times each",
    )
    parser.add_argument(
        "--before",
        type=Path,
        metavar="TREE",
        help="with --processes: also time the chunkcli of this checkout, in the same turns",
    )
    parser.add_argument("--markdown", type=Path, help="this file instead of the built text")
    parser.add_argument(
        "--distinct",
        action="store_true",
        help="build the text of distinct parts, none repeated (raise --pdfs to reach --target-mb)",
    )
    parser.add_argument("--scaling", action="store_true", help="also time growing prefixes")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        metavar="N",
        help="time the in-process tools N times each in turns: medians, ranges, ratios by round",
    )
    args = parser.parse_args(argv)
    if args.markdown:
        markdown, names = args.markdown.read_text(encoding="utf-8"), [args.markdown.name]
    else:
        markdown, names = build_markdown(args.corpus, args.pdfs, args.target_mb, args.distinct)
    megabytes = len(markdown.encode("utf-8")) / 1e6
    print(f"parts: {len(names)} Markdown documents, {megabytes:.2f} MB", file=sys.stderr)
    runners: dict[str, Callable[[str, int], Result]] = {
        "chunkcli": run_chunkcli,
        "langchain": run_langchain,
        "chonkie": run_chonkie,
        "chonkie-characters": run_chonkie_characters,
        "tiktoken": run_tiktoken_floor,
    }
    chosen = [runners[name] for name in args.tools.split(",")]
    if "chunkcli" in args.tools.split(","):
        print_chunkcli_memo(markdown, args.max_tokens)
    if args.rounds > 1:
        loads = _loads()
        by_tool = run_rounds(chosen, markdown, args.max_tokens, args.rounds)
        print_table([runs[0] for runs in by_tool], megabytes, args.max_tokens)
        print_rounds(by_tool, megabytes, f"{loads} before, {_loads()} after")
    else:
        results = [runner(markdown, args.max_tokens) for runner in chosen]
        print_table(results, megabytes, args.max_tokens)
    if args.processes:
        results = run_processes(markdown, args.max_tokens, args.processes, args.before)
        print_processes(results, megabytes)
    if args.scaling:
        print_scaling(markdown, args.max_tokens)


if __name__ == "__main__":
    main()
