/** redactSecrets (src/secrets.ts): what it masks in text a server or a user gave us, and what it leaves. */
import { describe, expect, it } from "vitest";
import { MASK, redactSecrets } from "../../src/secrets.js";

describe("redactSecrets", () => {
  it("masks the given secrets of 8 characters or more, wherever they appear", () => {
    expect(redactSecrets("token s3cr3t-value echoed: s3cr3t-value.", ["s3cr3t-value", " short ", undefined])).toBe(
      `token ${MASK} echoed: ${MASK}.`,
    );
    expect(redactSecrets("id 1234567 and short", ["1234567", "short"])).toBe("id 1234567 and short");
  });

  it("masks JWT-shaped strings", () => {
    expect(redactSecrets("got eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMDEifQ.c2lnbmF0dXJl here")).toBe(`got ${MASK} here`);
  });

  it.each(["Bearer", "bearer", "BEARER", "BeArEr"])("masks the value after %s, in any case", (word) => {
    expect(redactSecrets(`sent "Authorization: ${word} opaque-abc.123", then`)).toBe(`sent "Authorization: ${word} ${MASK}", then`);
  });

  it.each(["https", "HTTPS", "Http", "git+ssh", "S3"])("masks the credentials of a %s:// URL, in any case", (scheme) => {
    expect(redactSecrets(`from ${scheme}://alice:pa55@api.example.com/v2 ok`)).toBe(`from ${scheme}://${MASK}@api.example.com/v2 ok`);
  });

  it("leaves a shell reference after Bearer (a --curl line reads the token when it runs), and still masks the token in use", () => {
    for (const text of ['-H "authorization: Bearer $FOODCTL_TOKEN"', '-H "authorization: Bearer $(foodctl auth token --profile default)"'])
      expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets("Bearer $secret-token-value", ["$secret-token-value"])).toBe(`Bearer ${MASK}`);
  });

  it("leaves text without secrets as it is", () => {
    const text = "set-quantity 1002 1=150: 180 g → 150 g on https://api.example.com/v2 (no token here) 9://x@y";
    expect(redactSecrets(text)).toBe(text);
  });
});
