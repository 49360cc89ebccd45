"""The MCP server: `build` maps a `Service` onto the SDK's low-level `Server` (tools with
the registry's own schemas, resources, the prompt), `serve_stdio` serves it on stdin and
stdout. The folders are indexed in the background once the transport is up, so that
`initialize` is answered at once.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from fsnb._version import __version__
from fsnb.mcp import resources
from fsnb.mcp.calls import reporter
from fsnb.mcp.folders import ROOT
from fsnb.mcp.service import Service

#: JSON-RPC error code of a resource that is not there (the MCP specification's).
RESOURCE_NOT_FOUND = -32002
#: Resources listed per page.
PAGE = 500


def instructions(service: Service) -> str:
    """What the server tells a host when it connects."""
    names = ", ".join(service.folders.names())
    several = len(service.folders) > 1
    pick = f" Every tool but status takes {ROOT}, the folder's name." if several else ""
    return (
        f"fsnb answers questions about the folder{'s' * several} {names} with cited evidence. "
        f"Paths are relative to the folder.{pick} Use the explore_folder prompt for fsnb's "
        "strategy: scan_folder, then parse_file or get_document the likely documents, grep for "
        "figures, semantic_search across the index, load_table/query_data for totals. Cite "
        "each statement [n] with path, page and an exact quote; verify_citation checks one; "
        "explore runs fsnb's own agent and returns verified citations. Secret values in the "
        "files are withheld from every result. The index is built in the background when the "
        "server starts: until it is ready semantic_search says so and status shows how far "
        "it got; index follows it to its end with progress. Resources: fsnb://<folder>/<path> "
        "is a document's text with [page N] lines, fsnb-table://<folder>/<table> a "
        "scratchpad table."
    )


def build(service: Service) -> Server[Any]:
    """The SDK server for `service`."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        tools = [
            types.Tool(name=t["name"], description=t["description"], input_schema=t["inputSchema"])
            for t in service.tools()
        ]
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        report = reporter(ctx.session.report_progress)
        outcome = await service.call_tool(params.name, params.arguments or {}, report)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=outcome.text)],
            structured_content=outcome.data or None,
            is_error=not outcome.ok,
        )

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        listed = await asyncio.to_thread(resources.listing, service)
        start = int(params.cursor) if params and (params.cursor or "").isdigit() else 0
        page = listed[start : start + PAGE]
        more = str(start + PAGE) if start + PAGE < len(listed) else None
        found = [
            types.Resource(
                uri=r.uri,
                name=r.name,
                title=r.title,
                description=r.description,
                mime_type="text/plain",
            )
            for r in page
        ]
        return types.ListResourcesResult(resources=found, next_cursor=more)

    async def list_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        templates = [
            types.ResourceTemplate(
                uri_template=f"{resources.DOCUMENTS}://{{folder}}/{{+path}}",
                name="document",
                description="A document's parsed text with [page N] lines",
                mime_type="text/plain",
            ),
            types.ResourceTemplate(
                uri_template=f"{resources.TABLES}://{{folder}}/{{table}}",
                name="scratchpad table",
                description="The rows of a scratchpad table",
                mime_type="text/plain",
            ),
        ]
        return types.ListResourceTemplatesResult(resource_templates=templates)

    async def read_resource(
        ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            text = await resources.read(service, uri)
        except resources.ResourceError as exc:
            raise MCPError(RESOURCE_NOT_FOUND, str(exc)) from None
        contents = [types.TextResourceContents(uri=uri, mime_type="text/plain", text=text)]
        return types.ReadResourceResult(contents=contents)

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        arguments = [types.PromptArgument(name="question", description="What to find out")]
        if len(service.folders) > 1:
            about = f"The folder, one of {', '.join(service.folders.names())}"
            arguments.append(types.PromptArgument(name=ROOT, description=about, required=True))
        prompt = types.Prompt(
            name=resources.PROMPT,
            title="Explore this folder",
            description="fsnb's strategy for answering from the folder with cited evidence",
            arguments=arguments,
        )
        return types.ListPromptsResult(prompts=[prompt])

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        given = dict(params.arguments or {})
        if params.name != resources.PROMPT:
            raise MCPError(types.INVALID_PARAMS, f"no prompt {params.name[:100]!r}")
        folder = service.folders.get(given.get(ROOT) or service.folders.names()[0])
        if folder is None or (len(service.folders) > 1 and ROOT not in given):
            known = ", ".join(service.folders.names())
            raise MCPError(types.INVALID_PARAMS, f"name the folder as {ROOT}: one of {known}")
        text = await asyncio.to_thread(
            resources.prompt_text, service, folder, given.get("question")
        )
        message = types.PromptMessage(
            role="user", content=types.TextContent(type="text", text=text)
        )
        return types.GetPromptResult(description="Explore this folder", messages=[message])

    return Server(
        "fsnb",
        version=__version__,
        title="fsnb",
        instructions=instructions(service),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


async def serve_stdio(service: Service) -> None:
    """Serve on stdin and stdout until the client closes them (the SDK points fd 1 at stderr
    meanwhile, so that nothing else reaches the wire)."""
    server = build(service)
    names = ", ".join(service.folders.names())
    print(f"fsnb mcp: serving {names} on stdio", file=sys.stderr, flush=True)
    try:
        async with stdio_server() as (read, write):
            if service.settings.index:
                service.start_indexing()
            await server.run(read, write, server.create_initialization_options())
    finally:
        service.close()


__all__ = ["build", "instructions", "serve_stdio"]
