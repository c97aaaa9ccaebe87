/** `foodctl config`: read and change profile settings. */
import { CONFIG_KEYS } from "../../config/keys.js";
import { verb, type ArgSpec, type Noun } from "../spec.js";

const KEY: ArgSpec = { name: "<key>", description: "api-url, user or timeout", complete: CONFIG_KEYS };

const list = verb({
  name: "list",
  description: "the settings of the profile and where each comes from",
  examples: ["foodctl config list", "foodctl config list --profile staging --json"],
  parse: () => ({}),
  run: async (ctx) => (await import("./config.js")).configList(ctx),
});

const get = verb({
  name: "get",
  description: "print one setting",
  args: [KEY],
  examples: ["foodctl config get api-url"],
  parse: (input) => ({ key: input.arg(0) }),
  run: async (ctx, { key }) => (await import("./config.js")).configGet(ctx, key),
});

const set = verb({
  name: "set",
  description: "store a setting in the profile (creates the profile)",
  args: [KEY, { name: "<value>" }],
  examples: ["foodctl config set api-url https://api.example.com", "foodctl config set user 101 --profile support"],
  parse: (input) => ({ key: input.arg(0), value: input.arg(1) }),
  run: async (ctx, { key, value }) => (await import("./config.js")).configSet(ctx, key, value),
});

const unset = verb({
  name: "unset",
  description: "remove a setting from the profile",
  args: [KEY],
  examples: ["foodctl config unset user"],
  parse: (input) => ({ key: input.arg(0) }),
  run: async (ctx, { key }) => (await import("./config.js")).configUnset(ctx, key),
});

const path = verb({
  name: "path",
  description: "print the config file's path",
  examples: ["foodctl config path"],
  parse: () => ({}),
  run: async (ctx) => (await import("./config.js")).configPathCommand(ctx),
});

export const config: Noun = {
  name: "config",
  description: "read and change profile settings: api-url, user, timeout",
  examples: ["foodctl config set api-url https://api.example.com", "foodctl config list --profile staging", "foodctl config path"],
  verbs: [list, get, set, unset, path],
};
