// The platform's paginated lists (`page`, `limit`, and the envelope of docs/design/contract.md#pagination),
// walked here once: every list operation of the client returns a PageList (docs/design/client.md).
import { z } from "zod";

/** The platform's page size limit (docs/design/contract.md#pagination: `limit` at most 100). */
export const MAX_PAGE_SIZE = 100;

/** One page of a list, as the platform returns it. */
export interface PageResult<T> {
  docs: T[];
  totalDocs: number;
  page: number;
  totalPages?: number | null;
  hasNextPage?: boolean | null;
}

/** The paginated envelope `{docs, totalDocs, limit, page, ...}` (docs/design/contract.md#pagination). */
export function Page<T extends z.ZodType>(item: T) {
  return z.looseObject({
    docs: z.array(item),
    totalDocs: z.number().int().nonnegative(),
    limit: z.number().int().positive(),
    page: z.number().int().positive(),
    totalPages: z.number().int().nonnegative().nullish(),
    hasNextPage: z.boolean().nullish(),
  });
}

/** `page` and `limit`, as every list operation takes them. */
export interface PageQuery {
  page?: number;
  limit?: number;
}

/** Fetches one page of a list: `page` counts from 1, `limit` is the page size. */
export type PageFetch<T> = (page: number, limit: number) => Promise<PageResult<T>>;

/**
 * A list operation's answer, as openai-node's: `await` it for the one page asked for, or iterate
 * it with `for await` for every item, fetching page 2, 3, ... only as the caller asks for more.
 */
export class PageList<T> implements PromiseLike<PageResult<T>>, AsyncIterable<T> {
  private firstPage?: Promise<PageResult<T>>;

  /** A list whose pages `fetch` gets; `query` is the page awaiting it answers. */
  constructor(
    private readonly fetch: PageFetch<T>,
    private readonly query: PageQuery = {},
  ) {}

  /** The page asked for (the platform's defaults when none was), fetched once. */
  then<A = PageResult<T>, B = never>(
    onFulfilled?: ((page: PageResult<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.firstPage ??= this.fetch(this.query.page as number, this.query.limit as number);
    return this.firstPage.then(onFulfilled, onRejected);
  }

  /** Every item, in order, from page 1, at the largest page size unless the query set one. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    yield* this.items(this.query.limit ?? MAX_PAGE_SIZE);
  }

  /** Every item, or the first `max`; requests only the pages needed. */
  async all(max?: number): Promise<T[]> {
    const items: T[] = [];
    if (max !== undefined && max <= 0) return items;
    for await (const item of this.items(max === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, max))) {
      items.push(item);
      if (items.length === max) break;
    }
    return items;
  }

  /** The first item that matches, or undefined; stops fetching at the page that holds it. */
  async find(matches: (item: T) => boolean): Promise<T | undefined> {
    for await (const item of this) if (matches(item)) return item;
    return undefined;
  }

  private async *items(pageSize: number): AsyncGenerator<T> {
    // The page size stays the same on every page, or the platform's page numbers would shift.
    for (let page = 1; ; page += 1) {
      const result = await this.fetch(page, pageSize);
      yield* result.docs;
      const more =
        result.hasNextPage ??
        (result.totalPages != null ? page < result.totalPages : page * pageSize < result.totalDocs);
      if (!more || result.docs.length === 0) return;
    }
  }
}
