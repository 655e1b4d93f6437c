"""Hidden text -> an Issue: pages whose text a reader cannot see was removed by convert.

Invisible text, text the colour of its background and text under 1 pt are how instructions are
planted in documents fed to a RAG system. convert removes it (convert/extract/hidden.py) and
says so in the page marker (`<!-- page 3: hidden text removed (4) -->`), so a converted PDF and
its Markdown are judged alike: the document fails, for a person to look at the PDF before it
is indexed (the Markdown is clean, but whoever made the PDF hid something in it).
"""

from __future__ import annotations

from collections.abc import Mapping

from chunkcli.check.wording import pages_phrase
from chunkcli.model import Issue, Severity


def check_hidden_text(runs: Mapping[int, int], sample: str = "") -> list[Issue]:
    """A failure naming the pages with hidden text removed (page -> runs) and, when the PDF
    was converted here, the start of the first run."""
    if not runs:
        return []
    pages = sorted(runs)
    first = f"; it begins {sample!r}" if sample else ""
    return [
        Issue(
            "pages.hidden-text",
            Severity.FAIL,
            f"text a reader cannot see (invisible, the colour of its background, or under 1 pt) "
            f"was removed from {pages_phrase(pages)} ({sum(runs.values())} runs{first}): it is "
            "how instructions are planted in documents; look at the PDF before indexing it "
            "(convert --keep-hidden-text shows what was removed)",
            page=pages[0],
        )
    ]
