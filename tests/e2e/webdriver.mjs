// The real window over W3C WebDriver: tauri-driver (which runs WebKitWebDriver) started
// with the environment the app should see, one session on the given binary, and the few
// commands the tests use. Plain fetch, no client library.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

// The W3C web element identifier key.
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
export const byTestId = (id) => `[data-testid="${id}"]`;
export const elementId = (el) => el[ELEMENT];

function tauriDriverPath() {
  const inCargo = join(homedir(), ".cargo/bin/tauri-driver");
  return existsSync(inCargo) ? inCargo : "tauri-driver";
}

/** Starts tauri-driver on `port` (and `port + 1` for the native driver) with `env`, then
 *  opens `app`. `artifacts` is where `saveScreenshot` writes. */
export async function openWindow({ app, env, port, artifacts }) {
  const base = `http://127.0.0.1:${port}`;
  let log = "";
  let sessionId;
  const driver = spawn(tauriDriverPath(), ["--port", String(port), "--native-port", String(port + 1)], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so closing ends WebKitWebDriver and the app with it.
    detached: true,
  });
  driver.stdout.on("data", (d) => (log += d));
  driver.stderr.on("data", (d) => (log += d));
  driver.on("error", (err) => (log += `spawn failed: ${err.message}\n`));

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
    throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ""}\ntauri-driver log:\n${log}`);
  }

  const s = (path) => `/session/${sessionId}${path}`;
  const w = {
    wd,
    waitFor,
    sessionPath: s,
    find: (css) => wd("POST", s("/elements"), { using: "css selector", value: css }),
    textOf: (el) => wd("GET", s(`/element/${elementId(el)}/text`)),
    attribute: (el, name) => wd("GET", s(`/element/${elementId(el)}/attribute/${name}`)),
    click: (el) => wd("POST", s(`/element/${elementId(el)}/click`), {}),
    /** A real pointer's click `dx`, `dy` CSS pixels from the element's centre (W3C actions). */
    async clickAt(el, dx, dy) {
      const origin = { [ELEMENT]: elementId(el) };
      await wd("POST", s("/actions"), {
        actions: [
          {
            type: "pointer",
            id: "mouse",
            parameters: { pointerType: "mouse" },
            actions: [
              { type: "pointerMove", origin, x: Math.round(dx), y: Math.round(dy) },
              { type: "pointerDown", button: 0 },
              { type: "pointerUp", button: 0 },
            ],
          },
        ],
      });
      await wd("DELETE", s("/actions"));
    },
    /**
     * Real key presses to the focused element (W3C key actions), in order: each entry
     * is a key ("\uE004" is Tab, "\uE007" Enter) or an array pressed together.
     */
    async keys(...presses) {
      const actions = [];
      for (const press of presses) {
        const chord = Array.isArray(press) ? press : [press];
        for (const value of chord) actions.push({ type: "keyDown", value });
        for (const value of [...chord].reverse()) actions.push({ type: "keyUp", value });
      }
      await wd("POST", s("/actions"), { actions: [{ type: "key", id: "keyboard", actions }] });
      await wd("DELETE", s("/actions"));
    },
    exec: (script, args = []) => wd("POST", s("/execute/sync"), { script, args }),
    async one(css, what = css, timeoutMs) {
      return waitFor(what, async () => (await w.find(css))[0], timeoutMs);
    },
    async typeInto(el, text) {
      await wd("POST", s(`/element/${elementId(el)}/clear`), {});
      await wd("POST", s(`/element/${elementId(el)}/value`), { text });
    },
    async saveScreenshot(name) {
      const png = await wd("GET", s("/screenshot"));
      mkdirSync(artifacts, { recursive: true });
      writeFileSync(join(artifacts, name), Buffer.from(png, "base64"));
    },
    /** Ends the window and the driver (also after a failure). */
    async close(finalScreenshot) {
      if (sessionId) {
        if (finalScreenshot) await w.saveScreenshot(finalScreenshot).catch((e) => console.error(`no screenshot: ${e.message}`));
        await wd("DELETE", s("")).catch(() => {});
      }
      const group = (signal) => {
        try {
          process.kill(-driver.pid, signal);
        } catch {
          // The group is already gone.
        }
      };
      if (driver.exitCode === null && driver.signalCode === null) {
        group("SIGTERM");
        await new Promise((r) => {
          const t = setTimeout(r, 3000);
          driver.on("exit", () => {
            clearTimeout(t);
            r();
          });
        });
      }
      // A window that did not quit with its session (it inherited the driver's pipes)
      // must not outlive the test, nor keep this process waiting on those pipes.
      group("SIGKILL");
      driver.stdout.destroy();
      driver.stderr.destroy();
    },
  };
  await waitFor("tauri-driver to listen", () => wd("GET", "/status").then(() => true), 20_000);
  const created = await wd("POST", "/session", {
    capabilities: { alwaysMatch: { "tauri:options": { application: app } } },
  });
  sessionId = created.sessionId;
  return w;
}
