// postject ships no types: the one function the release uses, as its README documents it.
declare module "postject" {
  /** Injects `data` as resource `name` into the executable at `filename`, in place. */
  export function inject(
    filename: string,
    name: string,
    data: Buffer,
    options?: { machoSegmentName?: string; overwrite?: boolean; sentinelFuse?: string },
  ): Promise<void>;
}
