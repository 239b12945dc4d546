import { HarnessEvalError } from '../../core/errors.ts';
import type { QueueStore } from '../../queue/trial-job.ts';
import type { TrialQueue } from '../../queue/trial-queue.ts';
import { storeKind } from '../../store/location.ts';
import { openCliStore, shownStore } from '../store-location.ts';

/** The store and the trial queue on one PostgreSQL database (the queue's URL is the store's). */
export async function openQueueAt(
  url: string,
  env: NodeJS.ProcessEnv,
): Promise<{ readonly store: QueueStore; readonly queue: TrialQueue }> {
  if (storeKind(url) !== 'postgres')
    throw new HarnessEvalError('usage', `the queue needs a postgres:// URL, not ${shownStore(url)}`);
  const { asQueueStore, TrialQueue } = await import('../../queue/index.ts');
  const store = asQueueStore(await openCliStore(url, { env }));
  try {
    return { store, queue: await TrialQueue.open(url) };
  } catch (error) {
    await store.close();
    throw error;
  }
}
