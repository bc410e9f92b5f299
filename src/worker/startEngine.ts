import { Engine } from '../engine/engine';
import { IdbStorage } from '../engine/storage/idbStorage';
import { type EngineStorage, MemoryStorage } from '../engine/storage/storage';

/**
 * Creates and starts this worker's engine: IndexedDB storage and the page's origin as the API. Only the
 * worker that owns the socket calls this (the SharedWorker, or the leader in the fallback).
 *
 * `onVersionChange`: a newer version of the app upgraded the database; this engine's connection closed
 * itself so the upgrade is not blocked, and the tabs should reload into the new version.
 */
export async function startEngine(onVersionChange: () => void): Promise<Engine> {
  let storage: EngineStorage;
  try {
    storage = await IdbStorage.open({ onVersionChange });
  } catch (error) {
    // Private modes of some browsers refuse IndexedDB: the app still works, it just forgets on close.
    console.warn('IndexedDB is unavailable; the engine keeps its data in memory only', error);
    storage = new MemoryStorage();
  }
  const engine = new Engine({ storage, apiBase: globalThis.location.origin });
  try {
    await engine.start();
  } catch (error) {
    // Whatever failed to load is fetched again from the server; the tabs still get a working engine.
    console.warn('the engine did not start cleanly', error);
  }
  return engine;
}
