/** How the sandbox answers a request Node's HTTP parser refused or timed out (src/sandbox/failures.ts). */
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { answerClientError } from "../../src/sandbox/failures.js";

function socketThatRead(bytesRead: number) {
  const written: string[] = [];
  let destroyed = false;
  const socket = { writable: true, bytesRead, end: (text: string) => void written.push(text), destroy: () => void (destroyed = true) };
  return { socket: socket as unknown as Socket, written, destroyed: () => destroyed };
}

const timeout = Object.assign(new Error("request timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" });

describe("answerClientError", () => {
  it("closes a timed-out connection that sent nothing without an answer, as the silence timeout does", () => {
    const silent = socketThatRead(0);
    answerClientError(timeout, silent.socket);
    expect([silent.written, silent.destroyed()]).toEqual([[], true]);
  });

  it("answers 408 to a connection that sent part of a request too slowly", () => {
    const slow = socketThatRead(12);
    answerClientError(timeout, slow.socket);
    expect(slow.written).toHaveLength(1);
    expect(slow.written[0]).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });
});
