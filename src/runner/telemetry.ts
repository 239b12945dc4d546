import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AgentOutput, Trace } from '../core/agent-output.ts';
import { EVENTS_ENV, readEventsFile } from '../instrument/events.ts';
import { ingestOtlp, parseOtlpText } from '../instrument/otel.ts';
import { withNote, withReported } from './reported-trace.ts';
import { atifDocument, mergeAtif } from './telemetry-atif.ts';

/** Where a subprocess harness writes its OpenTelemetry spans for the trial. */
export const OTEL_FILE_ENV = 'HARNESSEVAL_OTEL_FILE';

/**
 * The files through which an out-of-process harness reports: an events file (JSON lines, the event
 * protocol) and, when the harness config sets `trace_file`, an OTLP/JSON trace file per trial.
 */
export class TrialTelemetry {
  private constructor(
    readonly eventsFile: string,
    readonly traceFile: string | undefined,
  ) {}

  static create(trialKey: string, traceFileTemplate: string | undefined, baseDir: string): TrialTelemetry {
    const token = randomBytes(6).toString('hex');
    const eventsFile = join(tmpdir(), `harnesseval-events-${token}.jsonl`);
    const safeKey = trialKey.replace(/[^A-Za-z0-9_.-]/g, '_');
    const traceFile =
      traceFileTemplate === undefined
        ? undefined
        : resolve(baseDir, traceFileTemplate.replaceAll('{trial}', safeKey));
    return new TrialTelemetry(eventsFile, traceFile);
  }

  env(): Record<string, string> {
    return {
      [EVENTS_ENV]: this.eventsFile,
      ...(this.traceFile === undefined ? {} : { [OTEL_FILE_ENV]: this.traceFile }),
    };
  }

  /** Merges what the harness reported into its output; malformed input is noted, never fatal. */
  async collect(output: AgentOutput): Promise<AgentOutput> {
    const events = await readEventsFile(this.eventsFile);
    await rm(this.eventsFile, { force: true });
    const merged = events === undefined ? output : withReported(output, events);
    return this.traceFile === undefined ? merged : collectTraceFile(merged, this.traceFile);
  }
}

/** An OTLP/JSON or ATIF trace file the harness wrote for the trial, merged into its output. */
async function collectTraceFile(output: AgentOutput, file: string): Promise<AgentOutput> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return output;
  }
  const parsed = parseOtlpText(text);
  if ('line' in parsed)
    return withNote(output, { line: parsed.line, error: `trace file ${file}: not JSON: ${parsed.error}` });
  const atif = atifDocument(parsed.documents);
  if (atif !== undefined) return mergeAtif(output, atif, file);
  let otel: ReturnType<typeof ingestOtlp>;
  try {
    otel = ingestOtlp(parsed.documents);
  } catch (error) {
    return withNote(output, {
      line: 0,
      error: `trace file ${file}: not OTLP/JSON: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  const trace: Trace = {
    agent_calls: otel.agentCalls,
    agent_invocations: otel.invocations,
    prompts: otel.prompts,
    human: otel.human,
    circuit_breakers: otel.circuitBreakers,
    malformed_events: otel.problems.map((problem) => ({ line: 0, error: `trace file ${file}: ${problem}` })),
    ...(otel.costs.length > 0 ? { costs: otel.costs } : {}),
    ...(otel.firstPassApproval === undefined ? {} : { first_pass_approval: otel.firstPassApproval }),
  };
  return withReported(output, { trace, toolCalls: otel.toolCalls });
}
