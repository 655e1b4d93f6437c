"""Character classes of unusable text layers, shared by `extract` (which classifies pages) and
`check` (which also judges Markdown written by other tools). Pure regular expressions."""

from __future__ import annotations

import re

# pdfminer writes a glyph it cannot map as "(cid:12)".
CID_RUN = re.compile(r"\(cid:\d+\)")
# NUL and other control characters, U+FFFD and private-use glyphs: never real text.
UNUSABLE_CHAR = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd\ue000-\uf8ff\U000f0000-\U0010ffff]"
)
# Latin-1 letters (À..ÿ without × and ÷): a page made mostly of them is mojibake, e.g. Japanese
# set in a font whose ToUnicode map is wrong.
LATIN1_LETTER = re.compile("[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff]")
