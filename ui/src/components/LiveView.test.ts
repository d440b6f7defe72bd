import { render, screen, within } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import LiveView from "./LiveView.svelte";
import { setLocale } from "../lib/i18n/index.svelte";
import type { LiveFrame } from "../lib/watchTypes";

const first = "data:image/png;base64,AAAA";
const second = "data:image/png;base64,BBBB";

/** Device `device`'s frame of attempt 7 at step 3, tapping the element at (270, 480)–(810, 960). */
const frame = (device: string, over: Partial<LiveFrame> = {}): LiveFrame => ({
  device,
  attempt: 7,
  step: 3,
  step_words: { kind: "tap", target: { kind: "text", text: "Cart" } },
  before_action: true,
  seq: 1,
  image: { data_url: first, width: 1080, height: 1920 },
  omitted: null,
  outline: [270, 480, 810, 960],
  ...over,
});

const views = () => screen.getAllByTestId("live-device");

describe("LiveView", () => {
  it("shows one view per device with its attempt, the step replayed and the masked frame", () => {
    render(LiveView, { frames: [frame("emulator-5554"), frame("pixel-7", { attempt: 8, step: null })] });
    expect(views().map((v) => v.dataset.device)).toEqual(["emulator-5554", "pixel-7"]);
    const [a, b] = views();
    expect(a).toHaveTextContent("emulator-5554");
    expect(a).toHaveTextContent("Attempt 7");
    expect(within(a!).getByTestId("live-step")).toHaveTextContent("About to replay step 3: Tap “Cart”");
    expect(within(a!).getByRole("img", { name: "What emulator-5554 shows now" })).toHaveAttribute("src", first);
    expect(b).toHaveTextContent("Attempt 8");
    expect(within(b!).getByTestId("live-step")).toHaveTextContent("Launching the app or reading the crash log");
  });

  it("names a step by its number alone when the frame does not word it", () => {
    render(LiveView, { frames: [frame("emulator-5554", { step_words: null })] });
    expect(screen.getByTestId("live-step").textContent?.trim()).toBe("About to replay step 3");
  });

  it("says the view is live and never saved", () => {
    render(LiveView, { frames: [frame("emulator-5554")] });
    expect(screen.getByText(/never saved/)).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Live replay" })).toBeInTheDocument();
  });

  it("outlines the element the step acts on, in percentages of the picture", () => {
    render(LiveView, { frames: [frame("emulator-5554")] });
    const outline = screen.getByTestId("live-outline");
    expect(outline.style.left).toBe("25%");
    expect(outline.style.top).toBe("25%");
    expect(outline.style.width).toBe("50%");
    expect(outline.style.height).toBe("25%");
  });

  it("draws no outline when the step acts on no element", () => {
    render(LiveView, { frames: [frame("emulator-5554", { outline: null })] });
    expect(screen.queryByTestId("live-outline")).toBeNull();
  });

  it("replaces the picture when a newer frame arrives", async () => {
    const view = render(LiveView, { frames: [frame("emulator-5554")] });
    const img = screen.getByRole("img", { name: "What emulator-5554 shows now" });
    expect(img).toHaveAttribute("src", first);
    await view.rerender({
      frames: [frame("emulator-5554", { seq: 2, step: 4, before_action: false, outline: null, image: { data_url: second, width: 1080, height: 1920 } })],
    });
    expect(screen.getAllByRole("img", { name: "What emulator-5554 shows now" })).toHaveLength(1);
    expect(screen.getByRole("img", { name: "What emulator-5554 shows now" })).toHaveAttribute("src", second);
    expect(screen.getByTestId("live-step")).toHaveTextContent("Step 4 done: Tap “Cart”");
  });

  it("never shows a frame that could not be masked, only why", () => {
    render(LiveView, {
      frames: [frame("emulator-5554", { image: null, outline: null, omitted: { kind: "screen_changed" } }), frame("pixel-7", { image: null, outline: null })],
    });
    const [a, b] = screen.getAllByTestId("live-hidden");
    expect(a).toHaveTextContent(
      "Frame not shown: it could not be masked (the screen changed while it was captured, also on the retake), so it stays hidden.",
    );
    expect(b).toHaveTextContent("Frame not shown: it could not be masked, so it stays hidden.");
    expect(document.querySelector("img")).toBeNull();
  });

  it("says when no device is replaying", () => {
    render(LiveView, { frames: [] });
    expect(screen.getByText("No device is replaying right now.")).toBeInTheDocument();
  });

  it("speaks the window's language", () => {
    setLocale("zh-CN", false);
    render(LiveView, { frames: [frame("emulator-5554")] });
    expect(screen.getByTestId("live-device")).toHaveTextContent("第 7 次尝试");
    expect(screen.getByText(/从不保存/)).toBeInTheDocument();
  });

  it("reserves one box of one size per device, whether it shows a frame, a hidden frame or nothing yet", async () => {
    const box = { width: 108, height: 192 };
    const view = render(LiveView, { frames: [], box });
    const shown = () => screen.getByTestId("live-box");
    const size = () => ({ width: shown().style.width, height: shown().style.height });
    expect(shown().dataset.shows).toBe("none");
    expect(size()).toEqual({ width: "108px", height: "192px" });

    await view.rerender({ frames: [frame("emulator-5554")], box });
    expect(shown().dataset.shows).toBe("frame");
    expect(size()).toEqual({ width: "108px", height: "192px" });
    // The picture is held inside the box, not the box stretched by the picture.
    expect(screen.getByRole("img", { name: "What emulator-5554 shows now" }).style.maxHeight).toBe("192px");

    await view.rerender({ frames: [frame("emulator-5554", { seq: 2, image: null, outline: null })], box });
    expect(shown().dataset.shows).toBe("placeholder");
    expect(size()).toEqual({ width: "108px", height: "192px" });
  });
});

