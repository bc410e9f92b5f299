import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { isEngineError } from '../../../src/engine/errors';
import {
  createRestClient,
  fetchTransport,
  type HttpResponse,
  type HttpTransport,
  type RestClientOptions,
} from '../../../src/engine/rest';
import { signUp, useTestServer } from '../../support/server';

function client(apiBase: string, token: string | null, overrides: Partial<RestClientOptions> = {}) {
  const session = { apiBase, token };
  const onUnauthorized = vi.fn();
  const rest = createRestClient({
    transport: fetchTransport,
    session: () => session,
    clientToken: 'install-errors',
    onUnauthorized,
    ...overrides,
  });
  return { rest, session, onUnauthorized };
}

/** The address of a port nothing listens on: a network failure with no answer. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** Answers every call with the given status and a body that is not JSON (a proxy's error page). */
function htmlTransport(status: number): HttpTransport {
  const answer = (): Promise<HttpResponse> =>
    Promise.resolve({ status, json: () => Promise.reject(new SyntaxError('Unexpected token <')) });
  return { request: answer, upload: answer };
}

describe('REST errors', () => {
  const s = useTestServer();

  it('a 4xx carries the server message, its status and the call fallback', async () => {
    const user = await signUp(s.url, 'Elsa');
    const { rest, onUnauthorized } = client(s.url, user.token);
    await expect(rest.register('   ')).rejects.toEqual({
      name: 'EngineError',
      status: 400,
      message: 'Please enter a nickname',
      fallback: 'Failed to register user',
      call: 'register',
      code: 'nickname_required',
    });
    const missing = await rest.getConversation(999_999).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, call: 'getConversation', fallback: 'Failed to fetch conversation' });
    expect(isEngineError(missing) && missing.message).not.toBe('Failed to fetch conversation');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('a network failure is status 0 with the spec §8 fallback of the call', async () => {
    const { rest } = client(await closedPort(), 'tok');
    await expect(rest.getConversations()).rejects.toEqual({
      name: 'EngineError',
      status: 0,
      message: 'Failed to fetch conversations list',
      fallback: 'Failed to fetch conversations list',
      call: 'getConversations',
    });
    await expect(rest.sendMessage(1, { clientId: 5, message: 'hi' })).rejects.toMatchObject({
      status: 0,
      message: 'Failed to send message',
    });
    await expect(rest.getComments(1, { postId: 2 })).rejects.toMatchObject({
      status: 0,
      message: 'Network error occurred while fetching post comments',
    });
    await expect(rest.getCommunities()).rejects.toMatchObject({ status: 0, message: 'Network error occurred' });
    await expect(rest.uploadFile(new Blob(['x']))).rejects.toMatchObject({ status: 0, message: 'Failed to upload image' });
  });

  it('an answer that is not JSON is status 0 with the fallback, or its 4xx status when refused', async () => {
    const down = client('http://api.test', 'tok', { transport: htmlTransport(502) });
    await expect(down.rest.deleteMessages(1, [2])).rejects.toMatchObject({
      status: 0,
      message: 'Failed to delete messages',
    });
    const refused = client('http://api.test', 'tok', { transport: htmlTransport(413) });
    await expect(refused.rest.uploadFile(new Blob(['x']))).rejects.toMatchObject({
      status: 413,
      message: 'Failed to upload image',
    });
  });

  it('a 401 calls onUnauthorized and rejects with the EngineError', async () => {
    const { rest, onUnauthorized } = client(s.url, 'not-a-token');
    await expect(rest.getConversations()).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('a 401 for a token that was replaced meanwhile leaves the new session alone', async () => {
    const session = { apiBase: s.url, token: 'old-token' as string | null };
    const onUnauthorized = vi.fn();
    // Signs in again while the old call is on the wire.
    const transport: HttpTransport = {
      request: async (request) => {
        const answer = await fetchTransport.request(request);
        session.token = 'new-token';
        return answer;
      },
      upload: (request) => fetchTransport.upload(request),
    };
    const rest = createRestClient({ transport, session: () => session, clientToken: 'x', onUnauthorized });
    await expect(rest.getMe()).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('refuses ids and reactions that name nothing before sending', async () => {
    const request = vi.fn();
    const { rest } = client('http://api.test', 'tok', { transport: { request, upload: request } });
    await expect(rest.getMessages('')).rejects.toEqual({
      name: 'EngineError',
      status: 400,
      message: 'Invalid conversation ID provided',
      fallback: 'Invalid conversation ID provided',
      call: 'getMessages',
    });
    await expect(rest.joinCommunity(0)).rejects.toMatchObject({ message: 'Invalid parameters provided' });
    await expect(rest.addPostReaction(3, 4, '')).rejects.toMatchObject({ message: 'Invalid parameters provided' });
    await expect(rest.removeMember(3, '')).rejects.toMatchObject({ message: 'Invalid parameters provided' });
    expect(request).not.toHaveBeenCalled();
  });

  it('errors are plain data that survive a structured clone', async () => {
    const { rest } = client(await closedPort(), null);
    const error = await rest.getMe().catch((e: unknown) => e);
    expect(isEngineError(error)).toBe(true);
    const copy: unknown = structuredClone(error);
    expect(copy).toEqual(error);
    expect(isEngineError(copy)).toBe(true);
    expect(isEngineError(new Error('x'))).toBe(false);
  });
});
