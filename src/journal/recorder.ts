/**
 * What a changing command writes to the journal: a begin record before the request is sent, a
 * complete record after. Server and user text passes through redactSecrets on its way in.
 */
import type { RequestDescription } from "../api/client.js";
import type { Intake } from "../records/intake.js";
import { CliError } from "../errors.js";
import { redactSecrets } from "../secrets.js";
import type { Actor, BeginRecord, CompleteRecord, ImageCopy, OthersChange, Outcome, Overwritten } from "./entry.js";
import { intakeState } from "./state.js";
import type { JournalStore } from "./store.js";
import { systemClock, type Clock } from "../clock.js";

export interface RecorderOptions {
  store: JournalStore;
  /** Entries older than this many days are dropped on write; null keeps everything. */
  days: number | null;
  profile: string;
  apiUrl: string;
  userId: number | null;
  /** Who acts: the token's subject and role, when its claims tell them. */
  actor?: Actor | undefined;
  /** --reason: recorded with every change of this command unless a change gives its own. */
  reason?: string | undefined;
  command: string;
  /** Masked wherever they appear in what is written. */
  secrets: readonly string[];
  /**
   * Told when a complete record cannot be written (the change was sent: the command goes on and
   * reports it); without it, that failure is thrown.
   */
  warn?: (message: string) => void;
  /** The run's clock (entries' ids and times); the system's when not given. */
  clock?: Clock | undefined;
}

let lastTime = -1;
let sequence = 0;

/**
 * Short, unique and sortable: milliseconds in base 36, a sequence within the millisecond, and the
 * process id's last three base-36 digits, which tell apart two processes writing in the same
 * millisecond (random digits could be the same for both). A 37th id within one millisecond takes
 * the next millisecond, so the sequence keeps to its one digit and ids never repeat.
 */
export function newEntryId(now: number, pid: number = process.pid): string {
  if (now > lastTime) {
    lastTime = now;
    sequence = 0;
  } else if (sequence < 35) {
    sequence += 1;
  } else {
    lastTime += 1;
    sequence = 0;
  }
  const processDigits = (pid % 36 ** 3).toString(36).padStart(3, "0");
  return `${lastTime.toString(36).padStart(8, "0")}${sequence.toString(36)}${processDigits}`;
}

/** The user_id a request names (a batch line may act for another user than the command's). */
function actedFor(url: string): number | null {
  const text = new URL(url).searchParams.get("user_id");
  return text !== null && /^[1-9][0-9]*$/.test(text) ? Number(text) : null;
}

export interface BeginInput {
  id?: string;
  imageId: number;
  request: RequestDescription;
  before: Intake | null;
  batchId?: string | undefined;
  undoOf?: string | undefined;
  /** This change's own reason (a batch line's), else the command's. */
  reason?: string | undefined;
  imageCopy?: ImageCopy | null;
  notes?: string[];
}

export interface CompleteInput {
  outcome: Exclude<Outcome, "unknown">;
  after: Intake | null;
  /** The read-back when another writer overwrote what this change set (then `after` is null). */
  found?: Intake | undefined;
  overwritten?: Overwritten[];
  othersChanged?: OthersChange[];
  notes?: string[];
  error?: unknown;
}

/** The note of a change whose read-back showed another writer's value in a field it set. */
export const OVERWRITTEN_NOTE = "another writer changed what this change set meanwhile: the read-back is kept as found, not as its result";

/** A reason as recorded: its text with line breaks made spaces; nothing when none was given. */
function reasonOf(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason: reason.replace(/[\r\n]+/g, " ") };
}

export class JournalRecorder {
  /** The intake of each entry begun and not yet completed, for the warning when completing fails. */
  private readonly open = new Map<string, number>();

  constructor(private readonly options: RecorderOptions) {}

  private now(): number {
    return (this.options.clock ?? systemClock).now();
  }

  get store(): JournalStore {
    return this.options.store;
  }

  newId(): string {
    return newEntryId(this.now());
  }

  /** The record with every secret masked; the record itself (built here, never shared) when there was none. */
  private clean<T>(value: T): T {
    const text = JSON.stringify(value);
    const masked = redactSecrets(text, this.options.secrets);
    return masked === text ? value : (JSON.parse(masked) as T);
  }

  /** Written before the request is sent: a crash from here on leaves an "unknown" entry. */
  async begin(input: BeginInput): Promise<string> {
    const id = input.id ?? this.newId();
    const { method, url, body } = input.request;
    const record: BeginRecord = {
      record: "begin",
      id,
      time: new Date(this.now()).toISOString(),
      profile: this.options.profile,
      api_url: this.options.apiUrl,
      user_id: actedFor(input.request.url) ?? this.options.userId,
      image_id: input.imageId,
      command: this.options.command,
      ...(input.batchId === undefined ? {} : { batch_id: input.batchId }),
      ...(input.undoOf === undefined ? {} : { undo_of: input.undoOf }),
      request: { method, url, body },
      before: input.before ? intakeState(input.before) : null,
      ...(input.imageCopy === undefined ? {} : { image_copy: input.imageCopy }),
      ...(this.options.actor === undefined ? {} : { actor: this.options.actor }),
      ...reasonOf(input.reason ?? this.options.reason),
    };
    const notes = [...(input.before ? [] : ["before state unknown: the intake was not read before the change"]), ...(input.notes ?? [])];
    if (notes.length) record.notes = notes;
    await this.options.store.append(this.clean(record), this.options.days, this.now());
    this.open.set(id, input.imageId);
    return id;
  }

  async complete(id: string, input: CompleteInput): Promise<void> {
    const overwritten = input.overwritten ?? [];
    const othersChanged = input.othersChanged ?? [];
    const notes = [
      ...(input.outcome === "applied" && !input.after && !input.found
        ? ["after state unknown: the intake was not read after the change"]
        : []),
      ...(overwritten.length ? [OVERWRITTEN_NOTE] : []),
      ...(input.notes ?? []),
    ];
    const error = input.error === undefined ? undefined : input.error instanceof Error ? input.error.message : String(input.error);
    const record: CompleteRecord = {
      record: "complete",
      id,
      time: new Date(this.now()).toISOString(),
      outcome: input.outcome,
      after: input.after ? intakeState(input.after) : null,
      ...(input.found ? { found: intakeState(input.found) } : {}),
      ...(overwritten.length ? { overwritten } : {}),
      ...(othersChanged.length ? { others_changed: othersChanged } : {}),
      ...(notes.length ? { notes } : {}),
      ...(error === undefined ? {} : { error }),
    };
    const imageId = this.open.get(id);
    this.open.delete(id);
    try {
      await this.options.store.append(this.clean(record), null, this.now());
    } catch (error) {
      if (!this.options.warn) throw error;
      this.options.warn(incompleteEntry(id, imageId, input.outcome, error));
    }
  }
}

/** The warning for a change sent whose outcome the journal could not record: what happened to the intake, and what the entry now says. */
function incompleteEntry(id: string, imageId: number | undefined, outcome: CompleteInput["outcome"], error: unknown): string {
  const intake = imageId === undefined ? "the intake" : `intake ${imageId}`;
  const what = outcome === "applied" ? `the change to ${intake} was applied` : `the change to ${intake} failed (the server refused it)`;
  const reason = error instanceof Error ? error.message : String(error);
  return `${what}, but the journal could not record it (${reason}): journal entry ${id} stays outcome unknown`;
}

/** A send that failed: "failed" when the server answered with an error, "unknown" when it may have been applied. */
export function outcomeOfError(error: unknown): "failed" | null {
  return error instanceof CliError && error.status !== undefined ? "failed" : null;
}
