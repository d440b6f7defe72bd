//! MCP client, replay runner and minimize orchestrator.
