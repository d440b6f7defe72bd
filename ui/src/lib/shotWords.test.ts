import { describe, expect, it } from "vitest";
import type { ShotRow } from "./evidenceShots";
import { describeShot } from "./shotWords";
import { setLocale } from "./i18n/index.svelte";

describe("describeShot", () => {
  it("says when a picture is the screen before the last action, in either language", () => {
    const crash: ShotRow = {
      name: "screenshots/attempt-007.png",
      attempt: 7,
      candidate: [1, 10, 11, 12],
      verdict: "reproduced",
      beforeStep: 12,
    };
    setLocale("en", false);
    expect(describeShot(crash).verdict).toBe("Reproduced, the screen right before step 12");
    expect(describeShot({ ...crash, beforeStep: null }).verdict).toBe("Reproduced");
    setLocale("zh-CN", false);
    expect(describeShot(crash).verdict).toBe("已复现，第 12 步操作之前的画面");
    setLocale("en", false);
  });
});
