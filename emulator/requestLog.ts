// The log of API calls the control plane serves, bounded in entries and in what each keeps, so that
// tests can count a client's attempts, retries included.
import type { AuthKind } from "./auth";
import type { FaultKind } from "./faults";

/**
 * One API request as the control plane reports it; `status` is 0 when a fault reset the connection.
 * `rateLimited` marks the rate limiter's answer (429, or 403 with the status set to 403); a
 * fault-injected 429 has `fault: "status"` instead.
 */
export interface RequestLogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  auth: AuthKind;
  durationMs: number;
  fault?: FaultKind;
  rateLimited?: true;
  /** The linked account the request names (its `linked_account_id` header, query or body), when it names one. */
  linkedAccountId?: string;
}

/** What the dashboard's journal asks of the log: a window of entries, newest first, that pass a filter. */
export interface RequestLogQuery {
  /** Only entries after this sequence number (a poll's cursor: the `lastSeq` of the previous answer). */
  since?: number;
  /** Only entries before this sequence number (the next older page). */
  before?: number;
  /** At most this many entries. */
  limit: number;
  /** Keeps the entries it returns true for. */
  filter?: (entry: RequestLogEntry) => boolean;
}

/** A window of the log, newest first, with the cursor for the next poll. */
export interface RequestLogWindow {
  entries: RequestLogEntry[];
  /** The newest sequence number given so far (0 before the first): poll with `since` set to it. */
  lastSeq: number;
  /** Whether older entries that pass the filter were left out (ask again with `before`). */
  more: boolean;
  /** Entries the log holds, and at most. */
  size: number;
  capacity: number;
}

/** Entries kept by default before the oldest are dropped: well over the calls of any test or benchmark command. */
export const REQUEST_LOG_CAPACITY = 50_000;
/** What an entry keeps of a request's path, and of each query value: bounds the log's memory whatever clients send. */
const MAX_TEXT = 256;
/** How many query parameters an entry keeps. */
const MAX_QUERY_KEYS = 16;

function clip(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT)}…`;
}

/** A bounded copy of a parsed query: at most MAX_QUERY_KEYS keys, each value as clipped text. */
function boundedQuery(query: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query).slice(0, MAX_QUERY_KEYS)) {
    kept[clip(key)] =
      typeof value === "string"
        ? clip(value)
        : Array.isArray(value)
          ? value.slice(0, MAX_QUERY_KEYS).map((v) => clip(String(v)))
          : value;
  }
  return kept;
}

/** Bounded log of API requests; sequence numbers keep growing across clears so `since` cursors stay valid. */
export class RequestLog {
  private readonly ring: RequestLogEntry[] = [];
  private head = 0;
  private nextSeq = 1;

  /** Creates a log that keeps the last `capacity` entries. */
  constructor(readonly capacity = REQUEST_LOG_CAPACITY) {}

  /** Appends an entry and gives it the next sequence number. */
  record(entry: Omit<RequestLogEntry, "seq">): RequestLogEntry {
    const logged = { seq: this.nextSeq++, ...entry, path: clip(entry.path), query: boundedQuery(entry.query) };
    if (entry.linkedAccountId !== undefined) logged.linkedAccountId = clip(entry.linkedAccountId);
    if (this.ring.length < this.capacity) this.ring.push(logged);
    else {
      this.ring[this.head] = logged;
      this.head = (this.head + 1) % this.capacity;
    }
    return logged;
  }

  /** Entries with a sequence number greater than `since`, oldest first. */
  list(since = 0): RequestLogEntry[] {
    const ordered = [...this.ring.slice(this.head), ...this.ring.slice(0, this.head)];
    const firstSeq = ordered.length > 0 ? ordered[0].seq : this.nextSeq;
    return ordered.slice(Math.max(0, since - firstSeq + 1));
  }

  /**
   * A window of entries, newest first, walking back from the newest only as far as it must: a poll
   * of a full log (50,000 entries) with nothing new costs one comparison.
   */
  window({ since = 0, before = Infinity, limit, filter }: RequestLogQuery): RequestLogWindow {
    const { ring, head } = this;
    const entries: RequestLogEntry[] = [];
    let more = false;
    for (let i = 0; i < ring.length; i++) {
      // The newest entry sits just before `head` once the ring has wrapped, else at the end.
      const entry = ring[(head - 1 - i + ring.length) % ring.length];
      if (entry.seq <= since) break;
      if (entry.seq >= before || (filter && !filter(entry))) continue;
      if (entries.length === limit) {
        more = true;
        break;
      }
      entries.push(entry);
    }
    return { entries, lastSeq: this.nextSeq - 1, more, size: ring.length, capacity: this.capacity };
  }

  /** Drops every entry and returns how many were dropped. */
  clear(): number {
    const dropped = this.ring.length;
    this.ring.length = 0;
    this.head = 0;
    return dropped;
  }
}
