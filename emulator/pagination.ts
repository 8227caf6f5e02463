// Pages of a list, as the platform serves them (docs/design/contract.md#pagination): `page` and
// `limit` in the query, the mongoose-paginate envelope in the answer.
import { z } from "zod";

/** Largest page the platform serves. */
export const MAX_PAGE_SIZE = 100;

function positiveInteger(max: number) {
  const error = `must be an integer between 1 and ${max}`;
  return z.coerce.number({ error }).int({ error }).min(1, { error }).max(max, { error });
}

/** The last page asked for that keeps `pagingCounter` a safe integer: far past any list's end. */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE);

/** Query parameters `page` (default 1) and `limit` (default 10, at most 100); extend it with a route's filters. */
export const paginationQuerySchema = z.object({
  page: positiveInteger(MAX_PAGE).default(1),
  limit: positiveInteger(MAX_PAGE_SIZE).default(10),
});

/** Parsed `page` and `limit`. */
export type PageRequest = z.output<typeof paginationQuerySchema>;

/** The page envelope's schema around `doc`, the schema of one document, as the answers fit it. */
export function pageSchema<T extends z.ZodType>(doc: T) {
  const pageNumber = z.number().int().min(1);
  return z.object({
    docs: z.array(doc),
    totalDocs: z.number().int().min(0),
    limit: pageNumber,
    page: pageNumber,
    totalPages: pageNumber,
    pagingCounter: pageNumber,
    hasPrevPage: z.boolean(),
    hasNextPage: z.boolean(),
    prevPage: pageNumber.nullable(),
    nextPage: pageNumber.nullable(),
  });
}

/** The platform's (mongoose-paginate style) page envelope. */
export interface Page<T> {
  docs: T[];
  totalDocs: number;
  limit: number;
  page: number;
  totalPages: number;
  pagingCounter: number;
  hasPrevPage: boolean;
  hasNextPage: boolean;
  prevPage: number | null;
  nextPage: number | null;
}

/** Cuts one page out of `items` and renders only that page's documents with `view`. */
export function paginate<T, D>(items: readonly T[], { page, limit }: PageRequest, view: (item: T) => D): Page<D> {
  const totalDocs = items.length;
  // mongoose-paginate reports one (empty) page for an empty collection.
  const totalPages = Math.max(1, Math.ceil(totalDocs / limit));
  const hasPrevPage = page > 1;
  const hasNextPage = page < totalPages;
  return {
    docs: items.slice((page - 1) * limit, page * limit).map(view),
    totalDocs,
    limit,
    page,
    totalPages,
    pagingCounter: (page - 1) * limit + 1,
    hasPrevPage,
    hasNextPage,
    prevPage: hasPrevPage ? page - 1 : null,
    nextPage: hasNextPage ? page + 1 : null,
  };
}
