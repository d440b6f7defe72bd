// The window's language: a reactive locale (a rune, so every template that calls `t()`
// re-renders when it changes), the message lookup with `{name}` parameters, plural forms,
// and Intl formatting in the same locale. The choice is kept in localStorage; without
// one, the OS language decides (zh* → Simplified Chinese, anything else → English).
import { en, type MessageKey, type Messages } from "./en";
import { zhCN } from "./zh-CN";

export type { MessageKey, Messages } from "./en";

export const LOCALES = ["en", "zh-CN"] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language named in itself, so a reader of either can find theirs. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", "zh-CN": "简体中文" };

export const STORAGE_KEY = "whittle.locale";

const catalogues: Record<Locale, Messages> = { en, "zh-CN": zhCN };

export type Params = Record<string, string | number>;

/** Keys that come as a `.one` / `.other` pair, named without the suffix. */
export type PluralKey = {
  [K in MessageKey]: K extends `${infer Base}.one` ? (`${Base}.other` extends MessageKey ? Base : never) : never;
}[MessageKey];

function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** A BCP 47 tag ("zh", "zh-Hans-CN", "zh-TW", "en-GB") → the locale Whittle shows. */
export function localeOfTag(tag: string | null | undefined): Locale {
  return tag && /^zh\b/i.test(tag.trim()) ? "zh-CN" : "en";
}

/** The saved choice if it is one Whittle knows, else the OS language. */
export function detectLocale(saved: string | null, languages: readonly string[]): Locale {
  if (isLocale(saved)) return saved;
  return localeOfTag(languages[0]);
}

function savedChoice(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    // Storage can be refused (privacy settings); the OS language still applies.
    return null;
  }
}

function systemLanguages(): readonly string[] {
  const nav = globalThis.navigator;
  if (!nav) return [];
  return nav.languages && nav.languages.length > 0 ? nav.languages : [nav.language];
}

class LocaleState {
  current = $state<Locale>(detectLocale(savedChoice(), systemLanguages()));
}

const state = new LocaleState();

function applyToDocument(locale: Locale) {
  if (typeof document !== "undefined") document.documentElement.lang = locale;
}
applyToDocument(state.current);

/** The locale the window shows now (reactive). */
export function locale(): Locale {
  return state.current;
}

/** Switches the language everywhere at once; `persist` keeps it for the next start. */
export function setLocale(next: Locale, persist = true): void {
  state.current = next;
  applyToDocument(next);
  if (!persist) return;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, next);
  } catch {
    // Not saved; the choice still holds for this window.
  }
}

/** Replaces `{name}` with `params.name`; a placeholder without a value stays as written. */
export function interpolate(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? formatNumber(value) : value;
  });
}

/** The message for `key` in the current locale, with its parameters filled in. */
export function t(key: MessageKey, params?: Params): string {
  return interpolate(catalogues[state.current][key], params);
}

/** A message that depends on a count: the locale's plural rule picks `.one` or `.other`. */
export function tn(key: PluralKey, count: number, params?: Params): string {
  const form = new Intl.PluralRules(state.current).select(count) === "one" ? "one" : "other";
  return t(`${key}.${form}` as MessageKey, { ...params, count });
}

/** Numbers in the locale's digits and grouping. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(state.current, options).format(value);
}

/**
 * A wall-clock date and time, formatted as written: the fields are shown in UTC so the
 * viewer's own time zone never shifts the recorder's local time.
 */
export function formatWallClock(year: number, month: number, day: number, hour: number, minute: number): string {
  return new Intl.DateTimeFormat(state.current, {
    dateStyle: "medium",
    timeStyle: "short",
    hourCycle: "h23",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(year, month - 1, day, hour, minute)));
}

/** The raw catalogues, for the key-parity test. */
export const CATALOGUES: Readonly<Record<Locale, Messages>> = catalogues;
