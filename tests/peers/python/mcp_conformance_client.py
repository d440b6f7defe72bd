"""A coding agent's side of `whittle mcp` on the official Python MCP SDK, checking that
every answer and every refusal conforms to the tool's declared output schema.

The SDK's `call_tool` validates a successful result's `structuredContent` against the
tool's output schema, and skips errors; so each refusal (`isError`) is validated here
with the SDK's own `ClientSession.validate_tool_result`, the check `call_tool` runs. It
lists the tools (title, annotations, output schemas, input bounds), calls every tool once
with success (minimizing the demo crash, exporting and verifying its evidence, reading its
pictures and files with resources/read), then every refusal
of ../mcp_conformance.json, and checks each is a typed refusal that names the tool to
call to recover and no path of the workspace. The same cases are run on the TypeScript
SDK by ../typescript/mcp_conformance_client.mjs.

Run by crates/whittle-cli/tests/cli/mcp_conformance_cli.rs:
    python mcp_conformance_client.py --whittle EXE --config WHITTLE_JSON --root DEMO_DIR
        [--broken-config WHITTLE_JSON]
Exit status 0 when every check passed (its last line "python mcp conformance ok: …");
otherwise the first failure is printed.
"""

import argparse
import json
import os
import re
import sys

import anyio
from mcp import types
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from mcp.client.stdio import StdioServerParameters, stdio_client

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "mcp_conformance.json"), encoding="utf-8") as f:
    EXPECT = json.load(f)
HINTS = {
    "readOnlyHint": "read_only_hint",
    "destructiveHint": "destructive_hint",
    "idempotentHint": "idempotent_hint",
    "openWorldHint": "open_world_hint",
}


class Failed(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


def check_tools(tools):
    names = sorted(t.name for t in tools)
    check(names == sorted(EXPECT["tools"]), f"tools: {names}")
    for tool in tools:
        check(bool(tool.title), f"{tool.name}: no title")
        annotations = tool.annotations
        check(annotations is not None, f"{tool.name}: no annotations")
        for hint, attribute in HINTS.items():
            got = getattr(annotations, attribute)
            want = EXPECT["tools"][tool.name][hint]
            check(got is want, f"{tool.name}: {hint} is {got}, expected {want}")
        output = tool.output_schema or {}
        check(output.get("type") == "object", f"{tool.name}: the output schema's root is not an object")
        properties = tool.input_schema.get("properties", {})
        for field in EXPECT["minimum_one"].get(tool.name, []):
            check(properties.get(field, {}).get("minimum") == 1, f"{tool.name}.{field}: not minimum 1")


def fill(value, variables):
    if isinstance(value, str):
        return re.sub(r"\$\{(\w+)\}", lambda m: variables[m.group(1)], value)
    if isinstance(value, list):
        return [fill(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, variables) for k, v in value.items()}
    return value


async def check_schemas_are_not_vacuous(session):
    """Objects that are neither an answer nor a refusal fail the SDK's validation, and
    a bare refusal passes it, for every tool."""
    for tool in EXPECT["tools"]:
        for bad in [{}, {"status": "refused"}, {"status": "refused", "error": 1, "exit": 3}]:
            fake = types.CallToolResult(content=[], structured_content=bad, is_error=True)
            try:
                await session.validate_tool_result(tool, fake)
            except RuntimeError:
                continue
            raise Failed(f"{tool}: the output schema accepts {bad}")
        refusal = {"status": "refused", "error": "e", "exit": 3}
        fake = types.CallToolResult(content=[], structured_content=refusal, is_error=True)
        await session.validate_tool_result(tool, fake)


class Agent:
    def __init__(self, session):
        self.session = session

    async def call(self, tool, arguments, progress=None):
        """Calls `tool`; its one text block is the same JSON as its structured content,
        which validates against the tool's output schema (errors included)."""
        result = await self.session.call_tool(tool, arguments, progress_callback=progress)
        structured = result.structured_content
        check(isinstance(structured, dict), f"{tool}: structuredContent is not an object")
        texts = [b for b in result.content if getattr(b, "type", None) == "text"]
        check(len(texts) == 1, f"{tool}: {len(texts)} text blocks")
        check(json.loads(texts[0].text) == structured, f"{tool}: the text block differs")
        try:
            # What `call_tool` runs on a success, run on refusals too.
            await self.session.validate_tool_result(tool, result)
        except RuntimeError as e:
            raise Failed(f"{tool} {arguments}: {e}") from e
        return result

    async def answer(self, tool, arguments, progress=None):
        result = await self.call(tool, arguments, progress)
        check(not result.is_error, f"{tool} {arguments} failed: {result.structured_content}")
        return result.structured_content

    async def refusal(self, expected, variables):
        arguments = fill(expected["arguments"], variables)
        result = await self.call(expected["tool"], arguments)
        got = result.structured_content
        what = f"{expected['name']}: {json.dumps(got)}"
        check(result.is_error, f"{expected['name']}: not an error")
        check(got["status"] == expected["status"], what)
        check(isinstance(got["exit"], int), what)
        check((got.get("cause") or {}).get("kind") == expected.get("cause"), f"cause: {what}")
        folder = (got.get("folder_refused") or {}).get("problem")
        check(folder == expected.get("folder_refused"), f"folder: {what}")
        if "error_names" in expected:
            check(expected["error_names"] in got["error"], f"the error names no {expected['error_names']}: {what}")
        if not expected.get("names_paths"):
            check(variables["root"] not in got["error"], f"the error names a path: {what}")
            check(variables["root"] not in json.dumps(got.get("cause")), f"the cause names a path: {what}")


def server(args, config):
    return StdioServerParameters(
        command=args.whittle,
        args=["--config", config, "mcp"],
        env={"RUST_LOG": "warn", "PATH": os.environ.get("PATH", "")},
    )


async def main(args):
    session_id = EXPECT["session"]
    exports = os.path.join(args.root, "workspace", "exports")
    answers = refusals = 0
    async with stdio_client(server(args, args.config)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            check_tools((await session.list_tools()).tools)
            await check_schemas_are_not_vacuous(session)
            agent = Agent(session)
            sessions = await agent.answer("sessions", {})
            check(any(s["session_id"] == session_id for s in sessions["sessions"]), f"{session_id} not listed")
            await agent.answer("analyze", {"session": session_id})
            progress = []

            async def on_progress(done, total, message):
                progress.append(done)

            summary = await agent.answer("minimize", {"session": session_id}, on_progress)
            check(summary["status"] == "minimized", f"minimize: {summary['status']}")
            check(len(progress) == summary["attempts"], "a progress notification per attempt")
            evidence = summary["evidence_session"]
            runs = await agent.answer("past_runs", {"session": session_id})
            check(any(r["evidence_session"] == evidence for r in runs["crashes"][0]["runs"]), "past_runs")
            result = await agent.answer("result", {"evidence_session": evidence})
            check(result["minimal_path"] == summary["minimal_path"], "result.json")
            exported = await agent.answer(
                "export", {"evidence_session": evidence, "out": exports, "name": "conformance"}
            )
            check(exported["bundle_dir"] == os.path.join(exports, "conformance"), f"bundle: {exported}")
            answers += 6
            # The other tools' answers, and the run's pictures and files as resources.
            bundle = exported["bundle_dir"]
            check((result.get("next") or {}).get("command") == f"whittle approve {evidence}", f"next: {result.get('next')}")
            picture = next(p for p in result["pictures"] if p.get("uri") and p.get("frame") is None)
            shot = await agent.call("screenshot", {"evidence_session": evidence, "attempt": picture["attempt"]})
            check(not shot.is_error and shot.structured_content["review"] == "not_reviewed", f"screenshot: {shot.structured_content}")
            check(any(getattr(b, "type", None) == "image" and b.mime_type == "image/png" for b in shot.content), "an image block")
            ticket = await agent.answer("ticket_markdown", {"evidence_session": evidence})
            verified = await agent.answer("verify", {"bundle": bundle, "runs": 1})
            check(verified["verdict"] == "proven", f"verify: {verified}")
            await agent.answer("doctor", {})
            devices = await agent.answer("devices", {})
            check(len(devices["devices"]) > 0, "devices")
            imported = await agent.answer("import", {"format": "maestro", "file": os.path.join(bundle, "repro.maestro.yaml")})
            check(bool(imported["session_id"]), "import: a session id")
            everything = await agent.answer("minimize_all", {"session": session_id})
            check(len(everything["entries"]) == 1, f"minimize_all: {everything}")
            answers += 7
            templates = (await session.list_resource_templates()).resource_templates
            check(len(templates) == 4, f"{len(templates)} resource templates")
            png = (await session.read_resource(picture["uri"])).contents[0]
            check(png.mime_type == "image/png" and bool(png.blob), "a picture reads as a PNG")
            repro = (await session.read_resource(result["files"][0]["uri"])).contents[0]
            check(repro.text == ticket["markdown"], "repro.md reads as the ticket text")
            try:
                await session.read_resource(f"whittle://evidence/{evidence}/result.json")
            except MCPError as e:
                check(args.root not in str(e), f"the error names a path: {e}")
            else:
                raise Failed("a URI that is not a picture or a bundle file was read")
            variables = {"evidence": evidence, "exports": exports, "bundle": bundle, "root": args.root}
            for expected in EXPECT["refusals"]:
                await agent.refusal(expected, variables)
                refusals += 1
    if args.broken_config:
        async with stdio_client(server(args, args.broken_config)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                check_tools((await session.list_tools()).tools)
                await Agent(session).refusal(EXPECT["broken_servers"], {"root": args.root})
                refusals += 1
    print(f"python mcp conformance ok: {answers} answers and {refusals} refusals validated")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--whittle", required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--broken-config")
    try:
        anyio.run(main, parser.parse_args())
    except Failed as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
