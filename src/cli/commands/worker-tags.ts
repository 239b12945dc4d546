import { InvalidArgumentError } from 'commander';
import { WORKER_TAG_PATTERN } from '../../queue/worker-tag.ts';

/** `gpu,linux` as a list of tags: the form of `worker --tags` and of `run --queue … --tags`. */
export const workerTags = (name: string) => (value: string) => {
  const tags = value.split(',').map((t) => t.trim());
  const bad = tags.find((t) => !WORKER_TAG_PATTERN.test(t));
  if (bad !== undefined)
    throw new InvalidArgumentError(
      `${name} takes comma-separated tags of letters, digits and _ . : - (not ${JSON.stringify(bad)})`,
    );
  return [...new Set(tags)];
};
