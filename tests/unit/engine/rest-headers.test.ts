import { describe, expect, it } from 'vitest';
import { createRestClient, fetchTransport, type HttpRequest, type HttpTransport, type UploadRequest } from '../../../src/engine/rest';
import { signUp, useTestServer } from '../../support/server';

/** Records every request; answers each with a canned success, or passes it on to another transport. */
class RecordingTransport implements HttpTransport {
  readonly requests: HttpRequest[] = [];
  readonly uploads: UploadRequest[] = [];
  constructor(private readonly next?: HttpTransport) {}

  request(request: HttpRequest) {
    this.requests.push(request);
    return this.next ? this.next.request(request) : Promise.resolve(ok());
  }

  upload(request: UploadRequest) {
    this.uploads.push(request);
    return this.next ? this.next.upload(request) : Promise.resolve(ok());
  }

  last(): HttpRequest {
    const last = this.requests.at(-1);
    if (!last) throw new Error('no request was sent');
    return last;
  }
}

const ok = () => ({ status: 200, json: async () => ({ success: true, data: {} }) });

const BASE_HEADERS = {
  'Client-Token': 'install-1',
  'Client-Version': '1',
  'Client-Project': 'messenger-web',
  'x-features': '15',
};

function recorded(token: string | null = 'tok') {
  const transport = new RecordingTransport();
  const session = { apiBase: 'http://api.test/', token };
  const rest = createRestClient({ transport, session: () => session, clientToken: 'install-1', onUnauthorized: () => {} });
  return { transport, session, rest };
}

describe('REST headers and bodies (recorded)', () => {
  it('sends exactly the spec §7 headers, with Auth-Token only when signed in', async () => {
    const { transport, session, rest } = recorded(null);
    await rest.getCountries();
    expect(transport.last()).toEqual({ method: 'GET', url: 'http://api.test/v1/countries', headers: BASE_HEADERS });

    session.token = 'tok';
    await rest.getMe();
    expect(transport.last().headers).toEqual({ ...BASE_HEADERS, 'Auth-Token': 'tok' });
  });

  it('reads the host and token before every call, so overrides and sign-out apply at once', async () => {
    const { transport, session, rest } = recorded('tok');
    session.apiBase = 'http://other.test';
    await rest.getMe();
    expect(transport.last().url).toBe('http://other.test/v1/me');
    session.token = null;
    await rest.getMe();
    expect(transport.last().headers['Auth-Token']).toBeUndefined();
  });

  it('sends a PIN request to a country endpoint when given one', async () => {
    const { transport, rest } = recorded(null);
    await rest.requestPin('+46701234567', { apiBase: 'http://se.test' });
    expect(transport.last()).toMatchObject({
      method: 'POST',
      url: 'http://se.test/v1/auth/pin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'phone_nr=%2B46701234567',
    });
  });

  it('sends Message-Count, Before and Idempotency-Key where the spec says', async () => {
    const { transport, rest } = recorded();
    await rest.getConversations();
    expect(transport.last().headers['Message-Count']).toBe('1');
    await rest.getConversation(7);
    expect(transport.last().headers['Message-Count']).toBe('20');
    await rest.getMessages('c_x', { before: 41 });
    expect(transport.last()).toMatchObject({
      url: 'http://api.test/v2/conversations/c_x/messages',
      headers: { 'Message-Count': '20', Before: '41' },
    });
    await rest.getMessages(7);
    expect(transport.last().headers.Before).toBeUndefined();
    await rest.sendMessage(7, { clientId: 12, message: 'hi', idempotencyKey: 'local-1' });
    expect(transport.last()).toMatchObject({
      method: 'POST',
      headers: { 'Idempotency-Key': 'local-1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: 12, message: 'hi' }),
    });
  });

  it('encodes form and json bodies the way docs/server.md describes', async () => {
    const { transport, rest } = recorded();
    await rest.createConversation({
      name: 'Team',
      broadcast: true,
      settings: { allInvite: false },
      members: [{ name: 'Bob', value: '0701234567', isAdmin: true }],
    });
    expect([...new URLSearchParams(transport.last().body)]).toEqual([
      ['name', 'Team'],
      ['broadcast', '1'],
      ['settings[all_invite]', '0'],
      ['member[0][name]', 'Bob'],
      ['member[0][type]', 'phone_nr'],
      ['member[0][value]', '0701234567'],
      ['member[0][is_admin]', '1'],
    ]);
    await rest.sendReceipt(3, 9, 'delivered');
    expect(transport.last()).toMatchObject({ url: 'http://api.test/v1/conversations/3/messages/9', body: 'read=false' });
    await rest.removeReaction(3, 9, '👍');
    expect(transport.last()).toMatchObject({ method: 'DELETE', body: JSON.stringify({ reaction: '👍' }) });
    await rest.setDeliverySettings(3, { mode: 'smart', smartModeOptions: { intervalMinutes: 10 } });
    expect(transport.last().body).toBe(JSON.stringify({ mode: 'smart', smart_mode_options: { interval_minutes: 10 } }));
    await rest.joinCommunity(5);
    expect(transport.last()).toEqual({ method: 'POST', url: 'http://api.test/v1/communities/5/join', headers: { ...BASE_HEADERS, 'Auth-Token': 'tok' } });
    await rest.getComments(5, { postId: 8, before: 3 });
    expect(transport.last().url).toBe('http://api.test/v1/channels/5/post_comments?post_id=8&limit=50&before=3');
  });

  it('uploads multipart without a Content-Type of its own', async () => {
    const { transport, rest } = recorded();
    await rest.uploadFile(new Blob(['x']), { fileName: 'a.png' });
    const upload = transport.uploads[0];
    expect(upload?.url).toBe('http://api.test/v2/filestorage/file');
    expect(upload?.headers).toEqual({ ...BASE_HEADERS, 'Auth-Token': 'tok' });
    expect((upload?.form.get('file') as File).name).toBe('a.png');
  });
});

describe('REST headers (real server)', () => {
  const s = useTestServer();

  it('arrive at the server: the token signs the call in, and the recorded set is the spec set', async () => {
    const user = await signUp(s.url, 'Hedda');
    const transport = new RecordingTransport(fetchTransport);
    const rest = createRestClient({
      transport,
      session: () => ({ apiBase: s.url, token: user.token }),
      clientToken: 'install-1',
      onUnauthorized: () => {},
    });
    const { account } = await rest.getMe();
    expect(account).toMatchObject({ id: user.id, nickname: 'Hedda' });
    expect(transport.last().headers).toEqual({ ...BASE_HEADERS, 'Auth-Token': user.token });
  });
});
