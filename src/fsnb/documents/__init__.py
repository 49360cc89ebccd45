"""Files to documents: Docling parsing to markdown with page spans, and a parse cache."""

from fsnb.documents.cache import ParseCache, default_cache_dir
from fsnb.documents.model import Document, PageSpan
from fsnb.documents.parse import document_files, parse, preview, supported

__all__ = [
    "Document",
    "PageSpan",
    "ParseCache",
    "default_cache_dir",
    "document_files",
    "parse",
    "preview",
    "supported",
]
