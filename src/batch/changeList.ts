/**
 * The parsed changes of a batch, packed: the numbers in typed arrays (one per field) and each
 * update body as UTF-8 JSON in one growing buffer, about 60 bytes a change instead of several
 * small objects, so 100,000 lines stay far below the memory the input text would take.
 * Bodies are decoded on demand.
 */

/** One change: an update body for one intake, acting for one user. */
export interface BatchChange {
  /** The input line it comes from (CSV: the first row of the group). */
  line: number;
  imageId: number;
  /** From the line; undefined means the client's own (--user or the token's subject). */
  userId: number | undefined;
  fields: Record<string, unknown>;
  /** Why (the line's reason), recorded in its journal entry; undefined: the command's --reason. */
  reason?: string | undefined;
}

function grown(array: Float64Array, needed: number): Float64Array {
  if (needed <= array.length) return array;
  const bigger = new Float64Array(Math.max(array.length * 2, needed));
  bigger.set(array);
  return bigger;
}

export class ChangeList {
  private count = 0;
  private lines: Float64Array = new Float64Array(1024);
  private imageIds: Float64Array = new Float64Array(1024);
  /** 0 stands for "no user_id": ids are positive. */
  private userIds: Float64Array = new Float64Array(1024);
  private bodyStarts: Float64Array = new Float64Array(1024);
  private bodySizes: Float64Array = new Float64Array(1024);
  private arena = Buffer.allocUnsafe(64 * 1024);
  /** The reasons of the changes that give one, by index: most batches give none. */
  private reasons = new Map<number, string>();
  private used = 0;

  get length(): number {
    return this.count;
  }

  /** Appends a change; returns its index. */
  push(change: BatchChange): number {
    const index = this.count++;
    if (index >= this.lines.length) {
      this.lines = grown(this.lines, index + 1);
      this.imageIds = grown(this.imageIds, index + 1);
      this.userIds = grown(this.userIds, index + 1);
      this.bodyStarts = grown(this.bodyStarts, index + 1);
      this.bodySizes = grown(this.bodySizes, index + 1);
    }
    this.lines[index] = change.line;
    this.imageIds[index] = change.imageId;
    this.userIds[index] = change.userId ?? 0;
    this.writeFields(index, change.fields);
    if (change.reason !== undefined) this.reasons.set(index, change.reason);
    return index;
  }

  at(index: number): BatchChange {
    this.check(index);
    const userId = this.userIds[index]!;
    return {
      line: this.lines[index]!,
      imageId: this.imageIds[index]!,
      userId: userId === 0 ? undefined : userId,
      fields: this.fieldsAt(index),
      ...(this.reasons.has(index) ? { reason: this.reasons.get(index)! } : {}),
    };
  }

  imageIdAt(index: number): number {
    this.check(index);
    return this.imageIds[index]!;
  }

  fieldsAt(index: number): Record<string, unknown> {
    this.check(index);
    const start = this.bodyStarts[index]!;
    return JSON.parse(this.arena.toString("utf8", start, start + this.bodySizes[index]!)) as Record<string, unknown>;
  }

  *[Symbol.iterator](): IterableIterator<BatchChange> {
    for (let index = 0; index < this.count; index++) yield this.at(index);
  }

  private check(index: number): void {
    if (!(index >= 0 && index < this.count)) throw new RangeError(`no change ${index}`);
  }

  private writeFields(index: number, fields: Record<string, unknown>): void {
    const json = JSON.stringify(fields);
    const size = Buffer.byteLength(json);
    if (this.used + size > this.arena.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.used + size));
      this.arena.copy(bigger, 0, 0, this.used);
      this.arena = bigger;
    }
    this.arena.write(json, this.used, "utf8");
    this.bodyStarts[index] = this.used;
    this.bodySizes[index] = size;
    this.used += size;
  }
}
