"""The file-system index: the walk, what changed, listings, duplicates, bookmarks, watching."""
