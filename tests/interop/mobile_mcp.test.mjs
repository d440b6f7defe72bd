// Interop check with the public mobile-mcp server (mobile role, docs/design.md §2).
// Run: node --test tests/interop/
// Installs @mobilenext/mobile-mcp into a temp folder; when that is not possible (offline,
// registry refused) the test is skipped with the reason. Needs no device: it checks the
// tool names Whittle calls and that listing devices answers instead of crashing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createInterface } from 'node:readline';

// docs/design.md §2 mobile role; must match whittle_contract::mobile::TOOLS.
const SPEC_MOBILE_TOOLS = [
  'mobile_list_available_devices',
  'mobile_list_apps',
  'mobile_launch_app',
  'mobile_terminate_app',
  'mobile_save_screenshot',
  'mobile_press_button',
];
const INSTALL_TIMEOUT_MS = 240_000;
const CALL_TIMEOUT_MS = 60_000;

function install(dir) {
  const r = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', dir, '@mobilenext/mobile-mcp@latest'],
    { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS },
  );
  if (r.error) return `npm could not run: ${r.error.message}`;
  if (r.status !== 0) return `npm install failed (exit ${r.status}): ${(r.stderr || '').trim().slice(0, 300)}`;
  return null;
}

function entryPoint(dir) {
  const pkgDir = join(dir, 'node_modules', '@mobilenext', 'mobile-mcp');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin ?? {})[0];
  assert.ok(bin, 'mobile-mcp declares a bin');
  return { script: join(pkgDir, bin), version: pkg.version };
}

/** A minimal MCP stdio client: newline-delimited JSON-RPC 2.0. */
function connect(script) {
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const pending = new Map();
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    for (const { reject } of pending.values()) {
      reject(new Error(`mobile-mcp exited (${code ?? signal}); stderr: ${stderr.slice(-500)}`));
    }
    pending.clear();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    let msg;
    try { msg = JSON.parse(line); } catch { return; }
    if (msg.id !== undefined && pending.has(msg.id)) {
      pending.get(msg.id).resolve(msg);
      pending.delete(msg.id);
    }
  });
  let nextId = 1;
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`${method}: no answer in ${CALL_TIMEOUT_MS} ms`));
    }, CALL_TIMEOUT_MS);
    pending.set(id, {
      resolve: (m) => { clearTimeout(timer); resolve(m); },
      reject: (e) => { clearTimeout(timer); reject(e); },
    });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
  const notify = (method, params) =>
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n');
  return { child, request, notify, exited: () => exited };
}

test('mobile-mcp serves the contract mobile tools and lists devices without one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'whittle-mobile-mcp-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const why = install(dir);
  if (why) {
    t.skip(`skipped: cannot install @mobilenext/mobile-mcp (${why})`);
    return;
  }
  const { script, version } = entryPoint(dir);
  t.diagnostic(`mobile-mcp ${version} at ${dirname(script)}`);
  const mcp = connect(script);
  t.after(() => mcp.child.kill());

  const init = await mcp.request('initialize', {
    protocolVersion: '2025-03-26',
    capabilities: {},
    clientInfo: { name: 'whittle-interop-test', version: '0' },
  });
  assert.ok(init.result?.serverInfo, `initialize answered ${JSON.stringify(init)}`);
  mcp.notify('notifications/initialized', {});

  const listed = await mcp.request('tools/list', {});
  const tools = listed.result?.tools ?? [];
  const names = tools.map((x) => x.name);
  for (const name of SPEC_MOBILE_TOOLS) {
    assert.ok(names.includes(name), `mobile-mcp lacks ${name}; it has ${names.join(', ')}`);
  }
  // The argument names Whittle sends (docs/design.md §2) are in mobile-mcp's schemas.
  const schema = (n) => tools.find((x) => x.name === n).inputSchema?.properties ?? {};
  assert.ok('device' in schema('mobile_list_apps'));
  assert.ok('packageName' in schema('mobile_launch_app'));
  assert.ok('packageName' in schema('mobile_terminate_app'));
  assert.ok('saveTo' in schema('mobile_save_screenshot'));
  assert.ok('button' in schema('mobile_press_button'));

  const devices = await mcp.request('tools/call', { name: 'mobile_list_available_devices', arguments: {} });
  assert.equal(mcp.exited(), null, 'mobile-mcp is still running after listing devices');
  assert.ok(devices.result, `a tool result, not a protocol error: ${JSON.stringify(devices)}`);
  const text = devices.result.content?.find((c) => c.type === 'text')?.text ?? '';
  if (devices.result.isError) {
    // No adb / mobilecli on this machine: an error result is an answer, not a crash.
    t.diagnostic(`mobile_list_available_devices reported: ${text.slice(0, 200)}`);
    assert.ok(text.length > 0);
  } else if (text.endsWith('Please fix the issue and try again.')) {
    // mobile-mcp's "actionable error" (e.g. its device tooling is missing) is not flagged
    // isError; it is still an answer.
    t.diagnostic(`mobile_list_available_devices asked to fix: ${text.slice(0, 200)}`);
  } else {
    const parsed = JSON.parse(text);
    assert.ok(Array.isArray(parsed.devices), `devices array in ${text.slice(0, 200)}`);
    t.diagnostic(`mobile_list_available_devices listed ${parsed.devices.length} device(s)`);
  }
});
