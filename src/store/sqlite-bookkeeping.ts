import { HarnessEvalError } from '../core/errors.ts';
import {
  type ChildProcessRecord,
  ChildProcessSchema,
  type LeaseHolder,
  LeaseHolderSchema,
  type StoredChildProcess,
  sameProcess,
} from './run-bookkeeping.ts';
import { type SqliteAccess, safeJson } from './sqlite-access.ts';
import { type BookkeepingStatements, prepareBookkeeping, type Statements } from './sqlite-statements.ts';

/**
 * The SQLite store's run bookkeeping: the lease that lets one process run an experiment, and the
 * child processes a run started (so a later process can stop what a crashed one left). The same
 * rules as PostgreSQL's (postgres-bookkeeping.ts).
 */
export class SqliteBookkeeping {
  readonly #access: SqliteAccess;
  readonly #statements: Statements;
  #prepared: BookkeepingStatements | undefined;

  constructor(access: SqliteAccess, statements: Statements) {
    this.#access = access;
    this.#statements = statements;
  }

  async acquireLease(
    experimentId: string,
    holder: LeaseHolder,
    replacing?: LeaseHolder,
  ): Promise<LeaseHolder> {
    const next = LeaseHolderSchema.parse(holder);
    return this.#access.write(`take the lease of experiment ${experimentId}`, () =>
      this.#access.db
        .transaction(() => {
          if (this.#statements.experimentDocument.get(experimentId) === undefined)
            throw this.#access.notFound(experimentId);
          const current = this.#lease(experimentId);
          if (current === undefined || (replacing !== undefined && sameProcess(current, replacing))) {
            this.#book().setLease.run(experimentId, JSON.stringify(next));
            return next;
          }
          return current;
        })
        .immediate(),
    );
  }

  async releaseLease(experimentId: string, holder: LeaseHolder): Promise<void> {
    await this.#access.write(`give up the lease of experiment ${experimentId}`, () =>
      this.#access.db
        .transaction(() => {
          const current = this.#lease(experimentId);
          if (current !== undefined && sameProcess(current, holder))
            this.#book().deleteLease.run(experimentId);
        })
        .immediate(),
    );
  }

  async recordChildProcess(experimentId: string, child: ChildProcessRecord): Promise<void> {
    const parsed = ChildProcessSchema.parse(child);
    await this.#access.write(`record process ${parsed.pid} of experiment ${experimentId}`, () => {
      try {
        this.#book().recordChild.run(experimentId, parsed.pid, JSON.stringify(parsed));
      } catch (error) {
        if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
          throw this.#access.notFound(experimentId);
        throw error;
      }
    });
  }

  async forgetChildProcess(experimentId: string, pid: number): Promise<void> {
    await this.#access.write(`forget process ${pid} of experiment ${experimentId}`, () => {
      this.#book().forgetChild.run(experimentId, pid);
    });
  }

  async listChildProcesses(): Promise<StoredChildProcess[]> {
    return this.#access.read(() =>
      this.#book()
        .children.all()
        .map((raw) => {
          const row = raw as { experiment_id?: unknown; document?: unknown };
          const parsed =
            typeof row.document === 'string'
              ? ChildProcessSchema.safeParse(safeJson(row.document))
              : undefined;
          if (typeof row.experiment_id !== 'string' || parsed === undefined || !parsed.success)
            throw new HarnessEvalError(
              'store',
              `a recorded child process in ${this.#access.path} is corrupt`,
            );
          return { ...parsed.data, experiment_id: row.experiment_id };
        }),
    );
  }

  #book(): BookkeepingStatements {
    this.#prepared ??= prepareBookkeeping(this.#access.db);
    return this.#prepared;
  }

  #lease(experimentId: string): LeaseHolder | undefined {
    const raw = this.#book().lease.get(experimentId) as { holder?: unknown } | undefined;
    if (raw === undefined) return undefined;
    const parsed =
      typeof raw.holder === 'string' ? LeaseHolderSchema.safeParse(safeJson(raw.holder)) : undefined;
    if (parsed === undefined || !parsed.success)
      throw new HarnessEvalError(
        'store',
        `the lease of experiment ${experimentId} in ${this.#access.path} is corrupt`,
      );
    return parsed.data;
  }
}
