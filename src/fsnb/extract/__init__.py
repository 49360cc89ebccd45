"""Tables extracted from files, with typed columns, for the scratchpad."""

from fsnb.extract.columns import typed
from fsnb.extract.tables import ExtractedTable, extract_tables

__all__ = ["ExtractedTable", "extract_tables", "typed"]
