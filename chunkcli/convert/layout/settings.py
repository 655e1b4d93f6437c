"""The layout stage's thresholds, one frozen settings class per step, with their evidence.

`ConvertOptions.layout` carries a LayoutSettings; `layout_document` hands each step its part.
Every default is the value the evidence beside it supports; a caller may tune one field
(`replace(LayoutSettings().furniture, top_band=0.2)`) without touching the code.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FurnitureSettings:
    """Running headers, footers and page numbers (layout/furniture.py)."""

    # Bands where running heads live, as a share of the page height, measured at a line's
    # centre (letterheads and slide banners reach further down than journal running heads).
    top_band: float = 0.15
    bottom_band: float = 0.12
    # A shape must repeat on at least this many pages (all pages of a two-page document),
    # so a one-page document loses nothing.
    min_repeats: int = 3
    # Occurrences count as "the same place" when their tops are this close (points).
    same_height_pt: float = 6.0
    # A lone page number ("12", "- 12 -", "xii", "12/40") in a band is furniture in any
    # document of at least min_repeats pages once this share of text pages carries one.
    page_number_share: float = 0.5
    # A number with this many other texts on its row is a table cell, not a page number (a
    # continued table's "7 | ライター | 52" at the top of a page; a running head's number shares
    # its row with the head's title at most).
    table_row_neighbours: int = 2
    # The same text (not just shape) of at least this many characters in a band is furniture
    # even when its height varies from page to page.
    min_identical_chars: int = 8
    # Outside the bands, a line must sit at the same place on this share of at least this many
    # pages, and only a few lines per document may qualify (more means a form or a template).
    anywhere_share: float = 0.8
    min_pages_anywhere: int = 4
    max_anywhere_lines: int = 12
    # A running head at one height on at least this share of the text pages (and min_repeats
    # of them), set smaller than the body text, is furniture even when its words change per
    # chapter ("Chapter 5 · Maintenance History"); captions at the top of pages are set at
    # body size.
    running_slot_share: float = 0.6
    smaller_than_body_pt: float = 0.5
    # A download stamp takes the blocks beside it on its row (bmj.com sets "Downloaded from ",
    # the link and the date as separate pieces, 0-4 pt apart at 9 pt): a piece in the stamp's
    # size (within stamp_size_tolerance_pt) whose vertical extent overlaps the stamp's by this
    # share of the lower one, at most this many font sizes after the previous piece (column
    # gutters are 12-18 pt: a body line in the next column is not a piece).
    stamp_row_overlap_share: float = 0.5
    stamp_piece_gap_em: float = 1.0
    stamp_size_tolerance_pt: float = 0.5
    # A paragraph of at least this many rule marks and nothing else is a rule set in type
    # (a bmj.com page draws its rules as 23-80 spaced dots); "* * *" (a section break) and
    # "..." in a table cell are shorter.
    min_rule_marks: int = 8
    # A number in a stack of at least this many numbers aligned on one edge (within
    # stack_align_pt), each at most stack_gap_lines line heights below the one above, is an
    # axis's tick labels or a column of figures, not a page number: a page has one number per
    # band, and two stacked numbers do occur (a journal's "199" above an archive's "1").
    # DP-Bench 076: a chart's y axis 0-140000, eight labels 17.6 pt apart (1.6 line heights),
    # its top two in the top band.
    min_stack_numbers: int = 3
    stack_align_pt: float = 1.5
    stack_gap_lines: float = 3.0
    # ... and a number in a stack is one line of at most this many characters ("140,000.5 %"
    # fits). Under cProfile on the corpus' 2,285 pages, scanning every paragraph for digits
    # cost 1.6 s; one-line blocks this short, 0.33 s.
    max_stack_number_chars: int = 16
    # On a page of 縦書き, the columns of at least this many characters mark the text area: the
    # bands hold only what lies above or below them (a column's head is no margin).
    # saka1029-kokuji.pdf: full columns of 40-48 characters from 66 to 764 pt; its item numbers
    # ("一", "(1)") stand at their heads, 81-111 pt, inside the 126 pt top band.
    min_column_chars: int = 10


@dataclass(frozen=True, slots=True)
class OrderSettings:
    """Reading order: the XY-cut and its columns (layout/order.py)."""

    # Share of a box's height (capped, so tall blocks keep their extent) trimmed from top and
    # bottom when looking for empty horizontal strips.
    box_core_margin: float = 0.25
    max_core_margin_pt: float = 40.0
    # A gutter is at least this wide (points): word gaps are far narrower.
    min_gutter_pt: float = 5.0
    # A column's typical line is at least this many line heights wide; a strip of bullets,
    # item numbers or footnote marks beside text is not a column.
    min_column_width_lines: float = 3.0
    # A left column of headings beside the body (manuals, regulations): its lines are at most
    # this share of the region wide, no more than the body's, cover at most this share of the
    # body's height (a sidebar of running text is dense, headings are sparse), and most of them
    # sit on a row of body text. Each group of its lines is read before the body text at its
    # height.
    margin_max_width_share: float = 0.3
    margin_max_cover_share: float = 0.5
    margin_beside_share: float = 0.5
    # Boxes whose vertical centres are this close (share of the shorter height) are one row.
    same_row_share: float = 0.5
    # Below a column section, a band set at least this many times the section's text size (a
    # heading, a banner: bmj.com's "INDUSTRY WATCH" is 13.3 pt over 8.5 pt text) that leads
    # into a band crossing the gutter heads what follows instead of ending its column ...
    banner_size_ratio: float = 1.2
    # ... when each side of the gutter holds at least this many lines (columns of text; the
    # labels of a diagram or a form's fields are a few lines each: on the corpus, 3 files
    # changed with this rule, a journal page and a regulator's slide for the better).
    banner_min_column_lines: int = 4


@dataclass(frozen=True, slots=True)
class LayoutSettings:
    """Every step of the layout stage (ConvertOptions.strip_furniture turns furniture off)."""

    furniture: FurnitureSettings = FurnitureSettings()
    order: OrderSettings = OrderSettings()
