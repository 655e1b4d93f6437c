"""split --mode items (issue 28): periods, item types, the items of generated résumés, a CV, an
incident log and a catalogue (exact lists), long items, the JSON fields, auto, check, a PDF."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdf_factory import Text, make_pdf, wrapped_paragraph
from typer.testing import CliRunner

from chunkcli.check import CheckOptions, check_markdown
from chunkcli.cli import app
from chunkcli.errors import UsageError
from chunkcli.jsonl import (
    CHUNK_FIELDS,
    check_flat_metadata,
    chunk_from_dict,
    chunk_to_dict,
    chunk_to_flat_dict,
)
from chunkcli.model import Chunk, ChunkKind, ItemFields
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.items import item_period, item_type
from chunkcli.split.periods import find_period
from chunkcli.tokens import tiktoken_counter

count = tiktoken_counter("cl100k_base")
runner = CliRunner()

JA_RESUME = """# 職務経歴書

2024年4月1日現在　山田 太郎

## 職務要約

Webアプリケーション開発に8年従事。バックエンドを中心に設計から運用まで担当。

## 職務経歴

### 株式会社エービーシー（2016年4月～2019年3月）

事業内容：小売業向けシステム開発

ECサイトのバックエンド開発を担当。注文処理のAPIを設計した。

在庫連携の改修を主導し、夜間バッチを3時間短縮した。

### 株式会社ディーイーエフ

2019年4月～現在

物流管理システムの設計と開発。

- 配送計画の最適化で走行距離を12%削減
- メンバー5名のリーダー

## 資格

- 2015年6月　基本情報技術者試験 合格
- 2018年3月　TOEIC 850点

## スキル

- Python, Go, PostgreSQL
"""

KO_RESUME = """# 경력기술서

## 경력사항

2015년 3월 ~ 2018년 2월 주식회사 가나다

전자상거래 플랫폼 백엔드 개발 담당.

결제 모듈을 재설계하여 장애를 30% 줄였다.

2018년 3월 ~ 현재 주식회사 라마바

데이터 파이프라인 구축 및 운영.

## 학력

- 2011년 3월 ~ 2015년 2월 한국대학교 컴퓨터공학과 졸업

## 자격증

- 2016년 5월 정보처리기사 취득
- 2019년 11월 AWS 솔루션스 아키텍트 취득
"""

EN_CV = """# Jane Doe

Software engineer in Berlin. jane@example.com

## Experience

**Senior Engineer**, Acme Corp

Mar 2021 - Present

- Led the platform team of six.
- Cut deploy time from 40 to 8 minutes.

**Software Engineer**, Beta Inc

Jun 2017 – Feb 2021

Built the billing service in Go.

Moved the data warehouse to BigQuery.

**Intern**, Gamma LLC

Jun 2016 - Aug 2016

Wrote test tooling.

## Education

B.Sc. Computer Science, State University, 2013 - 2017

## Certifications

- AWS Certified Solutions Architect (2020-05)
- Certified Kubernetes Administrator (2022-11)

## Skills

Python, Go, SQL, Kubernetes
"""

INCIDENT_LOG = """# Incident log 2024

## 2024-02-14 Database failover

At 10:32 the primary database stopped answering; traffic moved to the replica at 10:40.

Root cause: a full disk on the primary.

## 2024-03-02 API latency spike

p99 latency rose to 3 s for 20 minutes after a cache flush.

## 2024-05-21 Login outage

The identity provider's certificate expired; logins failed for 45 minutes.

Follow-up: alerts on certificate expiry.
"""

CATALOGUE = """# Product catalogue 2025

## Blenders

### X-100 Blender

A 1,000 W blender with a 1.5 l glass jar.

Price: 12,800 yen.

### X-200 Blender

A 1,200 W blender with a vacuum lid.

Price: 19,800 yen.

## Kettles

### K-10 Kettle

A 1.0 l kettle with temperature control.

Price: 6,800 yen.
"""


def split(markdown: str, **options: object) -> list[Chunk]:
    chunks = split_markdown(markdown, SplitOptions(**options))  # type: ignore[arg-type]
    for chunk in chunks:  # the invariants of every mode
        assert markdown[chunk.start : chunk.end] == chunk.body
        assert chunk.tokens == count(chunk.prefix + chunk.body)
    return chunks


def items_of(chunks: list[Chunk]) -> list[tuple[object, ...]]:
    """(item_type, period_start, period_end, item_index, first body line) per item chunk, and
    (kind, first body line) for the other chunks."""
    rows: list[tuple[object, ...]] = []
    for chunk in chunks:
        first = chunk.body.split("\n")[0]
        item = chunk.item
        if item is None:
            rows.append((str(chunk.kind), first))
        else:
            rows.append(
                (item.item_type, item.period_start, item.period_end, item.item_index, first)
            )
    return rows


# --- periods ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("2019年4月～2022年3月　株式会社エービーシー", "2019-04", "2022-03"),
        ("2022年4月～現在", "2022-04", None),
        ("２０１９年４月～２０２２年３月", "2019-04", "2022-03"),
        ("2019年4月から2022年3月まで", "2019-04", "2022-03"),
        ("2022年4月～", "2022-04", None),
        ("2015年～2019年", "2015", "2019"),
        ("2024-02-14 Database failover", "2024-02-14", "2024-02-14"),
        ("Senior Engineer, Acme Corp — Mar 2021 - Present", "2021-03", None),
        ("Jun 2017 – Feb 2021", "2017-06", "2021-02"),
        ("May 2020 to Current", "2020-05", None),
        ("September 2019 - now", "2019-09", None),
        ("Feb 14, 2024", "2024-02-14", "2024-02-14"),
        ("14 Feb 2024", "2024-02-14", "2024-02-14"),
        ("2019.04 ~ 2022.03", "2019-04", "2022-03"),
        ("2020/04/01", "2020-04-01", "2020-04-01"),
        ("2013 - 2017", "2013", "2017"),
        ("2019년 4월 ~ 2022년 3월", "2019-04", "2022-03"),
        ("2022년 4월 ~ 현재", "2022-04", None),
        ("2021년 3월 1일", "2021-03-01", "2021-03-01"),
        ("2018년 3월 ~ 재직중", "2018-03", None),
        ("2019. 3. ~ 2022. 2.", "2019-03", "2022-02"),  # Korean dotted dates
        ("2019. 3. 1.", "2019-03-01", "2019-03-01"),
        ("04/2019 – 12/2021", "2019-04", "2021-12"),  # month first
        ("Jan. 2019 – Dec. 2020", "2019-01", "2020-12"),
        ("Acme Corp (2019 – 2021)", "2019", "2021"),
    ],
)
def test_periods_in_every_listed_form(text: str, start: str, end: str | None) -> None:
    period = find_period(text)
    assert period is not None
    assert (period.start_iso, period.end_iso) == (start, end)


@pytest.mark.parametrize(
    "text",
    [
        "Python 3.11",  # no year
        "2019.13 release",  # no month 13
        "2020年に売上を2倍にした",  # a year alone is a number in a sentence
        "In 2019 we moved",
        "Call 2019-2020-33 now",  # a phone-like run of numbers
        "v1.2019",  # a version, not month 1 of 2019
        "12/31/2020",  # month 31
    ],
)
def test_no_period(text: str) -> None:
    assert find_period(text) is None


@pytest.mark.parametrize(
    "words",
    [
        "2021年4月より、チームリーダーとして開発を率いた。",  # a sentence opening with a date
        "2021년 4월에 팀장으로 승진했다",
        "2024年4月1日現在　山田 太郎",  # the date the résumé was written
        "As of Apr 2024",
        "In Mar 2021 the team moved the whole billing stack to a new cloud provider and "
        "retired the old data centre.",  # prose mentioning a date
    ],
)
def test_item_lines_are_not_sentences_or_as_of_dates(words: str) -> None:
    assert item_period(words) is None


def test_item_types_from_the_keyword_table() -> None:
    assert [
        item_type("職務経歴", "株式会社エービーシー"),
        item_type("학력", ""),
        item_type("Certifications", "AWS Certified Solutions Architect"),
        item_type("スキル", "Python"),
        item_type("Incidents", "Database failover"),
        item_type("", "network networking"),  # whole words only
        item_type("資格", "株式会社エービーシーで取得"),  # the heading outweighs the text
    ] == ["work", "education", "certification", "skill", "event", "other", "certification"]


# --- the fixtures -------------------------------------------------------------------------


def test_japanese_resume() -> None:
    assert items_of(split(JA_RESUME, mode="items")) == [
        ("section", "# 職務経歴書"),
        ("section", "## 職務要約"),
        ("work", "2016-04", "2019-03", 0, "## 職務経歴"),
        ("work", "2019-04", None, 1, "### 株式会社ディーイーエフ"),
        ("certification", "2015-06", "2015-06", 2, "## 資格"),
        ("certification", "2018-03", "2018-03", 3, "- 2018年3月\u3000TOEIC 850点"),
        ("section", "## スキル"),
    ]


def test_japanese_resume_keeps_each_job_whole() -> None:
    chunks = split(JA_RESUME, mode="items")
    first, second = chunks[2], chunks[3]
    assert first.body.endswith("在庫連携の改修を主導し、夜間バッチを3時間短縮した。\n\n")
    assert "### 株式会社エービーシー（2016年4月～2019年3月）" in first.body
    assert second.body.startswith("### 株式会社ディーイーエフ\n\n2019年4月～現在\n\n")
    assert "- メンバー5名のリーダー" in second.body
    assert first.heading_path == second.heading_path == ("職務経歴書", "職務経歴")
    assert first.prefix == "職務経歴書 › 職務経歴\n\n"


def test_korean_resume() -> None:
    assert items_of(split(KO_RESUME, mode="items")) == [
        ("work", "2015-03", "2018-02", 0, "# 경력기술서"),
        ("work", "2018-03", None, 1, "2018년 3월 ~ 현재 주식회사 라마바"),
        ("education", "2011-03", "2015-02", 2, "## 학력"),
        ("certification", "2016-05", "2016-05", 3, "## 자격증"),
        ("certification", "2019-11", "2019-11", 4, "- 2019년 11월 AWS 솔루션스 아키텍트 취득"),
    ]
    first = split(KO_RESUME, mode="items")[0]
    assert first.body.endswith("결제 모듈을 재설계하여 장애를 30% 줄였다.\n\n")


def test_english_cv() -> None:
    assert items_of(split(EN_CV, mode="items")) == [
        ("section", "# Jane Doe"),
        ("work", "2021-03", None, 0, "## Experience"),
        ("work", "2017-06", "2021-02", 1, "**Software Engineer**, Beta Inc"),
        ("work", "2016-06", "2016-08", 2, "**Intern**, Gamma LLC"),
        ("education", "2013", "2017", 3, "## Education"),
        ("certification", "2020-05", "2020-05", 4, "## Certifications"),
        (
            "certification",
            "2022-11",
            "2022-11",
            5,
            "- Certified Kubernetes Administrator (2022-11)",
        ),
        ("section", "## Skills"),
    ]
    beta = split(EN_CV, mode="items")[2]
    assert beta.body.endswith("Moved the data warehouse to BigQuery.\n\n")  # both paragraphs


def test_incident_log() -> None:
    assert items_of(split(INCIDENT_LOG, mode="items")) == [
        ("event", "2024-02-14", "2024-02-14", 0, "# Incident log 2024"),
        ("event", "2024-03-02", "2024-03-02", 1, "## 2024-03-02 API latency spike"),
        ("event", "2024-05-21", "2024-05-21", 2, "## 2024-05-21 Login outage"),
    ]
    chunks = split(INCIDENT_LOG, mode="items")
    assert chunks[0].body.endswith("Root cause: a full disk on the primary.\n\n")
    assert [c.heading_path for c in chunks] == [("Incident log 2024",)] * 3


def test_product_catalogue() -> None:
    chunks = split(CATALOGUE, mode="items")
    assert items_of(chunks) == [
        ("other", None, None, 0, "# Product catalogue 2025"),
        ("other", None, None, 1, "### X-200 Blender"),
        ("other", None, None, 2, "## Kettles"),
    ]
    assert [c.heading_path[1:] for c in chunks] == [("Blenders",), ("Blenders",), ("Kettles",)]
    assert chunks[1].body == "### X-200 Blender\n\nA 1,200 W blender with a vacuum lid.\n\n" + (
        "Price: 19,800 yen.\n\n"
    )


def test_an_item_without_its_date_still_opens_in_a_title_first_section() -> None:
    markdown = EN_CV.replace("Jun 2017 – Feb 2021\n\n", "")
    assert items_of(split(markdown, mode="items"))[1:4] == [
        ("work", "2021-03", None, 0, "## Experience"),
        ("work", None, None, 1, "**Software Engineer**, Beta Inc"),
        ("work", "2016-06", "2016-08", 2, "**Intern**, Gamma LLC"),
    ]


def test_dated_sub_entries_make_their_heading_a_section() -> None:
    markdown = (
        "# 職務経歴書\n\n## 職務経歴\n\n### 株式会社エービーシー（2016年4月～2022年3月）\n\n"
        "事業内容：小売業向けシステム開発の受託。\n\n"
        "2016年4月～2019年3月　ECサイト開発\n\n注文処理のAPIを設計した。\n\n"
        "2019年4月～2022年3月　在庫管理システム\n\n在庫連携を改修した。\n"
    )
    assert items_of(split(markdown, mode="items")) == [
        ("section", "# 職務経歴書"),
        ("work", "2016-04", "2019-03", 0, "2016年4月～2019年3月\u3000ECサイト開発"),
        ("work", "2019-04", "2022-03", 1, "2019年4月～2022年3月\u3000在庫管理システム"),
    ]
    chunks = split(markdown, mode="items")
    assert chunks[1].heading_path[-1] == "株式会社エービーシー（2016年4月～2022年3月）"


def test_a_long_item_is_cut_with_its_item_line_repeated() -> None:
    sentence = "注文処理のAPIを設計し、在庫連携の改修を主導した。"
    long_job = "\n\n".join(sentence * 6 for _ in range(8))
    markdown = JA_RESUME.replace("在庫連携の改修を主導し、夜間バッチを3時間短縮した。", long_job)
    chunks = split(markdown, mode="items", max_tokens=200)
    parts = [c for c in chunks if c.item is not None and c.item.item_index == 0]
    assert len(parts) > 2
    assert {c.kind for c in parts} == {ChunkKind.ITEM_PART}
    assert all(not c.oversize for c in parts)
    assert "### 株式会社エービーシー（2016年4月～2019年3月）" in parts[0].body
    item_line = "株式会社エービーシー（2016年4月～2019年3月）"
    assert all(c.prefix == f"職務経歴書 › 職務経歴\n\n{item_line}\n\n" for c in parts[1:])
    assert {c.item for c in parts} == {ItemFields("work", "2016-04", "2019-03", 0)}
    following = chunks[chunks.index(parts[-1]) + 1]
    assert following.item == ItemFields("work", "2019-04", None, 1)


# --- JSON lines ---------------------------------------------------------------------------


def test_item_fields_follow_kind_in_the_line_and_read_back() -> None:
    chunks = split(EN_CV, mode="items")
    section, job = chunks[0], chunks[1]
    assert tuple(chunk_to_dict(section)) == CHUNK_FIELDS  # other chunks' lines as before
    record = chunk_to_dict(job)
    keys = list(record)
    at = keys.index("kind")
    assert keys[at + 1 : at + 5] == ["item_type", "period_start", "period_end", "item_index"]
    assert [record[k] for k in keys[at + 1 : at + 5]] == ["work", "2021-03", None, 0]
    assert chunk_from_dict(json.loads(json.dumps(record))) == job
    flat = chunk_to_flat_dict(job)
    assert (flat["item_type"], flat["period_start"], flat["item_index"]) == ("work", "2021-03", 0)
    assert "period_end" not in flat  # null (up to now) is left out of flat lines


def test_meta_keys_may_not_shadow_item_fields_in_flat_lines() -> None:
    options = SplitOptions(mode="items", metadata=(("item_type", "x"),))  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="item_type"):
        check_flat_metadata(options.metadata, options.config(options.mode))
    check_flat_metadata(options.metadata, SplitOptions().config())  # heading mode: free


# --- auto ---------------------------------------------------------------------------------


def test_auto_picks_items_only_with_several_dated_items_in_a_section() -> None:
    picked = {
        name: split(markdown, mode="auto")[0].split_config["mode"]
        for name, markdown in (
            ("ja", JA_RESUME),
            ("ko", KO_RESUME),
            ("en", EN_CV),
            ("log", INCIDENT_LOG),
            ("catalogue", CATALOGUE),
        )
    }
    assert picked == {
        "ja": "heading",  # two jobs, two certificates: not "several" in one section
        "ko": "heading",
        "en": "items",
        "log": "items",
        "catalogue": "heading",  # no dates
    }
    assert items_of(split(EN_CV, mode="auto")) == items_of(split(EN_CV, mode="items"))


def test_auto_leaves_dated_prose_to_the_heading_mode() -> None:
    prose = "# Notes\n\n## Log\n\n" + "".join(
        f"On 2024-0{m}-01 the team met and agreed on the next steps for the migration; the "
        "minutes are in the wiki.\n\n"
        for m in range(1, 8)
    )
    assert split(prose, mode="auto")[0].split_config["mode"] == "heading"


# --- check --------------------------------------------------------------------------------


def test_check_items_reports_missing_periods_and_untyped_sections() -> None:
    undated = EN_CV.replace("Jun 2017 – Feb 2021\n\n", "")
    report = check_markdown(undated, CheckOptions(mode="items"))  # type: ignore[arg-type]
    [issue] = [i for i in report.issues if i.code.startswith("items.")]
    assert issue.code == "items.no-period"
    assert issue.line == 14
    assert '"**Software Engineer**, Beta Inc" (line 14)' in issue.message
    catalogue = check_markdown(CATALOGUE, CheckOptions(mode="items"))  # type: ignore[arg-type]
    [untyped] = [i for i in catalogue.issues if i.code.startswith("items.")]
    assert untyped.code == "items.untyped-section"
    assert untyped.message.startswith("2 sections whose items no keyword types")
    clean = check_markdown(EN_CV, CheckOptions(mode="auto"))  # type: ignore[arg-type]
    assert not [i for i in clean.issues if i.code.startswith("items.")]
    heading = check_markdown(undated, CheckOptions())
    assert not [i for i in heading.issues if i.code.startswith("items.")]


def test_cli_check_and_split_take_items(tmp_path: Path) -> None:
    path = tmp_path / "cv.md"
    path.write_text(EN_CV.replace("Jun 2017 – Feb 2021\n\n", ""), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path), "--mode", "items", "--json"])
    assert result.exit_code == 0, result.output
    codes = [i["code"] for d in json.loads(result.stdout)["documents"] for i in d["issues"]]
    assert "items.no-period" in codes
    split_result = runner.invoke(app, ["split", str(path), "--mode", "items", "--flat-metadata"])
    assert split_result.exit_code == 0, split_result.output
    lines = [json.loads(line) for line in split_result.stdout.splitlines()]
    assert [line.get("item_index") for line in lines] == [None, 0, 1, 2, 3, 4, 5, None]


# --- a PDF --------------------------------------------------------------------------------

RESUME_LINES = (
    ("職務経歴書", 20.0, True),
    ("職務経歴", 14.0, True),
    ("株式会社エービーシー（2016年4月～2019年3月）", 12.0, True),
    ("ECサイトのバックエンド開発を担当した。", 11.0, False),
    ("在庫連携の改修を主導した。", 11.0, False),
    ("株式会社ディーイーエフ（2019年4月～現在）", 12.0, True),
    ("物流管理システムの設計と開発を行った。", 11.0, False),
    ("資格", 14.0, True),
    ("2015年6月　基本情報技術者試験 合格", 11.0, False),
    ("2018年3月　TOEIC 850点", 11.0, False),
)


def test_a_generated_resume_pdf_through_split(tmp_path: Path) -> None:
    items, y = [], 80.0
    for text, size, bold in RESUME_LINES:
        items.append(Text(72, y, text, size=size, bold=bold))
        y += size * 2.2
    pdf = make_pdf(tmp_path / "resume.pdf", [items])
    result = runner.invoke(app, ["split", str(pdf), "--mode", "items", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [
        (
            line["kind"],
            line["item_type"],
            line["period_start"],
            line["period_end"],
            line["item_index"],
            line["page_start"],
            line["body"].split("\n")[0],
        )
        for line in lines
    ] == [
        ("item", "work", "2016-04", "2019-03", 0, 1, "# 職務経歴書"),
        ("item", "work", "2019-04", None, 1, 1, "### 株式会社ディーイーエフ（2019年4月～現在）"),
        ("item", "certification", "2015-06", "2015-06", 2, 1, "## 資格"),
        ("item", "certification", "2018-03", "2018-03", 3, 1, "2018年3月\u3000TOEIC 850点"),
    ]
    assert lines[0]["body"].endswith("在庫連携の改修を主導した。\n\n")
    assert lines[0]["source"].endswith("resume.pdf")


@pytest.mark.parametrize(
    "words",
    [
        "in January 2021) were operating normally, though",  # wrapped lines of a report
        "(93% in July 2020, 98% in October 2020, and 99%",
        "Engineer at Acme since Mar 2021 working on",
    ],
)
def test_a_date_inside_a_wrapped_line_of_prose_is_no_item_line(words: str) -> None:
    assert item_period(words) is None


@pytest.mark.parametrize(
    "words",
    [
        "株式会社エービーシー（2016年4月～2019年3月）",
        "Senior Engineer | Mar 2021 - Present | Acme Corp",
        "Acme Corp, Mar 2021 - Present, Berlin",
        "B.Sc. Computer Science, State University, 2013 - 2017",
    ],
)
def test_an_item_line_has_its_period_first_last_or_between_fields(words: str) -> None:
    assert item_period(words) is not None


def test_auto_wants_items_of_a_known_kind() -> None:
    laws = "# Acts\n\n## Laws\n\n" + "".join(
        f"- Republic Act No. {9000 + n}: An act of parliament (May {n + 1}, 2008)\n"
        for n in range(6)
    )
    assert split(laws, mode="items")[1].item is not None  # items when asked for
    assert split(laws, mode="auto")[0].split_config["mode"] == "heading"


def test_item_fields_survive_the_ray_engines_parquet_rows() -> None:
    """--engine ray carries chunks as rows of one schema: item fields are null on other rows."""
    pa = pytest.importorskip("pyarrow")
    from chunkcli.distributed.ray_engine import row_to_json, split_rows, split_schema
    from chunkcli.distributed.rows import ChunkRows
    from chunkcli.jsonl import chunk_to_json

    chunks = split(EN_CV, mode="items")
    rows = split_rows(0, ChunkRows("cv.md", tuple(chunks)))
    table = pa.Table.from_pylist(rows, schema=split_schema())
    assert [row_to_json(row) for row in table.to_pylist()] == [chunk_to_json(c) for c in chunks]


CV_JOBS = (
    (
        "Senior Engineer, Acme Corp",
        "Mar 2021 – Present",
        "Led the platform team of six engineers and cut deploy time from forty to eight minutes.",
    ),
    (
        "Software Engineer, Beta Inc",
        "Jun 2017 – Feb 2021",
        "Built the billing service in Go and moved the data warehouse to a managed store.",
    ),
    ("Intern, Gamma LLC", "Jun 2016 – Aug 2016", "Wrote test tooling for the mobile apps."),
)


def test_a_generated_cv_pdf_whose_date_lines_are_lines_of_their_own(tmp_path: Path) -> None:
    """Each job: a bold title line, an italic date line, the description. Convert keeps the
    short italic date line apart from the upright text under it, and each job is one item."""
    items: list[Text] = [Text(72, 70, "Jane Doe", size=22, bold=True)]
    items.append(Text(72, 110, "Experience", size=14, bold=True))
    y = 140.0
    for title, when, text in CV_JOBS:
        items += [Text(72, y, title, bold=True), Text(72, y + 16, when, size=10, italic=True)]
        paragraph = wrapped_paragraph(72, y + 36, 450, text)
        items += paragraph
        y += 36 + 16 * len(paragraph) + 16
    pdf = make_pdf(tmp_path / "cv.pdf", [items])
    result = runner.invoke(app, ["split", str(pdf), "--mode", "items", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [
        (line["item_type"], line["period_start"], line["period_end"], line["item_index"])
        for line in lines
    ] == [
        ("work", "2021-03", None, 0),
        ("work", "2017-06", "2021-02", 1),
        ("work", "2016-06", "2016-08", 2),
    ]
    for line, (title, when, text) in zip(lines, CV_JOBS, strict=True):
        assert line["body"].rstrip("\n").endswith(f"{title}\n\n{when}\n\n{text}")


def test_a_period_opening_the_text_dates_the_entry_heading_above() -> None:
    text = "Led the platform team of six engineers and cut deploy time from forty to eight minutes."
    markdown = "# Jane Doe\n\n## Experience\n\n" + "".join(
        f"### {title}\n\n{when} {text}\n\n"
        for title, when in (
            ("Acme Corp", "Mar 2021 – Present"),
            ("Beta Inc", "Jun 2017 – Feb 2021"),
        )
    )
    assert items_of(split(markdown, mode="items")) == [
        ("work", "2021-03", None, 0, "# Jane Doe"),
        ("work", "2017-06", "2021-02", 1, "### Beta Inc"),
    ]
    long_prose = "# Notes\n\n## Log\n\n" + "".join(
        f"2024-0{m}-01 (load 4-15, other jobs running) before and after the day's changes, "
        "the conversion took longer than the day before.\n\n"
        for m in range(1, 6)
    )
    assert [c.item for c in split(long_prose, mode="items")] == [None]  # no title lines above


def test_auto_item_settings_are_validated_and_count_only_in_auto() -> None:
    from chunkcli.split.options import SplitSettings

    with pytest.raises(UsageError, match="auto_item_share"):
        SplitOptions(settings=SplitSettings(auto_item_share=1.5)).validated()
    with pytest.raises(UsageError, match="auto_min_items"):
        SplitOptions(settings=SplitSettings(auto_min_items=-1)).validated()
    tuned = SplitSettings(auto_min_items=2)
    assert "settings" not in SplitOptions(mode="items", settings=tuned).config("items")  # type: ignore[arg-type]
    auto = SplitOptions(mode="auto", settings=tuned).config("items")  # type: ignore[arg-type]
    assert auto["settings"] == {"auto_min_items": 2}
    assert split(KO_RESUME, mode="auto", settings=tuned)[0].split_config["mode"] == "items"
