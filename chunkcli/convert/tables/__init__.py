"""Tables: ruled grids, rule stacks and aligned columns on a page -> TABLE blocks.

`detect_tables` runs per page during extraction (it needs the open PyMuPDF page for its
drawings); `merge_continued_tables` runs on the whole document after running headers are gone.
"""

from chunkcli.convert.tables.detect import TableOptions, detect_tables, tables_from_rules
from chunkcli.convert.tables.merge import merge_continued_tables

__all__ = ["TableOptions", "detect_tables", "merge_continued_tables", "tables_from_rules"]
