"""What a figure's caption starts with: shared by picture and drawing figures."""

from __future__ import annotations

import re

# A caption starts with a figure word and a number: "Figure 3", "Fig. 2a", "FIGURE 1.2",
# "図3", "図 1-2", "図表1-1", "グラフ2", "그림 3", "도표 1", "Chart 4", "Exhibit 2".
CAPTION_START = re.compile(
    r"^\s*(?:\*\*)?(?:fig(?:ure)?\.?|chart|graph|exhibit|図表?|グラフ|그림|도표|차트)"
    r"\s*[0-9０-９]+(?:[-.‐－―][0-9０-９]+)*[a-z]?(?![0-9０-９])",
    re.IGNORECASE,
)
