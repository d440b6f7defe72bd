// One real-window test: the built app under Xvfb, driven over W3C WebDriver through
// tauri-driver (which runs WebKitWebDriver). Plain fetch, no client library.
//
// Needs: target/debug/whittle-app built with `--features custom-protocol` after
// `npm run build` in ui/, tauri-driver on PATH or in ~/.cargo/bin, an X display
// (run under `xvfb-run -a`). `scripts/e2e` does all of that.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { byTestId, openWindow } from "./webdriver.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const app = resolve(process.env.CARGO_TARGET_DIR ?? join(repo, "target"), "debug/whittle-app");
// A scratch copy of the demo (workspace, simulator model, whittle.json): the run writes
// an evidence session and approval writes a sidecar, never into the repository.
const scratch = mkdtempSync(join(tmpdir(), "whittle-e2e-"));
cpSync(join(repo, "demo"), scratch, {
  recursive: true,
  filter: (src) => !/_minimize-|crashes\.minimized\.json/.test(src),
});
const workspace = join(scratch, "workspace");
const config = join(scratch, "whittle.json");
const malformedId = process.env.E2E_MALFORMED_SESSION ?? "2026-05-16_120000_broken-export";
const showcaseId = process.env.E2E_SHOWCASE_SESSION ?? "2026-05-14_160354_checkout-npe";
const artifacts = join(repo, "tests/e2e/artifacts");
// Off the default 4444/4445 so a developer's own driver does not collide with the test.
const port = Number(process.env.E2E_DRIVER_PORT ?? 4544);

let w;
// Bound once the window is open (see before()).
let find, one, textOf, click, typeInto, saveScreenshot, waitFor, exec;

before(async () => {
  assert.ok(existsSync(app), `build the app first (scripts/e2e): ${app} is missing`);
  assert.ok(existsSync(join(workspace, "sessions")), `no sessions folder in ${workspace}`);
  w = await openWindow({
    app,
    port,
    artifacts,
    env: { ...process.env, WHITTLE_WORKSPACE: workspace, WHITTLE_CONFIG: config },
  });
  ({ find, one, textOf, click, typeInto, saveScreenshot, waitFor, exec } = w);
});

// The window as the test left it (also on failure), then always end window and driver.
after(() => w?.close("window.png"));

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
    const idAttr = await w.attribute(el, "data-session-id");
    byId[idAttr] = texts[i];
  }
  assert.deepEqual(Object.keys(byId).sort(), expectedIds);

  const [path] = await find("header .path");
  assert.equal(await w.attribute(path, "title"), workspace);

  const malformed = byId[malformedId];
  assert.match(malformed, /Malformed/, "the malformed session carries a warning badge");
  const flagged = Object.entries(byId).filter(([, t]) => /Malformed/.test(t)).map(([id]) => id);
  assert.ok(flagged.includes(malformedId));
  assert.ok(flagged.length < expectedIds.length, "well-formed sessions are not flagged");

  // Open the main demo session so the screenshot (README) shows a step path.
  const [showcase] = await find(`[role="option"][data-session-id="${showcaseId}"]`);
  if (showcase) {
    await click(showcase);
    const cards = await waitFor("the step path", async () => {
      const found = await find('[aria-label="Step path"] li');
      return found.length > 0 ? found : null;
    });
    const first = await textOf(cards[0]);
    assert.match(first, /Launch/, "the path starts with the launch step");
  }
});

test("a tester minimizes the demo crash in the window, checks the evidence, approves and exports", async () => {
  const [showcase] = await find(`[role="option"][data-session-id="${showcaseId}"]`);
  await click(showcase);
  await saveScreenshot("1-session.png");
  await click(await one(byTestId("minimize-c1"), "the Minimize button of crash c1"));

  // The device picker is filled from the simulator's device list.
  const select = await one(byTestId("device-select"), "the device picker");
  await waitFor("devices in the picker", async () => (await find(`${byTestId("device-select")} option`)).length >= 2);
  assert.ok(select);
  await click(await one(byTestId("start-run")));

  // Live progress: attempts counted against the budget while the run goes on.
  await waitFor("a few attempts", async () => {
    const [attempts] = await find(byTestId("run-attempts"));
    const m = attempts && /(\d+)\s*\/\s*30/.exec(await textOf(attempts));
    return m && Number(m[1]) >= 3;
  }, 120_000);
  await saveScreenshot("2-run.png");

  const confidence = await one(byTestId("result-confidence"), "the result", 240_000);
  assert.match(await textOf(confidence), /high/i);
  // The history is windowed (only rows in view exist); the counter has the total.
  const total = /(\d+)\s*\/\s*30/.exec(await textOf(await one(byTestId("run-attempts"))));
  assert.ok(total && Number(total[1]) >= 10, `a full search takes at least 10 replays (${total?.[0]})`);
  assert.ok((await find(byTestId("history-row"))).length > 0, "the history shows attempts");
  const proof = await find(byTestId("proof-row"));
  assert.equal(proof.length, 3, "one proof row per kept non-launch step (10, 11, 12)");
  await exec(
    `document.querySelector('[data-testid="result-confidence"]').scrollIntoView({ block: "start" });`,
  );
  await new Promise((r) => setTimeout(r, 500)); // let WebKit paint the scrolled page
  await saveScreenshot("3-result.png");

  // The evidence: a masked screenshot in the viewer.
  await click(await one(byTestId("open-screenshot"), "a screenshot button in the history"));
  await one(byTestId("screenshot-viewer"), "the screenshot viewer");
  await waitFor("the image to be decoded", () =>
    exec(
      `const img = document.querySelector('[data-testid="screenshot-viewer"] img');
               return !!img && img.complete && img.naturalWidth > 0 && img.src.startsWith("data:image/png");`,
    ),
  );
  const shown = await exec(
    `const r = document.querySelector('[data-testid="screenshot-viewer"] img').getBoundingClientRect();
             return [r.width, r.height];`,
  );
  assert.ok(shown[0] > 100 && shown[1] > 200, `the screenshot is shown at a readable size (${shown})`);
  // Its pixels are the archived screenshot's (not a blank placeholder): sample the middle.
  const pixel = await exec(
    `const img = document.querySelector('[data-testid="screenshot-viewer"] img');
             const c = document.createElement("canvas");
             c.width = img.naturalWidth; c.height = img.naturalHeight;
             const g = c.getContext("2d"); g.drawImage(img, 0, 0);
             return Array.from(g.getImageData(img.naturalWidth >> 1, img.naturalHeight >> 1, 1, 1).data);`,
  );
  assert.notDeepEqual(pixel.slice(0, 3), [255, 255, 255], `the middle pixel is the screen's, not blank (${pixel})`);
  await new Promise((r) => setTimeout(r, 1000)); // let WebKit paint the decoded image
  await saveScreenshot("4-screenshot.png");
  await click(await one(byTestId("close-viewer")));

  // Approval writes the sidecar next to the original session.
  await click(await one(byTestId("approve")));
  const approved = await one(byTestId("approved-path"), "the written sidecar's path");
  const sidecarPath = join(workspace, "sessions", showcaseId, "crashes.minimized.json");
  assert.match(await textOf(approved), /crashes\.minimized\.json/);
  const sidecar = JSON.parse(readFileSync(sidecarPath, "utf8"));
  assert.deepEqual(sidecar.crashes.c1.minimized_repro_path, [1, 10, 11, 12]);
  assert.equal(sidecar.crashes.c1.minimized_confidence, "high");

  // Export into a chosen folder: a complete bundle with its manifest.
  const exportsDir = join(scratch, "tickets");
  await typeInto(await one(byTestId("export-folder")), exportsDir);
  await click(await one(byTestId("export")));
  const exported = await one(byTestId("exported-path"), "the bundle's path", 60_000);
  const bundle = (await textOf(exported)).trim();
  assert.ok(bundle.startsWith(exportsDir), `${bundle} is inside ${exportsDir}`);
  const manifest = JSON.parse(readFileSync(join(bundle, "manifest.json"), "utf8"));
  assert.ok(Array.isArray(manifest.files) && manifest.files.length > 0, "the manifest lists the files");
  await saveScreenshot("5-approved-exported.png");
});
