"""A coding agent's side of `whittle mcp`, written on the official Python MCP SDK over
stdio: it lists the tools, reads the sessions and a session's plan, minimizes the demo
crash with progress notifications (the SDK checks every answer against the tool's
output schema), reads the run's evidence back and exports it, cancels a second run and
sees it reported cancelled, and checks that no secret of the sessions it was given
reaches any answer or progress message.

Run by crates/whittle-cli/tests/mcp_cli.rs:
    python mcp_agent_client.py --whittle EXE --config WHITTLE_JSON --session ID
        --minimal 1,10,11,12 --leaky-session ID --secret S [--secret S …] --out DIR
Exit status 0 when every check passed ("mcp agent client ok"); otherwise the first
failure is printed.
"""

import argparse
import json
import os
import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

TOOLS = {
    "sessions", "analyze", "minimize", "minimize_all", "resume", "past_runs", "result",
    "screenshot", "ticket_markdown", "export", "verify", "import", "doctor", "devices",
}


class AgentError(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise AgentError(message)


class Agent:
    """One connection; every answer and progress message is kept for the leak check."""

    def __init__(self, session):
        self.session = session
        self.seen = []

    async def call(self, tool, arguments, progress=None):
        result = await self.session.call_tool(tool, arguments, progress_callback=progress)
        self.seen.append(result.model_dump_json())
        return result

    async def answer(self, tool, arguments, progress=None):
        """The structured answer of a call that must succeed; its text block is the same JSON."""
        result = await self.call(tool, arguments, progress)
        check(not result.is_error, f"{tool} failed: {result.content}")
        structured = result.structured_content
        check(isinstance(structured, dict), f"{tool}: structuredContent is not an object")
        texts = [b for b in result.content if getattr(b, "type", None) == "text"]
        check(len(texts) == 1, f"{tool}: expected one text block, got {len(texts)}")
        check(json.loads(texts[0].text) == structured, f"{tool}: the text block differs")
        return structured

    async def runs(self, session_id):
        answer = await self.answer("past_runs", {"session": session_id})
        return [run for crash in answer["crashes"] for run in crash["runs"]]


async def check_tools(agent):
    listed = await agent.session.list_tools()
    names = {t.name for t in listed.tools}
    check(names == TOOLS, f"tools: {sorted(names)}")
    for tool in listed.tools:
        check("untrusted data" in (tool.description or ""), f"{tool.name}: no untrusted-data warning")
        check(tool.output_schema and tool.output_schema.get("type") == "object",
              f"{tool.name}: no object output schema")


async def check_sessions_and_plan(agent, session_id):
    sessions = await agent.answer("sessions", {})
    listed = {s["session_id"]: s for s in sessions["sessions"]}
    check(session_id in listed, f"{session_id} not listed: {sorted(listed)}")
    check([c["crash_id"] for c in listed[session_id]["crashes"]] == ["c1"], "crashes of the session")
    analysis = await agent.answer("analyze", {"session": session_id})
    steps = analysis["crashes"][0]["plan"]["steps"]
    reasons = {s["index"]: s["disposition"].get("reason", {}).get("code") for s in steps}
    # The demo's e-mail step is private data, its password step was redacted when recorded.
    check(reasons[6] == "sensitive" and reasons[7] == "input_redacted", f"skip reasons: {reasons}")
    check(steps[0]["disposition"]["kind"] == "setup", "step 1 is the launch")


async def minimize_demo(agent, session_id, minimal):
    progress = []

    async def on_progress(done, total, message):
        progress.append((done, total, message))
        agent.seen.append(message or "")

    summary = await agent.answer("minimize", {"session": session_id}, on_progress)
    check(summary["status"] == "minimized", f"status: {summary['status']}")
    check(summary["minimal_path"] == minimal, f"minimal path: {summary['minimal_path']}")
    check(len(progress) == summary["attempts"],
          f"{len(progress)} progress notifications for {summary['attempts']} attempts")
    check([p[0] for p in progress] == list(range(1, len(progress) + 1)), "progress counts attempts")
    check(all(p[1] == 30 for p in progress), "progress is out of the budget")
    return summary["evidence_session"]


async def read_evidence(agent, session_id, evidence, minimal, out):
    runs = await agent.runs(session_id)
    mine = [r for r in runs if r["evidence_session"] == evidence]
    check(len(mine) == 1 and mine[0]["outcome"] == "minimized", f"past runs: {runs}")
    result = await agent.answer("result", {"evidence_session": evidence})
    check(result["minimal_path"] == minimal, "result.json's minimal path")
    exported = await agent.answer("export", {"evidence_session": evidence, "out": out})
    bundle = exported["bundle_dir"]
    check(os.path.isfile(os.path.join(bundle, "repro.md")), f"no repro.md in {bundle}")


async def cancel_a_run(agent, session_id, first_evidence):
    """Starts a second run, cancels its request after the first attempt, and waits for
    `past_runs` to report it cancelled (its evidence is finished, not interrupted)."""
    first_attempt = anyio.Event()

    async def on_progress(done, total, message):
        agent.seen.append(message or "")
        first_attempt.set()

    async with anyio.create_task_group() as tasks:
        async def run():
            await agent.call("minimize", {"session": session_id}, on_progress)
            raise AgentError("the cancelled run answered")

        tasks.start_soon(run)
        with anyio.fail_after(60):
            await first_attempt.wait()
        # Cancelling the call makes the SDK send notifications/cancelled.
        tasks.cancel_scope.cancel()

    with anyio.fail_after(60):
        while True:
            runs = [r for r in await agent.runs(session_id) if r["evidence_session"] != first_evidence]
            if runs and runs[0]["outcome"] != "running":
                break
            await anyio.sleep(0.1)
    check(len(runs) == 1 and runs[0]["outcome"] == "cancelled", f"second run: {runs}")


async def check_refusal(agent):
    result = await agent.call("analyze", {"session": "../outside"})
    check(result.is_error, "a path is refused as a session id")
    check(result.structured_content.get("exit") == 3, f"refusal: {result.structured_content}")


async def read_leaky_session(agent, leaky):
    """A session whose recorder kept a redacted step's value: analyzed, minimized and its
    evidence read back, so every answer that could carry a step's input is checked."""
    await agent.answer("analyze", {"session": leaky})

    async def on_progress(done, total, message):
        agent.seen.append(message or "")

    summary = await agent.answer("minimize", {"session": leaky}, on_progress)
    check(summary["status"] == "minimized", f"leaky session: {summary['status']}")
    await agent.answer("past_runs", {"session": leaky})
    await agent.answer("result", {"evidence_session": summary["evidence_session"]})
    await agent.answer("sessions", {})


async def main(args):
    params = StdioServerParameters(
        command=args.whittle,
        args=["--config", args.config, "mcp"],
        env={"RUST_LOG": "warn"},
    )
    minimal = [int(i) for i in args.minimal.split(",")]
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            agent = Agent(session)
            await check_tools(agent)
            await check_sessions_and_plan(agent, args.session)
            evidence = await minimize_demo(agent, args.session, minimal)
            await read_evidence(agent, args.session, evidence, minimal, args.out)
            await cancel_a_run(agent, args.session, evidence)
            await check_refusal(agent)
            await read_leaky_session(agent, args.leaky_session)
            seen = "\n".join(agent.seen)
            for secret in args.secret:
                check(secret not in seen, f"a secret reached an answer: {secret!r}")
    print("mcp agent client ok")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--whittle", required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--session", required=True)
    parser.add_argument("--minimal", required=True)
    parser.add_argument("--leaky-session", required=True)
    parser.add_argument("--secret", action="append", default=[])
    parser.add_argument("--out", required=True)
    try:
        anyio.run(main, parser.parse_args())
    except AgentError as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
