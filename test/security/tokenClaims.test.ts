/** Issue 15: a token's claims are outside text; printing them must not drive the terminal. */
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { runFoodctl } from "../helpers/cli.js";

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const OWN_SGR = /\u001b\[[0-9;]*m/g;
const SUBJECT = "101\u001b]0;pwned\u0007\u001b[2J\u009b31m";
const ROLE = "\u202eresUIPA\u2066";

function hostileToken(expiresIn: string): Promise<string> {
  return new SignJWT({ role: ROLE })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(SUBJECT)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode("claims-test-secret-not-used-elsewhere"));
}

function foodctl(args: string[], options: { token?: string; stdin?: string; tty?: boolean }) {
  const env = options.token ? { FOODCTL_TOKEN: options.token } : {};
  return runFoodctl(args, { env, tty: options.tty ?? false, ...(options.stdin !== undefined ? { stdin: options.stdin } : {}) });
}

describe("token claims", () => {
  it.each([
    { what: "auth status", args: ["auth", "status"], expires: "1h", code: 0 },
    { what: "auth status of an expired token", args: ["auth", "status"], expires: "-1h", code: 4 },
    { what: "auth status --json", args: ["auth", "status", "--json"], expires: "1h", code: 0 },
    { what: "auth login --with-token", args: ["auth", "login", "--with-token"], expires: "1h", code: 0, stdin: true },
    { what: "auth login --with-token --json", args: ["auth", "login", "--with-token", "--json"], expires: "1h", code: 0, stdin: true },
  ])("control characters in a token's claims do not reach stdout or stderr raw: $what", async ({ args, expires, code, stdin }) => {
    const token = await hostileToken(expires);
    for (const tty of [false, true]) {
      const result = await foodctl(args, stdin ? { stdin: `${token}\n`, tty } : { token, tty });
      expect(result.code, result.stderr).toBe(code);
      for (const text of [result.stdout, result.stderr]) expect(text.replace(OWN_SGR, "")).not.toMatch(UNSAFE);
      expect(result.stdout).toContain("101");
      if (args.includes("--json")) expect(JSON.parse(result.stdout)).toMatchObject({ subject: SUBJECT, role: ROLE });
    }
  });
});
