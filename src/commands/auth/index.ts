/** `foodctl auth`: log in, inspect and forget the API token. */
import { GLOBALS } from "../globals.js";
import { group, option, verb } from "../spec.js";

const login = verb(
  "login",
  "store a token (a JWT or an opaque service token) in the profile: hidden prompt on a terminal, or stdin with --with-token",
  {
    globals: ["--profile", "--json"],
    options: { withToken: option("--with-token", "read the token from stdin") },
    examples: `
      foodctl auth login
      echo "$TOKEN" | foodctl auth login --with-token --profile staging
    `,
    run: async (ctx, options) => (await import("./login.js")).loginCommand(ctx, options),
  },
);

const status = verb("status", "profile, API URL, token source and kind (a JWT's subject, role, expiry); exit 4 without a usable token", {
  globals: GLOBALS.status,
  options: {
    check: option(
      "--check",
      "ask the server whether it accepts the token (one read; exit 4 when it does not), and show the calls left in the " +
        "rate-limit window, when it resets and the credits left (--verbose: their headers); a manager's or company's token " +
        "checks as the user --user names (without one: exit 2, nothing asked)",
    ),
  },
  examples: `
    foodctl auth status
    foodctl auth status --check
    foodctl auth status --check --user 101          # a company's token, checked as user 101
    foodctl auth status --json | jq .token_kind
  `,
  run: async (ctx, options) => (await import("./status.js")).statusCommand(ctx, options),
});

const logout = verb("logout", "forget the stored token of the profile", {
  globals: ["--profile", "--json"],
  examples: `
    foodctl auth logout --profile staging
  `,
  run: async (ctx) => (await import("./logout.js")).logoutCommand(ctx),
});

const token = verb("token", "print the token, for scripts", {
  globals: ["--profile"],
  examples: `
    curl -H "Authorization: Bearer $(foodctl auth token)" ...
  `,
  run: async (ctx) => (await import("./token.js")).tokenCommand(ctx),
});

export const auth = group("auth", "log in, inspect and forget the API token", {
  examples: `
    foodctl auth login --with-token < token.txt
    foodctl auth status
    foodctl auth logout
  `,
  verbs: [login, status, logout, token],
});
