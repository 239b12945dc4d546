import type { Annotation, AnnotationEdit, AnnotationInput, AnnotationTimes } from '../core/annotation.ts';
import {
  decodeAnnotation,
  prepareAnnotation,
  prepareAnnotationEdit,
  unknownAnnotation,
  unknownRun,
} from './annotations.ts';
import { userVersion } from './migrations.ts';
import type { SqliteAccess } from './sqlite-access.ts';
import { type AnnotationStatements, prepareAnnotations, type Statements } from './sqlite-statements.ts';

/** The SQLite store's annotations of stored trials (notes, labels, human grades). */
export class SqliteAnnotations {
  readonly #access: SqliteAccess;
  readonly #statements: Statements;
  readonly #redact: (text: string) => string;
  #prepared: AnnotationStatements | undefined;

  constructor(access: SqliteAccess, statements: Statements, redact: (text: string) => string) {
    this.#access = access;
    this.#statements = statements;
    this.#redact = redact;
  }

  async addAnnotation(
    experimentId: string,
    annotation: AnnotationInput,
    times?: AnnotationTimes,
  ): Promise<Annotation> {
    const write = prepareAnnotation(experimentId, annotation, this.#redact, times);
    const id = await this.#access.write(`annotate run ${write.runId} of experiment ${experimentId}`, () =>
      this.#access.db
        .transaction(() => {
          const added = this.#notes().add.run({
            experiment_id: experimentId,
            run_id: write.runId,
            created_at: write.createdAt,
            document: write.document,
          });
          if (added.changes > 0) return Number(added.lastInsertRowid);
          if (this.#statements.experimentDocument.get(experimentId) === undefined)
            throw this.#access.notFound(experimentId);
          throw unknownRun(experimentId, write.runId);
        })
        .immediate(),
    );
    return decodeAnnotation(id, experimentId, write.runId, write.document);
  }

  async listAnnotations(experimentId: string): Promise<Annotation[]> {
    return this.#access.read(() => {
      // A read-only file from before annotations (version 3) has none.
      if (userVersion(this.#access.db) < 4) return [];
      return this.#notes()
        .list.all(experimentId)
        .map((raw) => {
          const row = raw as { id?: unknown; run_id?: unknown; document?: unknown };
          return decodeAnnotation(row.id, experimentId, row.run_id, row.document);
        });
    });
  }

  async updateAnnotation(experimentId: string, id: number, edit: AnnotationEdit): Promise<Annotation> {
    return this.#access.write(`edit annotation ${id} of experiment ${experimentId}`, () =>
      this.#access.db
        .transaction(() => {
          const raw = this.#notes().one.get(experimentId, id) as
            | { id?: unknown; run_id?: unknown; document?: unknown }
            | undefined;
          if (raw === undefined) throw unknownAnnotation(experimentId, id);
          const existing = decodeAnnotation(raw.id, experimentId, raw.run_id, raw.document);
          const document = prepareAnnotationEdit(existing, edit, this.#redact);
          this.#notes().update.run(document, experimentId, id);
          return decodeAnnotation(id, experimentId, existing.run_id, document);
        })
        .immediate(),
    );
  }

  async deleteAnnotation(experimentId: string, id: number): Promise<boolean> {
    return this.#access.write(
      `delete annotation ${id} of experiment ${experimentId}`,
      () => this.#notes().delete.run(experimentId, id).changes > 0,
    );
  }

  #notes(): AnnotationStatements {
    this.#prepared ??= prepareAnnotations(this.#access.db);
    return this.#prepared;
  }
}
