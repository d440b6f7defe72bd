import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import NodeInspector from "./NodeInspector.svelte";
import { layOut } from "../test/layout";
import { setLocale } from "../lib/i18n/index.svelte";
import type { InspectedNode, NearNode } from "../lib/watchTypes";

const image = { data_url: "data:image/png;base64,iVBORw0KGgo=", width: 1080, height: 1920 };

const node = (over: Partial<InspectedNode> = {}): InspectedNode => ({
  resource_id: "com.shop:id/cart_button",
  text: "Cart",
  content_desc: "Open the cart",
  class: "android.widget.Button",
  bounds: [270, 480, 810, 960],
  masked: false,
  maestro: 'id: "com.shop:id/cart_button"',
  robo: '{"resourceId":"com.shop:id/cart_button"}',
  ...over,
});

/** The button inside the toolbar inside the whole screen, sent innermost first as the backend orders them. */
const screenNode = node({ resource_id: "", text: "", content_desc: "", class: "android.widget.FrameLayout", bounds: [0, 0, 1080, 1920], maestro: null, robo: null });
const toolbar = node({ resource_id: "com.shop:id/toolbar", text: "", content_desc: "", class: "android.view.ViewGroup", bounds: [0, 400, 1080, 1000] });
const button = node();

function setup(props: { nearest?: NearNode[] | null; found?: InspectedNode[]; copy?: (text: string) => Promise<void> } = {}) {
  const inspect = vi.fn(async () => props.found ?? [button, toolbar, screenNode]);
  const copy = vi.fn(props.copy ?? (async () => {}));
  render(NodeInspector, { image, inspect, copy, nearest: props.nearest ?? null });
  const stage = screen.getByTestId("inspector-stage");
  // Shown at half size with its top-left corner at (100, 50).
  layOut(stage);
  return { inspect, copy, stage };
}

const listed = () => within(screen.getByTestId("inspected-nodes")).getAllByTestId("inspected-node");

describe("NodeInspector", () => {
  it("inspects the picture pixel under a click, scaled from the shown size", async () => {
    const { inspect, stage } = setup();
    await fireEvent.click(stage, { clientX: 370, clientY: 290 });
    expect(inspect).toHaveBeenCalledWith(540, 480);
    await waitFor(() => expect(screen.getByText("Elements at 540, 480, innermost first")).toBeInTheDocument());
  });

  it("lists the nodes innermost first with their id, text, description, class and bounds", async () => {
    const { stage } = setup();
    await fireEvent.click(stage, { clientX: 370, clientY: 290 });
    await waitFor(() => expect(listed()).toHaveLength(3));
    expect(listed().map((n) => within(n).getByTestId("node-id").textContent)).toEqual([
      "com.shop:id/cart_button",
      "com.shop:id/toolbar",
      "—",
    ]);
    const first = listed()[0]!;
    expect(first).toHaveTextContent("Cart");
    expect(first).toHaveTextContent("Open the cart");
    expect(first).toHaveTextContent("android.widget.Button");
    expect(first).toHaveTextContent("270, 480 – 810, 960");
    expect(within(first).queryByText("masked")).toBeNull();
  });

  it("marks a masked text", async () => {
    const { stage } = setup({ found: [node({ text: "", masked: true })] });
    await fireEvent.click(stage, { clientX: 370, clientY: 290 });
    const marker = await screen.findByText("masked");
    expect(marker).toHaveAttribute("aria-description", "Hidden: it looks like private data");
  });

  it("outlines a node on the picture while it is hovered or focused", async () => {
    const { stage } = setup();
    await fireEvent.click(stage, { clientX: 370, clientY: 290 });
    await waitFor(() => expect(listed()).toHaveLength(3));
    expect(screen.queryByTestId("inspector-outline")).toBeNull();

    await fireEvent.mouseEnter(listed()[0]!);
    const outline = screen.getByTestId("inspector-outline");
    expect(outline.style.left).toBe("25%");
    expect(outline.style.top).toBe("25%");
    expect(outline.style.width).toBe("50%");
    expect(outline.style.height).toBe("25%");
    await fireEvent.mouseLeave(listed()[0]!);
    expect(screen.queryByTestId("inspector-outline")).toBeNull();

    await fireEvent.focusIn(within(listed()[1]!).getByRole("button", { name: "Copy as Maestro selector" }));
    expect(screen.getByTestId("inspector-outline").style.top).toBe("20.833%");
  });

  it("copies the Maestro selector and the Robo descriptor, and says so", async () => {
    const { stage, copy } = setup();
    await fireEvent.click(stage, { clientX: 370, clientY: 290 });
    await waitFor(() => expect(listed()).toHaveLength(3));
    await fireEvent.click(within(listed()[0]!).getByRole("button", { name: "Copy as Maestro selector" }));
    expect(copy).toHaveBeenCalledWith('id: "com.shop:id/cart_button"');
    await waitFor(() => expect(screen.getByTestId("copy-status")).toHaveTextContent("Copied"));
    expect(screen.getByTestId("copy-status")).toHaveAttribute("aria-live", "polite");
    await fireEvent.click(within(listed()[0]!).getByRole("button", { name: "Copy as Robo descriptor" }));
    expect(copy).toHaveBeenLastCalledWith('{"resourceId":"com.shop:id/cart_button"}');
  });

  it("disables a copy button when the node has no such string", async () => {
    const { stage, copy } = setup();
    await fireEvent.click(stage, { clientX: 370, clientY: 290 });
    await waitFor(() => expect(listed()).toHaveLength(3));
    const outer = listed()[2]!;
    expect(within(outer).getByRole("button", { name: "Copy as Maestro selector" })).toBeDisabled();
    expect(within(outer).getByRole("button", { name: "Copy as Robo descriptor" })).toBeDisabled();
    await fireEvent.click(within(outer).getByRole("button", { name: "Copy as Maestro selector" }));
    expect(copy).not.toHaveBeenCalled();
  });

  it("shows the text to copy by hand when the clipboard refuses it", async () => {
    const { stage } = setup({ copy: async () => Promise.reject(new Error("denied")) });
    await fireEvent.click(stage, { clientX: 370, clientY: 290 });
    await waitFor(() => expect(listed()).toHaveLength(3));
    await fireEvent.click(within(listed()[0]!).getByRole("button", { name: "Copy as Maestro selector" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("copy it by hand");
    expect(screen.getByText('id: "com.shop:id/cart_button"', { selector: "pre" })).toBeInTheDocument();
    expect(screen.getByTestId("copy-status")).toHaveTextContent("");
  });

  it("works without a mouse: Enter inspects the centre, arrows move the crosshair by 10 px", async () => {
    const { stage, inspect } = setup();
    expect(screen.getByRole("button", { name: "The screen to inspect" })).toBe(stage);
    expect(stage).toHaveAttribute("tabindex", "0");
    await fireEvent.keyDown(stage, { key: "Enter" });
    expect(inspect).toHaveBeenLastCalledWith(540, 960);
    await fireEvent.keyDown(stage, { key: "ArrowRight" });
    await fireEvent.keyDown(stage, { key: "ArrowRight" });
    await fireEvent.keyDown(stage, { key: "ArrowUp" });
    expect(screen.getByText("Crosshair at 560, 950")).toBeInTheDocument();
    expect(screen.getByTestId("inspector-crosshair")).toBeInTheDocument();
    expect(inspect).toHaveBeenCalledTimes(1);
    await fireEvent.keyDown(stage, { key: "Enter" });
    expect(inspect).toHaveBeenLastCalledWith(560, 950);
    await fireEvent.keyDown(stage, { key: "ArrowLeft", shiftKey: true });
    await fireEvent.keyDown(stage, { key: " " });
    expect(inspect).toHaveBeenLastCalledWith(460, 950);
  });

  it("keeps the crosshair on the picture", async () => {
    const { stage, inspect } = setup();
    for (let i = 0; i < 8; i++) await fireEvent.keyDown(stage, { key: "ArrowLeft", shiftKey: true });
    await fireEvent.keyDown(stage, { key: "Enter" });
    expect(inspect).toHaveBeenLastCalledWith(0, 960);
  });

  it("says when the nodes could not be read, or when there is none", async () => {
    const inspect = vi.fn().mockRejectedValueOnce(new Error("no hierarchy")).mockResolvedValueOnce([]);
    render(NodeInspector, { image, inspect, copy: vi.fn() });
    const stage = screen.getByRole("button", { name: "The screen to inspect" });
    await fireEvent.keyDown(stage, { key: "Enter" });
    expect(await screen.findByRole("alert")).toHaveTextContent("The elements at this point could not be read.");
    await fireEvent.keyDown(stage, { key: "Enter" });
    expect(await screen.findByText("No element at 540, 960.")).toBeInTheDocument();
  });

  it("lists the nodes closest to a missing element with their score and what matched", async () => {
    const { copy } = setup({
      nearest: [
        { node: button, score: 0.92, matched_on: "text" },
        { node: toolbar, score: 0.415, matched_on: "identifier" },
      ],
    });
    const list = screen.getByRole("list", { name: "Closest to the missing element" });
    const items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("92 % alike · matched on its text");
    expect(items[0]).toHaveTextContent("com.shop:id/cart_button");
    expect(items[1]).toHaveTextContent("42 % alike · matched on its id");
    await fireEvent.click(within(items[1]!).getByRole("button", { name: "Copy as Maestro selector" }));
    expect(copy).toHaveBeenCalledWith('id: "com.shop:id/cart_button"');
  });

  it("shows no nearest list without one", () => {
    setup();
    expect(screen.queryByText("Closest to the missing element")).toBeNull();
  });

  it("speaks the window's language", async () => {
    setLocale("zh-CN", false);
    const { stage } = setup();
    await fireEvent.click(stage, { clientX: 370, clientY: 290 });
    await waitFor(() => expect(screen.getAllByRole("button", { name: "复制为 Maestro 选择器" })).toHaveLength(3));
  });
});
