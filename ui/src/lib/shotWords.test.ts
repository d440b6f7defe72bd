import { describe, expect, it } from "vitest";
import type { ShotRow } from "./evidenceShots";
import { allPictures, describeShot, pictureTitle } from "./shotWords";
import { setLocale } from "./i18n/index.svelte";

describe("describeShot", () => {
  it("says when a picture is the screen before the last action, in either language", () => {
    const crash: ShotRow = {
      name: "screenshots/attempt-007.png",
      attempt: 7,
      candidate: [1, 10, 11, 12],
      verdict: "reproduced",
      beforeStep: 12,
      frame: null,
      notFoundStep: null,
    };
    setLocale("en", false);
    expect(describeShot(crash).verdict).toBe("Reproduced, the screen right before step 12");
    expect(describeShot({ ...crash, beforeStep: null }).verdict).toBe("Reproduced");
    setLocale("zh-CN", false);
    expect(describeShot(crash).verdict).toBe("已复现，第 12 步操作之前的画面");
    setLocale("en", false);
  });
});

describe("pictures", () => {
  const row = (attempt: number, frame: number | null): ShotRow => ({
    name: frame === null ? `screenshots/attempt-00${attempt}.png` : `filmstrip/attempt-00${attempt}/step-0${frame}.png`,
    attempt,
    candidate: [],
    verdict: "reproduced",
    beforeStep: null,
    frame,
    notFoundStep: null,
  });

  it("names a filmstrip frame apart from its attempt's screenshot, in either language", () => {
    setLocale("en", false);
    expect(pictureTitle(row(7, null))).toBe("Screenshot of attempt 7");
    expect(pictureTitle(row(7, 2))).toBe("Filmstrip frame 2 of attempt 7");
    setLocale("zh-CN", false);
    expect(pictureTitle(row(7, 2))).toBe("第 7 次尝试的连续截图第 2 帧");
    setLocale("en", false);
  });

  it("says which screenshots and frames Apply to all changes", () => {
    setLocale("en", false);
    const all = [row(1, null), row(2, null), row(3, null), row(3, 1), row(3, 2)];
    expect(allPictures(all)).toBe("attempts 1–3; 2 filmstrip frames (attempt 3)");
    expect(allPictures(all.slice(0, 3))).toBe("attempts 1–3");
    setLocale("zh-CN", false);
    expect(allPictures(all)).toBe("第 1–3 次尝试；连续截图中的 2 帧（第 3 次尝试）");
    setLocale("en", false);
  });
});
