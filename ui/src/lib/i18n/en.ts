// The source of every message key the window shows. `zh-CN.ts` must carry exactly these
// keys (its type is `Messages`, so tsc refuses a missing one; i18n.test.ts refuses an extra
// one and checks that both use the same `{params}`). A key ending in `.one` / `.other` is a pair of
// plural forms chosen by `tn()`; every other key is a single message for `t()`.
// Keys are grouped by the screen that shows them, one file per part of the window in
// `en/`; shared words live under `common.`.
import { sessions } from "./en/sessions";
import { run } from "./en/run";
import { outcomes } from "./en/outcomes";
import { watch } from "./en/watch";

export const en = { ...sessions, ...run, ...outcomes, ...watch } as const;

export type MessageKey = keyof typeof en;
/** What every locale must provide: a string for each key of `en`. */
export type Messages = { readonly [K in MessageKey]: string };
