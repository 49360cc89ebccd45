"""The DuckDB file: one storage object, its schema migrations, the SELECT guard, the scratchpad."""
