import { afterEach, describe, expect, it } from "vitest";
import {
  cachedThumbnail,
  clearThumbnails,
  evidenceScope,
  forgetThumbnails,
  sessionScope,
  thumbnailKey,
} from "./thumbnails";

afterEach(clearThumbnails);

const name = "screenshots/attempt-003.png";

describe("thumbnail cache keys", () => {
  it("name the workspace, the session, the file and the version", () => {
    const a = evidenceScope("/ws", "2026-05-20_101500_minimize-checkout-npe");
    const b = evidenceScope("/ws", "2026-05-20_103000_minimize-legacy-login");
    const keys = [
      thumbnailKey({ scope: a }, name),
      thumbnailKey({ scope: b }, name),
      thumbnailKey({ scope: evidenceScope("/other", "2026-05-20_101500_minimize-checkout-npe") }, name),
      thumbnailKey({ scope: a, version: 1 }, name),
      thumbnailKey({ scope: a }, "screenshots/attempt-004.png"),
      thumbnailKey({ scope: sessionScope("/ws", "2026-05-20_101500_minimize-checkout-npe") }, name),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(thumbnailKey({ scope: a }, name)).toBe(thumbnailKey({ scope: a, version: 0 }, name));
  });

  it("cannot be confused by ids that run into each other", () => {
    expect(evidenceScope("/ws/a", "b")).not.toBe(evidenceScope("/ws", "a/b"));
    expect(thumbnailKey({ scope: evidenceScope("/ws", "e") }, "x")).not.toBe(
      thumbnailKey({ scope: evidenceScope("/ws", "e\u0000x") }, ""),
    );
  });
});

describe("the shared cache", () => {
  it("loads once per key and keeps two sessions' same-named attempts apart", async () => {
    const loads: string[] = [];
    const load = (tag: string) => () => {
      loads.push(tag);
      return Promise.resolve(`data:${tag}`);
    };
    const keyA = thumbnailKey({ scope: evidenceScope("/ws", "run-a") }, name);
    const keyB = thumbnailKey({ scope: evidenceScope("/ws", "run-b") }, name);
    expect(await cachedThumbnail(keyA, load("a"))).toBe("data:a");
    expect(await cachedThumbnail(keyA, load("a-again"))).toBe("data:a");
    expect(await cachedThumbnail(keyB, load("b"))).toBe("data:b");
    expect(loads).toEqual(["a", "b"]);
  });

  it("forgets one session's previews when its screenshots change, and only those", async () => {
    const a = evidenceScope("/ws", "run-a");
    const b = evidenceScope("/ws", "run-b");
    let n = 0;
    const load = () => Promise.resolve(`v${++n}`);
    await cachedThumbnail(thumbnailKey({ scope: a }, name), load);
    await cachedThumbnail(thumbnailKey({ scope: b }, name), load);
    forgetThumbnails(a);
    expect(await cachedThumbnail(thumbnailKey({ scope: a }, name), load)).toBe("v3");
    expect(await cachedThumbnail(thumbnailKey({ scope: b }, name), load)).toBe("v2");
  });

  it("does not keep a failure", async () => {
    const key = thumbnailKey({ scope: evidenceScope("/ws", "e") }, name);
    await expect(cachedThumbnail(key, () => Promise.reject(new Error("gone")))).rejects.toThrow("gone");
    await new Promise((r) => setTimeout(r, 0));
    expect(await cachedThumbnail(key, () => Promise.resolve("ok"))).toBe("ok");
  });
});
