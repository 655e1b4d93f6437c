"""chunkcli eval: gold parsing, tokenising, retrieval, metrics, reports and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from chunkcli.cli import app
from chunkcli.errors import UsageError
from chunkcli.evaluate import (
    GoldError,
    TextSpan,
    make_gold,
    parse_config,
    parse_configs,
    parse_ks,
    run_eval,
    to_json,
    to_markdown,
)
from chunkcli.evaluate.gold import GoldQuestion, find_all, locate, parse_gold
from chunkcli.evaluate.metrics import merge_spans, score_question
from chunkcli.evaluate.retriever import Bm25Retriever, EmbeddingRetriever
from chunkcli.evaluate.tokenize import tokenize
from chunkcli.split import SplitOptions, split_markdown
from tests.eval_embed import bag_of_terms

runner = CliRunner()
KS = (1, 3, 5, 10)

MAINTENANCE = (
    "Check the oil level of the pump every week. "
    "Replace the seal ring when it shows cracks. "
    "Clean the intake filter after every hundred hours of operation. "
    "A clogged filter makes the motor overheat and shuts the pump down. "
    "Tighten the mounting bolts once a month. "
    "Inspect the power cable for damaged insulation. "
    "Lubricate the bearings with lithium grease twice a year. "
    "Record every maintenance step in the service log."
)
MANUAL = (
    "# Pump Manual\n\n## Maintenance\n\n" + MAINTENANCE + "\n\n## Storage\n\n"
    "Store the pump in a dry room between five and thirty degrees.\n"
)
FILTER_ANSWER = (
    "Replace the seal ring when it shows cracks. "
    "Clean the intake filter after every hundred hours of operation."
)
GOLD = [
    {
        "id": "filter",
        "source": "manual.md",
        "answer": FILTER_ANSWER,
        "question": "When is the seal ring replaced, and how often is the intake filter cleaned?",
    },
    {
        "id": "storage",
        "source": "manual.md",
        "answer": "Store the pump in a dry room between five and thirty degrees.",
        "question": "In what kind of room, and at how many degrees, is the pump stored?",
    },
    {
        "id": "grease",
        "source": "manual.md",
        "answer": "Lubricate the bearings with lithium grease twice a year.",
        "condition": "Check the oil level of the pump every week.",
        "question": "Which grease do the bearings get, and how often is the oil level checked?",
    },
]
WHOLE = "whole=--max-tokens 800"
CUT = "cut=--max-tokens 40 --overlap-sentences 0"


def write_gold(folder: Path, records: list[dict[str, object]], markdown: str = MANUAL) -> Path:
    (folder / "manual.md").write_text(markdown, encoding="utf-8")
    gold = folder / "gold.jsonl"
    gold.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return gold


# --- tokenising ------------------------------------------------------------------------------


def test_latin_text_becomes_lower_case_words_and_numbers() -> None:
    assert tokenize("The PS-300 delivers 12 V, doesn't it?") == [
        "the",
        "ps",
        "300",
        "delivers",
        "12",
        "v",
        "doesn",
        "t",
        "it",
    ]


def test_japanese_runs_become_character_bigrams() -> None:
    assert tokenize("個人情報を消去する。") == [
        "個人",
        "人情",
        "情報",
        "報を",
        "を消",
        "消去",
        "去す",
        "する",
    ]


def test_korean_runs_become_character_bigrams_per_word() -> None:
    assert tokenize("개인정보는 즉시 삭제한다") == [
        "개인",
        "인정",
        "정보",
        "보는",
        "즉시",
        "삭제",
        "제한",
        "한다",
    ]


def test_full_width_and_mixed_scripts_are_normalised_then_split_by_script() -> None:
    assert tokenize("ＰＤＦをﾏｰｸﾀﾞｳﾝに") == [
        "pdf",
        "をマ",
        "マー",
        "ーク",
        "クダ",
        "ダウ",
        "ウン",
        "ンに",
    ]
    assert tokenize("年") == ["年"]
    assert tokenize("— ・ 「」") == []


def test_bm25_finds_a_korean_chunk_whose_word_carries_another_particle() -> None:
    texts = [
        "회의실은 삼층에 있습니다.",
        "개인정보는 보존 기간이 지나면 삭제합니다.",
        "주차장은 지하에 있습니다.",
    ]
    assert Bm25Retriever(texts).search("개인정보를 언제 삭제하나요?", 3)[0] == 1


def test_bm25_finds_a_japanese_chunk_without_word_boundaries() -> None:
    texts = [
        "会議室は三階にあります。",
        "個人情報は保存期間を過ぎたら消去します。",
        "駐車場は地下です。",
    ]
    assert Bm25Retriever(texts).search("個人情報はいつ消去しますか", 3)[0] == 1


def test_ties_keep_index_order_and_a_query_without_known_terms_ranks_in_order() -> None:
    retriever = Bm25Retriever(["alpha beta", "alpha beta", "gamma"])
    assert retriever.search("alpha", 3) == [0, 1, 2]
    assert retriever.search("zzz ???", 2) == [0, 1]


# --- gold files ------------------------------------------------------------------------------


def test_gold_answer_located_exactly_and_by_occurrence() -> None:
    markdown = "Intro.\n\nPress stop. Then wait.\n\nPress stop.\n"
    [line] = parse_gold(
        '{"question": "q?", "source": "a.md", "answer": "Press stop.", "occurrence": 2}\n',
        "gold.jsonl",
    )
    assert locate(line, markdown, "gold.jsonl").answer == TextSpan(32, 43)
    assert markdown[32:43] == "Press stop."


def test_gold_answer_found_twice_without_occurrence_is_an_error_naming_the_question() -> None:
    [line] = parse_gold(
        '{"question": "How do I halt?", "source": "a.md", "answer": "Press stop."}', "gold.jsonl"
    )
    with pytest.raises(GoldError) as error:
        locate(line, "Press stop. Then wait.\n\nPress stop.\n", "gold.jsonl")
    assert str(error.value) == (
        "gold.jsonl:1: question 'How do I halt?': answer found 2 times; add \"occurrence\": 1..2"
    )


def test_a_span_with_line_breaks_matches_the_markdown_where_it_has_spaces() -> None:
    assert find_all("one two  three four", "two\nthree") == [TextSpan(4, 14)]
    assert find_all("x", "y") == []


def test_gold_offsets_and_bad_lines() -> None:
    [line] = parse_gold('{"question": "q", "source": "a.md", "start": 2, "end": 5, "page": 1}', "g")
    question = locate(line, "abcdefg", "g")
    assert (question.answer, question.page, question.id) == (TextSpan(2, 5), 1, "q1")
    with pytest.raises(GoldError, match=r"^g:2: not JSON"):
        parse_gold('{"question": "q", "source": "a.md", "start": 0, "end": 1}\n{oops', "g")
    with pytest.raises(GoldError, match=r"^g:1: needs a non-empty string 'source'$"):
        parse_gold('{"question": "q"}', "g")
    [bad] = parse_gold('{"question": "q", "source": "a.md", "start": 3, "end": 99}', "g")
    with pytest.raises(GoldError, match=r"not inside the Markdown \(0\.\.7\)"):
        locate(bad, "abcdefg", "g")


# --- configs -------------------------------------------------------------------------------


def test_config_parses_split_flags_in_both_spellings() -> None:
    config = parse_config("small=--max-tokens 300 --split-on=h3 --overlap-sentences 0")
    assert config.name == "small"
    assert config.spec == "--max-tokens 300 --split-on=h3 --overlap-sentences 0"
    assert config.options == SplitOptions(max_tokens=300, split_on="h3", overlap_sentences=0)
    assert [c.name for c in parse_configs([])] == ["default"]
    assert parse_ks("10,1,3,3") == (1, 3, 10)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("small", "--config expects NAME=\"SPLIT OPTIONS\", got 'small'"),
        ("s=--pages 3", "--config s: unknown split option '--pages'"),
        ("s=--max-tokens many", "--config s: --max-tokens expects a whole number, got 'many'"),
        ("s=--max-tokens", "--config s: --max-tokens needs a value"),
        ("s=--split-on h4", "--config s: --split-on must be h2 or h3, got 'h4'"),
    ],
)
def test_bad_configs_are_usage_errors_naming_the_config(given: str, message: str) -> None:
    with pytest.raises(UsageError) as error:
        parse_config(given)
    assert str(error.value).startswith(message)


def test_config_names_are_unique_and_ks_positive() -> None:
    with pytest.raises(UsageError, match="'a' is used more than once"):
        parse_configs(["a=", "a=--max-tokens 100"])
    with pytest.raises(UsageError, match="numbers >= 1"):
        parse_ks("0,5")


# --- metrics on a document where one config cuts the answer ----------------------------------


def test_one_config_cuts_the_answer_across_chunks_and_the_metrics_show_it(tmp_path: Path) -> None:
    cut_chunks = split_markdown(MANUAL, parse_config(CUT).options, source="manual.md")
    start = MANUAL.index(FILTER_ANSWER)
    end = start + len(FILTER_ANSWER)
    # The precondition: under `cut` no chunk holds the whole answer, under `whole` one does.
    assert not any(c.start <= start and end <= c.end for c in cut_chunks)
    assert any(c.start < start < c.end < end for c in cut_chunks)
    report = run_eval(write_gold(tmp_path, GOLD), parse_configs([WHOLE, CUT]), KS)
    whole, cut = report.results
    maintenance = next(
        c
        for c in split_markdown(MANUAL, SplitOptions(), source="manual.md")
        if c.heading_path[-1] == "Maintenance"
    )
    assert whole.chunks == 2
    assert [s.rank for s in whole.scores] == [1, 1, 1]
    assert whole.summary.hit == (1.0, 1.0, 1.0, 1.0)
    assert whole.scores[0].recall == (1.0, 1.0, 1.0, 1.0)
    assert whole.scores[0].iou[0] == pytest.approx(len(FILTER_ANSWER) / len(maintenance.body))
    assert whole.summary.condition == (1.0, 1.0, 1.0, 1.0)
    assert cut.chunks == len(cut_chunks) > 3
    assert [s.rank for s in cut.scores] == [None, 1, 2]
    assert [s.condition_rank for s in cut.scores] == [None, None, 2]
    assert cut.scores[0].recall[0] < 1.0
    # Both halves are in the top 10, in two windows; only the space between them is in neither.
    assert cut.scores[0].recall[-1] == (len(FILTER_ANSWER) - 1) / len(FILTER_ANSWER)
    assert cut.summary.hit == pytest.approx((1 / 3, 2 / 3, 2 / 3, 2 / 3))
    assert cut.summary.condition == (0.0, 1.0, 1.0, 1.0)
    assert cut.summary.condition_questions == 1
    # The cut config retrieves fewer tokens at k=1: that is the trade the report shows.
    assert cut.summary.tokens[0] < whole.summary.tokens[0]
    markdown = to_markdown(report)
    assert "## Questions where the configs differ (" in markdown
    assert "| filter | When is the seal ring replaced, and how often" in markdown


def test_page_citation_accuracy_uses_the_top_chunks_page_range(tmp_path: Path) -> None:
    document = (
        "<!-- page 1 -->\n\n# Guide\n\n## Mixing\n\nStir the resin slowly for two minutes."
        "\n\n<!-- page 2 -->\n\n## Curing\n\nLet the resin cure for a full day.\n"
    )
    gold = write_gold(
        tmp_path,
        [
            {
                "question": "How long does the resin cure?",
                "source": "manual.md",
                "answer": "Let the resin cure for a full day.",
                "page": 2,
            },
            {
                "question": "How long is the resin stirred?",
                "source": "manual.md",
                "answer": "Stir the resin slowly for two minutes.",
                "page": 2,
            },
            {
                "question": "Is the resin stirred slowly?",
                "source": "manual.md",
                "answer": "Stir the resin slowly",
            },
        ],
        document,
    )
    [result] = run_eval(gold, parse_configs([]), (1,)).results
    assert [s.page_correct for s in result.scores] == [True, False, None]
    assert (result.summary.page_accuracy, result.summary.page_questions) == (0.5, 2)


def test_two_spellings_of_a_source_are_read_and_indexed_once(tmp_path: Path) -> None:
    records = [GOLD[0], {**GOLD[1], "source": "./manual.md"}]
    report = run_eval(write_gold(tmp_path, records), parse_configs([WHOLE]), KS)
    assert report.sources == ("manual.md",)
    assert (report.results[0].chunks, [s.rank for s in report.results[0].scores]) == (2, [1, 1])


def test_merge_spans_joins_overlapping_and_touching_spans() -> None:
    assert merge_spans([(5, 9), (0, 3), (3, 4), (8, 12), (20, 21)]) == [(0, 4), (5, 12), (20, 21)]


def test_embedding_hook_ranks_by_the_users_vectors(tmp_path: Path) -> None:
    texts = ["the seal ring cracks", "store in a dry room", "grease the bearings"]
    assert EmbeddingRetriever(texts, bag_of_terms, "t").search("which room is dry", 1) == [1]
    result = runner.invoke(
        app,
        [
            "eval",
            str(write_gold(tmp_path, GOLD)),
            "--json",
            "--embed",
            "tests.eval_embed:bag_of_terms",
            "--no-timings",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["retriever"] == "embedding (tests.eval_embed:bag_of_terms)"
    assert data["configs"][0]["hit_at"]["10"] == 1.0


def test_embedding_hook_errors_are_one_line(tmp_path: Path) -> None:
    gold = str(write_gold(tmp_path, GOLD))
    for spec, message, code in [
        ("tests.eval_embed:wrong_shape", "must return one vector per text", 1),
        ("tests.eval_embed:missing", "cannot load", 2),
        ("nocolon", "--embed expects MODULE:CALLABLE", 2),
    ]:
        result = runner.invoke(app, ["eval", gold, "--embed", spec])
        assert result.exit_code == code
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


# --- the command ---------------------------------------------------------------------------


def test_unfindable_answer_is_a_one_line_error_naming_the_question(tmp_path: Path) -> None:
    gold = write_gold(
        tmp_path,
        [
            *GOLD,
            {
                "question": "Where is the spare fuse?",
                "source": "manual.md",
                "answer": "behind the lid",
            },
        ],
    )
    output = tmp_path / "report.md"
    result = runner.invoke(app, ["eval", str(gold), "-o", str(output)])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"error: {gold}:4: question 'Where is the spare fuse?': answer 'behind the lid' not "
        "found in manual.md"
    )
    assert not output.exists()


def test_missing_source_is_a_one_line_error(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"question": "q", "source": "gone.md", "answer": "x"}\n', encoding="utf-8")
    result = runner.invoke(app, ["eval", str(gold)])
    assert result.exit_code == 2  # a missing input, as in every command
    assert result.stderr.strip() == f"error: {tmp_path / 'gone.md'}: no such file or folder"


def test_missing_or_broken_gold_file_is_a_one_line_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["eval", str(tmp_path / "none.jsonl")])
    assert (result.exit_code, result.stderr.strip()) == (
        2,
        f"error: {tmp_path / 'none.jsonl'}: no such file",
    )
    broken = tmp_path / "gold.jsonl"
    broken.write_text('{"question": "q", "source": "a.md", "answer": "x"}\n[1]\n', "utf-8")
    result = runner.invoke(app, ["eval", str(broken)])
    assert result.stderr.strip() == f"error: {broken}:2: expected a JSON object"


def test_run_eval_sorts_ks_and_needs_a_config(tmp_path: Path) -> None:
    gold = write_gold(tmp_path, GOLD)
    assert run_eval(gold, parse_configs([]), (5, 1, 5)).ks == (1, 5)
    with pytest.raises(UsageError, match="at least one split config"):
        run_eval(gold, [], KS)


def test_json_report_has_stable_fields_and_is_byte_identical_without_timings(
    tmp_path: Path,
) -> None:
    gold = str(write_gold(tmp_path, GOLD))
    args = ["eval", gold, "-c", WHOLE, "-c", CUT, "--json", "--no-timings"]
    first, second = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert list(data) == [
        "gold",
        "retriever",
        "ks",
        "sources",
        "question_count",
        "configs",
        "questions",
        "differ",
    ]
    assert list(data["configs"][0]) == [
        "name",
        "options",
        "split_config",
        "chunks",
        "hit_at",
        "recall_at",
        "precision_at",
        "iou_at",
        "condition_at",
        "condition_questions",
        "page_accuracy",
        "page_questions",
        "tokens_at",
        "split_seconds",
        "index_seconds",
        "query_ms",
    ]
    assert data["configs"][1]["query_ms"] is None
    assert list(data["questions"][0]["results"]["cut"]) == [
        "rank",
        "condition_rank",
        "page_correct",
        "recall_at",
        "iou_at",
        "tokens_at",
    ]
    assert data["differ"][0] == "filter"
    assert data["questions"][0]["results"]["whole"]["rank"] == 1
    assert data["questions"][0]["results"]["cut"]["rank"] is None


def test_markdown_report_to_a_file_with_timings(tmp_path: Path) -> None:
    gold = str(write_gold(tmp_path, GOLD))
    output = tmp_path / "report.md"
    result = runner.invoke(
        app, ["eval", gold, "-c", WHOLE, "-c", CUT, "--k", "1,3", "-o", str(output)]
    )
    assert result.exit_code == 0, result.output
    lines = output.read_text(encoding="utf-8").splitlines()
    assert lines[4] == "| metric | whole | cut |"
    assert lines[6:9] == [
        "| split options | --max-tokens 800 | --max-tokens 40 --overlap-sentences 0 |",
        f"| chunks in index | 2 | {len(split_markdown(MANUAL, parse_config(CUT).options))} |",
        "| hit@1 | 1.000 | 0.333 |",
    ]
    assert any(line.startswith("| query ms (mean) |") for line in lines)


def test_gold_from_stdin_reads_sources_relative_to_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gold = write_gold(tmp_path, GOLD)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["eval", "-", "--json", "--no-timings"], input=gold.read_bytes())
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["gold"], data["sources"], data["question_count"]) == ("<stdin>", ["manual.md"], 3)


def test_eval_takes_one_gold_file(tmp_path: Path) -> None:
    gold = str(write_gold(tmp_path, GOLD))
    result = runner.invoke(app, ["eval", gold, gold])
    assert result.exit_code == 2
    assert "eval takes one gold file, got 2" in result.stderr


def test_help_teaches_with_an_example() -> None:
    result = runner.invoke(app, ["eval", "--help"])
    assert result.exit_code == 0
    assert 'chunkcli eval gold.jsonl -c small="--max-tokens 300"' in result.stdout
    assert 'NAME="OPTIONS"' in result.stdout


# --- --make-gold ---------------------------------------------------------------------------


def test_make_gold_drafts_one_line_per_section_that_eval_accepts(tmp_path: Path) -> None:
    document = (
        "<!-- page 1 -->\n\n# Pump\n\nIntro. It pumps water - and oil.\n\n"
        "## Date\n\n2020.3.30.\n\nReleased on 2020. 3. 11. in Seoul. Yes.\n\n## Safety\n\n"
        "Disconnect power before opening. Wear gloves.\n\n<!-- page 2 -->\n\n"
        "## 設置\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "- 水平な場所に置く。振動を避ける。\n\n"
        "## Again\n\nDisconnect power before opening.\n"
    )
    drafted = [json.loads(line) for line in make_gold([("manual.md", document)]).splitlines()]
    assert drafted == [
        {
            "question": "TODO: a question answered by the answer below (section: Pump)",
            "source": "manual.md",
            "answer": "Intro. It pumps water - and oil.",
            "page": 1,
        },
        {
            "question": "TODO: a question answered by the answer below (section: Date)",
            "source": "manual.md",
            "answer": "Released on 2020. 3. 11. in Seoul.",
            "page": 1,
        },
        {
            "question": "TODO: a question answered by the answer below (section: Safety)",
            "source": "manual.md",
            "answer": "Disconnect power before opening.",
            "occurrence": 1,
            "page": 1,
        },
        {
            "question": "TODO: a question answered by the answer below (section: 設置)",
            "source": "manual.md",
            "answer": "水平な場所に置く。",
            "page": 2,
        },
        {
            "question": "TODO: a question answered by the answer below (section: Again)",
            "source": "manual.md",
            "answer": "Disconnect power before opening.",
            "occurrence": 2,
            "page": 2,
        },
    ]
    (tmp_path / "manual.md").write_text(document, encoding="utf-8")
    gold = tmp_path / "gold.jsonl"
    result = runner.invoke(
        app, ["eval", "--make-gold", str(tmp_path / "manual.md"), "-o", str(gold)]
    )
    assert result.exit_code == 0, result.output
    assert [json.loads(line) for line in gold.read_text("utf-8").splitlines()] == drafted
    assert runner.invoke(app, ["eval", str(gold)]).exit_code == 0


# --- the sample gold set -------------------------------------------------------------------

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SAMPLE_CONFIGS = ["default=", "small=--max-tokens 48"]


def test_sample_gold_set_report_matches_its_golden_file() -> None:
    """samples/gold.jsonl over the sample PDFs (converted), two configs.
    UPDATE_GOLDEN=1 rewrites samples/gold.report.md (review the diff)."""
    import os

    configs = parse_configs(SAMPLE_CONFIGS)
    report = run_eval(SAMPLES / "gold.jsonl", configs, KS)
    assert len(report.questions) == 36
    text = to_markdown(report, timings=False).replace(str(SAMPLES), "samples")
    golden = SAMPLES / "gold.report.md"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")
    assert json.loads(to_json(report, timings=False))["question_count"] == 36


# --- properties ----------------------------------------------------------------------------

WORDS = st.sampled_from(
    [
        "pump",
        "seal",
        "filter",
        "oil",
        "grease",
        "valve",
        "motor",
        "個人情報",
        "保存",
        "삭제",
        "정보는",
        "12",
        "3.5",
    ]
)
PARAGRAPHS = st.lists(
    st.lists(WORDS, min_size=1, max_size=30).map(lambda w: " ".join(w) + "."),
    min_size=1,
    max_size=6,
)


@settings(max_examples=60, deadline=None)
@given(paragraphs=PARAGRAPHS, data=st.data())
def test_located_spans_slice_back_and_metrics_stay_consistent(
    paragraphs: list[str], data: st.DataObject
) -> None:
    markdown = (
        "# Doc\n\n" + "\n\n".join(f"## Part {i}\n\n{p}" for i, p in enumerate(paragraphs)) + "\n"
    )
    start = data.draw(st.integers(0, len(markdown) - 1))
    end = data.draw(st.integers(start + 1, len(markdown)))
    answer = markdown[start:end]
    places = find_all(markdown, answer)
    assert all(markdown[p.start : p.end] == answer.strip() for p in places) and places
    max_tokens = data.draw(st.sampled_from([16, 24, 60, 800]))
    chunks = split_markdown(markdown, SplitOptions(max_tokens=max_tokens), source="d.md")
    ranked = data.draw(st.permutations(chunks))
    question = GoldQuestion("q", "?", "d.md", TextSpan(start, end), None, None)
    score = score_question(question, ranked, KS)
    for i, k in enumerate(KS):
        assert 0.0 <= score.iou[i] <= min(score.recall[i], score.precision[i]) <= 1.0
        if score.rank is not None and score.rank <= k:
            assert score.recall[i] == 1.0
    assert list(score.recall) == sorted(score.recall)
    assert list(score.tokens) == sorted(score.tokens)


def test_eval_reads_through_the_input_layer_and_imports_no_convert_internals() -> None:
    from tests.test_import_rules import PACKAGE, imports_of, stage_violations

    imports = imports_of(PACKAGE)
    assert [v for v in stage_violations(imports) if v.startswith("chunkcli.evaluate")] == []
    assert "chunkcli.inputs" in {
        i.target for i in imports if i.importer.startswith("chunkcli.evaluate")
    }


def test_make_gold_keeps_going_past_a_document_that_fails(tmp_path: Path) -> None:
    good = tmp_path / "good.md"
    good.write_text("# Pump\n\n## Safety\n\nDisconnect power before opening.\n", "utf-8")
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.7 not really")
    gold = tmp_path / "gold.jsonl"
    result = runner.invoke(app, ["eval", "--make-gold", str(bad), str(good), "-o", str(gold)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].startswith(f"error: {bad}: ")
    assert [json.loads(line)["source"] for line in gold.read_text("utf-8").splitlines()] == [
        "good.md"
    ]
    only_bad = runner.invoke(app, ["eval", "--make-gold", str(bad), "-o", str(tmp_path / "x")])
    assert only_bad.exit_code == 1 and not (tmp_path / "x").exists()


def test_page_citation_reads_the_pages_of_the_top_chunks_boxes() -> None:
    from dataclasses import replace

    from chunkcli.evaluate.gold import TextSpan
    from chunkcli.model import PageBox

    markdown = "<!-- page 1 -->\n\nA.\n\n<!-- page 2 -->\n\nB.\n\n<!-- page 3 -->\n\nC.\n"
    [chunk] = split_markdown(markdown, SplitOptions(), source="m.md")
    assert (chunk.page_start, chunk.page_end, chunk.boxes) == (1, 3, ())
    boxed = replace(chunk, boxes=(PageBox(1, (0, 0, 9, 9)), PageBox(3, (0, 0, 9, 9))))

    def cites(top: object, page: int) -> bool | None:
        question = GoldQuestion("q", "?", "m.md", TextSpan(0, 1), None, page)
        return score_question(question, [top], (1,)).page_correct  # type: ignore[list-item]

    assert [cites(chunk, page) for page in (1, 2, 3)] == [True, True, True]  # the page range
    assert [cites(boxed, page) for page in (1, 2, 3)] == [True, False, True]  # where text lies
