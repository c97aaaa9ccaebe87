import { describe, expect, it } from "vitest";
import { CliError, errorForStatus, EXIT, toCliError, usageError } from "../../src/errors.js";

describe("errorForStatus", () => {
  it.each([
    [400, EXIT.rejected, "rejected"],
    [401, EXIT.auth, "auth"],
    [403, EXIT.forbidden, "forbidden"],
    [404, EXIT.notFound, "not_found"],
    [409, EXIT.rejected, "rejected"],
    [413, EXIT.rejected, "rejected"],
    [415, EXIT.rejected, "rejected"],
    [422, EXIT.rejected, "rejected"],
    [429, EXIT.unavailable, "unavailable"],
    [500, EXIT.unavailable, "unavailable"],
    [502, EXIT.unavailable, "unavailable"],
    [503, EXIT.unavailable, "unavailable"],
    [504, EXIT.unavailable, "unavailable"],
  ])("maps HTTP %d to exit %d (%s)", (status, exitCode, code) => {
    const error = errorForStatus(status, `api answered ${status}`);
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(exitCode);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.message).toBe(`api answered ${status}`);
  });

  it("hints at logging in on 401", () => {
    expect(errorForStatus(401, "x").hint).toMatch(/auth login/);
  });

  it("keeps a given hint and cause", () => {
    const cause = new Error("inner");
    const error = errorForStatus(400, "x", { hint: "use --user", cause });
    expect(error.hint).toBe("use --user");
    expect(error.cause).toBe(cause);
  });

  it("calls an unexpected non-error status a failure (exit 1)", () => {
    expect(errorForStatus(302, "moved").exitCode).toBe(EXIT.failure);
  });
});

describe("toCliError", () => {
  it("passes a CliError through unchanged", () => {
    const error = usageError("bad flag");
    expect(toCliError(error)).toBe(error);
  });

  it("turns any other Error into exit 1, keeping it as the cause", () => {
    const bug = new TypeError("x is undefined");
    const error = toCliError(bug);
    expect(error.exitCode).toBe(EXIT.failure);
    expect(error.code).toBe("failure");
    expect(error.message).toBe("unexpected error: x is undefined");
    expect(error.cause).toBe(bug);
  });

  it("turns a thrown non-Error into exit 1", () => {
    expect(toCliError("boom")).toMatchObject({ exitCode: EXIT.failure, message: "unexpected error: boom" });
    expect(toCliError(undefined).exitCode).toBe(EXIT.failure);
  });
});

describe("EXIT", () => {
  it("holds the exit codes of docs/cli.md", () => {
    expect(EXIT).toEqual({
      ok: 0,
      failure: 1,
      usage: 2,
      cancelled: 3,
      auth: 4,
      forbidden: 5,
      notFound: 6,
      rejected: 7,
      unavailable: 8,
      partial: 9,
      interrupted: 130,
    });
  });
});
