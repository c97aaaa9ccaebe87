/**
 * `intake show --web` in a real terminal (`script` gives it one), with the bundled xdg-open as
 * the opener: it waits for the opener's answer, and when no browser opened says so with the URL
 * (exit 8); following its hint (a BROWSER that works) opens the image.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { baseEnv, cliBin, collect, runCli, runTempDir } from "../helpers/cli.js";
import { withSandbox } from "../helpers/sandbox.js";

describe("intake show --web", () => {
  const sandbox = withSandbox();

  function inTerminal(args: string, env: Record<string, string | undefined>) {
    const command = `stty cols 200 rows 40; exec "${process.execPath}" "${cliBin()}" ${args}`;
    const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
      env: baseEnv({
        FOODCTL_API_URL: sandbox.handle.url,
        FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"),
        NO_COLOR: "1",
        TERM: "xterm-256color",
        DISPLAY: ":0",
        WAYLAND_DISPLAY: undefined,
        XDG_CURRENT_DESKTOP: undefined,
        DESKTOP_SESSION: undefined,
        ...env,
      }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    return collect(child, { timeoutMs: 30_000 });
  }

  it("a display but no browser: exit 8, the URL and why; with the BROWSER the hint names, the image opens", async () => {
    const folder = runTempDir("foodctl-web-");
    const refused = await inTerminal("intake show 1002 --web", { BROWSER: "false" });
    const text = refused.stdout.replace(/\r\n/g, "\n");
    expect(refused.code, text).toBe(8);
    const error =
      /^error: no browser opened the image \(BROWSER="false": the opener \(xdg-open\) exited with code \d+\): it is at (\S+)$/m.exec(text);
    expect(error, text).not.toBeNull();
    const url = error![1]!;
    expect(url).toMatch(new RegExp(`^${sandbox.handle.url}/images/\\S+$`));
    expect(text).toMatch(
      /^hint: BROWSER names a command that opened no browser: set it to one that works here \(BROWSER=firefox\), or open that URL yourself$/m,
    );
    expect(text).not.toContain("opening");

    const browser = join(folder, "browser");
    const opened = join(folder, "opened.txt");
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" > "${opened}"\n`);
    chmodSync(browser, 0o755);
    const followed = await inTerminal("intake show 1002 --web", { BROWSER: browser });
    expect(followed.code, followed.stdout).toBe(0);
    expect(followed.stdout.replace(/\r\n/g, "\n")).toContain(`opened ${url} in the browser\n`);
    expect(existsSync(opened)).toBe(true);
    expect(readFileSync(opened, "utf8")).toBe(`${url}\n`);
  });

  it("off a terminal, even with a display and a browser: prints the URL and opens nothing", async () => {
    const folder = runTempDir("foodctl-web-");
    const opened = join(folder, "opened.txt");
    const browser = join(folder, "browser");
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" > "${opened}"\n`);
    chmodSync(browser, 0o755);
    const env = { FOODCTL_API_URL: sandbox.handle.url, FOODCTL_TOKEN: sandbox.handle.tokenFor("alice"), DISPLAY: ":0", BROWSER: browser };
    const piped = await runCli(["intake", "show", "1002", "--web"], { env });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toMatch(
      new RegExp(`^not on a terminal, so no browser is opened: the image is at ${sandbox.handle.url}/images/\\S+\n$`),
    );
    expect(existsSync(opened)).toBe(false);
  });
});
