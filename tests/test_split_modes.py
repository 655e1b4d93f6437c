"""split --mode laws|rows|qa|auto: patterns per family, and the chunks each mode makes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chunkcli.check import CheckOptions, check_markdown
from chunkcli.check.articles import check_articles
from chunkcli.cli import app
from chunkcli.errors import UsageError
from chunkcli.model import Chunk, ChunkKind
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.laws import LawKind, classify
from chunkcli.split.lines import parse_numeral
from chunkcli.split.qa import ANSWER_RE, QUESTION_RE
from chunkcli.split.rows import cells_of, column_names, record_lines
from chunkcli.tokens import tiktoken_counter

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "modes"
count = tiktoken_counter("cl100k_base")


def fixture(name: str) -> str:
    return (FIXTURES / f"{name}.md").read_text(encoding="utf-8")


def split(markdown: str, **options: object) -> list[Chunk]:
    chunks = split_markdown(markdown, SplitOptions(**options))  # type: ignore[arg-type]
    for chunk in chunks:  # the invariants of every mode
        assert markdown[chunk.start : chunk.end] == chunk.body
        assert chunk.tokens == count(chunk.prefix + chunk.body)
        assert chunk.oversize == (chunk.tokens > chunk.split_config["max_tokens"])  # type: ignore[operator]
    return chunks


# --- numerals and patterns ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("15", 15),
        ("１５", 15),
        ("十五", 15),
        ("百二十三", 123),
        ("二〇", 20),
        ("三十", 30),
        ("千", 1000),
        ("十", 10),
        ("二百", 200),
    ],
)
def test_numerals_ascii_full_width_and_kanji(text: str, number: int) -> None:
    assert parse_numeral(text) == number


@pytest.mark.parametrize(
    ("words", "number", "branch", "name"),
    [
        ("第十五条　作業者は、確認しなければならない。", 15, 0, "第十五条"),
        ("第１５条　作業者は確認する。", 15, 0, "第１５条"),
        ("第15条 作業者は確認する。", 15, 0, "第15条"),
        ("第三条の２（代理者）　職務を代理する。", 3, 2, "第三条の２（代理者）"),
        ("第 3 条 作業者は確認する。", 3, 0, "第3条"),
        ("第一条", 1, 0, "第一条"),
        ("제3조의2(대리자) 직무를 대리한다.", 3, 2, "제3조의2(대리자)"),
        ("제15조(목적) 이 법은 정한다.", 15, 0, "제15조(목적)"),
        ("제7조 삭제 <2020. 1. 1.>", 7, 0, "제7조"),
        ("第三", 3, 0, "第三"),  # a notice item
        ("第三の二", 3, 2, "第三の二"),
    ],
)
def test_articles_japanese_and_korean(words: str, number: int, branch: int, name: str) -> None:
    mark = classify(words)
    assert mark is not None
    assert (mark.kind, mark.number, mark.branch, mark.name) == (
        LawKind.ARTICLE,
        number,
        branch,
        name,
    )


def test_a_range_deleted_together_counts_all_its_numbers() -> None:
    mark = classify("第三条から第五条まで　削除")
    assert mark is not None
    assert (mark.kind, mark.number, mark.last) == (LawKind.ARTICLE, 3, 5)
    korean = classify("제3조부터 제5조까지 삭제")
    assert korean is not None
    assert (korean.number, korean.last) == (3, 5)


@pytest.mark.parametrize(
    "words",
    [
        "第5条に定める場合を除き、点検する。",
        "第5条及び第6条の規定は適用しない。",
        "第5条 及び第6条の規定は適用しない。",
        "第三条第二項の規定により届け出る。",
        "第三条の規定は委託先にも適用する。",
        "제3조제1항에 따라 점검한다.",
        "제3조에 따른 점검 결과를 보존한다.",
        "제3조 및 제4조는 적용하지 아니한다.",
        "第一章に定める手続による。",
        "第五の二の",  # a table fragment, not a notice item
    ],
)
def test_cross_references_are_never_structure(words: str) -> None:
    assert classify(words) is None


@pytest.mark.parametrize(
    ("words", "kind", "rank", "name"),
    [
        ("第一編　総則", LawKind.DIVISION, 1, "第一編 総則"),
        ("第二章　管理体制", LawKind.DIVISION, 2, "第二章 管理体制"),
        ("第1節 日常点検", LawKind.DIVISION, 3, "第1節 日常点検"),
        ("第２款　細則", LawKind.DIVISION, 4, "第２款 細則"),
        ("第一目　通則", LawKind.DIVISION, 5, "第一目 通則"),
        ("제1편 총칙", LawKind.DIVISION, 1, "제1편 총칙"),
        ("제2장 안전관리체계", LawKind.DIVISION, 2, "제2장 안전관리체계"),
        ("제3절 점검", LawKind.DIVISION, 3, "제3절 점검"),
        ("제1관 통칙", LawKind.DIVISION, 4, "제1관 통칙"),
        ("附　則", LawKind.SUPPLEMENT, 0, "附則"),
        ("附則（令和五年告示第十号）", LawKind.SUPPLEMENT, 0, "附則 （令和五年告示第十号）"),
        ("부 칙", LawKind.SUPPLEMENT, 0, "부칙"),
        ("부칙 <제123호, 2020. 1. 1.>", LawKind.SUPPLEMENT, 0, "부칙 <제123호, 2020. 1. 1.>"),
        ("目　次", LawKind.TOC, 0, "目次"),
        ("차례", LawKind.TOC, 0, "차례"),
    ],
)
def test_divisions_supplements_and_tables_of_contents(
    words: str, kind: LawKind, rank: int, name: str
) -> None:
    mark = classify(words)
    assert mark is not None
    assert (mark.kind, mark.rank, mark.name) == (kind, rank, name)


@pytest.mark.parametrize(
    ("line", "question", "answer"),
    [
        ("Q: How do I reset it?", True, False),
        ("Q. How do I reset it?", True, False),
        ("Q1. 料金はいつですか？", True, False),
        ("Q12 What is covered?", True, False),
        ("問２　領収書は発行できますか。", True, False),
        ("問：領収書は？", True, False),
        ("質問：退会できますか？", True, False),
        ("질문: 문의할 수 있나요?", True, False),
        ("A: Press reset.", False, True),
        ("A1. 毎月末日です。", False, True),
        ("答　ダウンロードできます。", False, True),
        ("回答：いつでもできます。", False, True),
        ("답변: 네, 가능합니다.", False, True),
        ("問題があれば連絡する。", False, False),
        ("Quality matters.", False, False),
        ("質問があれば窓口へ。", False, False),
    ],
)
def test_question_and_answer_markers(line: str, question: bool, answer: bool) -> None:
    assert bool(QUESTION_RE.match(line)) is question
    assert bool(ANSWER_RE.match(line)) is answer


# --- laws ----------------------------------------------------------------------------------


def paths_and_kinds(chunks: list[Chunk]) -> list[tuple[str, str]]:
    return [(chunk.kind.value, " › ".join(chunk.heading_path)) for chunk in chunks]


def test_japanese_regulation_one_chunk_per_article_toc_and_supplement_apart() -> None:
    chunks = split(fixture("ja_regulation"), mode="laws")
    title, part1, part2 = "設備保全規程", "第一編 総則", "第二編 点検"
    assert paths_and_kinds(chunks) == [
        ("toc", f"{title} › 目次"),
        ("article", f"{title} › {part1} › 第一章 通則 › 第一条（目的）"),
        ("article", f"{title} › {part1} › 第一章 通則 › 第二条（定義）"),
        ("article", f"{title} › {part1} › 第二章 管理体制 › 第三条（管理責任者）"),
        ("article", f"{title} › {part1} › 第二章 管理体制 › 第三条の２（代理者）"),
        ("article", f"{title} › {part1} › 第二章 管理体制 › 第４条"),
        ("article", f"{title} › {part2} › 第一章 定期点検 › 第一節 日常点検 › 第十五条"),
        ("section", f"{title} › 附則"),
    ]
    toc = chunks[0].body
    assert "第一節　日常点検（第十五条）" in toc and "第一条　この規程" not in toc
    # Divisions and captions travel with the article under them.
    assert chunks[1].body.startswith("第一編　総則\n\n第一章　通則\n\n（目的）\n第一条")
    assert chunks[2].body.startswith("（定義）\n第二条")
    assert chunks[2].body.rstrip().endswith("（2）　動作の確認")


def test_korean_regulation_articles_and_supplement_numbering() -> None:
    chunks = split(fixture("ko_regulation"), mode="laws")
    title = "시설 안전관리 규정"
    assert paths_and_kinds(chunks) == [
        ("toc", f"{title} › 차례"),
        ("article", f"{title} › 제1장 총칙 › 제1조(목적)"),
        ("article", f"{title} › 제1장 총칙 › 제2조(정의)"),
        ("article", f"{title} › 제2장 안전관리체계 › 제3조(관리책임자)"),
        ("article", f"{title} › 제2장 안전관리체계 › 제3조의2(대리자)"),
        ("article", f"{title} › 제2장 안전관리체계 › 제4조(적용 범위)"),
        ("article", f"{title} › 부칙 › 제1조(시행일)"),
        ("article", f"{title} › 부칙 › 제2조(경과조치)"),
    ]
    body = chunks[3].body  # ①②③ stay together in one chunk
    assert [line[:1] for line in body.splitlines()] == ["제", "", "제", "②", "③", ""]


def test_a_long_article_is_cut_only_between_paragraphs_with_its_label_in_every_prefix() -> None:
    markdown = fixture("ja_regulation")
    chunks = split(markdown, mode="laws", max_tokens=110)
    parts = [c for c in chunks if c.heading_path[-1] == "第三条（管理責任者）"]
    assert [c.kind for c in parts] == [ChunkKind.ARTICLE_PART] * 3
    assert [c.body.split("\u3000", 1)[0] for c in parts] == ["第二章", "２", "３"]
    expected_prefix = "設備保全規程 › 第一編 総則 › 第二章 管理体制 › 第三条（管理責任者）\n\n"
    assert all(c.prefix == expected_prefix for c in parts)
    assert all(not c.oversize for c in chunks)


def test_short_articles_merge_only_with_min_tokens() -> None:
    markdown = fixture("ja_regulation")
    separate = split(markdown, mode="laws")
    merged = split(markdown, mode="laws", min_tokens=100)
    assert len([c for c in separate if c.kind is ChunkKind.ARTICLE]) == 6
    chapter = [c for c in merged if c.heading_path[-1] == "第二章 管理体制"]
    assert len(chapter) == 1 and chapter[0].kind is ChunkKind.ARTICLE
    assert "第三条（管理責任者）" in chapter[0].body and "第４条" in chapter[0].body


def test_structure_in_headings_and_text_before_the_first_article() -> None:
    markdown = (
        "# 規則\n\n前文の説明。\n\n## 第1章 総則\n\n### 第1条（目的）\n\n本文。\n\n"
        "## 別記\n\n様式は別に定める。\n"
    )
    chunks = split(markdown, mode="laws")
    assert paths_and_kinds(chunks) == [
        ("section", "規則"),
        ("article", "規則 › 第1章 総則 › 第1条（目的）"),
        ("section", "規則 › 別記"),
    ]


def test_auto_picks_laws_for_a_regulation_and_heading_otherwise() -> None:
    law = split(fixture("ja_regulation"), mode="auto")
    assert law[0].split_config["mode"] == "laws"
    assert law[0].split_config["mode_requested"] == "auto"
    faq = split(fixture("faq"), mode="auto")
    assert faq[0].split_config["mode"] == "heading"
    assert [c.body for c in faq] == [c.body for c in split(fixture("faq"))]


def test_the_default_mode_adds_nothing_to_split_config() -> None:
    chunks = split(fixture("table"))
    assert "mode" not in chunks[0].split_config
    assert "rows_per_chunk" not in chunks[0].split_config


def test_bad_mode_and_rows_per_chunk_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="--mode must be one of"):
        split_markdown("x", SplitOptions(mode="chapters"))
    with pytest.raises(UsageError, match="--rows-per-chunk must be at least 1"):
        split_markdown("x", SplitOptions(mode="rows", rows_per_chunk=0))


# --- check: article numbering ---------------------------------------------------------------


def test_check_warns_on_missing_and_out_of_sequence_articles() -> None:
    markdown = "第1条 a\n\n第2条 b\n\n第5条 c\n\n第3条 d\n\n第3条の2 e\n\n附則\n\n第1条 f\n"
    issues = check_articles(markdown)
    assert [(i.code, i.severity.value, i.line) for i in issues] == [
        ("laws.article-sequence", "warn", 5)
    ]
    assert issues[0].message == (
        "2 articles out of sequence or missing: 第3条-第4条 missing before 第5条 (line 5); "
        "第3条 after 第5条 (line 7)"
    )
    assert check_articles(fixture("ko_regulation")) == []


def test_check_runs_the_article_check_only_for_laws() -> None:
    markdown = "# 規則\n\n第1条 a\n\n第2条 b\n\n第4条 c\n"
    laws = check_markdown(markdown, CheckOptions(mode="laws"))
    heading = check_markdown(markdown, CheckOptions())
    assert "laws.article-sequence" in [i.code for i in laws.issues]
    assert "laws.article-sequence" not in [i.code for i in heading.issues]


# --- rows ----------------------------------------------------------------------------------


def test_every_row_one_chunk_with_column_value_lines() -> None:
    markdown = fixture("table")
    chunks = split(markdown, mode="rows")
    rows = [c for c in chunks if c.kind is ChunkKind.ROW]
    assert len(rows) == 6
    assert rows[0].text == (
        "製品カタログ › 価格表\n\n品名: りんご\n価格: 100円\n在庫: あり\n備考: 青森産\n\n"
        "| りんご | 100円 | あり | 青森産 |\n"
    )
    assert rows[1].prefix == "製品カタログ › 価格表\n\n品名: みかん\n価格: 80円\n備考: 愛媛産\n\n"
    assert "備考: 山梨産 | 数量限定" in rows[2].prefix
    assert rows[4].prefix == "製品カタログ › Shipping\n\nRegion: Kanto\nDays: 1\nFee: 500 yen\n\n"
    others = [(c.kind.value, c.body.strip()) for c in chunks if c.kind is not ChunkKind.ROW]
    assert others == [
        ("section", "# 製品カタログ\n\n製品の価格と在庫の一覧です。"),
        ("section", "在庫は毎朝更新されます。"),
    ]


def test_rows_per_chunk_packs_rows_within_the_limit() -> None:
    markdown = fixture("table")
    chunks = [c for c in split(markdown, mode="rows", rows_per_chunk=3) if c.kind is ChunkKind.ROW]
    assert [c.body.count("\n|") + 1 for c in chunks] == [3, 1, 2]
    assert chunks[0].split_config["rows_per_chunk"] == 3
    tight = [
        c
        for c in split(markdown, mode="rows", rows_per_chunk=3, max_tokens=90)
        if c.kind is ChunkKind.ROW
    ]
    assert all(c.tokens <= 90 for c in tight)
    assert len(tight) > len(chunks)


def test_header_names_from_all_header_rows_with_group_titles() -> None:
    names = column_names([["", "2023", "", "2024", ""], ["地域", "Q1", "Q2", "Q1", "Q2"]])
    assert names == ["地域", "2023 / Q1", "2023 / Q2", "2024 / Q1", "2024 / Q2"]
    assert column_names([["", "b"]]) == ["Column 1", "b"]
    assert cells_of("| a \\| b | c |") == ["a | b", "c"]
    assert record_lines(["x", "y"], ["1", "", "3"]) == "x: 1\nColumn 3: 3"


# --- qa ------------------------------------------------------------------------------------


def test_one_chunk_per_question_and_answer() -> None:
    chunks = split(fixture("faq"), mode="qa")
    assert paths_and_kinds(chunks) == [
        ("section", "サービスFAQ"),
        ("qa", "サービスFAQ › 料金について"),
        ("qa", "サービスFAQ › 料金について"),
        ("qa", "サービスFAQ › 料金について"),
        ("qa", "サービスFAQ › アカウント › パスワードを忘れた場合は？"),
        ("qa", "サービスFAQ › アカウント"),
        ("qa", "サービスFAQ › 한국어 지원"),
    ]
    firsts = [c.body.split("\n")[0] for c in chunks[1:]]
    assert firsts == [
        "## 料金について",
        "Q: 支払い方法を変更できますか？",
        "問２\u3000領収書は発行できますか。",
        "## アカウント",
        "質問：退会するとデータはどうなりますか？",
        "## 한국어 지원",
    ]
    assert chunks[3].body.rstrip().endswith("PDFでダウンロードできます。")
    assert "再設定用のリンクが届きます。" in chunks[4].body


def test_a_long_answer_is_windowed_with_the_question_in_every_prefix() -> None:
    answer = "はい、マイページから変更できます。" * 30
    question = "Q: 支払い方法を変更できますか？"
    markdown = f"# FAQ\n\n{question}\nA: {answer}\n\nQ: 次の質問？\nA: はい。\n"
    chunks = split(markdown, mode="qa", max_tokens=120)
    parts = [c for c in chunks if c.kind is ChunkKind.QA_PART]
    assert len(parts) >= 3
    assert parts[0].body.startswith("# FAQ\n\nQ: 支払い方法を変更できますか？\nA: はい")
    assert all(p.prefix == "FAQ\n\nQ: 支払い方法を変更できますか？\n\n" for p in parts[1:])
    assert all(not c.oversize for c in chunks)
    assert chunks[-1].kind is ChunkKind.QA and chunks[-1].body == "Q: 次の質問？\nA: はい。\n"


# --- CLI -----------------------------------------------------------------------------------


runner = CliRunner()


def test_cli_split_mode_laws_writes_articles() -> None:
    result = runner.invoke(app, ["split", str(FIXTURES / "ko_regulation.md"), "--mode", "laws"])
    assert result.exit_code == 0, result.output
    kinds = [json.loads(line)["kind"] for line in result.stdout.splitlines()]
    assert kinds == ["toc"] + ["article"] * 7


def test_cli_split_rows_per_chunk_and_bad_values() -> None:
    result = runner.invoke(
        app, ["split", str(FIXTURES / "table.md"), "--mode", "rows", "--rows-per-chunk", "2"]
    )
    assert result.exit_code == 0, result.output
    configs = [json.loads(line)["split_config"] for line in result.stdout.splitlines()]
    assert {c["rows_per_chunk"] for c in configs} == {2}
    bad = runner.invoke(app, ["split", str(FIXTURES / "table.md"), "--mode", "chapters"])
    assert bad.exit_code == 2  # a bad option value (the exit-code policy)
    assert "--mode must be one of heading|laws|rows|qa|items|auto" in bad.output
    zero = runner.invoke(app, ["split", str(FIXTURES / "table.md"), "--rows-per-chunk", "0"])
    assert zero.exit_code == 2


def test_cli_check_mode_laws_warns_on_the_gap() -> None:
    result = runner.invoke(app, ["check", str(FIXTURES / "ja_regulation.md"), "--mode", "laws"])
    assert result.exit_code == 0, result.output
    assert (
        "laws.article-sequence: 1 article out of sequence or missing: 第5条-第14条 missing"
        in " ".join(result.output.split())
    )


def test_rows_name_columns_from_every_announced_header_row() -> None:
    markdown = (
        "# 売上\n\n<!-- table: 2 header rows -->\n\n| | 2023 | | 2024 | |\n|---|---|---|---|---|\n"
        "| 地域 | Q1 | Q2 | Q1 | Q2 |\n| 東京 | 1 | 2 | 3 | 4 |\n| 大阪 | 5 |  | 7 | 8 |\n"
    )
    chunks = split(markdown, mode="rows")
    assert [c.kind for c in chunks] == [ChunkKind.ROW, ChunkKind.ROW]
    assert chunks[0].prefix == (
        "売上\n\n地域: 東京\n2023 / Q1: 1\n2023 / Q2: 2\n2024 / Q1: 3\n2024 / Q2: 4\n\n"
    )
    assert chunks[1].body == "| 大阪 | 5 |  | 7 | 8 |\n"
    assert "2023 / Q2" not in chunks[1].prefix  # an empty cell gives no line


def test_a_caption_line_opens_the_part_with_its_paragraph() -> None:
    sentence = "当該病棟において看護職員の数は常時一以上であること。"
    markdown = (
        f"第五　病院の基準\n\n一般の基準\n\n①　{sentence * 3}\n\n②　{sentence * 3}\n\n"
        f"十対一の基準\n\n③　{sentence * 3}\n"
    )
    chunks = split(markdown, mode="laws", max_tokens=150)
    starts = [c.body.split("\n")[0] for c in chunks]
    assert starts == ["第五\u3000病院の基準", f"②\u3000{sentence * 3}", "十対一の基準"]
    assert chunks[0].body.startswith("第五\u3000病院の基準\n\n一般の基準\n\n①")
