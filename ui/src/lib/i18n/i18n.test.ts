import { describe, expect, it } from "vitest";
import { en } from "./en";
import { zhCN } from "./zh-CN";
import { CATALOGUES, detectLocale, interpolate, locale, localeOfTag, setLocale, STORAGE_KEY, t, tn } from "./index.svelte";

const paramsOf = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("message catalogues", () => {
  it("has every English key in Simplified Chinese and no other", () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
  });

  it("has no empty message in any locale", () => {
    for (const [name, messages] of Object.entries(CATALOGUES)) {
      const empty = Object.entries(messages).filter(([, text]) => text.trim() === "");
      expect(empty.map(([key]) => `${name}:${key}`)).toEqual([]);
    }
  });

  it("uses the same {params} in both locales for every key", () => {
    const mismatched = (Object.keys(en) as Array<keyof typeof en>).filter(
      (key) => paramsOf(en[key]).join() !== paramsOf(zhCN[key]).join(),
    );
    expect(mismatched).toEqual([]);
  });

  it("pairs every plural form", () => {
    const keys = new Set(Object.keys(en));
    for (const key of keys) {
      if (key.endsWith(".one")) expect(keys.has(key.replace(/\.one$/, ".other")), key).toBe(true);
      if (key.endsWith(".other")) expect(keys.has(key.replace(/\.other$/, ".one")), key).toBe(true);
    }
  });

  it("really translates: the Chinese catalogue is not English text copied over", () => {
    const han = /\p{Script=Han}/u;
    const translated = Object.values(zhCN).filter((text) => han.test(text)).length;
    expect(translated / Object.keys(zhCN).length).toBeGreaterThan(0.9);
  });
});

describe("locale", () => {
  it("follows a saved choice, else the OS language (zh* is Simplified Chinese)", () => {
    expect(detectLocale("zh-CN", ["en-US"])).toBe("zh-CN");
    expect(detectLocale("en", ["zh-CN"])).toBe("en");
    expect(detectLocale(null, ["zh-CN", "en"])).toBe("zh-CN");
    expect(detectLocale(null, ["zh"])).toBe("zh-CN");
    expect(detectLocale(null, ["zh-Hans-SG"])).toBe("zh-CN");
    expect(detectLocale(null, ["en-GB"])).toBe("en");
    expect(detectLocale("klingon", ["de-DE"])).toBe("en");
    expect(detectLocale(null, [])).toBe("en");
    expect(localeOfTag("zhuang")).toBe("en");
  });

  it("switches every message, saves the choice and sets <html lang>", () => {
    expect(t("history.title")).toBe("Candidate history");
    setLocale("zh-CN");
    expect(locale()).toBe("zh-CN");
    expect(t("history.title")).toBe("候选历史");
    expect(localStorage.getItem(STORAGE_KEY)).toBe("zh-CN");
    expect(document.documentElement.lang).toBe("zh-CN");
    setLocale("en");
    expect(document.documentElement.lang).toBe("en");
  });

  it("fills {params} and leaves an unknown one visible", () => {
    expect(t("viewer.title", { attempt: 7 })).toBe("Screenshot of attempt 7");
    expect(interpolate("{a} and {b}", { a: "x" })).toBe("x and {b}");
  });

  it("never says '1 steps' and picks Chinese forms by the same rule", () => {
    expect(tn("common.steps", 1)).toBe("1 step");
    expect(tn("common.steps", 2)).toBe("2 steps");
    expect(tn("result.replaysOfMax", 1, { max: 30 })).toBe("1 replay of at most 30.");
    setLocale("zh-CN", false);
    expect(tn("result.replaysOfMax", 1, { max: 30 })).toBe("共 1 次回放，上限 30 次。");
  });
});
