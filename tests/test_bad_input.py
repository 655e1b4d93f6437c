"""Files that are not good PDFs: each fails with one line naming the file and the reason,
and nothing is written; damaged files that MuPDF can repair still convert what is left."""

from __future__ import annotations

import faulthandler
import os
import random
import signal
import time
from pathlib import Path

import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdf_factory import make_pdf, wrapped_paragraph
from typer.testing import CliRunner

from chunkcli import batch, workers
from chunkcli.batch import convert_one
from chunkcli.cli import app
from chunkcli.convert.pipeline import ConvertOptions
from chunkcli.convert.source import describe_content, open_pdf
from chunkcli.errors import ChunkcliError, PdfOpenError
from chunkcli.workers import WorkerPool

POOL = WorkerPool(timeout_s=30)  # one per CPU, 30 s per file

BODY = "Birch trees grow in cold climates and shed their bark in thin papery layers."
PASSWORD = "pw-1234"


def good_pdf(path: Path, pages: int = 3) -> Path:
    return make_pdf(
        path,
        [wrapped_paragraph(72, 300, 400, f"Page {n} says: {BODY}") for n in range(1, pages + 1)],
    )


def tiny_image(kind: str) -> bytes:
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    return pixmap.tobytes(kind)


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    return tmp_path


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def open_error(path: Path, password: str | None = None) -> str:
    with pytest.raises(PdfOpenError) as caught:
        open_pdf(path, password)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    return message


# --- each kind of bad file ------------------------------------------------------------------


def test_missing_file(folder: Path) -> None:
    assert open_error(folder / "nope.pdf").endswith("no such file")


def test_directory(folder: Path) -> None:
    assert "is a directory" in open_error(folder)


def test_empty_file(folder: Path) -> None:
    assert open_error(write(folder / "empty.pdf", b"")).endswith("empty file (0 bytes)")


def test_jpeg_named_pdf(folder: Path) -> None:
    message = open_error(write(folder / "photo.pdf", tiny_image("jpeg")))
    assert message.endswith("not a PDF: looks like a JPEG image")


def test_png_named_pdf(folder: Path) -> None:
    assert "PNG image" in open_error(write(folder / "scan.pdf", tiny_image("png")))


def test_text_file_is_quoted(folder: Path) -> None:
    message = open_error(write(folder / "notes.pdf", b"minutes of the meeting\n"))
    assert "looks like a text file: 'minutes of the meeting'" in message


def test_git_symlink_stub(folder: Path) -> None:
    message = open_error(write(folder / "DA-1p.pdf", b"../../../example-docs/DA-1p.pdf"))
    assert "git symlink" in message


def test_random_bytes(folder: Path) -> None:
    noise = random.Random(7).randbytes(4000).replace(b" obj", b"    ")
    assert "not a PDF" in open_error(write(folder / "noise.pdf", noise))


def test_header_then_garbage(folder: Path) -> None:
    data = b"%PDF-1.7\n" + random.Random(8).randbytes(4000)
    assert "damaged or truncated" in open_error(write(folder / "junk.pdf", data))


def test_truncated_to_a_tenth_fails(folder: Path) -> None:
    data = good_pdf(folder / "good.pdf").read_bytes()
    cut = write(folder / "cut.pdf", data[: len(data) // 10])
    assert "damaged or truncated" in open_error(cut)


def test_truncated_file_keeps_the_pages_it_still_has(folder: Path) -> None:
    data = good_pdf(folder / "good.pdf", pages=3).read_bytes()
    # Cut inside the last page's objects: MuPDF repairs the rest.
    cut = write(folder / "cut.pdf", data[: int(len(data) * 0.9)])
    result = convert_one(cut, ConvertOptions(), pool=POOL)
    assert "Page 1 says" in result.markdown
    assert len(result.pages) == 3


def test_cli_warns_that_a_truncated_file_was_repaired(folder: Path) -> None:
    data = good_pdf(folder / "good.pdf", pages=3).read_bytes()
    cut = write(folder / "cut.pdf", data[: int(len(data) * 0.9)])
    result = CliRunner().invoke(app, ["convert", str(cut)])
    assert result.exit_code == 0
    assert "Page 1 says" in result.stdout
    assert f"warning: {cut}: damaged file, repaired by MuPDF" in result.stderr
    intact = CliRunner().invoke(app, ["convert", str(folder / "good.pdf")])
    assert intact.stderr == ""


def test_header_after_leading_junk_is_accepted(folder: Path) -> None:
    data = good_pdf(folder / "good.pdf").read_bytes()
    shifted = write(folder / "shifted.pdf", b"X-Mailer: junk\r\n" + data)
    assert "Page 2 says" in convert_one(shifted, ConvertOptions(), pool=POOL).markdown


# --- encryption -------------------------------------------------------------------------------


@pytest.fixture()
def encrypted(folder: Path) -> Path:
    path = good_pdf(folder / "good.pdf")
    doc = pymupdf.open(path)
    target = folder / "locked.pdf"
    doc.save(target, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=PASSWORD, owner_pw=PASSWORD)
    return target


def test_encrypted_without_password(encrypted: Path) -> None:
    message = open_error(encrypted)
    assert message.endswith("encrypted: needs a password (--password)")


def test_encrypted_wrong_password(encrypted: Path) -> None:
    assert open_error(encrypted, "guess").endswith("wrong password")


def test_encrypted_right_password(encrypted: Path) -> None:
    result = convert_one(
        encrypted, ConvertOptions(password=PASSWORD), pool=WorkerPool(timeout_s=30)
    )
    assert "Page 3 says" in result.markdown


def test_owner_password_only_opens_without_password(folder: Path) -> None:
    doc = pymupdf.open(good_pdf(folder / "good.pdf"))
    target = folder / "protected.pdf"
    doc.save(target, encryption=pymupdf.PDF_ENCRYPT_AES_128, user_pw="", owner_pw="owner",
             permissions=0)  # fmt: skip
    assert "Page 1 says" in convert_one(target, ConvertOptions(), pool=POOL).markdown


def test_password_on_a_plain_file_is_ignored(folder: Path) -> None:
    assert open_pdf(good_pdf(folder / "good.pdf"), "unused").page_count == 3


# --- describe_content ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"PK\x03\x04rest", "ZIP archive"),
        (b"<!DOCTYPE html><html>", "HTML page"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1", "Office"),
        (b"\x00\x01\x02\xff\xfe", "no %PDF- header"),
        ("日本語のテキスト".encode()[:-1], "text file"),  # cut inside a character
    ],
)
def test_describe_content(head: bytes, expected: str) -> None:
    assert expected in describe_content(head)


# --- any bytes: a PdfOpenError or a document, nothing else ------------------------------------


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=600), header=st.booleans())
def test_any_bytes_open_or_fail_cleanly(folder: Path, data: bytes, header: bool) -> None:
    path = write(folder / "fuzz.pdf", (b"%PDF-1.4\n" if header else b"") + data)
    try:
        open_pdf(path).close()
    except PdfOpenError as exc:
        assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(fraction=st.floats(min_value=0.0, max_value=1.0))
def test_any_truncation_converts_or_fails_cleanly(folder: Path, fraction: float) -> None:
    source = folder / "whole.pdf"
    if not source.exists():
        good_pdf(source)
    data = source.read_bytes()
    path = write(folder / "cut.pdf", data[: int(len(data) * fraction)])
    try:
        result = convert_one(path, ConvertOptions(), pool=POOL)
    except ChunkcliError as exc:
        assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc)
    else:
        assert result.pages


# --- the CLI: exit 1, one line on stderr, no output file ----------------------------------------


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.pdf", b"", "empty file"),
        ("photo.pdf", tiny_image("jpeg"), "JPEG"),
        ("notes.pdf", b"hello\n", "text file"),
    ],
)
def test_cli_bad_file_exit_1_and_no_output(
    folder: Path, name: str, data: bytes, reason: str
) -> None:
    bad = write(folder / name, data)
    target = folder / "out.md"
    result = CliRunner().invoke(app, ["convert", str(bad), "-o", str(target)])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: {bad}: ") and reason in lines[0]
    assert not target.exists()
    assert result.stdout == ""


def test_cli_failure_leaves_an_earlier_output_untouched(encrypted: Path) -> None:
    target = encrypted.with_suffix(".md")
    target.write_text("earlier good output\n")
    result = CliRunner().invoke(app, ["convert", str(encrypted), "-o", str(target)])
    assert result.exit_code == 1
    assert "needs a password" in result.stderr
    assert target.read_text() == "earlier good output\n"
    assert list(target.parent.glob(".*.tmp")) == []


def test_cli_password_flag(encrypted: Path) -> None:
    result = CliRunner().invoke(app, ["convert", str(encrypted), "--password", PASSWORD])
    assert result.exit_code == 0
    assert "Page 2 says" in result.stdout


def fork_only() -> None:
    if workers._start_method().get_start_method() != "fork":
        pytest.skip("the patched converter reaches the worker only through fork")


def test_cli_mupdf_crash_is_a_one_line_error(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fork_only()

    def segfault(path: Path, options: ConvertOptions, **_: object) -> None:
        faulthandler.disable()  # inherited from pytest; keep its dump out of the log
        os.kill(os.getpid(), signal.SIGSEGV)

    monkeypatch.setattr(batch, "convert_pdf", segfault)
    source = good_pdf(folder / "crashes.pdf")
    result = CliRunner().invoke(app, ["convert", str(source), "-o", str(folder / "x.md")])
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {source}: the worker process converting it crashed (killed by SIGSEGV)\n"
    )
    assert not (folder / "x.md").exists()


def test_cli_mupdf_hang_is_killed_after_the_timeout(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fork_only()

    def hang(path: Path, options: ConvertOptions, **_: object) -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # as inside MuPDF's C code
        time.sleep(60)

    monkeypatch.setattr(batch, "convert_pdf", hang)
    monkeypatch.setattr(workers, "KILL_GRACE_S", 0.2)
    source = good_pdf(folder / "hangs.pdf")
    started = time.monotonic()
    result = CliRunner().invoke(app, ["convert", str(source), "--timeout", "0.3"])
    assert result.exit_code == 1
    assert f"{source}: timed out after 0.3 s (--timeout)" in result.stderr
    assert time.monotonic() - started < 10


def test_cli_file_name_with_brackets_is_printed_verbatim(folder: Path) -> None:
    bad = write(folder / "report [final].pdf", b"")
    result = CliRunner().invoke(app, ["convert", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}: empty file" in result.stderr
