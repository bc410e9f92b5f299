import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sniffMime } from '../../server/files/sniff';
import { sql } from '../../server/db/store';
import { call, signUp, type TestServer, useTestServer, useUsers } from '../support/server';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex');
const JPEG = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c84' } }).jpeg().toBuffer();
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(40)]);

function form(field: string, bytes: Buffer, filename: string, type = 'application/octet-stream'): FormData {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(bytes)], { type }), filename);
  return body;
}

/** Files under the data directory, without SQLite's own. */
const storedFiles = (s: TestServer) => readdirSync(path.join(s.dataDir, 'files'));

const s = useTestServer();
const [user] = useUsers(s, 'Uploader');

describe('type sniffing', () => {
  it('recognises each accepted type from its bytes and nothing else', async () => {
    expect(await sniffMime(PNG)).toBe('image/png');
    expect(await sniffMime(JPEG)).toBe('image/jpeg');
    expect(await sniffMime(Buffer.from('GIF89a______'))).toBe('image/gif');
    expect(await sniffMime(Buffer.from('RIFF____WEBPVP8 '))).toBe('image/webp');
    expect(await sniffMime(Buffer.from('RIFF____AVI LIST'))).toBe('video/x-msvideo');
    // An EBML header whose DocType is "webm".
    const webm = Buffer.from('1a45dfa39f4286810142f7810142f2810442f381084282847765626d428781024285810218538067', 'hex');
    expect(await sniffMime(webm)).toBe('video/webm');
    // An Ogg page holding a Theora (video) header.
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(24), Buffer.from('\x80theora', 'latin1'), Buffer.alloc(50)]);
    expect(await sniffMime(ogg)).toBe('video/ogg');
    expect(await sniffMime(MP4)).toBe('video/mp4');
    expect(await sniffMime(Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypqt  '), Buffer.alloc(8)]))).toBe(
      'video/quicktime',
    );
    expect(await sniffMime(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(await sniffMime(Buffer.from('%PDF-1.7 ........'))).toBeNull();
    expect(await sniffMime(Buffer.from('short'))).toBeNull();
  });
});

describe('attachments', () => {
  it('stores an image under a server-made name and serves it inline with nosniff', async () => {
    const res = await call<{ file: { id: string; url: string; type: string; mime: string; size: number; name: string } }>(
      s.url,
      'POST',
      '/v2/filestorage/file',
      { token: user.token, body: form('file', PNG, '../../etc/passwd.png', 'image/png') },
    );
    const file = res.data.file;
    expect(file).toMatchObject({ type: 'image', mime: 'image/png', name: 'passwd.png' });
    expect(file.url).toMatch(/^\/files\/[a-f0-9]{32}\.png$/);
    const served = await fetch(s.url + file.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toMatch(/^inline/);
    // Re-encoded without metadata (docs/server.md "Uploads"): the same picture, its size the stored one.
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(file.size);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'png', width: 1, height: 1 });
  });

  it('accepts a video', async () => {
    const res = await call<{ file: { type: string; mime: string } }>(s.url, 'POST', '/v2/filestorage/file', {
      token: user.token,
      body: form('file', MP4, 'clip.mp4', 'video/mp4'),
    });
    expect(res.data.file).toMatchObject({ type: 'video', mime: 'video/mp4' });
  });

  it('judges the type by the bytes, not the name or the declared type', async () => {
    const before = storedFiles(s).length;
    const res = await call(s.url, 'POST', '/v2/filestorage/file', {
      token: user.token,
      body: form('file', Buffer.from('<html><script>alert(1)</script></html>'), 'cat.png', 'image/png'),
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ message: 'File type not supported. Please select an image or video file.' });
    expect(storedFiles(s).length).toBe(before);
  });

  it('cuts off an upload over 50 MB while streaming and keeps nothing', async () => {
    const before = storedFiles(s).length;
    const rowsBefore = await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM files`);
    const big = Buffer.alloc(52_428_800 + 1, 0);
    PNG.copy(big);
    const res = await call(s.url, 'POST', '/v2/filestorage/file', { token: user.token, body: form('file', big, 'big.png') });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ message: 'File size too large. Please select a file under 50MB' });
    expect(storedFiles(s).length).toBe(before);
    expect(await s.server.ctx.db.get(sql`SELECT COUNT(*) AS n FROM files`)).toEqual(rowsBefore);
  });

  it('accepts a file of exactly 50 MB', async () => {
    const exact = Buffer.alloc(52_428_800, 0);
    MP4.copy(exact);
    const res = await call<{ file: { size: number } }>(s.url, 'POST', '/v2/filestorage/file', {
      token: user.token,
      body: form('file', exact, 'exact.mp4'),
    });
    expect(res.data.file.size).toBe(52_428_800);
  });

  it('refuses bad multipart requests with 4xx', async () => {
    const wrongField = await call(s.url, 'POST', '/v2/filestorage/file', { token: user.token, body: form('image', PNG, 'a.png') });
    expect(wrongField.status).toBe(400);
    const notMultipart = await call(s.url, 'POST', '/v2/filestorage/file', { token: user.token, json: { file: 'x' } });
    expect(notMultipart.status).toBe(400);
    const empty = await call(s.url, 'POST', '/v2/filestorage/file', { token: user.token, body: form('file', Buffer.alloc(0), 'a.png') });
    expect(empty.status).toBe(400);
    const broken = await call(s.url, 'POST', '/v2/filestorage/file', {
      token: user.token,
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
    });
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
    const anonymous = await call(s.url, 'POST', '/v2/filestorage/file', { body: form('file', PNG, 'a.png') });
    expect(anonymous.status).toBe(401);
  });

  it('answers 404 for unknown or malformed file names', async () => {
    expect((await fetch(`${s.url}/files/${'0'.repeat(32)}.png`)).status).toBe(404);
    expect((await fetch(`${s.url}/files/..%2Fmessenger.db`)).status).toBe(404);
  });

  it('answers 404, not 500, for a stored file that is gone from disk', async () => {
    const res = await call<{ file: { url: string } }>(s.url, 'POST', '/v2/filestorage/file', {
      token: user.token,
      body: form('file', PNG, 'lost.png'),
    });
    const name = res.data.file.url.split('/').pop() ?? '';
    expect((await fetch(`${s.url}/files/${name}`)).status).toBe(200);
    rmSync(path.join(s.dataDir, 'files', name));
    const gone = await fetch(`${s.url}/files/${name}`);
    expect(gone.status).toBe(404);
  });
});

describe('avatars', () => {
  it('accepts an image and sets it as the profile picture', async () => {
    const res = await call<{ image: { id: number; url: string } }>(s.url, 'POST', '/v1/images', {
      token: user.token,
      body: form('image', JPEG, 'me.jpg'),
    });
    const { id, url } = res.data.image;
    const me = await call<{ account: { image: { meta: { url: string; is_default: boolean } }; avatar: string } }>(
      s.url,
      'PUT',
      '/v1/me',
      { token: user.token, form: { image_id: id } },
    );
    expect(me.data.account.image.meta).toMatchObject({ url, is_default: false });
    expect(me.data.account.avatar).toBe(url);
  });

  it('refuses a video, an image over 3 MB, and someone else’s image id', async () => {
    const video = await call(s.url, 'POST', '/v1/images', { token: user.token, body: form('image', MP4, 'a.mp4') });
    expect(video.status).toBe(415);
    expect(video.body).toMatchObject({ message: 'Please select an image' });
    const big = Buffer.alloc(3_145_728 + 1, 0);
    PNG.copy(big);
    const tooBig = await call(s.url, 'POST', '/v1/images', { token: user.token, body: form('image', big, 'big.png') });
    expect(tooBig.status).toBe(413);
    const other = await signUp(s.url, 'Other');
    const mine = await call<{ image: { id: number } }>(s.url, 'POST', '/v1/images', {
      token: user.token,
      body: form('image', PNG, 'x.png'),
    });
    const stolen = await call(s.url, 'PUT', '/v1/me', { token: other.token, form: { image_id: mine.data.image.id } });
    expect(stolen.status).toBe(400);
  });
});

describe('file names (issue 12)', () => {
  const upload = (filename: string) =>
    call<{ file: { url: string; name: string } }>(s.url, 'POST', '/v2/filestorage/file', {
      token: user.token,
      body: form('file', PNG, filename, 'image/png'),
    }).then((r) => r.data.file);
  const disposition = async (url: string) => (await fetch(s.url + url)).headers.get('content-disposition');

  it('lose their bidi and control characters, in the stored name and in Content-Disposition', async () => {
    // Shown as "invoiceexe.png": the right-to-left override turns what follows it around.
    const file = await upload('invoice\u202Egnp.exe');
    expect(file.name).toBe('invoicegnp.exe');
    expect(await disposition(file.url)).toBe(`inline; filename*=UTF-8''invoicegnp.exe`);

    const marks = '\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C';
    const controls = '\u0001\u0008\u001B\u007F\u0085\u009B';
    const mixed = await upload(`a${marks}b${controls}c \u0645\u0631\u062D\u0628\u0627 😀.png`);
    expect(mixed.name).toBe('abc مرحبا 😀.png');
    const stored = await s.server.ctx.db.get<{ original_name: string }>(
      sql`SELECT original_name FROM files WHERE name = ${mixed.url.slice(7)}`,
    );
    expect(stored?.original_name).toBe('abc مرحبا 😀.png');
    expect(await disposition(mixed.url)).toBe(`inline; filename*=UTF-8''${encodeURIComponent('abc مرحبا 😀.png')}`);
  });

  it('are cut to 200 characters without splitting a character in two', async () => {
    const file = await upload(`${'a'.repeat(199)}😀😀.png`);
    expect(file.name).toBe(`${'a'.repeat(199)}😀`);
    expect(await disposition(file.url)).toBe(`inline; filename*=UTF-8''${'a'.repeat(199)}${encodeURIComponent('😀')}`);
  });

  it('are cleaned on the way out too, for names stored before the rule', async () => {
    const file = await upload('old.png');
    await s.server.ctx.db.run(
      sql`UPDATE files SET original_name = ${'photo\u202Egnp.js\u0007'} WHERE name = ${file.url.slice(7)}`,
    );
    expect(await disposition(file.url)).toBe(`inline; filename*=UTF-8''photognp.js`);
  });
});
