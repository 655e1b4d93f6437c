"""Tesseract as a library: libtesseract's C API through ctypes, for the pages of one document.

The program (tesseract.py) starts a process and loads its language model for every reading:
0.06-0.12 CPU s of a 0.5-1.8 s page, and PNG to encode and decode on top. Here a document
keeps its engines (per language, as many as read at once) for all its pages, each given the
gray pixels as they are, and walks the recognised words as the TSV of `tesseract ... tsv`
lists them (the same numbers, without writing that text), so the words are the same.
ctypes releases the GIL while Tesseract works: the threads read pages in parallel, as the
processes did.

Used only where it is the same Tesseract as the program: the default program is a binary
(not a wrapper script of the user's, which is run as it is) of the library's version;
everything else (a missing library, another platform's library name, a `tesseract_cmd` of
the caller's) runs the program. Tesseract's OpenMP threads are limited to
one, as for the program: the library is loaded with OMP_THREAD_LIMIT=1 in the environment
(read once, when OpenMP loads) and not used when OpenMP was already loaded without it.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import shutil
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

from chunkcli.convert.ocr.tesseract import CONFIDENCE_SCALE, OSD_LANG, OcrFailed, OcrWord

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# Sonames tried in order (Debian/Ubuntu ship libtesseract.so.5 with Tesseract 5).
LIBRARY_NAMES = ("libtesseract.so.5", "libtesseract.so.4")
OSD_ONLY_PSM = 0
# Tesseract's page iterator levels (TessPageIteratorLevel).
BLOCK_LEVEL, PARAGRAPH_LEVEL, LINE_LEVEL, WORD_LEVEL = 0, 1, 2, 3
_P = ctypes.c_void_p
_SIGNATURES: dict[str, tuple[object, list[object]]] = {
    "TessVersion": (ctypes.c_char_p, []),
    "TessBaseAPICreate": (_P, []),
    "TessBaseAPIDelete": (None, [_P]),
    "TessBaseAPIEnd": (None, [_P]),
    "TessBaseAPIInit3": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p]),
    "TessBaseAPISetVariable": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p]),
    "TessBaseAPISetPageSegMode": (None, [_P, ctypes.c_int]),
    "TessBaseAPISetImage": (
        None,
        [_P, _P, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int],
    ),  # fmt: skip
    "TessBaseAPISetSourceResolution": (None, [_P, ctypes.c_int]),
    "TessBaseAPIRecognize": (ctypes.c_int, [_P, _P]),
    "TessBaseAPIGetIterator": (_P, [_P]),
    "TessResultIteratorDelete": (None, [_P]),
    "TessResultIteratorGetPageIterator": (_P, [_P]),
    "TessResultIteratorNext": (ctypes.c_int, [_P, ctypes.c_int]),
    "TessResultIteratorGetUTF8Text": (_P, [_P, ctypes.c_int]),
    "TessResultIteratorConfidence": (ctypes.c_float, [_P, ctypes.c_int]),
    "TessPageIteratorIsAtBeginningOf": (ctypes.c_int, [_P, ctypes.c_int]),
    "TessPageIteratorBoundingBox": (
        ctypes.c_int,
        [_P, ctypes.c_int, *[ctypes.POINTER(ctypes.c_int)] * 4],
    ),
    "TessDeleteText": (None, [_P]),
    "TessBaseAPIClear": (None, [_P]),
    "TessBaseAPIDetectOrientationScript": (
        ctypes.c_int,
        [
            _P,
            ctypes.POINTER(ctypes.c_int),
            ctypes.POINTER(ctypes.c_float),
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.POINTER(ctypes.c_float),
        ],
    ),  # fmt: skip
    "TessMonitorCreate": (_P, []),
    "TessMonitorDelete": (None, [_P]),
    "TessMonitorSetDeadlineMSecs": (None, [_P, ctypes.c_int]),
}


@functools.lru_cache(maxsize=1)
def load_library() -> ctypes.CDLL | None:
    """libtesseract with its C API declared, OpenMP limited to one thread; None when it
    cannot be loaded or OpenMP is already running without that limit."""
    unset = "OMP_THREAD_LIMIT" not in os.environ
    if unset:
        os.environ["OMP_THREAD_LIMIT"] = "1"  # read by OpenMP as it loads with the library
    try:
        lib = _first_loadable(LIBRARY_NAMES)
    finally:
        if unset:
            del os.environ["OMP_THREAD_LIMIT"]
    if lib is None or not _one_openmp_thread():
        return None
    try:
        for name, (restype, argtypes) in _SIGNATURES.items():
            function = getattr(lib, name)
            function.restype, function.argtypes = restype, argtypes
    except AttributeError:  # an older C API
        return None
    return lib


def _first_loadable(names: tuple[str, ...]) -> ctypes.CDLL | None:
    for name in names:
        with contextlib.suppress(OSError):
            return ctypes.CDLL(name)
    return None


# GNU OpenMP's soname, loaded with libtesseract when Tesseract was built with it.
GOMP_NAME = "libgomp.so.1"


def _one_openmp_thread() -> bool:
    """Whether OpenMP (when Tesseract uses it) runs one thread per reading."""
    try:  # the copy the library loaded, if any (not found by running ldconfig: 6 ms)
        gomp = ctypes.CDLL(GOMP_NAME, mode=os.RTLD_NOLOAD)
    except OSError:
        return True  # no GNU OpenMP loaded with it: Tesseract built without it
    try:
        return int(gomp.omp_get_thread_limit()) == 1
    except AttributeError:
        return False


ELF_MAGIC = b"\x7fELF"


def is_binary_program(command: str) -> bool:
    """Whether `command` (a name on PATH or a path) is an executable binary, not a script."""
    path = shutil.which(command)
    if path is None:
        return False
    try:
        with open(path, "rb") as program:
            return program.read(len(ELF_MAGIC)) == ELF_MAGIC
    except OSError:
        return False


def library_version() -> str | None:
    """'tesseract 5.3.0' for the library, as the program's --version names itself."""
    lib = load_library()
    if lib is None:
        return None
    return f"tesseract {lib.TessVersion().decode('ascii', 'replace')}"


class TesseractLibrary:
    """One document's engines: per language, as many as read at once, each loaded on first
    use (or ahead of it, preload) and used by one thread at a time, whichever thread asks
    next: an engine keeps nothing of a page once it is cleared (the same words on 11 en/ja
    pages read in either order by one engine or each by a fresh one, 2026-12-04). close()
    frees them; one still reading then (the document ran out of time, its threads were not
    waited for) is freed by its thread when the reading ends."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self._lib = lib
        self._engines: dict[int, str] = {}  # every engine loaded and not freed: its language
        self._idle: dict[str, list[int]] = {}  # those not reading, by language
        self._closed = False
        self._lock = threading.Lock()  # guards the fields, not the engines

    def preload(self, lang: str, begun: threading.Event | None = None) -> None:
        """Load an engine for `lang` now (in a pool's thread, while another renders), so that
        the first reading in it need not; raises OcrFailed as a reading would. `begun` is
        set once Tesseract loads it (it then runs without Python's lock) or there is none
        to load."""
        try:
            with self._engine(lang, begun):
                pass
        finally:
            if begun is not None:
                begun.set()

    def words(
        self,
        gray: npt.NDArray[np.uint8],
        dpi: int,
        lang: str,
        psm: int,
        timeout_s: float,
        begun: threading.Event | None = None,
    ) -> tuple[OcrWord, ...]:
        """The page's words, as run_tesseract reads them; raises OcrFailed. `begun` (see
        preload) is set as the recognition starts, or as Tesseract loads an engine for it:
        until then each call into Tesseract needs Python's lock again, which a thread that
        renders keeps for the whole rendering (a page handed over before a rendering began
        reading 55-65 ms later, on the en scan, 2026-12-04)."""
        lib = self._lib
        with self._engine(lang, begun) as engine:
            lib.TessBaseAPISetPageSegMode(engine, psm)
            lib.TessBaseAPISetVariable(engine, b"user_defined_dpi", str(dpi).encode())  # --dpi
            self._set_image(engine, gray, dpi)
            monitor = lib.TessMonitorCreate()
            try:
                lib.TessMonitorSetDeadlineMSecs(monitor, _milliseconds(timeout_s))
                if begun is not None:
                    begun.set()
                if lib.TessBaseAPIRecognize(engine, monitor) != 0:
                    raise OcrFailed(f"tesseract took longer than {timeout_s:g} s")
            finally:
                lib.TessMonitorDelete(monitor)
            return self._words_read(engine)

    def script(
        self,
        gray: npt.NDArray[np.uint8],
        dpi: int,
        min_chars: int,
        begun: threading.Event | None = None,
    ) -> str | None:
        """The script Tesseract's script detection names, as tesseract_script finds it;
        `begun` (see preload) is set as the detection starts."""
        lib = self._lib
        degrees, orientation, confidence = ctypes.c_int(), ctypes.c_float(), ctypes.c_float()
        name = ctypes.c_char_p()
        with self._engine(OSD_LANG, begun) as engine:
            lib.TessBaseAPISetPageSegMode(engine, OSD_ONLY_PSM)
            lib.TessBaseAPISetVariable(engine, b"min_characters_to_try", str(min_chars).encode())
            self._set_image(engine, gray, dpi)
            if begun is not None:
                begun.set()
            found = lib.TessBaseAPIDetectOrientationScript(
                engine, ctypes.byref(degrees), ctypes.byref(orientation), ctypes.byref(name),
                ctypes.byref(confidence),
            )  # fmt: skip
        if not found or not name.value:
            return None
        return name.value.decode("ascii", "replace")

    def _words_read(self, engine: int) -> tuple[OcrWord, ...]:
        """The recognised words as parse_tsv reads them from the TSV Tesseract writes
        (TessBaseAPIGetTsvText): numbered by block, paragraph and line as it numbers them,
        the confidence as it prints it ("%f"). Walking the words costs a third of writing
        that TSV (16 against 54 ms a page: 3-5 % of a reading; the same words on 150
        readings of ja/ko/en pages, 2026-12-04)."""
        lib = self._lib
        walk = lib.TessBaseAPIGetIterator(engine)
        if not walk:
            return ()
        page = lib.TessResultIteratorGetPageIterator(walk)
        left, top, right, bottom = ctypes.c_int(), ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        box = (ctypes.byref(left), ctypes.byref(top), ctypes.byref(right), ctypes.byref(bottom))
        words, block, paragraph, line = [], 0, 0, 0
        try:
            while True:
                text = lib.TessResultIteratorGetUTF8Text(walk, WORD_LEVEL)
                if text:  # (a block without words has none)
                    # a block's first word begins its first paragraph and line too
                    if lib.TessPageIteratorIsAtBeginningOf(page, LINE_LEVEL):
                        if lib.TessPageIteratorIsAtBeginningOf(page, PARAGRAPH_LEVEL):
                            if lib.TessPageIteratorIsAtBeginningOf(page, BLOCK_LEVEL):
                                block, paragraph = block + 1, 0
                            paragraph, line = paragraph + 1, 0
                        line += 1
                    word = ctypes.string_at(text).decode("utf-8", "replace").strip()
                    lib.TessDeleteText(text)
                    lib.TessPageIteratorBoundingBox(page, WORD_LEVEL, *box)
                    confidence = float(f"{lib.TessResultIteratorConfidence(walk, WORD_LEVEL):f}")
                    if word and confidence >= 0:
                        size = (right.value - left.value, bottom.value - top.value)
                        words.append(OcrWord(word, left.value, top.value, *size,
                                             confidence / CONFIDENCE_SCALE,
                                             (block, paragraph, line)))  # fmt: skip
                if not lib.TessResultIteratorNext(walk, WORD_LEVEL):
                    return tuple(words)
        finally:
            lib.TessResultIteratorDelete(walk)

    def close(self) -> None:
        """Free the engines (those still reading when they are done)."""
        with self._lock:
            self._closed = True
            idle = [engine for engines in self._idle.values() for engine in engines]
            self._idle.clear()
            for engine in idle:
                del self._engines[engine]
        for engine in idle:
            self._free(engine)

    @contextlib.contextmanager
    def _engine(self, lang: str, begun: threading.Event | None = None) -> Iterator[int]:
        """An idle engine for `lang` (one loaded when none is: `begun` set as Tesseract
        starts loading it), its image cleared after. Raises OcrFailed once closed: a reading
        left running when the document's time ran out loads no model only to free it."""
        with self._lock:
            if self._closed:
                raise OcrFailed("the document's OCR engines are closed")
            idle = self._idle.get(lang)
            engine = idle.pop() if idle else None
        if engine is None:
            engine = self._loaded(lang, begun)
            with self._lock:
                self._engines[engine] = lang
        try:
            yield engine
        finally:
            self._lib.TessBaseAPIClear(engine)
            with self._lock:
                closed = self._closed
                if closed:
                    del self._engines[engine]
                else:
                    self._idle.setdefault(lang, []).append(engine)
            if closed:
                self._free(engine)

    def _loaded(self, lang: str, begun: threading.Event | None = None) -> int:
        lib = self._lib
        engine = int(lib.TessBaseAPICreate())
        # Tesseract's messages ("Detected 274 diacritics") went to the program's stderr,
        # which nobody read: here they would reach the user's terminal.
        lib.TessBaseAPISetVariable(engine, b"debug_file", os.devnull.encode())
        if begun is not None:
            begun.set()
        if lib.TessBaseAPIInit3(engine, None, lang.encode()) != 0:
            lib.TessBaseAPIDelete(engine)
            raise OcrFailed(f"tesseract failed: cannot load the language data for {lang}")
        return engine

    def _free(self, engine: int) -> None:
        self._lib.TessBaseAPIEnd(engine)
        self._lib.TessBaseAPIDelete(engine)

    def _set_image(self, engine: int, gray: npt.NDArray[np.uint8], dpi: int) -> None:
        """The pixels (rows of 8-bit gray, C order: Tesseract reads them in place, they stay
        alive in the caller for the reading)."""
        height, width = gray.shape
        assert gray.flags.c_contiguous and gray.dtype.itemsize == 1
        self._lib.TessBaseAPISetImage(engine, gray.ctypes.data, width, height, 1, width)
        self._lib.TessBaseAPISetSourceResolution(engine, dpi)


def _milliseconds(seconds: float) -> int:
    return max(1, min(2**31 - 1, round(seconds * 1000)))
