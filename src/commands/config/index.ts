/** `foodctl config`: read and change profile settings. */
import { GLOBALS } from "../globals.js";
import { CONFIG_KEYS } from "../../config/keys.js";
import { arg, group, verb } from "../spec.js";

const KEY = arg("<key>", CONFIG_KEYS.join(", "), CONFIG_KEYS);

const list = verb("list", "the settings of the profile and where each comes from", {
  globals: GLOBALS.settings,
  examples: `
    foodctl config list
    foodctl config list --profile staging --json
  `,
  run: async (ctx) => (await import("./config.js")).configList(ctx),
});

const get = verb("get", "print one setting", {
  globals: GLOBALS.setting,
  args: { key: KEY },
  examples: `
    foodctl config get api-url
  `,
  run: async (ctx, { key }) => (await import("./config.js")).configGet(ctx, key),
});

const set = verb("set", "store a setting in the profile (creates the profile)", {
  globals: GLOBALS.profile,
  args: { key: KEY, value: arg("<value>") },
  examples: `
    foodctl config set api-url https://api.example.com
    foodctl config set user 101 --profile support
  `,
  run: async (ctx, { key, value }) => (await import("./config.js")).configSet(ctx, key, value),
});

const unset = verb("unset", "remove a setting from the profile", {
  globals: GLOBALS.profile,
  args: { key: KEY },
  examples: `
    foodctl config unset user
  `,
  run: async (ctx, { key }) => (await import("./config.js")).configUnset(ctx, key),
});

const path = verb("path", "print the config file's path", {
  globals: GLOBALS.local,
  examples: `
    foodctl config path
  `,
  run: async (ctx) => (await import("./config.js")).configPathCommand(ctx),
});

export const config = group("config", `read and change profile settings: ${CONFIG_KEYS.join(", ")}`, {
  examples: `
    foodctl config set api-url https://api.example.com
    foodctl config list --profile staging
    foodctl config path
  `,
  verbs: [list, get, set, unset, path],
});
