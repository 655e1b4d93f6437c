"""The options that shape a split, and the version string written into every chunk."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum

from chunkcli.errors import UsageError

# Bump when a change to the cutting rules can move a chunk boundary: it is part of every id.
# split-2: ids hash the text without its page markers (pages renumbered kept no id).
SPLIT_VERSION = "split-2"

SPLIT_LEVELS = {"h2": 2, "h3": 3}


class SplitMode(StrEnum):
    """--mode: how a document is cut (the value is the flag's word and the chunks' `mode`)."""

    HEADING = "heading"  # the default: cut on headings
    LAWS = "laws"  # by article (第N条, Article N), divisions as the heading path
    ROWS = "rows"  # tables by row, each row with its header
    QA = "qa"  # one question with its answer
    ITEMS = "items"  # one résumé entry, log event or catalogue entry, with typed fields
    AUTO = "auto"  # laws when the document is mostly articles, items when mostly dated items

    @classmethod
    def parse(cls, value: str) -> SplitMode:
        """The mode a --mode word names; UsageError listing the choices for any other."""
        try:
            return cls(value)
        except ValueError:
            choices = "|".join(cls)
            raise UsageError(f"--mode must be one of {choices}, got {value!r}") from None


DEFAULT_MODE = SplitMode.HEADING
SPLIT_MODES = tuple(SplitMode)
# The smallest --max-tokens the CLI accepts: a title and a two-level heading path alone take
# 10-15 tokens, so a lower limit makes every chunk an oversize crumb. (The library accepts any
# limit >= 1, for counters other than tokens.)
MIN_MAX_TOKENS = 16


@dataclass(frozen=True, slots=True)
class SplitSettings:
    """split's thresholds, with their evidence; `SplitOptions.settings` carries them."""

    # The path line may take at most this share of max_tokens; the rest is for the body. (With
    # a small limit and deep, long headings the path alone could fill a chunk.)
    max_prefix_share: float = 0.5
    # Longer than this, the line above a table is a paragraph that mentions the table, not its
    # caption (captions on the corpus' papers and Japanese reports run 5-60 characters).
    caption_max_chars: int = 80
    # --mode auto: laws when at least this many articles hold at least this share of the text
    # (the corpus' laws and notices: 0.7-0.98 inside articles; reports citing 第N条: < 0.1).
    auto_min_articles: int = 3
    auto_article_share: float = 0.5
    # --mode auto: items when one section holds at least this many dated items of a known kind
    # (work, education, ..., event: not other) and items hold at least this share of the text.
    # The generated CV and incident log: 3 in a section, 0.84 and 1.0 of the text; none of the
    # samples, golden files or the 818 Markdown files under ../shared (ground truths and
    # published outputs) passes (a list of dated laws and dated chart labels did before the
    # known-kind rule).
    auto_min_items: int = 3
    auto_item_share: float = 0.5

    def validate(self) -> None:
        """Raise UsageError naming the first setting out of range (NaN is out of every range)."""
        if not 0.0 < self.max_prefix_share <= 1.0:
            raise UsageError(f"max_prefix_share must be in (0, 1], got {self.max_prefix_share}")
        if not 0.0 <= self.auto_article_share <= 1.0:
            raise UsageError(f"auto_article_share must be in [0, 1], got {self.auto_article_share}")
        if not 0.0 <= self.auto_item_share <= 1.0:
            raise UsageError(f"auto_item_share must be in [0, 1], got {self.auto_item_share}")
        if min(self.caption_max_chars, self.auto_min_articles, self.auto_min_items) < 0:
            raise UsageError(
                "caption_max_chars, auto_min_articles and auto_min_items must be >= 0, got "
                f"{self.caption_max_chars}, {self.auto_min_articles} and {self.auto_min_items}"
            )


@dataclass(frozen=True, slots=True)
class SplitOptions:
    """Options of `split_markdown`; the CLI's split flags map one-to-one onto these."""

    max_tokens: int = 800
    min_tokens: int = 0  # 0 = off; else small H3 parts of one H2 section merge up to max_tokens
    overlap_sentences: int = 1  # only between windows cut inside one paragraph
    encoding: str = "cl100k_base"
    title: str | None = None  # overrides the first H1 / file name stem
    doc_id: str | None = None  # default: the path (relative to a folder given); stdin: a hash
    metadata: tuple[tuple[str, str], ...] = ()
    split_on: str = "h2"  # "h2" | "h3"
    mode: SplitMode = DEFAULT_MODE
    rows_per_chunk: int = 1  # rows mode: up to this many table rows per chunk
    settings: SplitSettings = SplitSettings()  # thresholds; defaults add nothing to ids

    def validated(self) -> SplitOptions:
        """Return self, or raise UsageError naming the first option out of range."""
        if self.max_tokens < 1:
            raise UsageError(f"--max-tokens must be at least 1, got {self.max_tokens}")
        if not 0 <= self.min_tokens <= self.max_tokens:
            raise UsageError(
                f"--min-tokens must be between 0 and --max-tokens ({self.max_tokens}), "
                f"got {self.min_tokens}"
            )
        if self.overlap_sentences < 0:
            raise UsageError(f"--overlap-sentences must be >= 0, got {self.overlap_sentences}")
        if self.split_on not in SPLIT_LEVELS:
            raise UsageError(f"--split-on must be h2 or h3, got {self.split_on!r}")
        SplitMode.parse(self.mode)  # a library caller may pass the word
        if self.rows_per_chunk < 1:
            raise UsageError(f"--rows-per-chunk must be at least 1, got {self.rows_per_chunk}")
        self.settings.validate()
        return self

    @property
    def cut_level(self) -> int:
        """Headings at this level or above always start a new chunk."""
        return SPLIT_LEVELS[self.split_on]

    def config(self, used_mode: str = DEFAULT_MODE) -> dict[str, object]:
        """The options that shape chunk boundaries, with the version, for `split_config`.

        `used_mode` is the mode that made the chunks (auto picks one). The default mode adds
        no key, so that the heading mode's chunks and ids stay what they were before modes."""
        config: dict[str, object] = {
            "version": SPLIT_VERSION,
            "max_tokens": self.max_tokens,
            "min_tokens": self.min_tokens,
            "overlap_sentences": self.overlap_sentences,
            "encoding": self.encoding,
            "split_on": self.split_on,
        }
        if self.mode != DEFAULT_MODE:
            config["mode"] = used_mode
            if self.mode == SplitMode.AUTO:
                config["mode_requested"] = "auto"
        if used_mode == SplitMode.ROWS:
            config["rows_per_chunk"] = self.rows_per_chunk
        auto = self.mode == SplitMode.AUTO  # auto's own thresholds count only when it chooses
        tuned = {
            k: v
            for k, v in asdict(self.settings).items()
            if v != _DEFAULT_SETTINGS[k] and (auto or not k.startswith("auto_"))
        }
        if tuned:  # a tuned threshold can move a boundary: it is part of the ids
            config["settings"] = tuned
        return config


_DEFAULT_SETTINGS = asdict(SplitSettings())


def parse_meta(pairs: list[str] | tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """KEY=VALUE strings -> pairs, in the order given; raises UsageError for a missing '='."""
    parsed = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--meta expects KEY=VALUE, got {pair!r}")
        parsed.append((key.strip(), value))
    return tuple(parsed)
