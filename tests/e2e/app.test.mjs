// One real-window test: the built app under Xvfb, driven over W3C WebDriver through
// tauri-driver (which runs WebKitWebDriver). Plain fetch, no client library.
//
// Needs: target/debug/whittle-app built with `--features custom-protocol` after
// `npm run build` in ui/, tauri-driver on PATH or in ~/.cargo/bin, an X display
// (run under `xvfb-run -a`). `scripts/e2e` does all of that.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { byTestId, openWindow } from "./webdriver.mjs";
import { readGif } from "./gif.mjs";
import { readPng, regionColours } from "./png.mjs";

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
// The tester's second session of the day (a legacy recording: 4 steps, 1 removable).
const secondId = process.env.E2E_SECOND_SESSION ?? "2026-05-13_170000_legacy-login";
const twoCrashesId = process.env.E2E_TWO_CRASHES_SESSION ?? "2026-05-15_101200_flaky-and-anr";
const artifacts = join(repo, "tests/e2e/artifacts");
// Off the default 4444/4445 so a developer's own driver does not collide with the test.
const port = Number(process.env.E2E_DRIVER_PORT ?? 4544);

let w;
// Bound once the window is open (see before()).
let find, one, textOf, click, clickAt, typeInto, saveScreenshot, waitFor, exec, keys;

async function start() {
  w = await openWindow({
    app,
    port,
    artifacts,
    // Its own web storage (the window's language choice lives there): a developer who
    // chose 简体中文 in their own Whittle gets the English the tests read.
    env: { ...process.env, WHITTLE_WORKSPACE: workspace, WHITTLE_CONFIG: config, XDG_DATA_HOME: join(scratch, "xdg-data") },
  });
  ({ find, one, textOf, click, clickAt, typeInto, saveScreenshot, waitFor, exec, keys } = w);
  // The smallest window the app is designed for: what must be seen must fit it.
  await w.wd("POST", w.sessionPath("/window/rect"), { width: 1280, height: 720 }).catch(() => {});
}

before(async () => {
  assert.ok(existsSync(app), `build the app first (scripts/e2e): ${app} is missing`);
  assert.ok(existsSync(join(workspace, "sessions")), `no sessions folder in ${workspace}`);
  await start();
});

/**
 * Clicks an element after scrolling it into view (rows off screen are not rendered).
 * `target` is an element or a function that finds it again: lazily loaded thumbnails and
 * the windowed history can move a row after the scroll, and WebKit then refuses the click
 * as "not interactable"; the element is found, scrolled to and clicked again until the
 * click lands (a real pointer would simply follow the row).
 */
async function clickInView(target, what = "the element") {
  const locate = typeof target === "function" ? target : async () => target;
  let tries = 0;
  await waitFor(`${what} to take a click`, async () => {
    tries += 1;
    const el = await locate();
    if (!el) return false;
    await exec(`arguments[0].scrollIntoView({ block: "center" });`, [el]);
    await new Promise((r) => setTimeout(r, 300));
    await click(el); // a refused click throws; waitFor tries again and reports the last refusal
    return true;
  });
  if (tries > 1) console.log(`# ${what}: the click landed at try ${tries}`);
}

/** Runs the open session's crash c1 to its end and returns the outcome banner's text. */
async function minimizeOpenSession() {
  await click(await one(byTestId("minimize-c1"), "the Minimize button of crash c1"));
  // Keyboard flow: the focus goes to Start as soon as it can be pressed.
  await waitFor("Start to take the focus", () =>
    exec(`return document.activeElement?.dataset?.testid === "start-run";`),
  );
  await exec(`document.activeElement.click();`);
  const banner = await one(byTestId("outcome-text"), "the outcome banner", 240_000);
  return textOf(banner);
}

/** The outcome banner fits the window without scrolling (1280×720). */
async function bannerInView() {
  const [top, bottom, height, scrolled] = await exec(
    `const r = document.querySelector('[data-testid="outcome-banner"]').getBoundingClientRect();
     return [r.top, r.bottom, window.innerHeight, document.querySelector(".content").scrollTop];`,
  );
  assert.equal(scrolled, 0, "the run view is shown from its top");
  assert.ok(top >= 0 && bottom <= height, `the outcome banner (${top}–${bottom}) is inside the ${height}px window`);
}

/**
 * In the screenshot viewer at 1280×720: every picture is whole inside the window (scaled,
 * aspect kept, never cut), and no two of its buttons, selects or checkboxes overlap (nor
 * a picture and a control).
 */
async function fitsWithoutOverlap(mode) {
  const problems = await exec(
    `const dialog = document.querySelector('[data-testid="screenshot-viewer"]');
     const box = (el) => el.getBoundingClientRect();
     const out = [];
     const pics = [...dialog.querySelectorAll(".images img, [data-testid='inspector-stage'] img")];
     if (pics.length === 0) out.push("no picture shown");
     for (const img of pics) {
       const r = box(img);
       if (r.width < 50 || r.height < 100) out.push("a picture is shown too small: " + [r.width, r.height].map(Math.round));
       if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight + 1 || r.right > window.innerWidth + 1)
         out.push("a picture is cut: " + [r.left, r.top, r.right, r.bottom].map(Math.round) + " in " + window.innerWidth + "x" + window.innerHeight);
       // Nor by the dialog's own edge (it would scroll to show the rest).
       const d = box(dialog);
       if (r.top < d.top || r.bottom > d.bottom + 1 || r.left < d.left || r.right > d.right + 1)
         out.push("a picture is cut by the dialog: " + [r.top, r.bottom].map(Math.round) + " in " + [d.top, d.bottom].map(Math.round));
       const ratio = (r.width / r.height) / (img.naturalWidth / img.naturalHeight);
       if (Math.abs(ratio - 1) > 0.03) out.push("a picture lost its aspect: " + ratio.toFixed(3));
       // A scroll box around it (zoom) must not cut it at Fit either.
       const scroller = img.closest(".scroll");
       if (scroller && (scroller.scrollHeight > scroller.clientHeight + 3 || scroller.scrollWidth > scroller.clientWidth + 3))
         out.push("a picture's box scrolls at Fit: " + [scroller.scrollWidth, scroller.scrollHeight, scroller.clientWidth, scroller.clientHeight]);
     }
     // The controls shown: laid out, and not scrolled away inside a box (the element list).
     const shown = (el, r) => {
       if (r.width <= 1 || r.height <= 1) return false;
       const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
       return !!at && (at === el || el.contains(at) || at.contains(el) || at.closest("label")?.contains(el));
     };
     const controls = [...dialog.querySelectorAll("button, select, input[type=checkbox]")]
       .map((el) => [el, box(el)])
       .filter(([el, r]) => shown(el, r));
     const named = (el) => el.dataset.testid || el.getAttribute("aria-label") || el.textContent.trim().slice(0, 24) || el.tagName;
     const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
     for (let i = 0; i < controls.length; i++)
       for (let j = i + 1; j < controls.length; j++) {
         const [a, ra] = controls[i];
         const [b, rb] = controls[j];
         if (a.contains(b) || b.contains(a)) continue;
         if (overlap(ra, rb)) out.push(named(a) + " overlaps " + named(b));
       }
     for (const img of pics)
       for (const [el, r] of controls)
         if (!el.contains(img) && !el.closest("[data-testid='inspector-stage']") && overlap(box(img), r)) out.push("a picture overlaps " + named(el));
     return out;`,
  );
  assert.deepEqual(problems, [], `${mode} fits 1280×720 without overlap`);
}

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
  // The full path is its hint (lib/tooltip.ts), kept for assistive technology.
  assert.equal(await w.attribute(path, "aria-description"), workspace);

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

  // The live view: masked frames of the device arrive and change while it replays, and
  // the step being replayed is named; none of them is kept once the run ends.
  const liveFrame = () =>
    exec(`const img = document.querySelector('[data-testid="live-view"] img'); return img ? img.src : null;`);
  const firstFrame = await waitFor("a live frame of the device", liveFrame, 60_000);
  assert.match(firstFrame, /^data:image\/png;base64,/);
  await waitFor("the live frame to change", async () => {
    const now = await liveFrame();
    return now && now !== firstFrame;
  }, 60_000);
  await waitFor("the step being replayed", async () => (await find(byTestId("live-step"))).length > 0, 30_000);
  // The frame before a step's action, with the element it is about to tap outlined: the
  // replay waits for it, so it comes for the steps of every replay (issue 43).
  await waitFor("a frame before a tap, its element outlined", () =>
    exec(
      `const view = document.querySelector('[data-testid="live-view"]');
       const step = view && view.querySelector('[data-testid="live-step"]');
       return !!step && /^About to replay step \\d+: Tap/.test(step.textContent.trim())
         && !!view.querySelector('[data-testid="live-outline"]');`,
    ), 60_000);
  // In view at 1280×720 without scrolling: beside the run's controls, not under them.
  const liveBox = await exec(
    `const r = document.querySelector('[data-testid="live-view"]').getBoundingClientRect();
     return [r.top, r.bottom, window.innerHeight, document.querySelector(".content").scrollTop];`,
  );
  assert.ok(liveBox[1] <= liveBox[2] + 1 && liveBox[3] === 0, `the live view is out of view: ${liveBox}`);
  await saveScreenshot("2a-live.png");

  // Live progress: attempts counted against the budget while the run goes on.
  await waitFor("a few attempts", async () => {
    const [attempts] = await find(byTestId("run-attempts"));
    const m = attempts && /(\d+)\s*\/\s*30/.exec(await textOf(attempts));
    return m && Number(m[1]) >= 3;
  }, 120_000);
  await saveScreenshot("2-run.png");

  const confidence = await one(byTestId("result-confidence"), "the result", 240_000);
  assert.match(await textOf(confidence), /high/i);
  // Outcome first: what happened and what to do next, without scrolling.
  assert.match(await textOf(await one(byTestId("outcome-text"))), /Minimal path found: 12 → 4 steps/);
  await bannerInView();
  await saveScreenshot("3a-outcome-1280x720.png");
  // The keyboard reaches Approve from the banner (which has the focus when the run
  // ends) in two keystrokes: Tab to the skip link, Enter; Alt+A is listed and works too.
  const TAB = "\uE004";
  const ENTER = "\uE007";
  const ALT = "\uE00A";
  const focused = () => exec(`return document.activeElement?.dataset?.testid ?? document.activeElement?.tagName;`);
  await exec(`document.querySelector('[data-testid="outcome-banner"]').focus();`);
  await keys(TAB);
  assert.equal(await focused(), "skip-approve", "the first Tab stop after the banner is Skip to Approve");
  await new Promise((r) => setTimeout(r, 300));
  await saveScreenshot("3c-skip-link-1280x720.png");
  await keys(ENTER);
  await waitFor("Approve to take the focus", async () => (await focused()) === "approve");
  assert.match(await textOf(await one(byTestId("banner-keys"))), /Alt\+A goes to Approve/);
  await exec(`document.querySelector('[data-testid="outcome-banner"]').focus();`);
  await keys([ALT, "a"]);
  await waitFor("Alt+A to focus Approve", async () => (await focused()) === "approve");
  await exec(`document.querySelector(".content").scrollTop = 0;`);
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
  // The filmstrip of the minimal path: a frame after the launch and after each step.
  const film = await one(byTestId("filmstrip"), "the result's filmstrip");
  assert.match(await textOf(film), /extra device time/);
  await exec(`arguments[0].scrollIntoView({ block: "center" });`, [film]);
  await new Promise((r) => setTimeout(r, 500));
  await saveScreenshot("3b-filmstrip.png");

  // The evidence: a masked screenshot in the viewer.
  await clickInView(await one(byTestId("open-screenshot"), "a screenshot button in the history"));
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
  assert.equal((await find(byTestId("live-view"))).length, 0, "the live view is gone with the run");

  // The inspector: a click on the picture lists the elements there, and one's Maestro
  // selector reaches the system clipboard (read back as another program would).
  if ((await find(byTestId("node-inspector"))).length === 0) await click(await one(byTestId("inspect-toggle")));
  // Attempt 1 ends on the demo's cart screen (demo/shop.json, 1080×2400): its summary line
  // (com.example.shop:id/cart_summary) spans y 112–232, so a click at y 172 lands on it.
  const stage = await one(byTestId("inspector-stage"), "the inspector's picture");
  const stageHeight = await exec(`return arguments[0].getBoundingClientRect().height;`, [stage]);
  await clickAt(stage, 0, stageHeight * (172 / 2400 - 0.5));
  const named = await waitFor("an element with an id under the click", () =>
    exec(
      `const nodes = [...document.querySelectorAll('[data-testid="inspected-node"]')];
       const idOf = (n) => n.querySelector('[data-testid="node-id"]')?.textContent.trim() ?? "";
       const at = nodes.findIndex((n) => idOf(n) !== "" && idOf(n) !== "—");
       return at < 0 ? null : { at, id: idOf(nodes[at]) };`,
    ),
  );
  assert.match(named.id, /cart_summary$/, "the innermost element with an id under the click is the cart's summary");
  await saveScreenshot("4a-inspector.png");
  await fitsWithoutOverlap("Inspect");
  const copyMaestro = await exec(
    `return document.querySelectorAll('[data-testid="inspected-node"]')[arguments[0]].querySelector('[data-testid="copy-maestro"]');`,
    [named.at],
  );
  await click(copyMaestro);
  const selector = await waitFor("the selector on the clipboard", () => {
    const text = execFileSync("xclip", ["-o", "-selection", "clipboard"], { encoding: "utf8" });
    return text.includes(named.id) ? text : null;
  });
  assert.equal(selector.trim(), `id: ${JSON.stringify(named.id)}`);
  await click(await one(byTestId("inspect-toggle"), "back to masking"));

  // A reviewer masks a region by hand: the mask is burned into the archived file itself
  // (checked in the file's pixels, not in the window), and only into this screenshot.
  const evidence = readdirSync(join(workspace, "sessions")).find((n) => /_minimize-checkout-npe$/.test(n));
  const shotsDir = join(workspace, "sessions", evidence, "screenshots");
  const pngs = () => readdirSync(shotsDir).filter((n) => n.endsWith(".png"));
  const original = new Map(pngs().map((n) => [n, readFileSync(join(shotsDir, n))]));
  await click(await one(byTestId("add-mask"), "Add a mask"));
  await saveScreenshot("4b-mask-added.png");
  // At 1280×720, with a mask drawn and with Compare on, the picture and its actions are
  // in view without scrolling: nothing falls below the dialog or is cut at its side.
  const inView = (testIds) =>
    exec(
      `return arguments[0].map((id) => {
         const el = document.querySelector('[data-testid="' + id + '"]');
         if (!el) return id + ": missing";
         const r = el.getBoundingClientRect();
         return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 1 && r.right <= window.innerWidth + 1
           ? null
           : id + ": " + [r.left, r.top, r.right, r.bottom].map(Math.round) + " in " + window.innerWidth + "x" + window.innerHeight;
       }).filter(Boolean);`,
      [testIds],
    );
  assert.deepEqual(await inView(["mask-apply-one", "mask-apply-all", "omit-screenshot"]), [], "the actions fit with a mask drawn");
  await click(await one(byTestId("compare-toggle")));
  await one(byTestId("compare-partner"), "the comparison");
  // The baseline has no default partner (nothing replayed its steps plus more): pick one,
  // as a reviewer would, so both pictures are shown side by side.
  await exec(
    `const pick = document.querySelector('[data-testid="compare-select"]');
     if (!pick.value) {
       pick.selectedIndex = 1;
       pick.dispatchEvent(new Event("change", { bubbles: true }));
     }`,
  );
  await waitFor("both compared pictures to be decoded", () =>
    exec(
      `const imgs = [...document.querySelectorAll('[data-testid="screenshot-viewer"] .images img')];
       return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0);`,
    ),
  );
  await new Promise((r) => setTimeout(r, 800));
  await saveScreenshot("4b2-compare-with-mask.png");
  assert.deepEqual(
    await inView(["mask-apply-one", "mask-apply-all", "omit-screenshot", "compare-partner"]),
    [],
    "the actions and the compared picture fit with Compare on",
  );
  await fitsWithoutOverlap("Compare");
  await click(await one(byTestId("compare-toggle")));
  await click(await one(byTestId("mask-apply-one")));
  const changed = await waitFor("the mask to be burned into one archived file", () => {
    const differ = pngs().filter((n) => !original.get(n).equals(readFileSync(join(shotsDir, n))));
    return differ.length === 1 ? differ[0] : null;
  });
  const record = JSON.parse(readFileSync(join(shotsDir, changed.replace(/\.png$/, ".masks.json")), "utf8"));
  const mine = record.masks.find((m) => m.reason === "added by reviewer");
  assert.ok(mine, `the reviewer's mask is recorded (${JSON.stringify(record.masks)})`);
  const was = regionColours(readPng(original.get(changed)), mine);
  const now = regionColours(readPng(join(shotsDir, changed)), mine);
  assert.ok(
    was.colours > 1 || was.first.some((v) => v !== 0),
    `the region showed the screen before, not black (${JSON.stringify(was)})`,
  );
  assert.equal(now.colours, 1, `the region is one solid colour now (${JSON.stringify(now)})`);
  assert.deepEqual(now.first, [0, 0, 0], "solid masks are black");
  await new Promise((r) => setTimeout(r, 1000));
  await saveScreenshot("4c-mask-applied.png");

  // A second mask, applied to every kept picture: the attempts' screenshots and the
  // filmstrip's frames alike (checked in the exported frames and GIF below).
  const filmDir = join(workspace, "sessions", evidence, "filmstrip");
  const frameFiles = () =>
    readdirSync(filmDir, { recursive: true }).filter((n) => /^attempt-\d+\/step-\d+\.png$/.test(n));
  const framesBefore = new Map(frameFiles().map((n) => [n, readFileSync(join(filmDir, n))]));
  assert.ok(framesBefore.size > 0, "the run kept filmstrip frames");
  await click(await one(byTestId("add-mask"), "Add a mask"));
  await clickInView(await one(byTestId("mask-apply-all")));
  await clickInView(await one(byTestId("apply-all-confirm-yes")));
  await waitFor("the mask to be burned into every filmstrip frame", () =>
    [...framesBefore].every(([n, was]) => !was.equals(readFileSync(join(filmDir, n)))) ? true : null,
  );
  // Applying scrolled the dialog down to its buttons; Close is at its top.
  await clickInView(await one(byTestId("close-viewer")));

  // Approval writes the sidecar next to the original session. One screenshot of many was
  // checked, so the window asks first, naming how many; the tester approves anyway.
  await clickInView(await one(byTestId("approve")));
  const unchecked = await one(byTestId("approve-unchecked"), "the question about unchecked screenshots");
  assert.match(await textOf(unchecked), /Only \d+ of \d+ screenshots have been checked/);
  await clickInView(await one(byTestId("approve-anyway")));
  const approved = await one(byTestId("approved-path"), "the written sidecar's path");
  const sidecarPath = join(workspace, "sessions", showcaseId, "crashes.minimized.json");
  assert.match(await textOf(approved), /crashes\.minimized\.json/);
  const sidecar = JSON.parse(readFileSync(sidecarPath, "utf8"));
  assert.deepEqual(sidecar.crashes.c1.minimized_repro_path, [1, 10, 11, 12]);
  assert.equal(sidecar.crashes.c1.minimized_confidence, "high");

  // Export into a chosen folder: a complete bundle with its manifest.
  const exportsDir = join(scratch, "tickets");
  await typeInto(await one(byTestId("export-folder")), exportsDir);
  await clickInView(await one(byTestId("export")));
  const exported = await one(byTestId("exported-path"), "the bundle's path", 60_000);
  const bundle = (await textOf(exported)).trim();
  assert.ok(bundle.startsWith(exportsDir), `${bundle} is inside ${exportsDir}`);
  const manifest = JSON.parse(readFileSync(join(bundle, "manifest.json"), "utf8"));
  assert.ok(Array.isArray(manifest.files) && manifest.files.length > 0, "the manifest lists the files");
  // Inspect the bundle as a developer would: every listed file is there, repro.md names
  // the minimal steps, and nothing typed at the private steps is in any text file.
  for (const f of manifest.files) assert.ok(existsSync(join(bundle, f.path ?? f.name ?? f)), `${JSON.stringify(f)} is in the bundle`);
  const repro = readFileSync(join(bundle, "repro.md"), "utf8");
  assert.match(repro, /product|cart|checkout/i, "repro.md describes the steps");
  for (const name of readdirSync(bundle).filter((n) => /\.(md|json)$/.test(n))) {
    assert.ok(!readFileSync(join(bundle, name), "utf8").includes("qa.tester@example.com"), `${name} leaks the typed e-mail`);
  }
  await saveScreenshot("5-approved-exported.png");

  // The reviewer's mask reached every exported frame and every frame of the GIF.
  const someFrame = [...framesBefore.keys()][0];
  const frameRecord = JSON.parse(readFileSync(join(filmDir, someFrame.replace(/\.png$/, ".masks.json")), "utf8"));
  const allMask = frameRecord.masks.find((m) => m.reason === "added by reviewer");
  assert.ok(allMask, `the frame records the reviewer's mask (${JSON.stringify(frameRecord.masks)})`);
  const exportedFrames = readdirSync(join(bundle, "filmstrip")).filter((n) => /^step-\d+\.png$/.test(n));
  assert.ok(exportedFrames.length > 0, "the bundle has filmstrip frames");
  for (const name of exportedFrames) {
    const region = regionColours(readPng(join(bundle, "filmstrip", name)), allMask);
    assert.deepEqual([region.colours, region.first], [1, [0, 0, 0]], `filmstrip/${name} is black under the mask`);
  }
  const gifFrames = readGif(readFileSync(join(bundle, "filmstrip.gif")));
  assert.ok(gifFrames.length >= exportedFrames.length, "the GIF has a frame per exported frame");
  const fullWidth = readPng(join(bundle, "filmstrip", exportedFrames[0])).width;
  const k = gifFrames[0].width / fullWidth;
  // The GIF is scaled down: its masked area, less a resampling margin, is near-black.
  const [x0, y0] = [Math.ceil(allMask.x * k) + 2, Math.ceil(allMask.y * k) + 2];
  const [x1, y1] = [Math.floor((allMask.x + allMask.w) * k) - 2, Math.floor((allMask.y + allMask.h) * k) - 2];
  assert.ok(x1 > x0 && y1 > y0, "the mask is large enough to check in the GIF");
  gifFrames.forEach((f, i) => {
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const p = (y * f.width + x) * 4;
        const rgb = [f.data[p], f.data[p + 1], f.data[p + 2]];
        assert.ok(rgb.every((v) => v <= 24), `GIF frame ${i + 1} shows (${rgb}) at ${x},${y} under the mask`);
      }
    }
  });

  // Copy as Markdown reaches the system clipboard (read back as another program would).
  await clickInView(await one(byTestId("copy-markdown")));
  await one(byTestId("copied"), "the copied note");
  const pasted = execFileSync("xclip", ["-o", "-selection", "clipboard"], { encoding: "utf8" });
  assert.match(pasted, /1.*10.*11.*12|checkout/is, `the ticket text is on the clipboard (${pasted.slice(0, 200)})`);
  assert.ok(!pasted.includes("qa.tester@example.com"), "the clipboard never holds the typed e-mail");
});

test("a second session is minimized the same day, and its evidence stays out of the session list", async () => {
  await click(await one("button.back", "the back button"));
  const [second] = await find(`[role="option"][data-session-id="${secondId}"]`);
  assert.ok(second, `${secondId} is listed`);
  await click(second);
  const outcome = await minimizeOpenSession();
  assert.match(outcome, /Minimal path found: 4 → 3 steps/);
  await bannerInView();
  await saveScreenshot("6-second-session.png");
  // The list followed the folder: no "minimize-…" rows, a past-run count instead.
  await click(await one("button.back"));
  await waitFor("the list to show past runs", async () => {
    const rows = await find('[role="option"]');
    const texts = await Promise.all(rows.map(textOf));
    return texts.every((t) => !/minimize-/.test(t)) && texts.some((t) => /\b1 run\b/.test(t));
  });
  // Back on the session, its crash lists the run just made, with its result.
  await waitFor("the finished run's badge", async () => {
    const [badge] = await find(byTestId("past-run-badge"));
    return badge && /4 → 3 · high/.test(await textOf(badge));
  });
});

test("minimize all: a session's two crash groups are queued with one action and run side by side on the demo's two devices, watched live", async () => {
  const [both] = await find(`[role="option"][data-session-id="${twoCrashesId}"]`);
  assert.ok(both, `${twoCrashesId} is listed`);
  await click(both);
  await click(await one(byTestId("minimize-all-session"), "Minimize all in this session"));
  // It asks first, naming how many crash groups it queues; the harmless answer has the focus.
  const ask = await one(byTestId("minimize-all-session-confirm"), "the question before queueing");
  assert.match(await textOf(ask), /2 crash/);
  // The question asks the options every item runs with, at their defaults (the CLI's).
  const options = await exec(
    `const ask = arguments[0];
     const get = (id) => ask.querySelector('[data-testid="' + id + '"]');
     const form = get("queue-options");
     const r = form && form.getBoundingClientRect();
     return form && [get("queue-max-replays").value, get("queue-strategy").value, String(get("queue-baseline-tries").value),
       get("queue-include-minimized").checked, r.top >= 0 && r.bottom <= window.innerHeight];`,
    [ask],
  );
  assert.deepEqual(options, ["30", "seed", "1", false, true], "the queue's options, in the question and in view");
  await saveScreenshot("6a-queue-options.png");
  await click(await one(byTestId("minimize-all-session-confirm-yes"), "Yes, queue them"));
  const states = () =>
    exec(`return [...document.querySelectorAll('[data-testid="queue-entry"]')].map((e) => e.dataset.state);`);
  await waitFor("a queue of two crash groups", async () => (await states()).length === 2);
  // One item on each device at once; each says which device it replays on, and the
  // queue shows the devices live. Watched along the way, as a tester would.
  let together = false;
  let live = false;
  let bothLive = false;
  const devices = new Set();
  // Nothing the tester may click moves while the runs go on: the queue's Pause and
  // Cancel all keep their place through frames, placeholders and items ending.
  const controls = () =>
    exec(`return ["queue-pause", "queue-resume", "queue-cancel-all"].flatMap((id) => {
      const el = document.querySelector('[data-testid="' + id + '"]');
      if (!el) return [];
      const r = el.getBoundingClientRect();
      return [id === "queue-cancel-all" ? "cancel" : "pause", Math.round(r.left), Math.round(r.top), Math.round(r.width)].join(" ");
    });`);
  const places = new Set();
  const ended = await waitFor(
    "both items to end",
    async () => {
      const now = await states();
      if (now.some((s) => s === "waiting" || s === "running")) for (const place of await controls()) places.add(place);
      if (now.filter((s) => s === "running").length === 2) together = true;
      for (const text of await Promise.all((await find(byTestId("queue-state"))).map(textOf))) {
        const on = text.match(/Running on (sim-[12])/);
        if (on) devices.add(on[1]);
      }
      const views = (await find('[data-testid="live-view"] img')).length;
      if (views > 0 && !live) await saveScreenshot("6b-queue-running.png");
      if (views === 2 && !bothLive) await saveScreenshot("6b-queue-running.png");
      live ||= views > 0;
      bothLive ||= views === 2;
      return now.every((s) => s !== "waiting" && s !== "running") ? now : null;
    },
    420_000,
  );
  assert.equal(places.size, 2, `the queue's controls stayed put: ${[...places].join("; ")}`);
  assert.ok(together, "both items ran at once");
  assert.deepEqual([...devices].sort(), ["sim-1", "sim-2"], "each on its own device");
  assert.ok(live, "the queue showed its devices live");
  assert.deepEqual(ended, ["finished", "finished"], "both crash groups were minimized");
  await saveScreenshot("6c-queue-done.png");
  // Each item's result is the run's own, worded as the result view words it.
  const texts = await Promise.all((await find(byTestId("queue-state"))).map(textOf));
  assert.equal(texts.length, 2);
  for (const text of texts) assert.ok(text.trim().length > 0, "each item says how it ended");
  // A finished item opens its run: that run's result, read back from its evidence,
  // while the queue stays above it.
  const opens = await find(byTestId("queue-open"));
  assert.equal(opens.length, 2, "each finished item opens its run");
  await click(opens[0]);
  // Its words once the opened run is shown (read from the page: under the queue, the
  // banner may start below the window's fold).
  // The run view the queue item replaced stays mounted, hidden: only a shown element counts.
  const shownText = (id) =>
    exec(`return [...document.querySelectorAll('[data-testid="${id}"]')].find((e) => e.getClientRects().length > 0)?.textContent?.trim() ?? "";`);
  // The run shown before (the previous test's, live) is replaced: wait for the reopened one.
  await waitFor("the opened item's run, read from its evidence", async () => /nothing was replayed/.test(await shownText("reopened-note")));
  const opened = await shownText("outcome-text");
  // The same run: the same path when it found one, else the same miss (the flaky crash
  // may miss its baseline) with the item's hint worded in the banner too.
  const path = (text) => text.match(/(\d+) → (\d+)/)?.slice(1) ?? null;
  assert.deepEqual(path(opened), path(texts[0]), `the first item's run: "${opened}" for "${texts[0]}"`);
  const firstHinted = await exec(
    `return !!document.querySelector('[data-testid="queue-entry"]').querySelector('[data-testid="queue-hint"]');`,
  );
  if (firstHinted) assert.match(await shownText("banner-next"), /more baseline tries/);
  assert.equal((await find(byTestId("queue-entry"))).length, 2, "the queue stays while its item's run is shown");
  await saveScreenshot("6d-queue-item-opened.png");
  await click(await one(byTestId("queue-close"), "the finished queue's Close"));
});

test("after a restart, the approved result is back without replaying: badge, history, screenshots", async () => {
  const evidenceBefore = readdirSync(join(workspace, "sessions")).filter((n) => n.includes("_minimize-"));
  await w.close("7-before-restart.png");
  await start();
  const [showcase] = await waitFor("the session list", async () => find(`[role="option"][data-session-id="${showcaseId}"]`).then((f) => (f.length ? f : null)));
  await click(showcase);
  const badge = await one(byTestId("past-run-badge"), "the past run's badge");
  assert.match(await textOf(badge), /12 → 4 · high · approved/);
  await saveScreenshot("8-past-runs.png");
  await click(await one(byTestId("open-past-run")));
  const outcome = await textOf(await one(byTestId("outcome-text"), "the reopened run's banner"));
  assert.match(outcome, /Minimal path found: 12 → 4 steps/);
  await bannerInView();
  assert.match(await textOf(await one(byTestId("reopened-note"))), /nothing was replayed/);
  await saveScreenshot("9a-reopened-outcome.png");
  const rows = await find(byTestId("history-row"));
  assert.ok(rows.length >= 10, `the reopened history has every attempt (${rows.length})`);
  // A stack trace per attempt: expand the baseline.
  await clickInView((await find(byTestId("history-expand")))[0]);
  const stack = await textOf(await one(byTestId("stack-panel"), "the baseline's crash"));
  assert.match(stack, /NullPointerException/);
  assert.match(stack, /the target crash/);
  // Its screenshot is the archived one of that attempt.
  // A reproducing attempt's screenshot may be omitted (the launcher after the crash); the
  // first attempt with one is taken, once its thumbnail is laid out (it loads lazily).
  const firstShot = async () => (await find(byTestId("open-screenshot")))[0];
  const shot = await firstShot();
  assert.ok(shot, "the reopened history has an archived screenshot");
  await exec(`arguments[0].scrollIntoView({ block: "center" });`, [shot]);
  await waitFor("the thumbnail to be laid out", () =>
    exec(`const r = arguments[0].getBoundingClientRect(); return r.width > 0 && r.height > 0;`, [shot]),
  );
  await clickInView(firstShot, "the first archived screenshot");
  await one(byTestId("screenshot-viewer"), "the screenshot viewer");
  await waitFor("the reopened screenshot to be decoded", () =>
    exec(
      `const img = document.querySelector('[data-testid="screenshot-viewer"] img');
       return !!img && img.complete && img.naturalWidth > 0 && img.src.startsWith("data:image/png");`,
    ),
  );
  await new Promise((r) => setTimeout(r, 1000)); // let WebKit paint the decoded image
  await saveScreenshot("9b-reopened-screenshot.png");
  await click(await one(byTestId("close-viewer")));
  assert.match(await textOf(await one(byTestId("approve"))), /Approve/);
  assert.equal(await w.attribute(await one(byTestId("approve")), "disabled"), "true", "already approved");
  // Nothing was replayed: no new evidence session appeared.
  const evidenceAfter = readdirSync(join(workspace, "sessions")).filter((n) => n.includes("_minimize-"));
  assert.deepEqual(evidenceAfter.sort(), evidenceBefore.sort());
});

test("a cancelled run is labelled from its record: never minimal, no confirmation said to have failed that never ran", async () => {
  const [showcase] = await find(`[role="option"][data-session-id="${showcaseId}"]`);
  await click(showcase);
  await click(await one(byTestId("minimize-c1"), "the Minimize button of crash c1"));
  // The reopened run's view stays mounted, hidden: only what is shown is this run's.
  const shown = (id) =>
    exec(`return [...document.querySelectorAll('[data-testid="${id}"]')].find((e) => e.offsetParent !== null)?.textContent ?? null;`);
  await waitFor("Start to take the focus", () =>
    exec(`return document.activeElement?.dataset?.testid === "start-run";`),
  );
  await exec(`document.activeElement.click();`);
  await waitFor("a few attempts", async () => {
    const m = /(\d+)\s*\/\s*30/.exec((await shown("run-attempts")) ?? "");
    return m && Number(m[1]) >= 3;
  }, 120_000);
  await exec(`[...document.querySelectorAll('[data-testid="cancel-run"]')].find((e) => e.offsetParent !== null).click();`);
  const outcome = await waitFor("the cancelled run's banner", () => shown("outcome-text"), 120_000);
  assert.match(outcome, /cancel/i, outcome);
  await saveScreenshot("10-cancelled.png");
  const page = await exec(`return document.querySelector("main, .content, body").innerText;`);
  assert.doesNotMatch(page, /Minimal path found|Minimal · |in the minimal path/, "nothing unproven is called minimal");
  assert.doesNotMatch(page, /Final confirmation did not pass 3\/3/, "no failed confirmation that never ran");
});
