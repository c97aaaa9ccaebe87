/** Numbered lines out of byte chunks, one line held at a time and none longer than a cap. */

/** A longer line is refused once, without being kept whole. */
export const MAX_LINE_BYTES = 64 * 1024;

export interface InputLine {
  line: number;
  /** Null when the line is not valid UTF-8 or longer than the cap. */
  text: string | null;
  problem?: string;
}

/** Gathers the pieces of one line, dropping them (and remembering so) once it is too long. */
class LineBuffer {
  private parts: Buffer[] = [];
  private size = 0;
  private tooLong = false;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

  constructor(private readonly maxBytes: number) {}

  get pending(): boolean {
    return this.size > 0 || this.tooLong;
  }

  keep(piece: Buffer): void {
    if (this.tooLong || piece.length === 0) return;
    if (this.size + piece.length > this.maxBytes + 1) {
      this.tooLong = true;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  finish(line: number): InputLine {
    const { tooLong, parts, size } = this;
    this.parts = [];
    this.size = 0;
    this.tooLong = false;
    if (tooLong) return { line, text: null, problem: `line is longer than ${this.maxBytes} bytes` };
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    try {
      return { line, text: this.decoder.decode(bytes) };
    } catch {
      return { line, text: null, problem: "line is not valid UTF-8" };
    }
  }
}

/**
 * Splits byte chunks into numbered lines (LF or CRLF), decoding each line on its own so a
 * bad byte is blamed on its line; a UTF-8 byte-order mark on line 1 is dropped.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer | string>,
  maxLineBytes: number = MAX_LINE_BYTES,
): AsyncGenerator<InputLine> {
  const buffer = new LineBuffer(maxLineBytes);
  let line = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    let start = 0;
    for (;;) {
      const end = bytes.indexOf(0x0a, start);
      if (end === -1) {
        buffer.keep(bytes.subarray(start));
        break;
      }
      buffer.keep(bytes.subarray(start, end));
      yield buffer.finish(++line);
      start = end + 1;
    }
  }
  if (buffer.pending) yield buffer.finish(line + 1);
}
