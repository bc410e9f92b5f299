import { describe, expect, it } from 'vitest';
import { buildSocketUrl, parseFrame } from '../../../src/engine/socket';

describe('parseFrame', () => {
  it('reads the ping interval in seconds, defaulting to 10 s when it is missing or nonsense', () => {
    expect(parseFrame('{"action":"ping","interval":10}')).toEqual({ ok: true, frame: { kind: 'ping', intervalMs: 10_000 } });
    expect(parseFrame('{"action":"ping","interval":0.15}')).toEqual({ ok: true, frame: { kind: 'ping', intervalMs: 150 } });
    for (const interval of ['', '"5"', '0', '-3', 'null']) {
      const text = interval === '' ? '{"action":"ping"}' : `{"action":"ping","interval":${interval}}`;
      expect(parseFrame(text)).toEqual({ ok: true, frame: { kind: 'ping', intervalMs: 10_000 } });
    }
  });

  it('reads socket_loaded, with an empty epoch from a server that sends none', () => {
    expect(parseFrame('{"action":"socket_loaded","data":{"need_sync":true,"last_message_id":0,"epoch":"ab"}}')).toEqual({
      ok: true,
      frame: { kind: 'loaded', needSync: true, lastEventId: 0, epoch: 'ab' },
    });
    expect(parseFrame('{"action":"socket_loaded","data":{"need_sync":false,"last_message_id":3}}')).toEqual({
      ok: true,
      frame: { kind: 'loaded', needSync: false, lastEventId: 3, epoch: '' },
    });
  });

  it('keeps an event frame as sent, with or without an id, and refuses an inherited name as an action', () => {
    const presence = { action: 'user_presence', data: { user_id: 1, online: false, last_seen: '5' } };
    expect(parseFrame(JSON.stringify(presence))).toEqual({ ok: true, frame: { kind: 'event', frame: presence } });
    const dlr = { action: 'message_dlr2', id: 9, data: { conversation_id: 1, message_id: 2, user_id: 3, type: 'read' } };
    expect(parseFrame(JSON.stringify(dlr))).toEqual({ ok: true, frame: { kind: 'event', frame: dlr } });
    expect(parseFrame('{"action":"toString","data":{}}')).toEqual({ ok: false, reason: 'unknown action toString' });
    expect(parseFrame('{"action":"__proto__","data":{}}')).toMatchObject({ ok: false });
  });

  it('keeps the id of an event it cannot read (a newer server’s action), so the position still moves', () => {
    expect(parseFrame('{"action":"poll_closed","id":12,"data":{}}')).toEqual({
      ok: true,
      frame: { kind: 'skipped', id: 12, reason: 'unknown action poll_closed' },
    });
    expect(parseFrame('{"action":"message_dlr2","id":13}')).toEqual({
      ok: true,
      frame: { kind: 'skipped', id: 13, reason: 'message_dlr2 without data' },
    });
    expect(parseFrame('{"action":"poll_closed","id":-1,"data":{}}')).toMatchObject({ ok: false });
  });
});

describe('buildSocketUrl', () => {
  it('sends 0 for an id that is not a positive whole number and leaves out an unknown epoch', () => {
    for (const lastEventId of [Number.NaN, -1, 1.5]) {
      expect(buildSocketUrl({ wsBase: 'ws://h:1//', token: 't', lastEventId, epoch: '' })).toBe(
        'ws://h:1/ws?token=t&last_message_id=0&protocol=7&deviceType=webclient',
      );
    }
  });
});
