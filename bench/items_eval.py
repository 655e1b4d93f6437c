"""How `split --mode items` reads documents of the kinds issue 28 names, written by hand in
styles the tests' fixtures do not use (a 履歴書's 学歴・職歴 lines, `期間:` lines, pipe-separated
CV headings, two title lines over a date, a log as a list, a 障害履歴, a catalogue with specs).

    python bench/items_eval.py

In each document `⟦` marks where an item starts and `⟧` where the text of the item before it
ends (before a section heading); both are removed before splitting. Per document: items
marked; items found (item chunks' distinct indices); merged (marked items sharing an item
index with another); apart (a marked item's text in more than one item, or outside items);
period (found items whose period matches the `{start..end}` written after `⟦`, when given);
and, for comparison, the default heading mode (800 tokens): marked items sharing a chunk with
another, and marked items whose text is in more than one chunk. Prints a Markdown table.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from chunkcli.model import Chunk  # noqa: E402
from chunkcli.split import SplitOptions, split_markdown  # noqa: E402

MARK_RE = re.compile(r"⟦(?:\{(?P<start>[^.}]*)\.\.(?P<end>[^}]*)\})?|⟧")

DOCUMENTS = {
    "ja 職務経歴書 (entry headings, lists)": """# 職務経歴書

2024年4月1日現在　氏名　佐藤 花子

## 職務要約

大手SIerで金融系システムの開発に従事した後、事業会社で社内DXを推進。

## 職務経歴

⟦{2012-04..2017-03}### 株式会社日本システム（2012年4月～2017年3月）

事業内容：金融機関向けシステム開発　資本金：10億円　従業員数：1,200名

| 期間 | 業務内容 | 役割 |
|---|---|---|
| 2012年4月～2014年3月 | 勘定系システムの保守 | メンバー |
| 2014年4月～2017年3月 | 融資審査システムの新規開発 | サブリーダー |

- 要件定義から結合テストまでを担当
- 後輩3名の育成

⟦{2017-04..}### 株式会社リテールテック（2017年4月～現在）

事業内容：小売業向けSaaSの開発・販売

社内業務のDX推進室に所属し、基幹システムの刷新を主導。

**主な実績**

- 受発注業務の自動化で月200時間の工数を削減
- クラウド移行の計画と実行

⟧## 資格

⟦{2013-06..2013-06}- 2013年6月　基本情報技術者試験
⟦{2016-12..2016-12}- 2016年12月　応用情報技術者試験
⟦{2021-10..2021-10}- 2021年10月　PMP

⟧## 自己PR

関係者を巻き込みながら、業務とシステムの両面から課題を解決してきました。
""",
    "ja 履歴書 学歴・職歴 lines": """# 履歴書

## 学歴

⟦{2008-03..2008-03}2008年3月　東京都立青山高等学校 卒業

⟦{2008-04..2008-04}2008年4月　早稲田大学 理工学部 入学

⟦{2012-03..2012-03}2012年3月　早稲田大学 理工学部 卒業

⟧## 職歴

⟦{2012-04..2012-04}2012年4月　株式会社日本システム 入社

⟦{2017-03..2017-03}2017年3月　一身上の都合により退社

⟦{2017-04..2017-04}2017年4月　株式会社リテールテック 入社

⟧## 免許・資格

⟦{2010-08..2010-08}2010年8月　普通自動車第一種運転免許 取得
""",
    "ko 경력기술서 (기간: lines)": """# 경력기술서

## 경력

⟦{2019-03..2022-02}### 주식회사 한빛소프트

기간: 2019.03 ~ 2022.02

직무: 백엔드 개발

- 주문 시스템 API 설계 및 개발
- 결제 장애 대응 프로세스 수립

⟦{2022-03..}### 주식회사 누리데이터

기간: 2022.03 ~ 현재

데이터 플랫폼 구축을 담당하고 있습니다.

일일 처리량을 세 배로 늘렸습니다.

⟧## 학력

⟦{2013-03..2019-02}- 2013년 3월 ~ 2019년 2월 서울대학교 컴퓨터공학부 졸업
""",
    "en CV (pipe-separated entry headings)": """# Alex Kim

## Work Experience

⟦{2021-03..}### Staff Engineer | Northwind | Mar 2021 – Present

- Designed the event pipeline (40k events/s).
- Mentored four engineers.

⟦{2018-01..2021-02}### Senior Engineer | Contoso | Jan 2018 – Feb 2021

- Rebuilt the search service.

Worked closely with the data science team on ranking.

⟦{2015-07..2017-12}### Engineer | Fabrikam | Jul 2015 – Dec 2017

- Maintained the billing system.

⟧## Education

⟦{2011-09..2015-06}### B.S. Computer Science | Ohio State University | Sep 2011 – Jun 2015
""",
    "en CV (two title lines over a date)": """# Maria Lopez

## Experience

⟦{2020-02..}Product Manager

Globex Corporation

February 2020 - Present

Owned the mobile checkout; raised conversion by 9%.

⟦{2016-06..2020-01}Associate Product Manager

Initech

June 2016 - January 2020

Launched the loyalty programme in three markets.

Ran weekly user interviews.

⟦{2014-09..2016-05}Business Analyst

Umbrella Corp

September 2014 - May 2016

Built the sales dashboards.
""",
    "en incident log (a list)": """# Operations log Q1 2024

## Incidents

⟦{2024-01-09..2024-01-09}- 2024-01-09 — Payment API errors (SEV2)
  - 14:02 error rate above 5%; on-call paged.
  - 14:31 a bad deploy rolled back; errors cleared.
⟦{2024-02-14..2024-02-14}- 2024-02-14 — Database failover (SEV1)
  - 10:32 primary stopped answering.
  - 10:40 traffic on the replica; root cause a full disk.
⟦{2024-03-21..2024-03-21}- 2024-03-21 — Login outage (SEV1)
  - Certificate of the identity provider expired; 45 minutes of failed logins.
""",
    "ja 障害履歴 (dated headings)": """# システム障害履歴

⟦{2024-02-14..2024-02-14}## 2024年2月14日　データベース障害

10時32分、プライマリDBが応答を停止した。10時40分にレプリカへ切り替えた。

原因：ディスク容量の枯渇。

⟦{2024-03-02..2024-03-02}## 2024年3月2日　APIの応答遅延

キャッシュの全削除後、20分間にわたり応答時間が3秒まで悪化した。

⟦{2024-05-21..2024-05-21}## 2024年5月21日　ログイン障害

認証基盤の証明書が失効し、45分間ログインできなかった。

再発防止：証明書の期限監視を追加。
""",
    "en catalogue (entries with specs)": """# Kitchen catalogue 2025

## Blenders

⟦### X-100 Blender

A 1,000 W blender with a 1.5 l glass jar.

- Speeds: 5
- Weight: 3.2 kg

Price: 12,800 yen.

⟦### X-200 Blender

A 1,200 W blender with a vacuum lid.

Price: 19,800 yen.

⟧## Kettles

⟦### K-10 Kettle

A 1.0 l kettle with temperature control.

⟦### K-20 Kettle

A 1.7 l kettle with a keep-warm mode.
""",
}


@dataclass(frozen=True)
class Marked:
    start: int
    end: int
    period: tuple[str, str | None] | None


def unmark(text: str) -> tuple[str, list[Marked]]:
    """The text without marks, and the marked items."""
    out: list[str] = []
    starts: list[tuple[int, tuple[str, str | None] | None]] = []
    ends: list[int] = []
    position, length = 0, 0
    for match in MARK_RE.finditer(text):
        out.append(text[position : match.start()])
        length += match.start() - position
        position = match.end()
        if match.group() == "⟧":
            ends.append(length)
            continue
        if starts and len(ends) < len(starts):
            ends.append(length)
        period = None
        if match.group("start") is not None:
            period = (match.group("start"), match.group("end") or None)
        starts.append((length, period))
    out.append(text[position:])
    length += len(text) - position
    if len(ends) < len(starts):
        ends.append(length)
    return "".join(out), [Marked(s, e, p) for (s, p), e in zip(starts, ends, strict=True)]


def holder_key(chunk: Chunk, by_item: bool) -> int | None:
    """What a marked item's text should sit in: one item (items mode), one chunk (heading)."""
    if not by_item:
        return chunk.start
    return chunk.item.item_index if chunk.item is not None else None


def judge(
    markdown: str, chunks: list[Chunk], marked: list[Marked], by_item: bool
) -> dict[str, int]:
    found = {c.item.item_index for c in chunks if c.item is not None}
    owner: list[int | None] = []  # the item index (chunk) holding each marked item's text
    apart, right_period = 0, 0
    for item in marked:
        keys = set()
        for offset in range(item.start, item.end):
            if markdown[offset].isspace():
                continue
            for chunk in chunks:
                if chunk.start <= offset < chunk.end:
                    keys.add(holder_key(chunk, by_item))
        apart += len(keys) != 1 or None in keys
        key = next(iter(keys)) if len(keys) == 1 else None
        owner.append(key)
        holder = next((c for c in chunks if c.item and c.item.item_index == key), None)
        if holder is not None and holder.item is not None and item.period is not None:
            right_period += (holder.item.period_start, holder.item.period_end) == item.period
    merged = sum(1 for i in owner if i is not None and owner.count(i) > 1)
    return {
        "marked": len(marked),
        "found": len(found),
        "merged": merged,
        "apart": apart,
        "periods": sum(1 for m in marked if m.period is not None),
        "right": right_period,
    }


def main() -> None:
    print(
        "| document | items marked | items found | merged | apart | periods right "
        "| heading mode: merged | heading mode: apart |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, text in DOCUMENTS.items():
        markdown, marked = unmark(text)
        chunks = split_markdown(markdown, SplitOptions(mode="items"))  # type: ignore[arg-type]
        score = judge(markdown, chunks, marked, by_item=True)
        heading = judge(markdown, split_markdown(markdown, SplitOptions()), marked, by_item=False)
        print(
            f"| {name} | {score['marked']} | {score['found']} | {score['merged']} | "
            f"{score['apart']} | {score['right']} of {score['periods']} | "
            f"{heading['merged']} | {heading['apart']} |"
        )


if __name__ == "__main__":
    main()
