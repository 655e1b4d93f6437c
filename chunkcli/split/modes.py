"""--mode: which planner cuts the document. heading (the default, plan.py), laws (laws.py),
rows (rows.py), qa (qa.py), items (items.py), auto (laws when the document is mostly articles,
else items when it is mostly dated items, else heading).

Every mode returns plans over the same layout (a mode that names structure convert did not mark
as headings adds those names to the layout), so build.py makes the chunks the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from chunkcli.markdown_lines import line_offsets
from chunkcli.split.counting import counter_per_span
from chunkcli.split.items import find_items, item_segments, items_fit
from chunkcli.split.laws import (
    Mark,
    article_cuts,
    find_marks,
    is_mostly_articles,
    law_segments,
    merge_small_articles,
)
from chunkcli.split.layout import Layout, find_title, make_layout
from chunkcli.split.lines import text_lines
from chunkcli.split.options import DEFAULT_MODE, SplitOptions
from chunkcli.split.plan import Plan, plan_chunks
from chunkcli.split.qa import find_questions, qa_cuts, qa_segments
from chunkcli.split.rows import plan_rows
from chunkcli.split.scan import scan_markdown
from chunkcli.split.segments import plan_segments


@dataclass(frozen=True, slots=True)
class ModePlans:
    plans: list[Plan]
    layout: Layout  # the layout the plans' paths are named in
    mode: str  # the mode used (auto resolved)


def plan_mode(layout: Layout, title_piece: int) -> ModePlans:
    """The plans of the mode in `layout.options`; `title_piece` is the title H1's index."""
    mode = layout.options.mode
    if mode == DEFAULT_MODE:
        return ModePlans(plan_chunks(layout), layout, DEFAULT_MODE)
    if mode == "rows":
        return ModePlans(plan_rows(layout), layout, mode)
    markdown = layout.markdown
    lines = text_lines(markdown, layout.pieces, line_offsets(markdown, lone_cr_ends=True))
    block_starts = [piece.start for piece in layout.pieces if piece.is_content]
    if mode == "qa":
        questions = find_questions(lines, layout, title_piece)
        segments = qa_segments(layout, questions, qa_cuts(lines, block_starts))
        return ModePlans(plan_segments(layout, segments), layout, mode)
    if mode == "items":
        items = find_items(lines, layout, title_piece)
        segments = item_segments(layout, items, qa_cuts(lines, block_starts))
        return ModePlans(plan_segments(layout, segments), layout, mode)
    marks = find_marks(lines, layout, title_piece)
    law, names = law_segments(layout, marks, article_cuts(markdown, lines, block_starts))
    settings = layout.options.settings
    if mode == "auto" and not is_mostly_articles(marks, law, markdown, settings):
        items = find_items(lines, layout, title_piece)
        if items.most_dated >= settings.auto_min_items:  # (else no need to type the items)
            segments = item_segments(layout, items, qa_cuts(lines, block_starts))
            share, least = settings.auto_item_share, settings.auto_min_items
            if items_fit(segments, markdown, least, share):
                return ModePlans(plan_segments(layout, segments), layout, "items")
        return ModePlans(plan_chunks(layout), layout, DEFAULT_MODE)
    named = replace(layout, names={**layout.names, **names}, prefix_cache={}, named_prefix_cache={})
    return ModePlans(plan_segments(named, merge_small_articles(named, law)), named, "laws")


def find_articles(markdown: str) -> list[Mark]:
    """The law structure `--mode laws` sees in `markdown` (articles, 附則, divisions, TOC,
    headings), in order: for `check`, which judges the article numbering."""
    scan = scan_markdown(markdown, counter_per_span(markdown, len))  # counts are not used
    title = find_title(scan.pieces, None, "")
    layout = make_layout(markdown, scan.pieces, title, len, SplitOptions(), sums_exact=False)
    lines = text_lines(markdown, layout.pieces, line_offsets(markdown, lone_cr_ends=True))
    return find_marks(lines, layout, title[1])
