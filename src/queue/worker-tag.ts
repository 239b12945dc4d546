// Zod-free, so the CLI can check `--tags` while it parses flags without loading the queue's schemas.

/** A worker tag: letters, digits and `_ . : -`. */
export const WORKER_TAG_PATTERN = /^[A-Za-z0-9_.:-]+$/;
