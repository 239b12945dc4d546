import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentOutput, emptyTrace, type Trace } from '../core/agent-output.ts';
import { EVENTS_ENV, readEventsFile } from '../instrument/events.ts';
import { ingestOtlp, parseOtlpText } from '../instrument/otel.ts';
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
    let merged = output;
    if (events !== undefined) {
      // Tokens and cost are left to the cost pass, which merges every source per call.
      merged = {
        ...merged,
        trace: mergeTraces(merged.trace, events.trace),
        tool_calls: [...merged.tool_calls, ...events.toolCalls],
      };
    }
    if (this.traceFile !== undefined) merged = await this.collectOtel(merged, this.traceFile);
    return merged;
  }

  private async collectOtel(output: AgentOutput, file: string): Promise<AgentOutput> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return output;
    }
    const parsed = parseOtlpText(text);
    const trace = mergeTraces(output.trace, undefined);
    if ('line' in parsed) {
      trace.malformed_events.push({
        line: parsed.line,
        error: `trace file ${file}: not JSON: ${parsed.error}`,
      });
      return { ...output, trace };
    }
    const atif = atifDocument(parsed.documents);
    if (atif !== undefined) return mergeAtif(output, trace, atif, file);
    try {
      const otel = ingestOtlp(parsed.documents);
      trace.agent_calls.push(...otel.agentCalls);
      trace.agent_invocations.push(...otel.invocations);
      trace.prompts.push(...otel.prompts);
      trace.human.push(...otel.human);
      trace.circuit_breakers.push(...otel.circuitBreakers);
      if (otel.firstPassApproval !== undefined) trace.first_pass_approval = otel.firstPassApproval;
      if (otel.costs.length > 0) trace.costs = [...(trace.costs ?? []), ...otel.costs];
      for (const problem of otel.problems)
        trace.malformed_events.push({ line: 0, error: `trace file ${file}: ${problem}` });
      const known = new Set(output.tool_calls.map((t) => t.id).filter((id) => id !== undefined));
      return {
        ...output,
        trace,
        tool_calls: [
          ...output.tool_calls,
          ...otel.toolCalls.filter((t) => t.id === undefined || !known.has(t.id)),
        ],
      };
    } catch (error) {
      trace.malformed_events.push({
        line: 0,
        error: `trace file ${file}: not OTLP/JSON: ${error instanceof Error ? error.message : String(error)}`,
      });
      return { ...output, trace };
    }
  }
}

function mergeTraces(a: Trace | undefined, b: Trace | undefined): Trace {
  const first = a ?? emptyTrace();
  const merged: Trace = {
    agent_calls: [...first.agent_calls, ...(b?.agent_calls ?? [])],
    agent_invocations: [...first.agent_invocations, ...(b?.agent_invocations ?? [])],
    prompts: [...first.prompts, ...(b?.prompts ?? [])],
    human: [...first.human, ...(b?.human ?? [])],
    circuit_breakers: [...first.circuit_breakers, ...(b?.circuit_breakers ?? [])],
    malformed_events: [...first.malformed_events, ...(b?.malformed_events ?? [])],
  };
  const costs = [...(first.costs ?? []), ...(b?.costs ?? [])];
  if (costs.length > 0) merged.costs = costs;
  const approval = b?.first_pass_approval ?? first.first_pass_approval;
  if (approval !== undefined) merged.first_pass_approval = approval;
  return merged;
}
