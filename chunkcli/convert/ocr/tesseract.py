"""Tesseract as a program: a page image -> words with boxes and confidences.

Tesseract runs as a subprocess reading the image on stdin (PNG, see read.PageImage.png) and
writing TSV on stdout (one row per word: layout numbers, a pixel box, a 0-100 confidence). Each
run is limited to one thread (OMP_THREAD_LIMIT=1): pages run in parallel instead, and the
output does not depend on how OpenMP splits the work. Output depends on the Tesseract version
and its language data.
"""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

from chunkcli.errors import ChunkcliError

# TSV columns (Tesseract 4/5): level page block par line word left top width height conf text
TSV_COLUMNS = 12
WORD_LEVEL = "5"
# Tesseract confidences run 0..100; -1 marks rows that are not words.
CONFIDENCE_SCALE = 100.0
# `tesseract --version` and `--list-langs` answer in milliseconds; a hung one is broken.
QUERY_TIMEOUT_S = 30.0


class OcrFailed(ChunkcliError):
    """Tesseract ran but failed on a page (bad language data, out of memory, timeout)."""


@dataclass(frozen=True, slots=True)
class OcrWord:
    """One recognised word: its pixel box in the page image and Tesseract's confidence."""

    text: str
    left: int
    top: int
    width: int
    height: int
    confidence: float  # 0..1
    line_key: tuple[int, int, int]  # (block, paragraph, line) as Tesseract numbers them


@functools.lru_cache(maxsize=8)
def tesseract_version(command: str) -> str | None:
    """'tesseract 5.3.0' for a working program; None when it is missing or does not run."""
    try:
        done = subprocess.run(
            [command, "--version"], capture_output=True, timeout=QUERY_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (done.stdout or done.stderr).decode("utf-8", "replace").splitlines()
    if done.returncode != 0 or not lines:
        return None
    return lines[0].strip()


@functools.lru_cache(maxsize=8)
def tesseract_languages(command: str) -> frozenset[str]:
    """The language data installed for the program (empty when it does not run)."""
    try:
        done = subprocess.run(
            [command, "--list-langs"], capture_output=True, timeout=QUERY_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    lines = done.stdout.decode("utf-8", "replace").splitlines()
    # The first line is "List of available languages in ...".
    return frozenset(line.strip() for line in lines[1:] if line.strip())


def tesseract_program(
    command: str, meanwhile: Callable[[], object] = lambda: None
) -> tuple[str | None, frozenset[str]]:
    """tesseract_version and tesseract_languages, the two run at once, and `meanwhile` called
    in this thread while they run: each takes 20-40 ms, mostly the program's start (its
    libraries linked), at little CPU."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as queries:
        version = queries.submit(tesseract_version, command)
        languages = queries.submit(tesseract_languages, command)
        meanwhile()
        return version.result(), languages.result()


def run_tesseract(
    command: str, image: bytes, lang: str, dpi: int, psm: int, timeout_s: float
) -> tuple[OcrWord, ...]:
    """OCR one page image (PNG, or any format Leptonica reads; psm: Tesseract's page
    segmentation mode); raises OcrFailed."""
    argv = [command, "stdin", "stdout", "-l", lang, "--dpi", str(dpi), "--psm", str(psm), "tsv"]
    done = _run(argv, image, timeout_s, command)
    return parse_tsv(done.stdout.decode("utf-8", "replace"))


# Tesseract's name for the script its orientation and script detection found ("Script: Latin").
SCRIPT_LINE = "Script: "
OSD_LANG = "osd"
OSD_PSM = "0"


def tesseract_script(command: str, image: bytes, timeout_s: float, min_chars: int) -> str | None:
    """The script Tesseract's orientation and script detection (osd data, psm 0) finds in a
    page image ("Latin", "Japanese", "Han", "Korean", ...), looking at `min_chars` to five
    times as many characters; None when it finds too few characters to tell or fails."""
    # (Tesseract's min_characters_to_try: up to five times as many character shapes are
    # classified, in four orientations, unless it is sure sooner.)
    argv = [command, "stdin", "stdout", "-l", OSD_LANG, "--psm", OSD_PSM]
    argv += ["-c", f"min_characters_to_try={min_chars}"]
    try:
        done = _run(argv, image, timeout_s, command)
    except OcrFailed:  # "Too few characters" exits 1: no answer, not a broken page
        return None
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith(SCRIPT_LINE):
            return line[len(SCRIPT_LINE) :].strip()
    return None


def _run(
    argv: list[str], image: bytes, timeout_s: float, command: str
) -> subprocess.CompletedProcess[bytes]:
    """Tesseract run on `image` with one thread; raises OcrFailed when it fails or hangs."""
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    try:
        done = subprocess.run(
            argv, input=image, capture_output=True, timeout=timeout_s, check=False, env=env
        )
    except subprocess.TimeoutExpired:
        raise OcrFailed(f"tesseract took longer than {timeout_s:g} s") from None
    except OSError as exc:
        raise OcrFailed(f"cannot run {command}: {exc.strerror or exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise OcrFailed(f"tesseract failed: {message[-1] if message else done.returncode}")
    return done


def parse_tsv(tsv: str) -> tuple[OcrWord, ...]:
    """The word rows of Tesseract's TSV output, in its reading order (blank words dropped)."""
    words = []
    for row in tsv.splitlines()[1:]:
        fields = row.split("\t")
        if len(fields) != TSV_COLUMNS or fields[0] != WORD_LEVEL:
            continue
        text, confidence = fields[11].strip(), float(fields[10])
        if not text or confidence < 0:
            continue
        left, top, width, height = (int(v) for v in fields[6:10])
        key = (int(fields[2]), int(fields[3]), int(fields[4]))
        words.append(OcrWord(text, left, top, width, height, confidence / CONFIDENCE_SCALE, key))
    return tuple(words)
