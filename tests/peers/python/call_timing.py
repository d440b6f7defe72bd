"""Another client for the same server: the official Python SDK's streamable HTTP client
times one tool call, so Whittle's own per-call cost against a foreign server can be
compared with a client it did not write (crates/whittle-service/benches/lab.rs).

Run: python call_timing.py URL TOOL REPS
Prints one line: the median milliseconds of REPS calls of TOOL (no arguments), after
the handshake and one warm-up call.
"""

import statistics
import sys
import time

import anyio
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(url, tool, reps):
    async with streamable_http_client(url) as (read, write, *_):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool(tool, {})
            times = []
            for _ in range(reps):
                start = time.perf_counter()
                await session.call_tool(tool, {})
                times.append((time.perf_counter() - start) * 1000)
    print(f"{statistics.median(times):.3f}")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2], int(sys.argv[3]))
