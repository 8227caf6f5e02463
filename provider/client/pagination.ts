// Walking the platform's paginated lists (`page`, `limit`, and the envelope of platform facts,
// "Common"). Lookups and resources both list, so the walk lives with the client, once.

/** The platform's page size limit (platform facts: `limit` at most 100). */
export const MAX_PAGE_SIZE = 100;

/** One page of a list, as the client returns it. */
export interface PageResult<T> {
  docs: T[];
  totalDocs: number;
  page: number;
  totalPages?: number | null;
  hasNextPage?: boolean | null;
}

/** Fetches one page of a list: `page` counts from 1, `limit` is the page size. */
export type PageFetch<T> = (page: number, limit: number) => Promise<PageResult<T>>;

/**
 * Every item of a list, in order, fetching page 2, 3, ... only when the caller asks for more, so
 * a search that finds what it wants on page 1 costs one request.
 */
export async function* eachItem<T>(fetch: PageFetch<T>, pageSize = MAX_PAGE_SIZE): AsyncGenerator<T> {
  // The page size stays the same on every page, or the platform's page numbers would shift.
  for (let page = 1; ; page += 1) {
    const result = await fetch(page, pageSize);
    yield* result.docs;
    const more = result.hasNextPage ?? (result.totalPages != null ? page < result.totalPages : page * pageSize < result.totalDocs);
    if (!more || result.docs.length === 0) return;
  }
}

/** Every item of a list, or the first `max`; requests only the pages needed. */
export async function collectPages<T>(fetch: PageFetch<T>, max?: number): Promise<T[]> {
  const items: T[] = [];
  if (max !== undefined && max <= 0) return items;
  for await (const item of eachItem(fetch, max === undefined ? MAX_PAGE_SIZE : Math.min(MAX_PAGE_SIZE, max))) {
    items.push(item);
    if (items.length === max) break;
  }
  return items;
}

/** The first item of a list that matches, or undefined; stops fetching at the page that holds it. */
export async function findItem<T>(fetch: PageFetch<T>, matches: (item: T) => boolean): Promise<T | undefined> {
  for await (const item of eachItem(fetch)) if (matches(item)) return item;
  return undefined;
}
