import { BehaviorSubject, type Observable } from 'rxjs';
import type { AppSettings, TabEngine } from '../../../src/engine/api';

/** The settings every fake engine starts with (the engine's defaults). */
export const defaultSettings = (): AppSettings => ({
  enterToSend: true,
  notificationsEnable: true,
  notificationsShowPreview: true,
  incomingMessagesSound: true,
});

/**
 * A stand-in TabEngine: each query answers with the test's own subject (so the test can push new values),
 * each command is the test's spy (so it can check calls and settle answers), and `fields` are plain
 * properties (tabId, mode). Only what a test names exists (and the forms' drafts, empty); anything else the
 * UI touches is a TypeError.
 */
export function fakeTabEngine<
  Q extends Record<string, Observable<unknown>>,
  C extends Record<string, unknown> = Record<never, never>,
>(queries: Q, commands: C = {} as C, fields: Record<string, unknown> = {}) {
  // The forms ask for their drafts (formDrafts / setFormDraft): none stored and nothing kept, unless a test names them.
  const engine: Record<string, unknown> = {
    formDrafts: () => new BehaviorSubject({}),
    setFormDraft: () => Promise.resolve(),
    // The main screen's storage notice (issue 12): the store has room unless a test says otherwise.
    storageStatus: () => new BehaviorSubject('ok'),
    // Presence (issue 23): nothing heard of anyone, unless a test says otherwise.
    presence: () => new BehaviorSubject(null),
    // The chats-list search also searches messages (issue 13): nothing found, unless a test says otherwise.
    searchMessages: (query: string) => new BehaviorSubject({ query, hits: [], complete: true }),
    // Chat settings show the export's progress (issue 24): no export under way, unless a test says otherwise.
    exportProgress: () => new BehaviorSubject(null),
    ...fields,
    ...commands,
  };
  for (const [name, subject] of Object.entries(queries)) engine[name] = () => subject;
  return {
    engine: engine as { [K in keyof Q]: () => Q[K] } & C,
    asTab: engine as unknown as TabEngine,
  };
}
