import { describe, expect, it } from "vitest";
import { loadRecent, RECENT_KEY, rememberWorkspace } from "./recentWorkspaces";

function memory(initial?: string) {
  const data = new Map<string, string>(initial === undefined ? [] : [[RECENT_KEY, initial]]);
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  };
}

describe("recent workspaces", () => {
  it("keeps the newest five, newest first, each once", () => {
    const store = memory();
    for (const p of ["/a", "/b", "/c", "/d", "/e", "/f"]) rememberWorkspace(p, store);
    expect(loadRecent(store)).toEqual(["/f", "/e", "/d", "/c", "/b"]);
    expect(rememberWorkspace("/d", store)).toEqual(["/d", "/f", "/e", "/c", "/b"]);
  });

  it("ignores stored junk instead of failing", () => {
    expect(loadRecent(memory("not json"))).toEqual([]);
    expect(loadRecent(memory('{"a":1}'))).toEqual([]);
    expect(loadRecent(memory('["/ok", 3, "", null]'))).toEqual(["/ok"]);
    expect(loadRecent(null)).toEqual([]);
  });

  it("still answers when storage refuses to write", () => {
    const store = { getItem: () => null, setItem: () => { throw new Error("quota"); } };
    expect(rememberWorkspace("/a", store)).toEqual(["/a"]);
  });

  it("uses the window's localStorage by default", () => {
    rememberWorkspace("/ws");
    expect(JSON.parse(localStorage.getItem(RECENT_KEY)!)).toEqual(["/ws"]);
    expect(loadRecent()).toEqual(["/ws"]);
  });
});
