import { describe, expect, it } from 'vitest';
import type { Language, RestCallName } from '../../../src/engine/api';
import { useTestServer } from '../../support/server';
import { refusal, useEngines } from './support/liveEngines';

/** Every command refuses with an EngineError (issue 3), also for input only a console user can give. */

const server = useTestServer();
const { startEngine } = useEngines(server);

describe('refusals are EngineErrors', () => {
  it('for a send while signed out', async () => {
    const engine = await startEngine();
    expect(await refusal(engine.sendMessage(1, { text: 'hello' }))).toBe('Failed to send message');
  });

  it('for a language that is not one of the two', async () => {
    const engine = await startEngine();
    expect(await refusal(engine.setLanguage('de' as Language))).toBe('Invalid parameters provided');
  });

  it('for a call name that does not exist', async () => {
    const engine = await startEngine();
    const call = engine.call.bind(engine) as (name: RestCallName) => Promise<unknown>;
    expect(await refusal(call('noSuchCall' as RestCallName))).toBe('Invalid parameters provided');
  });
});
