import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { RunRecordDraft } from '../../core/run-record.ts';
import { importedExperiment, numberEpochs } from './experiment-draft.ts';
import { fileProblem, readForeignJson } from './json-document.ts';
import { NEWEST_KNOWN_MIGRATION, readPromptfooDatabase } from './promptfoo-db.ts';
import type { PromptfooEval } from './promptfoo-eval.ts';
import { promptfooRecord } from './promptfoo-record.ts';
import {
  PromptfooOutputFileSchema,
  type PromptfooResult,
  type PromptfooTestCase,
} from './promptfoo-schema.ts';
import { taskIds } from './promptfoo-tasks.ts';
import type { ImportedRuns, ImportOptions } from './types.ts';
import { UnmappedFields } from './unmapped.ts';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

async function isSqlite(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(16);
    const { bytesRead } = await file.read(buffer, 0, 16, 0);
    return bytesRead === 16 && buffer.toString('latin1') === SQLITE_MAGIC;
  } finally {
    await file.close();
  }
}

async function readResultsJson(path: string, shown: string): Promise<PromptfooEval> {
  const file = await readForeignJson(path, shown, PromptfooOutputFileSchema);
  const summary = file.results;
  // An output written without a database (`--no-write`) has no evalId: its content names it.
  const id =
    file.evalId ??
    `sha256:${createHash('sha256').update(JSON.stringify(summary.results)).digest('hex').slice(0, 16)}`;
  const createdAt = file.metadata?.evaluationCreatedAt ?? summary.timestamp;
  return {
    id,
    ...(createdAt === undefined ? {} : { createdAt }),
    ...(file.metadata?.author === undefined ? {} : { author: file.metadata.author }),
    config: file.config,
    results: summary.results.map((result) => ({ result })),
    version: summary.version,
    ...(file.metadata?.promptfooVersion === undefined
      ? {}
      : { promptfooVersion: file.metadata.promptfooVersion }),
  };
}

/** Which prompt x provider a result belongs to: promptfoo's column (`promptIdx`) of one eval. */
function columnOf(result: PromptfooResult) {
  const provider = result.provider.label || result.provider.id;
  const promptHash =
    result.promptId ??
    createHash('sha256')
      .update(result.prompt.raw ?? result.prompt.label ?? '')
      .digest('hex');
  return { key: `${result.promptIdx}\n${provider}\n${promptHash}`, provider, promptHash };
}

function suiteSlug(description: string | undefined): string {
  const slug = (description ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug === '' ? 'promptfoo' : `promptfoo-${slug}`;
}

/**
 * promptfoo results as experiments: one per eval x prompt x provider (promptfoo's columns, each a
 * `promptIdx`), one task per test case (its description, else its vars), repeats as epochs.
 * `path` is a results JSON (`promptfoo eval -o results.json`) or the SQLite database.
 */
export async function importPromptfoo(path: string, options: ImportOptions): Promise<ImportedRuns> {
  const unmapped = new UnmappedFields();
  let evals: PromptfooEval[];
  const sqlite = await isSqlite(path);
  if (sqlite) {
    const db = readPromptfooDatabase(path, options.shown);
    evals = db.evals;
    if (db.empty.length > 0)
      unmapped.note('evals', 'an eval with no results: nothing to import', db.empty.length);
    if (db.newestMigration !== undefined && db.newestMigration > NEWEST_KNOWN_MIGRATION)
      unmapped.note(
        '__drizzle_migrations',
        'the database has migrations newer than 0027: columns they added are not read',
      );
    unmapped.note(
      'evals.config',
      'only description and tags are read (provider settings can hold API keys)',
      evals.length,
    );
  } else {
    evals = [await readResultsJson(path, options.shown)];
    unmapped.note('config', 'only description and tags are read (provider settings can hold API keys)');
  }
  if (evals.every((e) => e.results.length === 0))
    throw fileProblem(`${options.shown} has no promptfoo results to import`, {
      file: options.shown,
      path: sqlite ? 'eval_results' : 'results.results',
      message: 'no results in it',
      expected: 'an eval with at least one result',
    });
  const ids = taskIds(
    evals.flatMap((e) => e.results.map((r) => r.result.testCase as PromptfooTestCase)),
    unmapped,
  );
  const experiments = evals.flatMap((evaluation) => experimentsOf(evaluation, ids, options, unmapped));
  const list = unmapped.list();
  return {
    tool: 'promptfoo',
    experiments: experiments.map((parts) => importedExperiment({ ...parts, unmapped: list })),
    unmapped: list,
  };
}

function experimentsOf(
  evaluation: PromptfooEval,
  ids: (test: PromptfooTestCase) => string,
  options: ImportOptions,
  unmapped: UnmappedFields,
) {
  const columns = new Map<
    string,
    { provider: string; promptHash: string; rows: PromptfooEval['results'][number][] }
  >();
  for (const row of evaluation.results) {
    const column = columnOf(row.result);
    const entry = columns.get(column.key) ?? {
      provider: column.provider,
      promptHash: column.promptHash,
      rows: [],
    };
    entry.rows.push(row);
    columns.set(column.key, entry);
  }
  const providers = new Set([...columns.values()].map((c) => c.provider));
  const fallbackTime = evaluation.createdAt ?? new Date().toISOString();
  const description = evaluation.config.description;
  return [...columns.values()].map((column) => {
    const rows = [...column.rows].sort((a, b) => a.result.testIdx - b.result.testIdx);
    const epochs = numberEpochs(rows, (row) => ids(row.result.testCase));
    const first = rows[0]!.result;
    const version = `prompt-${column.promptHash.slice(0, 8)}`;
    // Two prompts for one provider: the prompt tells the experiments apart.
    const promptLabel = first.prompt.label ?? version;
    const name =
      providers.size < columns.size ? `${column.provider} ${promptLabel.slice(0, 40)}` : column.provider;
    const harness = { name, version, model: first.provider.id };
    const records: RunRecordDraft[] = rows.map((row) =>
      promptfooRecord(row.result, {
        taskId: ids(row.result.testCase),
        epoch: epochs.get(row) ?? 0,
        harness,
        timestamp: row.timestamp ?? fallbackTime,
        evalId: evaluation.id,
        passThreshold: options.passThreshold,
        unmapped,
      }),
    );
    return {
      tool: 'promptfoo' as const,
      sourceId: evaluation.id,
      group: `${first.promptIdx}\n${column.provider}\n${column.promptHash}`,
      name: `${description ?? 'promptfoo eval'} ${name}`,
      source: options.shown,
      harness: {
        ...harness,
        adapter: 'promptfoo',
        metadata: {
          provider_id: first.provider.id,
          ...(first.provider.label ? { provider_label: first.provider.label } : {}),
          ...(first.prompt.label === undefined ? {} : { prompt_label: first.prompt.label.slice(0, 200) }),
        },
      },
      suiteId: options.suiteId ?? suiteSlug(description),
      createdAt: fallbackTime,
      status: 'completed' as const,
      records,
      metadata: {
        promptfoo: {
          eval_id: evaluation.id,
          results_version: evaluation.version,
          prompt_idx: first.promptIdx,
          ...(description === undefined ? {} : { description }),
          ...(evaluation.author === undefined ? {} : { author: evaluation.author }),
          ...(evaluation.config.tags === undefined ? {} : { tags: evaluation.config.tags }),
          ...(evaluation.promptfooVersion === undefined
            ? {}
            : { promptfoo_version: evaluation.promptfooVersion }),
        },
      },
    };
  });
}
