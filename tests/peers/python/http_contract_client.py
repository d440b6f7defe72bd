"""An MCP client written on the official Python SDK, over streamable HTTP: checks that
`whittle-servers ... --listen` serves Whittle's tool contract (the five roles' tools,
each result as structuredContent plus one text block holding the same JSON) to a
client Whittle did not write, and that a wrong bearer token is refused.

Run by crates/whittle-servers/tests/servers/listen_python_peer.rs:
    python http_contract_client.py --device-url URL --report-url URL --token-env VAR
        --package PKG --tap-id ID --input-id ID --workspace DIR
Exit status 0 when every check passed; otherwise the first failure is printed.
"""

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile

from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

MOBILE = [
    "mobile_list_available_devices",
    "mobile_list_apps",
    "mobile_launch_app",
    "mobile_terminate_app",
    "mobile_save_screenshot",
    "mobile_press_button",
]
UI = ["get_hierarchy", "wait_for_element", "tap_element", "input_text"]
LOG = ["clear_logs", "get_recent_crashes", "start_capture", "list_captures", "stop_capture"]
REPORT = ["list_sessions", "get_session_path", "start_session", "record_step", "finalize"]
ANALYZER = ["compute_signature", "analyze_session", "suggest_minimal_path"]

STACK = (
    "FATAL EXCEPTION: main\nProcess: com.example.test, PID: 4242\n"
    "java.lang.IllegalStateException: boom\n"
    "\tat com.example.test.MainActivity.onClick(MainActivity.kt:10)\n"
    "\tat android.view.View.performClick(View.java:7659)\n"
)


class ContractError(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise ContractError(message)


async def call(session, tool, arguments, expect_error=False):
    """Calls `tool`; returns its structured result after checking the text block."""
    result = await session.call_tool(tool, arguments)
    if expect_error:
        check(result.is_error, f"{tool}: expected a tool error, got {result}")
        return None
    check(not result.is_error, f"{tool} failed: {result.content}")
    structured = result.structured_content
    check(isinstance(structured, dict), f"{tool}: structuredContent is not an object")
    texts = [b for b in result.content if getattr(b, "type", None) == "text"]
    check(len(texts) == 1, f"{tool}: expected one text block, got {len(texts)}")
    check(json.loads(texts[0].text) == structured, f"{tool}: text block differs from structuredContent")
    return structured


def http_client(token):
    return create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})


async def tool_names(session):
    listed = await session.list_tools()
    return {t.name for t in listed.tools}


async def check_device_roles(url, token, args):
    async with http_client(token) as http, streamable_http_client(url, http_client=http) as (r, w):
        async with ClientSession(r, w) as session:
            await session.initialize()
            names = await tool_names(session)
            missing = [t for t in MOBILE + UI + LOG if t not in names]
            check(not missing, f"device server lacks {missing}")

            devices = (await call(session, "mobile_list_available_devices", {}))["devices"]
            check(devices, "no device listed")
            for d in devices:
                for key in ("id", "name", "platform", "type", "state"):
                    check(key in d, f"device without {key}: {d}")
            device = devices[0]["id"]
            apps = (await call(session, "mobile_list_apps", {"device": device}))["apps"]
            check(any(a["package"] == args.package and a["system"] is False for a in apps),
                  f"{args.package} not listed as a user app: {apps}")
            await call(session, "mobile_terminate_app", {"device": device, "packageName": args.package})
            await call(session, "clear_logs", {"device": device})
            await call(session, "mobile_launch_app", {"device": device, "packageName": args.package})

            elements = (await call(session, "get_hierarchy", {"device": device}))["elements"]
            check(elements, "empty hierarchy")
            for key in ("resource_id", "text", "content_desc", "class", "bounds", "password", "focused", "visible"):
                check(key in elements[0], f"element without {key}: {elements[0]}")
            check(len(elements[0]["bounds"]) == 4, "bounds are [l, t, r, b]")

            by_id = [{"by": "identifier", "value": args.tap_id}]
            found = await call(session, "wait_for_element", {"device": device, "strategies": by_id, "timeout_ms": 2000})
            check(found["found"] is True, f"wait_for_element did not find {args.tap_id}")
            tapped = await call(session, "tap_element", {"device": device, "strategies": by_id, "settle_ms": 0})
            check(tapped["tapped"] is True, f"tap_element: {tapped}")
            typed = await call(session, "input_text", {
                "device": device, "strategies": [{"by": "identifier", "value": args.input_id}], "text": "qa@example.com"})
            check(typed["ok"] is True, f"input_text: {typed}")
            absent = await call(session, "tap_element", {
                "device": device, "strategies": [{"by": "text", "value": "No such element"}], "settle_ms": 0})
            check(absent["tapped"] is False and absent.get("reason"), f"an absent element is a negative: {absent}")
            await call(session, "mobile_press_button", {"device": device, "button": "BACK"})

            with tempfile.TemporaryDirectory() as shots:
                target = os.path.join(shots, "shot.png")
                shot = await call(session, "mobile_save_screenshot", {"device": device, "saveTo": target})
                check(shot["width"] > 0 and shot["height"] > 0, f"screenshot size: {shot}")
                with open(target, "rb") as f:
                    check(f.read(8) == b"\x89PNG\r\n\x1a\n", "the screenshot is a PNG")

            crashes = await call(session, "get_recent_crashes", {"device": device, "package": args.package})
            check(crashes["count"] == len(crashes["crashes"]), f"count matches: {crashes}")

            session_dir = tempfile.mkdtemp(dir=args.workspace)
            capture_id = "python-peer-capture"
            started = await call(session, "start_capture", {
                "session_id": capture_id, "session_dir": session_dir, "device": device})
            check("status" in started, f"start_capture: {started}")
            listed = (await call(session, "list_captures", {}))["captures"]
            mine = [c for c in listed if c["session_id"] == capture_id]
            check(mine and mine[0]["status"] == "running", f"capture not running: {listed}")
            stopped = await call(session, "stop_capture", {"session_id": capture_id})
            check(stopped["stopped"] is True, f"stop_capture: {stopped}")
            await call(session, "mobile_launch_app", {"device": "no-such-device", "packageName": args.package},
                       expect_error=True)


async def check_report_and_analyzer(url, token):
    async with http_client(token) as http, streamable_http_client(url, http_client=http) as (r, w):
        async with ClientSession(r, w) as session:
            await session.initialize()
            names = await tool_names(session)
            missing = [t for t in REPORT + ANALYZER if t not in names]
            check(not missing, f"report/analyzer server lacks {missing}")
            started = await call(session, "start_session", {"name": "python-peer", "extra": {"by": "python"}})
            session_id = started["session_id"]
            check(re.fullmatch(r"\d{4}-\d{2}-\d{2}_\d{6}_python-peer", session_id), f"session id: {session_id}")
            path = await call(session, "get_session_path", {"session_id": session_id})
            check(path["session_dir"] == started["session_dir"], "get_session_path agrees")
            step = await call(session, "record_step", {
                "session_id": session_id, "action": "replay [1]", "result": "ok", "notes": "{}"})
            check(isinstance(step["index"], int), f"record_step: {step}")
            listed = (await call(session, "list_sessions", {}))["sessions"]
            check(any(s["session_id"] == session_id for s in listed), "the new session is listed")
            done = await call(session, "finalize", {"session_id": session_id, "status": "passed", "summary": "ok"})
            check(done["report_path"].endswith(".md"), f"finalize: {done}")
            signature = await call(session, "compute_signature", {"stack": STACK, "kind": "java"})
            check(re.fullmatch(r"[0-9a-f]{12}", signature["fingerprint"] or ""), f"fingerprint: {signature}")
            check(isinstance(signature["stable"], bool) and signature["top_frames"], f"signature: {signature}")
            analysis = await call(session, "analyze_session", {"session_dir": started["session_dir"]})
            check(analysis["unique"] == 0 and analysis["groups"] == [], f"no crash, no group: {analysis}")


async def check_refusal(url):
    """A wrong token gets no session: the SDK's handshake fails, and the HTTP answer
    underneath is 401 with a Bearer challenge."""
    wrong = "wrong-token-0000000000000000"
    try:
        async with http_client(wrong) as http, streamable_http_client(url, http_client=http) as (r, w):
            async with ClientSession(r, w) as session:
                await asyncio.wait_for(session.initialize(), timeout=10)
    except BaseException:  # noqa: BLE001 - the SDK raises exception groups
        pass
    else:
        raise ContractError("a wrong token was accepted")
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "python-peer", "version": "1"}}}
    async with http_client(wrong) as http:
        answer = await http.post(url, json=initialize, headers={"Accept": "application/json, text/event-stream"})
    check(answer.status_code == 401, f"wrong token answered {answer.status_code}")
    check(answer.headers.get("www-authenticate", "").startswith("Bearer"), "401 without a Bearer challenge")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device-url", required=True)
    parser.add_argument("--report-url", required=True)
    parser.add_argument("--token-env", required=True)
    parser.add_argument("--package", required=True)
    parser.add_argument("--tap-id", required=True)
    parser.add_argument("--input-id", required=True)
    parser.add_argument("--workspace", required=True)
    args = parser.parse_args()
    token = os.environ[args.token_env]
    await check_device_roles(args.device_url, token, args)
    await check_report_and_analyzer(args.report_url, token)
    await check_refusal(args.device_url)
    print("python peer: tool contract ok over streamable HTTP")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except ContractError as e:
        print(f"contract violation: {e}", file=sys.stderr)
        sys.exit(1)
