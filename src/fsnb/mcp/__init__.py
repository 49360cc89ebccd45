"""fsnb as an MCP server (`fsnb mcp FOLDER ...`): the agent's tools, its confinement, secret
masking and verified citations, for any agent host, on the official `mcp` SDK's low-level
server (the tools' JSON schemas are the registry's own).

- `folders`: the folders served, by name, and the `root` argument that picks one;
- `service`: what the server holds (folders, options, backend, index, calls) and the one
  way a call runs: in a `ServedContext` (`context`), in a worker under its time limit,
  stopped when cancelled (`calls`), masked;
- `indexing`: each folder indexed in the background, and how far it got;
- `host_tools` (explore, verify_citation) and `index_tools` (index, status): the server's
  tools beside the registry's;
- `resources`: documents and scratchpad tables as resources, and the "explore" prompt;
- `server`: the MCP handlers, and stdio; `http`: streamable HTTP with a bearer token.

The SDK is imported by `server` and `http` alone, when the server starts.
"""

__all__: list[str] = []
