"""Speed of `split --mode items` beside the default (heading) mode, on generated résumé-like
Markdown (Japanese 職務経歴書, Korean 경력기술서 and English CV sections, repeated with other
names and dates), in one run.

    python bench/items_speed.py [--sizes-mb 1,5] [--modes heading,items,auto]

Per size and mode: CPU seconds of `split_markdown` alone (the text is built and the tokenizer
loaded before), MB/s (10^6 characters of input per CPU second), chunks, and `growth`: CPU time
per MB at the largest size over that at the smallest (about 1 when linear). Prints a Markdown
table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from chunkcli.split import SplitOptions, split_markdown  # noqa: E402
from chunkcli.split.options import SplitMode  # noqa: E402

JAPANESE = """## 職務経歴

### 株式会社エー{n}（{y1}年4月～{y2}年3月）

事業内容：小売業向けシステム開発　従業員数：{n}名

ECサイトのバックエンド開発を担当。注文処理のAPIを設計し、在庫連携の改修を主導した。

- 使用技術：Python, PostgreSQL, AWS
- 役割：リーダー（メンバー5名）

### 株式会社ビー{n}

{y2}年4月～現在

物流管理システムの設計と開発。配送計画の最適化で走行距離を12%削減した。

## 資格

- {y1}年6月　基本情報技術者試験 合格
- {y2}年3月　TOEIC 850点

"""
KOREAN = """## 경력사항

### 주식회사 가나다{n} ({y1}년 3월 ~ {y2}년 2월)

전자상거래 플랫폼 백엔드 개발 담당. 결제 모듈을 재설계하여 장애를 줄였다.

### 주식회사 라마바{n}

{y2}년 3월 ~ 현재

데이터 파이프라인 구축 및 운영. 일일 처리량을 세 배로 늘렸다.

## 학력

- {y0}년 3월 ~ {y1}년 2월 한국대학교 컴퓨터공학과 졸업

"""
ENGLISH = """## Experience

**Senior Engineer**, Acme {n} Corp

Mar {y2} - Present

- Led the platform team of six.
- Cut deploy time from 40 to 8 minutes.

**Software Engineer**, Beta {n} Inc

Jun {y1} – Feb {y2}

Built the billing service in Go. Moved the data warehouse to BigQuery.

## Certifications

- AWS Certified Solutions Architect ({y2}-05)

"""


def resume_markdown(chars: int) -> str:
    """Résumés one after another (a title each), up to about `chars` characters."""
    parts: list[str] = []
    total, n = 0, 0
    while total < chars:
        y0 = 1990 + n % 20
        fields = {"n": n, "y0": y0, "y1": y0 + 4, "y2": y0 + 8}
        text = f"# 職務経歴書 {n}\n\n" + "".join(
            t.format(**fields) for t in (JAPANESE, KOREAN, ENGLISH)
        )
        parts.append(text)
        total += len(text)
        n += 1
    return "".join(parts)


def time_split(markdown: str, mode: str) -> tuple[float, int]:
    started = time.process_time()
    chunks = split_markdown(markdown, SplitOptions(mode=SplitMode(mode)))
    return time.process_time() - started, len(chunks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes-mb", default="1,5")
    parser.add_argument("--modes", default="heading,items,auto")
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes_mb.split(",")]
    modes = args.modes.split(",")
    time_split(resume_markdown(2_000), "items")  # warm up: tokenizer, regexes
    rows: dict[str, list[tuple[float, float, int]]] = {mode: [] for mode in modes}
    for size in sizes:
        markdown = resume_markdown(int(size * 1e6))
        for mode in modes:
            seconds, chunks = time_split(markdown, mode)
            rows[mode].append((len(markdown) / 1e6, seconds, chunks))
    print("| mode | MB | CPU s | MB/s | chunks | growth |")
    print("|---|---:|---:|---:|---:|---:|")
    for mode, measured in rows.items():
        first, last = measured[0], measured[-1]
        growth = (last[1] / last[0]) / (first[1] / first[0]) if first[1] else float("nan")
        for mb, seconds, chunks in measured:
            rate = mb / seconds if seconds else float("inf")
            print(f"| {mode} | {mb:.2f} | {seconds:.2f} | {rate:.2f} | {chunks} | {growth:.2f} |")


if __name__ == "__main__":
    main()
