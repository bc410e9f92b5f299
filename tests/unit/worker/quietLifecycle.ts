import type { WorkerLifecycle } from '../../../src/worker/clientServer';

/** A worker that never asks its tabs to reload and holds no life lock: for servers tested without an EngineHost. */
export const quietLifecycle: WorkerLifecycle = {
  reloadRequested: false,
  attach: async () => null,
  whenReloadRequested: () => new Promise<null>(() => undefined),
};
