import type { Experiment } from '../core/experiment.ts';

/**
 * The order of a harness lineage: by semantic version when every version is one (2.0.0 after
 * 0.10.0 after 0.9.0; a pre-release before its release), else by the harness config's
 * `metadata.released` date when every version has one, else by when the experiments ran. Run
 * time alone zig-zags as soon as an old version is re-run.
 */
export type LineageOrder = 'semver' | 'released' | 'created_at';

interface SemVer {
  readonly core: readonly [number, number, number];
  readonly pre: readonly string[];
}

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseSemver(version: string): SemVer | undefined {
  const m = SEMVER.exec(version.trim());
  if (!m) return undefined;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

/** Semantic Versioning 2.0.0 precedence (section 11). */
export function compareSemver(a: SemVer, b: SemVer): number {
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return a.core[i]! - b.core[i]!;
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i]!;
    const y = b.pre[i]!;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length - b.pre.length;
}

/** A valid `metadata.released` date (YYYY-MM-DD or an ISO timestamp), else undefined. */
export function releasedOf(experiment: Experiment): string | undefined {
  const released = experiment.harness.metadata['released'];
  return typeof released === 'string' && !Number.isNaN(Date.parse(released)) ? released : undefined;
}

/** How `versions` (with their experiments) are ordered, by the rule above. */
export function lineageOrder(experiments: readonly Experiment[]): LineageOrder {
  if (experiments.every((e) => parseSemver(e.harness.version) !== undefined)) return 'semver';
  const byVersion = new Map<string, Experiment[]>();
  for (const e of experiments)
    byVersion.set(e.harness.version, [...(byVersion.get(e.harness.version) ?? []), e]);
  if ([...byVersion.values()].every((runs) => runs.some((e) => releasedOf(e) !== undefined)))
    return 'released';
  return 'created_at';
}

/** When a version first ran (ISO timestamps sort as text). */
function firstRun(runs: readonly Experiment[]): string {
  return runs.map((e) => e.created_at).sort()[0] ?? '';
}

/** The versions of the lineage in order, each with its runs (oldest first). */
export function orderVersions(
  experiments: readonly Experiment[],
  order: LineageOrder,
): { version: string; runs: Experiment[] }[] {
  const groups = new Map<string, Experiment[]>();
  for (const e of experiments) groups.set(e.harness.version, [...(groups.get(e.harness.version) ?? []), e]);
  const versions = [...groups].map(([version, runs]) => ({
    version,
    runs: [...runs].sort((x, y) => x.created_at.localeCompare(y.created_at) || x.id.localeCompare(y.id)),
  }));
  const released = (runs: readonly Experiment[]) => runs.map(releasedOf).find((r) => r !== undefined) ?? '';
  return versions.sort((x, y) => {
    if (order === 'semver') return compareSemver(parseSemver(x.version)!, parseSemver(y.version)!);
    if (order === 'released') return Date.parse(released(x.runs)) - Date.parse(released(y.runs));
    return firstRun(x.runs).localeCompare(firstRun(y.runs));
  });
}
