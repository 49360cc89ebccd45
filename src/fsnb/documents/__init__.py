"""Files to documents: Docling parsing to markdown with page spans, a parse cache, and a
folder's documents as an exploration may read them."""

from fsnb.documents.cache import ParseCache, default_cache_dir
from fsnb.documents.folder import FolderDocuments
from fsnb.documents.model import Document, PageSpan
from fsnb.documents.opening import opening, preview
from fsnb.documents.parse import document_files, parse, supported

__all__ = [
    "Document",
    "FolderDocuments",
    "PageSpan",
    "ParseCache",
    "default_cache_dir",
    "document_files",
    "opening",
    "parse",
    "preview",
    "supported",
]
