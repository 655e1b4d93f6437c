"""Hashes of split's chunks and check's JSON report for a set of Markdown files, to compare two
checkouts (a refactor must leave every output byte-identical).

    python bench/identity.py --out hashes.json [--cases-kb 200] [--skip-cases]
                             [--random N --seed S] MD_OR_DIR ...
    python bench/identity.py --compare before.json after.json

Each Markdown file goes through the same functions as the CLI (`split FILE`, `split FILE
--max-tokens 300`, `check FILE --json`), in this process, one file at a time; the hash of each
output is recorded. The pathological cases of bench/fuzz/markdown_cases.py are written to
--cases-dir (a fixed folder: outputs name their source) at --cases-kb and included, and
--random documents of random lines of every kind. Run it
with the checkout under test first on PYTHONPATH: the chunkcli it imports is the one measured.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

OUTPUTS = ("split", "split-300", "check")


def markdown_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        files += sorted(path.rglob("*.md")) if path.is_dir() else [path]
    return files


def write_cases(folder: Path, size: int) -> list[Path]:
    """The Markdown cases of the fuzz harness, each written to `folder` at `size` characters."""
    sys.path.append(str(REPO_ROOT))  # (after PYTHONPATH: the chunkcli measured comes first)
    from bench.fuzz.markdown_cases import CASES

    written = []
    for name, make in sorted(CASES.items()):
        path = folder / f"case-{name}.md"
        # newline="" keeps the cases' own line ends (\r, \r\n) as they are
        with path.open("w", encoding="utf-8", newline="") as out:
            out.write(make(size))
        written.append(path)
    return written


# Lines of every kind split and check read, and lines that look like them, for --random.
RANDOM_LINES = (
    "Plain text.", "1. one", "１. full-width", "\u3000indented", " ", "- item", "* item",
    "# Heading", "## Heading ##", "Title", "===", "---", "> quote", ">", "   > > deep", "```",
    "~~~", "| a | b |", "|---|---|", "| 1 | 2 |", "a | b", "<!-- page 2 -->",
    "<!-- page 3: blank -->", "<!-- note -->", "    code", "\tTab", "", "", "text with hy-",
    "phen continues here", "The end of a sentence.", "lower case goes on", "Page 3 of 9",
    "# Running head", "<!-- table: 2 header rows -->", "第1条 （目的）", "text\r", "a-\r", "- - -",
    "***", "+ plus", "10) ten", "<div>", "</div>", "[ref]: /x",
)  # fmt: skip


def write_random(folder: Path, count: int, seed: int) -> list[Path]:
    """`count` documents of up to 80 random RANDOM_LINES (\\n or \\r\\n), written to `folder`."""
    rng = random.Random(seed)
    written = []
    for number in range(count):
        lines = rng.choices(RANDOM_LINES, k=rng.randint(0, 80))
        path = folder / f"random-{seed}-{number}.md"
        with path.open("w", encoding="utf-8", newline="") as out:
            out.write(rng.choice(["\n", "\r\n"]).join(lines))
        written.append(path)
    return written


def output_hashes(path: Path) -> dict[str, str]:
    """sha256 of each output the CLI would write for `path`."""
    from chunkcli.check import CheckOptions
    from chunkcli.check.corpus import check_documents
    from chunkcli.check.report import corpus_to_dict
    from chunkcli.inputs import ReadOptions, find_inputs, read_inputs
    from chunkcli.jsonl import chunks_to_jsonl
    from chunkcli.split import SplitOptions
    from chunkcli.split.documents import split_documents

    def documents(keep: bool = False):  # type: ignore[no-untyped-def]
        read = ReadOptions(keep_documents=keep)  # (Markdown is read in this process)
        return read_inputs(find_inputs([str(path)]), read, None)

    found = {}
    for name, max_tokens in (("split", None), ("split-300", 300)):
        options = SplitOptions() if max_tokens is None else SplitOptions(max_tokens=max_tokens)
        chunks = [c for result in split_documents(documents(), options.validated()) for c in result]
        found[name] = sha(chunks_to_jsonl(chunks))
    check_options = CheckOptions()
    reports = list(check_documents(documents(keep=True), check_options))
    report = json.dumps(corpus_to_dict(reports, check_options), ensure_ascii=False, indent=2)
    found["check"] = sha(report + "\n")
    return found


def sha(text: str | bytes) -> str:
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def compare(before_path: str, after_path: str) -> int:
    before = json.loads(Path(before_path).read_text())
    after = json.loads(Path(after_path).read_text())
    names = sorted(set(before) | set(after))
    same = 0
    for name in names:
        if before.get(name) == after.get(name):
            same += 1
            continue
        old, new = before.get(name) or {}, after.get(name) or {}
        differ = [output for output in OUTPUTS if old.get(output) != new.get(output)]
        print(f"DIFFERENT {name}: {', '.join(differ)}")
    outputs = sum(len(v) for v in before.values())
    print(f"{same} of {len(names)} files identical ({outputs} outputs in before)")
    return 0 if same == len(names) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--out")
    parser.add_argument("--cases-kb", type=int, default=200)
    parser.add_argument("--skip-cases", action="store_true")
    parser.add_argument("--cases-dir", default="/tmp/chunkcli-identity-cases")
    parser.add_argument("--random", type=int, default=0, help="random documents to add")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    files = markdown_files(args.paths)
    folder = Path(args.cases_dir)  # (a fixed folder: chunks and reports name their source)
    folder.mkdir(parents=True, exist_ok=True)
    if not args.skip_cases:
        files += write_cases(folder, args.cases_kb * 1000)
    files += write_random(folder, args.random, args.seed)
    hashes = {}
    for path in files:
        hashes[str(path)] = output_hashes(path)
        print(path, file=sys.stderr)
    Path(args.out).write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
    print(f"{len(hashes)} files hashed -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
