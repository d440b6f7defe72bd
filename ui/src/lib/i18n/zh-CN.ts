// Simplified Chinese. Result words follow the algorithm's own Chinese (docs/design.md,
// Glossary):
// 最小路径 / 已收敛 only over a complete proof, otherwise 当前已复现的最短候选 / 未完成最小性证明;
// 偶发 (flaky), 预算耗尽, 不动点, 单删除候选, 置信度, 遮盖 / 省略 for screenshots.
import type { Messages } from "./en";
import { sessions } from "./zh-CN/sessions";
import { run } from "./zh-CN/run";
import { outcomes } from "./zh-CN/outcomes";
import { watch } from "./zh-CN/watch";

export const zhCN: Messages = { ...sessions, ...run, ...outcomes, ...watch };
