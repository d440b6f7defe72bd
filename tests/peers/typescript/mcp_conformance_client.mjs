// A coding agent's side of `whittle mcp`, on the official TypeScript MCP SDK
// (@modelcontextprotocol/sdk, pinned in package-lock.json) over stdio. The SDK's
// `Client.callTool` validates any `structuredContent` against the tool's declared output
// schema — refusals (`isError`) included — and throws -32602 on a mismatch; so every
// call below goes through `callTool`, and each answer is checked once more with the
// SDK's own Ajv validator (the one `callTool` uses), which must also reject objects that
// are neither an answer nor a refusal.
//
// It lists the tools (title, annotations, output schemas, input bounds), calls every
// tool once with success (minimizing the demo crash, exporting and verifying its
// evidence, reading its pictures and files with resources/read), then
// every refusal of ../mcp_conformance.json, and checks each is a typed refusal that
// names the tool to call to recover and no path of the workspace.
//
// Run by crates/whittle-cli/tests/cli/mcp_conformance_cli.rs:
//   node mcp_conformance_client.mjs --whittle EXE --config WHITTLE_JSON --root DEMO_DIR
//     [--broken-config WHITTLE_JSON]
// Exit status 0 when every check passed (its last line "ts mcp conformance ok: …");
// otherwise the first failure is printed.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

const HERE = new URL('.', import.meta.url).pathname;
const EXPECT = JSON.parse(readFileSync(join(HERE, '..', 'mcp_conformance.json'), 'utf8'));
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

class Failed extends Error {}

function check(condition, message) {
  if (!condition) throw new Failed(message);
}

// Ajv warns on stderr about rmcp's integer formats (uint32, …); those are annotations,
// not constraints, and do not change what validates.
async function quiet(work) {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return await work();
  } finally {
    console.warn = warn;
  }
}

function quietly(work) {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return work();
  } finally {
    console.warn = warn;
  }
}

/** One connection to `whittle --config CONFIG mcp`. */
async function connect(whittle, config) {
  const transport = new StdioClientTransport({
    command: whittle,
    args: ['--config', config, 'mcp'],
    env: { ...process.env, RUST_LOG: 'warn' },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'whittle-ts-conformance', version: '1.0.0' });
  await client.connect(transport);
  // Listing caches each tool's output validator: from here on callTool validates.
  const { tools } = await quiet(() => client.listTools());
  return { client, tools };
}

/** Checks the listing: every tool titled, annotated truthfully, its output an object
 * schema that declares the refusal, its counts bounded as the server bounds them. */
function checkTools(tools, validator) {
  const names = tools.map((t) => t.name).sort();
  check(
    JSON.stringify(names) === JSON.stringify(Object.keys(EXPECT.tools).sort()),
    `tools: ${names}`,
  );
  const schemas = {};
  for (const tool of tools) {
    check(typeof tool.title === 'string' && tool.title.length > 0, `${tool.name}: no title`);
    for (const hint of HINTS) {
      check(
        tool.annotations?.[hint] === EXPECT.tools[tool.name][hint],
        `${tool.name}: ${hint} is ${tool.annotations?.[hint]}, expected ${EXPECT.tools[tool.name][hint]}`,
      );
    }
    const output = tool.outputSchema;
    check(output?.type === 'object', `${tool.name}: the output schema's root is not an object`);
    const validate = quietly(() => validator.getValidator(output));
    // Neither an answer nor a refusal: the schema is not vacuous.
    for (const bad of [{}, { status: 'refused' }, { status: 'refused', error: 1, exit: 3 }]) {
      check(!validate(bad).valid, `${tool.name}: the output schema accepts ${JSON.stringify(bad)}`);
    }
    check(
      validate({ status: 'refused', error: 'e', exit: 3 }).valid,
      `${tool.name}: the output schema does not declare the refusal`,
    );
    schemas[tool.name] = validate;
    const properties = tool.inputSchema.properties ?? {};
    for (const field of EXPECT.minimum_one[tool.name] ?? []) {
      check(properties[field]?.minimum === 1, `${tool.name}.${field}: minimum is ${properties[field]?.minimum}`);
    }
    for (const [field, schema] of Object.entries(properties)) {
      if (schema.minimum === 0) {
        check(
          !(EXPECT.minimum_one[tool.name] ?? []).includes(field),
          `${tool.name}.${field} says minimum 0`,
        );
      }
    }
  }
  return schemas;
}

/** Calls `tool` through `callTool` (which validates) and checks its one text block is
 * the same JSON as its structured content, which the Ajv validator accepts. */
async function call(session, tool, args, options) {
  let result;
  try {
    result = await quiet(() =>
      session.client.callTool({ name: tool, arguments: args }, undefined, options),
    );
  } catch (e) {
    throw new Failed(`${tool} ${JSON.stringify(args)}: callTool threw: ${e.message}`);
  }
  const structured = result.structuredContent;
  check(structured && typeof structured === 'object', `${tool}: no structuredContent`);
  const texts = result.content.filter((b) => b.type === 'text');
  check(texts.length === 1, `${tool}: ${texts.length} text blocks`);
  check(
    JSON.stringify(JSON.parse(texts[0].text)) === JSON.stringify(structured),
    `${tool}: the text block differs from structuredContent`,
  );
  const verdict = session.schemas[tool](structured);
  check(verdict.valid, `${tool}: ${verdict.errorMessage}`);
  return result;
}

async function answer(session, tool, args, options) {
  const result = await call(session, tool, args, options);
  check(!result.isError, `${tool} ${JSON.stringify(args)} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}

function fill(value, vars) {
  if (typeof value === 'string') {
    return value.replace(/\$\{(\w+)\}/g, (_, name) => vars[name]);
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  }
  return value;
}

/** One refusal of the case list: typed, validated, naming the way to recover. */
async function refusal(session, expected, vars) {
  const args = fill(expected.arguments, vars);
  const result = await call(session, expected.tool, args);
  const got = result.structuredContent;
  const what = `${expected.name}: ${JSON.stringify(got)}`;
  check(result.isError === true, `${expected.name}: not an error`);
  check(got.status === expected.status, what);
  check(Number.isInteger(got.exit), what);
  check((got.cause?.kind ?? null) === (expected.cause ?? null), `cause: ${what}`);
  check((got.folder_refused?.problem ?? null) === (expected.folder_refused ?? null), `folder: ${what}`);
  if (expected.error_names) {
    check(got.error.includes(expected.error_names), `the error names no ${expected.error_names}: ${what}`);
  }
  if (!expected.names_paths) {
    check(!got.error.includes(vars.root), `the error names a path: ${what}`);
    check(!JSON.stringify(got.cause ?? {}).includes(vars.root), `the cause names a path: ${what}`);
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      whittle: { type: 'string' },
      config: { type: 'string' },
      root: { type: 'string' },
      'broken-config': { type: 'string' },
    },
  });
  const validator = new AjvJsonSchemaValidator();
  const { client, tools } = await connect(values.whittle, values.config);
  const session = { client, schemas: checkTools(tools, validator) };
  const id = EXPECT.session;
  const exports = join(values.root, 'workspace', 'exports');
  let answers = 0;
  let refusals = 0;

  const sessions = await answer(session, 'sessions', {});
  check(sessions.sessions.some((s) => s.session_id === id), `${id} not listed`);
  const analysis = await answer(session, 'analyze', { session: id });
  check(analysis.crashes[0].plan.steps[0].disposition.kind === 'setup', 'step 1 is the launch');
  let progress = 0;
  const summary = await answer(session, 'minimize', { session: id }, {
    onprogress: () => {
      progress += 1;
    },
    timeout: 120_000,
  });
  check(summary.status === 'minimized', `minimize: ${summary.status}`);
  check(progress === summary.attempts, `${progress} progress notifications for ${summary.attempts} attempts`);
  const evidence = summary.evidence_session;
  const runs = await answer(session, 'past_runs', { session: id });
  check(runs.crashes[0].runs.some((r) => r.evidence_session === evidence), 'past_runs lists the run');
  const result = await answer(session, 'result', { evidence_session: evidence });
  check(JSON.stringify(result.minimal_path) === JSON.stringify(summary.minimal_path), 'result.json');
  const exported = await answer(session, 'export', { evidence_session: evidence, out: exports, name: 'conformance' });
  check(exported.bundle_dir === join(exports, 'conformance'), `bundle: ${exported.bundle_dir}`);
  answers += 6;

  // The other tools' answers, and the run's pictures and files as resources.
  const bundle = exported.bundle_dir;
  check(result.next?.command === `whittle approve ${evidence}`, `result.next: ${JSON.stringify(result.next)}`);
  const picture = result.pictures.find((p) => p.uri && p.frame == null);
  check(picture, 'result lists a screenshot');
  const shot = await call(session, 'screenshot', { evidence_session: evidence, attempt: picture.attempt });
  check(!shot.isError && shot.structuredContent.review === 'not_reviewed', `screenshot: ${JSON.stringify(shot.structuredContent)}`);
  check(shot.content.some((b) => b.type === 'image' && b.mimeType === 'image/png'), 'screenshot: an image block');
  const ticket = await answer(session, 'ticket_markdown', { evidence_session: evidence });
  const verified = await answer(session, 'verify', { bundle, runs: 1 }, { timeout: 120_000 });
  check(verified.verdict === 'proven', `verify: ${verified.verdict}`);
  await answer(session, 'doctor', {}, { timeout: 120_000 });
  const devices = await answer(session, 'devices', {});
  check(devices.devices.length > 0, 'devices');
  const imported = await answer(session, 'import', { format: 'maestro', file: join(bundle, 'repro.maestro.yaml') });
  check(imported.session_id, 'import: a session id');
  const all = await answer(session, 'minimize_all', { session: id }, { timeout: 120_000 });
  check(all.entries.length === 1, `minimize_all: ${all.entries.length} entries`);
  answers += 7;
  const { resourceTemplates } = await client.listResourceTemplates();
  check(resourceTemplates.length === 4, `${resourceTemplates.length} resource templates`);
  const png = await client.readResource({ uri: picture.uri });
  check(png.contents[0].mimeType === 'image/png' && png.contents[0].blob, 'a picture reads as a PNG');
  const repro = await client.readResource({ uri: result.files[0].uri });
  check(repro.contents[0].text === ticket.markdown, 'repro.md reads as the ticket text');
  let unread = false;
  try {
    await client.readResource({ uri: `whittle://evidence/${evidence}/result.json` });
  } catch (e) {
    unread = !String(e.message).includes(values.root);
  }
  check(unread, 'a URI that is not a picture or a bundle file is refused, naming no path');

  const vars = { evidence, exports, bundle, root: values.root };
  for (const expected of EXPECT.refusals) {
    await refusal(session, expected, vars);
    refusals += 1;
  }
  await client.close();

  if (values['broken-config']) {
    const broken = await connect(values.whittle, values['broken-config']);
    const brokenSession = { client: broken.client, schemas: checkTools(broken.tools, validator) };
    await refusal(brokenSession, EXPECT.broken_servers, vars);
    refusals += 1;
    await broken.client.close();
  }
  console.log(`ts mcp conformance ok: ${answers} answers and ${refusals} refusals validated`);
}

main().catch((e) => {
  console.error(`FAILED: ${e instanceof Failed ? e.message : e.stack}`);
  process.exit(1);
});
