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
    # the link and the date as separate pieces, 0-4 pt apart at 9 pt): a piece whose
    # vertical extent overlaps the stamp's by this share of the lower one, at most this many
    # font sizes after the previous piece.
    same_row_share: float = 0.5
    stamp_piece_gap_em: float = 2.0
    # A paragraph of at least this many rule marks and nothing else is a rule set in type
    # (a bmj.com page draws its rules as 23-80 spaced dots); "* * *" (a section break) and
    # "..." in a table cell are shorter.
    min_rule_marks: int = 8


@dataclass(frozen=True, slots=True)
class LayoutSettings:
    """Every step of the layout stage (ConvertOptions.strip_furniture turns furniture off)."""

    furniture: FurnitureSettings = FurnitureSettings()
