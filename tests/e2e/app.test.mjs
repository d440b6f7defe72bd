// One real-window test: the built app under Xvfb, driven over W3C WebDriver through
// tauri-driver (which runs WebKitWebDriver). Plain fetch, no client library.
//
// Needs: target/debug/whittle-app built with `--features custom-protocol` after
// `npm run build` in ui/, tauri-driver on PATH or in ~/.cargo/bin, an X display
// (run under `xvfb-run -a`). `scripts/e2e` does all of that.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const app = resolve(process.env.CARGO_TARGET_DIR ?? join(repo, "target"), "debug/whittle-app");
const workspace = resolve(process.env.WHITTLE_WORKSPACE || join(repo, "demo/workspace"));
const malformedId = process.env.E2E_MALFORMED_SESSION ?? "2026-05-16_120000_broken-export";
const showcaseId = process.env.E2E_SHOWCASE_SESSION ?? "2026-05-14_160354_checkout-npe";
const artifacts = join(repo, "tests/e2e/artifacts");
// Off the default 4444/4445 so a developer's own driver does not collide with the test.
const port = Number(process.env.E2E_DRIVER_PORT ?? 4544);
const nativePort = port + 1;
const base = `http://127.0.0.1:${port}`;

let driver;
let driverLog = "";
let sessionId;

function tauriDriverPath() {
  const inCargo = join(homedir(), ".cargo/bin/tauri-driver");
  return existsSync(inCargo) ? inCargo : "tauri-driver";
}

async function wd(method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    throw new Error(`WebDriver ${method} ${path} → ${res.status}: ${JSON.stringify(json.value ?? json)}`);
  }
  return json.value;
}

// The W3C web element identifier key.
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
const find = (css) => wd("POST", `/session/${sessionId}/elements`, { using: "css selector", value: css });
const elementId = (el) => el[ELEMENT];
const textOf = (el) => wd("GET", `/session/${sessionId}/element/${elementId(el)}/text`);

async function waitFor(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ""}\ntauri-driver log:\n${driverLog}`);
}

before(async () => {
  assert.ok(existsSync(app), `build the app first (scripts/e2e): ${app} is missing`);
  assert.ok(existsSync(join(workspace, "sessions")), `no sessions folder in ${workspace}`);
  driver = spawn(tauriDriverPath(), ["--port", String(port), "--native-port", String(nativePort)], {
    env: { ...process.env, WHITTLE_WORKSPACE: workspace },
    stdio: ["ignore", "pipe", "pipe"],
  });
  driver.stdout.on("data", (d) => (driverLog += d));
  driver.stderr.on("data", (d) => (driverLog += d));
  driver.on("error", (err) => (driverLog += `spawn failed: ${err.message}\n`));
  await waitFor("tauri-driver to listen", () => wd("GET", "/status").then(() => true), 20_000);
  const created = await wd("POST", "/session", {
    capabilities: { alwaysMatch: { "tauri:options": { application: app } } },
  });
  sessionId = created.sessionId;
});

after(async () => {
  // The window as the test left it (also on failure), then always end window and driver.
  if (sessionId) {
    try {
      const png = await wd("GET", `/session/${sessionId}/screenshot`);
      mkdirSync(artifacts, { recursive: true });
      writeFileSync(join(artifacts, "window.png"), Buffer.from(png, "base64"));
    } catch (err) {
      console.error(`no screenshot: ${err.message}`);
    }
    await wd("DELETE", `/session/${sessionId}`).catch(() => {});
  }
  if (driver && driver.exitCode === null) {
    driver.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(() => {
        driver.kill("SIGKILL");
        r();
      }, 3000);
      driver.on("exit", () => {
        clearTimeout(t);
        r();
      });
    });
  }
});

test("the window lists the workspace's sessions and flags the malformed one", async () => {
  const expectedIds = readdirSync(join(workspace, "sessions"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  assert.ok(expectedIds.includes(malformedId), `${malformedId} is not in ${workspace}`);

  const options = await waitFor("the session list", async () => {
    const found = await find('[role="listbox"] [role="option"]');
    return found.length === expectedIds.length ? found : null;
  });
  const texts = await Promise.all(options.map(textOf));
  const byId = {};
  for (const [i, el] of options.entries()) {
    const idAttr = await wd("GET", `/session/${sessionId}/element/${elementId(el)}/attribute/data-session-id`);
    byId[idAttr] = texts[i];
  }
  assert.deepEqual(Object.keys(byId).sort(), expectedIds);

  const [path] = await find("header .path");
  assert.equal(await wd("GET", `/session/${sessionId}/element/${elementId(path)}/attribute/title`), workspace);

  const malformed = byId[malformedId];
  assert.match(malformed, /Malformed/, "the malformed session carries a warning badge");
  const flagged = Object.entries(byId).filter(([, t]) => /Malformed/.test(t)).map(([id]) => id);
  assert.ok(flagged.includes(malformedId));
  assert.ok(flagged.length < expectedIds.length, "well-formed sessions are not flagged");

  // Open the main demo session so the screenshot (README) shows a step path.
  const [showcase] = await find(`[role="option"][data-session-id="${showcaseId}"]`);
  if (showcase) {
    await wd("POST", `/session/${sessionId}/element/${elementId(showcase)}/click`, {});
    const cards = await waitFor("the step path", async () => {
      const found = await find('[aria-label="Step path"] li');
      return found.length > 0 ? found : null;
    });
    const first = await textOf(cards[0]);
    assert.match(first, /Launch/, "the path starts with the launch step");
  }
});
