"""split_markdown: one test per cutting rule of issue 3, on small hand-written Markdown."""

from __future__ import annotations

import pytest

from chunkcli.errors import EncodingUnavailable, UsageError
from chunkcli.model import Chunk, ChunkKind
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.tokens import tiktoken_counter


def count_words(text: str) -> int:
    return len(text.split())


def split(markdown: str, **options: object) -> list[Chunk]:
    return split_markdown(
        markdown,
        SplitOptions(**options),
        source="manual.md",
        count_tokens=count_words,  # type: ignore[arg-type]
    )


def sentences(count: int, word: str = "word") -> str:
    return " ".join(f"Sentence {i} has {word} {word} {word}." for i in range(count))


MANUAL = """# Pump Manual

Intro text for the manual.

## Safety

Disconnect power before service. Wear gloves.

## Setup

### Mounting

Mount the pump on a flat surface.

### Wiring

Connect the cable to terminal A.
"""


def test_cuts_at_h2_and_keeps_small_sections_whole() -> None:
    chunks = split(MANUAL, max_tokens=60)
    assert [c.heading_path for c in chunks] == [
        ("Pump Manual",),
        ("Pump Manual", "Safety"),
        ("Pump Manual", "Setup"),
    ]
    assert chunks[1].body.startswith("## Safety") and chunks[2].body.startswith("## Setup")
    assert all(c.kind is ChunkKind.SECTION for c in chunks)
    assert chunks[0].title == "Pump Manual"


def test_a_long_section_is_cut_at_its_h3_headings() -> None:
    chunks = split(MANUAL, max_tokens=20)
    setup, wiring = chunks[-2:]
    # "## Setup" has no text of its own: it travels with the first H3 part, whose path it is.
    assert setup.body.startswith("## Setup\n\n### Mounting") and "Mount the pump" in setup.body
    assert setup.heading_path == ("Pump Manual", "Setup", "Mounting")
    assert wiring.heading_path == ("Pump Manual", "Setup", "Wiring")
    wiring = next(c for c in chunks if c.heading_path[-1] == "Wiring")
    assert wiring.body.startswith("### Wiring") and "terminal A." in wiring.body


def test_split_on_h3_cuts_at_every_h3_even_when_the_section_fits() -> None:
    chunks = split(MANUAL, max_tokens=500, split_on="h3")
    assert [c.heading_path[-1] for c in chunks] == ["Pump Manual", "Safety", "Mounting", "Wiring"]
    assert chunks[2].body.startswith("## Setup\n\n### Mounting"), "the H2 travels with its H3"


def test_min_tokens_merges_small_h3_parts_and_the_path_stops_at_the_h2() -> None:
    markdown = (
        "## Big\n\n"
        + "\n\n".join(f"### Part {i}\n\nShort text number {i}." for i in range(6))
        + "\n\n## Next\n\nOther.\n"
    )
    without = split(markdown, max_tokens=30)
    merged = split(markdown, max_tokens=30, min_tokens=20)
    assert len(merged) < len(without)
    big = [c for c in merged if c.heading_path[:2] == ("manual", "Big")]
    assert any(c.heading_path == ("manual", "Big") and c.body.count("### Part") > 1 for c in big)
    assert all(c.tokens <= 30 for c in merged)
    assert merged[-1].heading_path == ("manual", "Next"), "never merged across an H2"


def test_paragraph_boundaries_come_before_sentence_windows() -> None:
    paragraphs = [sentences(2, f"p{i}") for i in range(6)]
    markdown = "## Part\n\n" + "\n\n".join(paragraphs) + "\n"
    chunks = split(markdown, max_tokens=40)
    assert len(chunks) > 1
    assert all(c.kind is ChunkKind.SECTION for c in chunks)
    for chunk in chunks:
        assert chunk.body.rstrip().endswith("."), "each chunk ends at a paragraph end"
        assert chunk.tokens <= 40


def test_a_long_paragraph_becomes_sentence_windows_with_overlap() -> None:
    markdown = "## Part\n\n" + sentences(12) + "\n"
    chunks = split(markdown, max_tokens=30, overlap_sentences=1)
    assert len(chunks) > 2 and all(c.kind is ChunkKind.WINDOW for c in chunks)
    for before, after in zip(chunks, chunks[1:], strict=False):
        last_sentence = before.body.rsplit("Sentence", 1)[1]
        assert after.body.startswith("Sentence" + last_sentence), "one sentence repeats"
        assert after.start < before.end
    assert chunks[0].body.startswith("## Part"), "the heading goes with the first window"


def test_overlap_zero_gives_disjoint_windows_and_no_overlap_across_headings() -> None:
    markdown = "## A\n\n" + sentences(12) + "\n\n## B\n\n" + sentences(12) + "\n"
    chunks = split(markdown, max_tokens=30, overlap_sentences=0)
    assert all(b.end <= a.start for b, a in zip(chunks, chunks[1:], strict=False))
    with_overlap = split(markdown, max_tokens=30, overlap_sentences=2)
    b_start = markdown.index("## B")
    for before, after in zip(with_overlap, with_overlap[1:], strict=False):
        if after.start >= b_start:
            assert before.end <= b_start or before.start >= b_start


def test_japanese_sentences_keep_their_punctuation_and_cut_after_it() -> None:
    text = "電源を切ってから点検してください。" * 6 + "バルブを開く！" * 6 + "本当に大丈夫？" * 6
    markdown = "## 点検\n\n" + text + "\n"
    chunks = split_markdown(markdown, SplitOptions(max_tokens=40, overlap_sentences=0))
    assert len(chunks) > 2 and all(c.kind is ChunkKind.WINDOW for c in chunks)
    assert all(c.body[-1] in "。！？" and c.tokens <= 40 for c in chunks)
    assert "".join(c.body for c in chunks) == markdown.rstrip("\n"), "nothing dropped or added"


def test_a_long_japanese_sentence_falls_back_to_clauses_then_characters() -> None:
    sentence = "、".join(["作業の前に必ず電源を切る"] * 8) + "。"
    count = tiktoken_counter("cl100k_base")
    chunks = split_markdown("本文\n\n" + sentence + "\n", SplitOptions(max_tokens=40))
    assert all(c.tokens <= 40 and c.tokens == count(c.text) for c in chunks)
    windows = [c for c in chunks if c.kind is ChunkKind.WINDOW]
    assert windows and all(w.body[-1] in "、。" for w in windows), "cut after 、, never inside"
    no_punctuation = "あいうえお かきくけこ" * 40
    chunks = split_markdown(no_punctuation + "\n", SplitOptions(max_tokens=30, title=""))
    assert all(c.tokens <= 30 for c in chunks)
    assert "".join(c.body for c in chunks).replace(" ", "") == no_punctuation.replace(" ", "")


def test_japanese_without_punctuation_is_never_cut_at_a_lone_ascii_space() -> None:
    text = "作業 の前に必ず電源を切ること そして安全を確認すること" * 12
    chunks = split_markdown(text + "\n", SplitOptions(max_tokens=25, title=""))
    assert len(chunks) > 2 and all(c.tokens <= 25 for c in chunks)
    for before, after in zip(chunks, chunks[1:], strict=False):
        assert text[before.end - 1] != " " and text[after.start] != " "
        assert after.start == before.end, "characters: no overlap, nothing dropped"


def test_a_table_is_never_cut_when_it_fits_on_its_own() -> None:
    table = "| Part | Torque |\n|---|---|\n" + "".join(f"| bolt {i} | {i} Nm |\n" for i in range(5))
    markdown = "## Specs\n\n" + sentences(3) + "\n\n" + table + "\n" + sentences(3) + "\n"
    chunks = split(markdown, max_tokens=50)
    holders = [c for c in chunks if "| bolt" in c.body]
    assert len(holders) == 1 and table.strip() in holders[0].body
    assert holders[0].kind in (ChunkKind.TABLE, ChunkKind.SECTION)


def test_a_big_table_is_cut_between_rows_and_every_part_repeats_the_header() -> None:
    header = "| Part | Torque |\n|---|---|\n"
    rows = [f"| bolt {i} | {i} Nm |" for i in range(30)]
    markdown = "## Specs\n\n" + header + "\n".join(rows) + "\n"
    chunks = split(markdown, max_tokens=40)
    assert len(chunks) > 2 and all(c.kind is ChunkKind.TABLE_PART for c in chunks)
    assert chunks[0].body.startswith("## Specs\n\n" + header)
    for part in chunks[1:]:
        assert part.prefix == "manual › Specs\n\n" + header
        assert part.body.startswith("| bolt")
    assert len({c.heading_path for c in chunks}) == 1
    body_rows = [line for c in chunks for line in c.body.splitlines() if "bolt" in line]
    assert body_rows == rows, "no row lost or duplicated"
    assert all(c.tokens <= 40 for c in chunks)


def test_a_single_row_over_the_limit_is_kept_whole_and_flagged() -> None:
    huge = "| " + " ".join(["cell"] * 80) + " | x |"
    markdown = "| a | b |\n|---|---|\n| 1 | 2 |\n" + huge + "\n| 3 | 4 |\n"
    chunks = split(markdown, max_tokens=30)
    oversized = [c for c in chunks if c.oversize]
    assert len(oversized) == 1 and oversized[0].kind is ChunkKind.TABLE_PART
    assert oversized[0].body.strip() == huge


def test_a_code_block_is_never_cut_even_over_the_limit() -> None:
    code = "```python\n" + "\n".join(f"x{i} = {i}  # step {i}" for i in range(40)) + "\n```"
    markdown = "## Code\n\nIntro.\n\n" + code + "\n\nAfter.\n"
    chunks = split(markdown, max_tokens=30)
    holders = [c for c in chunks if "x1 = 1" in c.body]
    assert len(holders) == 1 and code in holders[0].body and holders[0].oversize


def test_a_list_item_holding_code_or_a_table_is_never_cut() -> None:
    steps = "".join(f"  step {i} of the job.\n" for i in range(30))
    item = "- Steps:\n\n  ```\n" + steps + "  ```\n"
    table_item = "- Table:\n\n  | a | b |\n  |---|---|\n" + "  | 1 | 2 |\n" * 30
    for block in (item, table_item):
        chunks = split("## Job\n\n" + block, max_tokens=30)
        assert len(chunks) == 1 and chunks[0].oversize
        assert chunks[0].body.rstrip() == ("## Job\n\n" + block).rstrip()


def test_a_heading_always_travels_with_the_text_under_it() -> None:
    markdown = "## A\n\n" + sentences(3) + "\n\n#### Detail\n\n" + sentences(3) + "\n"
    for limit in range(20, 60, 5):
        for chunk in split(markdown, max_tokens=limit):
            assert not chunk.body.rstrip().endswith("Detail")


def test_no_headings_gives_paragraph_windows_and_the_stem_as_title() -> None:
    markdown = "\n\n".join(sentences(2, f"p{i}") for i in range(8)) + "\n"
    chunks = split(markdown, max_tokens=30)
    assert len(chunks) > 1 and all(c.heading_path == ("manual",) for c in chunks)
    assert all(c.title == "manual" and c.prefix == "manual\n\n" for c in chunks)


def test_skipped_heading_levels_still_give_a_correct_path() -> None:
    markdown = (
        "# Guide\n\nIntro.\n\n### Deep\n\nText.\n\n## Chapter\n\nCh text.\n\n#### Deeper\n\nMore.\n"
    )
    chunks = split(markdown, max_tokens=8, split_on="h3")
    paths = {c.body.split("\n")[0]: c.heading_path for c in chunks}
    assert paths["## Chapter"] == ("Guide", "Chapter")
    assert paths["### Deep"] == ("Guide", "Deep")
    assert paths["#### Deeper"] == ("Guide", "Chapter", "Deeper")


def test_page_markers_give_page_numbers_and_never_sit_at_chunk_edges() -> None:
    markdown = (
        "<!-- page 1 -->\n\n# Report\n\nIntro.\n\n<!-- page 2 -->\n\n## One\n\nText one.\n\n"
        "<!-- page 3: blank -->\n\n<!-- page 4 -->\n\nStill one.\n\n## Two\n\nText two.\n"
    )
    chunks = split(markdown, max_tokens=100)
    assert [(c.page_start, c.page_end) for c in chunks] == [(1, 1), (2, 4), (4, 4)]
    for chunk in chunks:
        assert not chunk.body.startswith("<!--") and not chunk.body.rstrip().endswith("-->")
    assert split("No markers.\n", max_tokens=10)[0].page_start is None


def test_a_path_line_too_long_for_the_limit_is_shortened_in_the_prefix_only() -> None:
    long = "a rather long heading of eight words"
    markdown = (
        f"# {long} A\n\nIntro.\n\n## {long} B\n\nText.\n\n### {long} C\n\n" + sentences(10) + "\n"
    )
    chunks = split(markdown, max_tokens=40)
    deep = [c for c in chunks if c.heading_path == (f"{long} A", f"{long} B", f"{long} C")]
    assert len(deep) >= 2, "the heading path itself is never shortened"
    assert deep[-1].prefix == f"{long} A › … › {long} C\n\n"
    assert all(count_words(c.prefix) <= 20 and c.tokens <= 40 for c in chunks)


def test_tokens_are_exact_cl100k_counts_with_the_prefix_inside_the_limit() -> None:
    count = tiktoken_counter("cl100k_base")
    markdown = MANUAL * 3 + "\n\n" + sentences(40) + "\n"
    chunks = split_markdown(markdown, SplitOptions(max_tokens=60), source="m.md")
    for chunk in chunks:
        assert chunk.tokens == count(chunk.prefix + chunk.body) <= 60
        assert chunk.prefix.startswith("Pump Manual")


def test_ids_are_stable_unique_and_depend_on_the_options() -> None:
    first = split(MANUAL, max_tokens=16)
    again = split(MANUAL, max_tokens=16)
    other = split(MANUAL, max_tokens=17)
    assert [c.id for c in first] == [c.id for c in again]
    assert len({c.id for c in first}) == len(first)
    assert first[0].id != other[0].id


def test_identity_fields_title_override_doc_id_and_metadata() -> None:
    options = SplitOptions(
        max_tokens=60, title="Acme Pump", doc_id="doc-7", metadata=(("org", "acme"),)
    )
    chunks = split_markdown(MANUAL, options, source="x.md", count_tokens=count_words)
    assert {c.doc_id for c in chunks} == {"doc-7"}
    assert all(c.title == "Acme Pump" and c.heading_path[0] == "Acme Pump" for c in chunks)
    assert chunks[1].heading_path == ("Acme Pump", "Safety")
    assert all(c.metadata == {"org": "acme"} for c in chunks)
    assert chunks[0].split_config["version"] and chunks[0].split_config["max_tokens"] == 60
    default = split(MANUAL, max_tokens=60)
    assert default[0].doc_id == "manual.md" and len(default[0].source_sha256) == 64
    nameless = split_markdown(MANUAL, SplitOptions(), source="-", count_tokens=count_words)
    assert nameless[0].doc_id == nameless[0].source_sha256[:16]


def test_offsets_are_exact_with_crlf_a_bom_and_tabs() -> None:
    markdown = "\ufeff# T\r\n\r\n## A\r\n\r\nLine\tone.\r\nLine two.\r\n\r\n## B\r\n\r\nx\r\n"
    chunks = split(markdown, max_tokens=50)
    assert [c.heading_path for c in chunks] == [("T", "A"), ("T", "B")]  # "# T" travels with A
    assert chunks[0].body.startswith("\ufeff# T")
    for chunk in chunks:
        assert markdown[chunk.start : chunk.end] == chunk.body


def test_empty_and_blank_documents_give_no_chunks() -> None:
    assert split("", max_tokens=10) == []
    assert split("\n\n  \n", max_tokens=10) == []


@pytest.mark.parametrize(
    "options",
    [
        {"max_tokens": 0},
        {"max_tokens": 10, "min_tokens": 11},
        {"overlap_sentences": -1},
        {"split_on": "h4"},
    ],
)
def test_bad_options_raise_a_usage_error(options: dict[str, object]) -> None:
    with pytest.raises(UsageError):
        split(MANUAL, **options)


def test_an_encoding_not_available_offline_says_how_to_provide_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)
    monkeypatch.delenv("DATA_GYM_CACHE_DIR", raising=False)
    with pytest.raises(EncodingUnavailable, match="TIKTOKEN_CACHE_DIR"):
        split_markdown(MANUAL, SplitOptions(encoding="no_such_encoding"))


@pytest.mark.parametrize("max_tokens", [16, 48, 800])
def test_convert_provenance_is_in_no_chunk_but_names_the_source(max_tokens: int) -> None:
    sha = "ab" * 32
    markdown = (
        f'<!-- chunkcli source="guide.pdf" sha256="{sha}" -->\n\n<!-- page 1 -->\n\n'
        "# Guide\n\nBirch trees grow in cold climates and shed their bark in thin layers.\n"
    )
    chunks = split_markdown(markdown, SplitOptions(max_tokens=max_tokens))
    assert chunks and all("chunkcli source" not in c.body for c in chunks)
    assert min(c.start for c in chunks) >= markdown.index("<!-- page 1 -->")
    # doc_id: the source's name, an identity that survives revisions (issue #11)
    identities = {(c.source, c.source_sha256, c.doc_id) for c in chunks}
    assert identities == {("guide.pdf", sha, "guide.pdf")}


def test_split_thresholds_are_settings_and_part_of_the_ids() -> None:
    """SplitOptions.settings tunes a threshold; a tuned one enters split_config (and so the
    ids), the defaults add nothing."""
    from dataclasses import replace

    from chunkcli.split.options import SplitSettings

    markdown = "# T\n\n## " + "Very long heading words " * 12 + "\n\nBody text.\n"
    default = split_markdown(markdown, SplitOptions(max_tokens=60))
    roomy = SplitOptions(max_tokens=60, settings=replace(SplitSettings(), max_prefix_share=0.9))
    tuned = split_markdown(markdown, roomy)
    assert "settings" not in default[0].split_config
    assert tuned[0].split_config["settings"] == {"max_prefix_share": 0.9}
    assert default[0].id != tuned[0].id
    heading = ("Very long heading words " * 12).strip()
    # Half of 60 tokens: the path gives way to the start of its deepest heading; 90 %: whole.
    assert default[1].text.split("\n\n")[0].endswith("Very …")
    assert tuned[1].text.split("\n\n")[0] == f"T › {heading}"
    from chunkcli.jsonl import chunk_to_flat_dict

    assert chunk_to_flat_dict(tuned[0])["split_settings_max_prefix_share"] == 0.9


@pytest.mark.parametrize("share", [0.0, -1.0, 1.5, float("nan")])
def test_a_split_setting_out_of_range_is_a_usage_error(share: float) -> None:
    from dataclasses import replace

    from chunkcli.errors import UsageError
    from chunkcli.split.options import SplitSettings

    bad = SplitOptions(settings=replace(SplitSettings(), max_prefix_share=share))
    with pytest.raises(UsageError, match="max_prefix_share must be in"):
        split_markdown("# T\n\ntext\n", bad)
