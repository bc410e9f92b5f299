import { describe, it } from 'vitest';
import { check, play } from './property-play';

/** Counterexamples the outbox property (outbox-property.test.ts) found, kept as plain cases. */
describe('outbox and receipt regressions found by the property test', () => {
  it('an engine killed right after sign-in still tells its own messages from others after the restart', async () => {
    // The session was stored, the state's user not yet: the next engine sent no receipt at all.
    check(await play([{ t: 'crash' }, { t: 'incoming' }], 0));
  });

  it('a read withdrawn after a crash does not make the next read name one’s own message', async () => {
    // The read of 100 was answered but its removal from the queue not yet written; the restarted engine
    // withdrew it (the chat had closed), and opening the chat then sent a read for the own message 101.
    check(
      await play(
        [
          { t: 'chat', open: true },
          { t: 'incoming' },
          { t: 'send' },
          // Opened again: the read point (and the received point with it) moves up to the own message.
          { t: 'chat', open: true },
          { t: 'advance', ms: 500 },
          { t: 'chat', open: false },
          { t: 'crash' },
          { t: 'advance', ms: 0 },
        ],
        0,
      ),
    );
  });
});
