import { InvalidArgumentError } from 'commander';
import { WorkerTagSchema } from '../../queue/trial-job.ts';

/** `gpu,linux` as a list of tags: the form of `worker --tags` and of `run --queue … --tags`. */
export const workerTags = (name: string) => (value: string) => {
  const tags = value.split(',').map((t) => t.trim());
  const bad = tags.find((t) => !WorkerTagSchema.safeParse(t).success);
  if (bad !== undefined)
    throw new InvalidArgumentError(
      `${name} takes comma-separated tags of letters, digits and _ . : - (not ${JSON.stringify(bad)})`,
    );
  return [...new Set(tags)];
};
