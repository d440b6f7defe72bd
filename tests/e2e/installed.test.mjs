// The installed app, as a tester gets it: the .deb unpacked into a scratch root
// (`dpkg -x`, no root needed), its binary started under Xvfb with an empty HOME and no
// Whittle variables. The first-run screen must show the bundled demo's sessions, and the
// config, the demo copy and the log file must be where the OS keeps them.
//
// Needs the .deb built by `scripts/bundle --debug` (scripts/e2e does it) and dpkg.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { byTestId, openWindow } from "./webdriver.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const debDir = resolve(process.env.CARGO_TARGET_DIR ?? join(repo, "target"), "debug/bundle/deb");
const artifacts = join(repo, "tests/e2e/artifacts");
const port = Number(process.env.E2E_INSTALLED_DRIVER_PORT ?? 4554);

const scratch = mkdtempSync(join(tmpdir(), "whittle-installed-"));
// Tauri finds an unpacked package's resources next to `…/data/usr/bin`, as in a .deb.
const root = join(scratch, "data");
const home = join(scratch, "home");
const app = join(root, "usr/bin/whittle-app");
let w;
let opened;

before(async () => {
  const debs = existsSync(debDir) ? readdirSync(debDir).filter((f) => f.endsWith(".deb")) : [];
  assert.equal(debs.length, 1, `expected one .deb in ${debDir} (run scripts/bundle --debug)`);
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  execFileSync("dpkg", ["-x", join(debDir, debs[0]), root]);
  assert.ok(existsSync(app), "the package installs usr/bin/whittle-app");
  // Only what a desktop session provides: no WHITTLE_* variables, no source tree.
  const env = {
    PATH: "/usr/bin:/bin",
    HOME: home,
    LANG: "C.UTF-8",
    DISPLAY: process.env.DISPLAY ?? "",
    XAUTHORITY: process.env.XAUTHORITY ?? "",
  };
  const requested = Date.now();
  w = await openWindow({ app, env, port, artifacts });
  opened = requested;
});

// The unpacked package is 200 MB: a run leaves none of it behind.
after(async () => {
  await w?.close("installed-window.png");
  rmSync(scratch, { recursive: true, force: true });
});

test("the installed package carries the desktop entry, the sidecars and the demo", () => {
  const desktop = readFileSync(join(root, "usr/share/applications/Whittle.desktop"), "utf8");
  assert.match(desktop, /^Exec=whittle-app$/m);
  assert.match(desktop, /^Terminal=false$/m);
  for (const bin of ["whittle-servers", "whittle"]) assert.ok(existsSync(join(root, "usr/bin", bin)), bin);
  assert.ok(existsSync(join(root, "usr/lib/Whittle/demo/shop.json")));
  assert.ok(existsSync(join(root, "usr/share/icons/hicolor/128x128/apps/whittle-app.png")));
});

test("a first start with an empty HOME sets up the demo and lists its sessions", async () => {
  const bundled = readdirSync(join(root, "usr/lib/Whittle/demo/workspace/sessions"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  assert.ok(bundled.length >= 3, "the bundle holds the demo sessions");
  const options = await w.waitFor("the demo sessions", async () => {
    const found = await w.find('[role="listbox"] [role="option"]');
    return found.length === bundled.length ? found : null;
  });
  const firstList = Date.now() - opened;
  const ids = await Promise.all(options.map((o) => w.attribute(o, "data-session-id")));
  assert.deepEqual(ids.sort(), bundled);

  const banner = await w.textOf(await w.one(byTestId("first-run"), "the first-run line"));
  const demo = join(home, ".local/share/whittle/demo");
  assert.ok(banner.includes(demo), `the first-run line names the demo copy: ${banner}`);
  assert.ok(await w.one(byTestId("open-own-workspace")));
  assert.ok(await w.one(byTestId("connect-device")));

  const config = JSON.parse(readFileSync(join(home, ".config/whittle/whittle.json"), "utf8"));
  assert.equal(config.workspace, join(demo, "workspace"));
  assert.equal(config.roles.mobile, "sim");
  const logs = join(home, ".local/state/whittle/logs");
  assert.ok(readdirSync(logs).some((f) => /^whittle.*\.log$/.test(f)), `a log file in ${logs}`);

  // Cold start, for the performance notes: the page's own first paint, and the time from
  // asking WebDriver for the window to the session list on screen.
  const paint = await w.exec(
    `const p = performance.getEntriesByName("first-contentful-paint")[0] ?? performance.getEntriesByType("paint")[0];
     return p ? Math.round(p.startTime) : null;`,
  );
  console.log(`cold start: first paint ${paint ?? "n/a"} ms after navigation; session list after ${firstList} ms`);
  await w.saveScreenshot("installed-first-run.png");
});
