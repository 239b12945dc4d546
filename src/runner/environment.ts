import { spawnSync } from 'node:child_process';
import type { Environment } from '../core/experiment.ts';
import { harnessEvalVersion } from '../version.ts';

/** What a run needs to be reproduced: versions, platform and the git commit of the suite's folder. */
export function captureEnvironment(cwd: string): Environment {
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', timeout: 2000, shell: false });
  const commit = git.status === 0 ? git.stdout.trim() : undefined;
  return {
    harnesseval_version: harnessEvalVersion(),
    node_version: process.version,
    platform: `${process.platform}-${process.arch}`,
    ...(commit ? { git_commit: commit } : {}),
  };
}

/** `exp-20260407-143022-3fa1`: sortable by time, unique enough for one store. */
export function newExperimentId(now: Date = new Date(), random: () => number = Math.random): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const suffix = Math.floor(random() * 0x10000)
    .toString(16)
    .padStart(4, '0');
  return `exp-${stamp}-${suffix}`;
}
