"""extract: an open PDF -> pages of positioned lines.

`pages` reads each page's text layer (PyMuPDF's rawdict) into Lines, with tables found by
chunkcli.convert.tables and scanned pages handed to chunkcli.convert.ocr; the other modules are
its steps: `bidi` (right-to-left text in logical order), `gutters` (lines cut at narrow column
gutters), `wordgaps` (spaces restored where a PDF draws none), `symbols` (dingbat and private-use
glyphs), `vertical` (vertical Japanese text rebuilt into lines).
"""
