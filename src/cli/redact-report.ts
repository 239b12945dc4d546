import { type Experiment, ExperimentSchema } from '../core/experiment.ts';
import { type RunRecord, RunRecordSchema } from '../core/run-record.ts';
import { secretRedactor, secretsFromEnv } from '../store/redact.ts';

/**
 * Scrubs environment secrets from what `run` reports. The store and exports redact on write, but
 * reports are rendered from the in-memory experiment, and an agent may echo a secret it was given
 * (an `Authorization` header reflected in a response). Without secrets in the environment this is
 * the identity, so the common case costs nothing per trial.
 */
export interface ReportRedactor {
  experiment(experiment: Experiment): Experiment;
  record(record: RunRecord): RunRecord;
}

export function reportRedactor(env: NodeJS.ProcessEnv): ReportRedactor {
  if (secretsFromEnv(env).length === 0) return { experiment: (e) => e, record: (r) => r };
  const redact = secretRedactor(env);
  const scrub = <T>(value: T, reparse: (data: unknown) => T): T => {
    const text = JSON.stringify(value);
    const clean = redact(text);
    return clean === text ? value : reparse(JSON.parse(clean));
  };
  return {
    experiment: (e) => scrub(e, (data) => ExperimentSchema.parse(data)),
    record: (r) => scrub(r, (data) => RunRecordSchema.parse(data)),
  };
}
