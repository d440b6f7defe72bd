"""An MCP server written on the official Python SDK that serves Whittle's mobile, ui and
log roles the way a foreign implementation would: the mobile tools answer in prose like
the public mobile-mcp server, the ui and log tools answer JSON in text blocks only (no
structuredContent), with trailing whitespace, keys Whittle does not know, `ts` as epoch
seconds, integer `record_id`s and no `count`. Whittle must run against it unchanged.

Two modes. The default serves exactly the tool contract as it was published
(docs/tool-contract.md, "The published contract"): it is FROZEN — never add a tool or a
field to it to match a change of Whittle's; a change that breaks a server written to the
published contract must break the tests that run against it. `--extended` (or
WHITTLE_PEER_MODE=extended) adds the optional tools Whittle gained since
(`long_press_element`), for the tests of those capabilities.

Run: python whittle_peer.py [--extended]   (stdio), or python whittle_peer.py --http [--json-response]
to serve MCP streamable HTTP on a free loopback port (the SDK's own session manager and
ASGI app under uvicorn; the first stdout line is `listening on <url>`), SSE answers by
default. WHITTLE_PEER_BREAK=<field> breaks one verdict
field on purpose (`tapped`: tap_element answers "yes"; `stack`: crash records lose their
stack) so tests can check that Whittle refuses it with the server, tool and field named.
"""

import json
import os
import sys

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

import peer_app  # beside this file: the script's folder is on sys.path

BREAK = os.environ.get("WHITTLE_PEER_BREAK", "")
DEVICE_ARG = {"device": {"type": "string"}}
STRATEGIES = {"type": "array", "items": {"type": "object", "properties": {
    "by": {"type": "string"}, "value": {"type": "string"}}}}

PUBLISHED_TOOLS = {
    "mobile_list_available_devices": {},
    "mobile_list_apps": DEVICE_ARG,
    "mobile_launch_app": {**DEVICE_ARG, "packageName": {"type": "string"}},
    "mobile_terminate_app": {**DEVICE_ARG, "packageName": {"type": "string"}},
    "mobile_save_screenshot": {**DEVICE_ARG, "saveTo": {"type": "string"}},
    "mobile_press_button": {**DEVICE_ARG, "button": {"type": "string"}},
    "get_hierarchy": DEVICE_ARG,
    "wait_for_element": {**DEVICE_ARG, "strategies": STRATEGIES, "timeout_ms": {"type": "integer"}},
    "tap_element": {**DEVICE_ARG, "strategies": STRATEGIES, "settle_ms": {"type": "integer"}},
    "input_text": {**DEVICE_ARG, "strategies": STRATEGIES, "text": {"type": "string"}},
    "clear_logs": DEVICE_ARG,
    "get_recent_crashes": {**DEVICE_ARG, "package": {"type": "string"}},
    "start_capture": {"session_id": {"type": "string"}, "session_dir": {"type": "string"}, **DEVICE_ARG},
    "list_captures": {},
    "stop_capture": {"session_id": {"type": "string"}},
}

# Optional tools added to the contract after it was published: served only in extended mode.
EXTENDED_TOOLS = {
    "long_press_element": {**DEVICE_ARG, "strategies": STRATEGIES, "settle_ms": {"type": "integer"}},
}
EXTENDED = "--extended" in sys.argv or os.environ.get("WHITTLE_PEER_MODE") == "extended"
TOOLS = {**PUBLISHED_TOOLS, **(EXTENDED_TOOLS if EXTENDED else {})}

device = peer_app.Device()


def prose(text):
    return types.CallToolResult(content=[types.TextContent(text=text)])


def as_text(obj, *before):
    """JSON in a text block, with trailing whitespace; `before` adds prose blocks first."""
    blocks = [types.TextContent(text=t) for t in before]
    blocks.append(types.TextContent(text=json.dumps(obj) + "  \n"))
    return types.CallToolResult(content=blocks)


def failed(text):
    return types.CallToolResult(content=[types.TextContent(text=f"Error: {text}")], is_error=True)


def mobile(name, args):
    if not name.startswith("mobile_"):
        return None
    if name == "mobile_list_available_devices":
        return as_text({"devices": [{"id": peer_app.DEVICE, "name": "Peer Phone", "platform": "android",
                                     "type": "emulator", "version": "14", "state": "online"}]})
    if args.get("device") != peer_app.DEVICE:
        # mobile-mcp's "actionable" error: prose, not flagged isError.
        return prose(f'Device "{args.get("device")}" not found. Use the mobile_list_available_devices '
                     "tool to see available devices. Please fix the issue and try again.")
    if name == "mobile_list_apps":
        return prose(f"Found these apps on device: Notes ({peer_app.PACKAGE}), Files (com.android.documentsui)")
    if name == "mobile_launch_app":
        device.launch()
        return prose(f"Launched app {args.get('packageName')}")
    if name == "mobile_terminate_app":
        device.terminate()
        return prose(f"Terminated app {args.get('packageName')}")
    if name == "mobile_save_screenshot":
        with open(args["saveTo"], "wb") as f:
            f.write(device.screenshot_png())
        return prose(f"Screenshot saved to: {args['saveTo']}")
    if name == "mobile_press_button":
        if not device.press(args.get("button")):
            return failed(f"cannot press {args.get('button')} now")
        return prose(f"Pressed the button: {args.get('button')}")
    return None


def ui(name, args):
    if name == "get_hierarchy":
        elements = device.elements()
        return as_text({"elements": elements, "rotation": 0}, f"Found {len(elements)} elements")
    strategies = args.get("strategies") or []
    if name == "wait_for_element":
        return as_text({"found": device.find(strategies) is not None, "elapsed_ms": 1})
    if name == "tap_element":
        element = device.find(strategies)
        if element is None:
            return as_text({"tapped": False, "reason": "element_not_found"})
        device.tap(element)
        left, top, right, bottom = element["bounds"]
        tapped = "yes" if BREAK == "tapped" else True
        return as_text({"tapped": tapped, "x": (left + right) // 2, "y": (top + bottom) // 2})
    if name == "long_press_element" and EXTENDED:
        # The peer's app has no long-click listener: a press that lands changes nothing.
        if device.find(strategies) is None:
            return as_text({"tapped": False, "reason": "element_not_found"})
        return as_text({"tapped": True})
    if name == "input_text":
        return as_text({"ok": device.find(strategies) is not None})
    return None


def log(name, args):
    if name == "clear_logs":
        device.clear_logs()
        return prose("Logs cleared")
    if name == "get_recent_crashes":
        wanted = args.get("package")
        crashes = []
        for r in device.log:
            if wanted and r["process"] != wanted:
                continue
            crash = {"record_id": r["id"], "ts": r["ts"], "kind": r["kind"], "process": r["process"],
                     "stack": r["stack"], "tag": "AndroidRuntime", "pid": 4242}
            if BREAK == "stack":
                del crash["stack"]
            crashes.append(crash)
        return as_text({"crashes": crashes})
    if name == "start_capture":
        path = os.path.join(args["session_dir"], "logcat.txt")
        open(path, "a", encoding="utf-8").close()
        device.captures[args["session_id"]] = {"status": "running", "path": path}
        return as_text({"status": "running", "log_path": path})
    if name == "list_captures":
        return as_text({"captures": [{"session_id": sid, "status": c["status"], "pid": 1}
                                     for sid, c in device.captures.items()]})
    if name == "stop_capture":
        capture = device.captures.get(args.get("session_id"))
        if capture is None:
            return as_text({"stopped": False, "status": "failed", "reason": "no such capture"})
        capture["status"] = "stopped"
        return as_text({"stopped": True, "status": "stopped", "log_path": capture["path"]})
    return None


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[
        types.Tool(name=name, input_schema={"type": "object", "properties": props})
        for name, props in TOOLS.items()
    ])


async def call_tool(ctx, params):
    args = params.arguments or {}
    for role in (mobile, ui, log):
        answer = role(params.name, args)
        if answer is not None:
            return answer
    return failed(f"unknown tool {params.name}")


def make_server():
    return Server("whittle-python-peer", version="1", on_list_tools=list_tools, on_call_tool=call_tool)


async def main():
    server = make_server()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def serve_http(json_response):
    """Streamable HTTP on 127.0.0.1, a free port, through the SDK's session manager."""
    import contextlib
    import socket

    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.routing import Mount

    manager = StreamableHTTPSessionManager(app=make_server(), json_response=json_response)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async with manager.run():
            yield

    app = Starlette(routes=[Mount("/mcp", app=manager.handle_request)], lifespan=lifespan)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    # Listening before the URL is told: a client may connect at once (uvicorn accepts later).
    sock.listen(128)
    print(f"listening on http://127.0.0.1:{port}/mcp/", flush=True)
    config = uvicorn.Config(app, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    if "--http" in sys.argv:
        serve_http("--json-response" in sys.argv)
    else:
        anyio.run(main)
