import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ChannelAnswer, CommunityAnswer, MessageAnswer } from '../../src/protocol/api';
import { ManualClock } from '../../server/clock';
import { sql } from '../../server/db/store';
import { sniffMime } from '../../server/files/sniff';
import { ABANDONED_UPLOAD_MS } from '../../server/files/sweep';
import { call, startTestServer, type TestServer, type TestUser, useTestServer, useUsers } from '../support/server';
import { makeWorld } from './communities-support';
import { conversation, freshClientId } from './messages-support';

/** Uploads, docs/server.md "Uploads": types by file-type, pictures re-encoded by sharp with a thumbnail beside. */

function form(field: string, bytes: Buffer, filename: string): FormData {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), filename);
  return body;
}

interface Uploaded {
  id: string;
  url: string;
  thumbnail: string;
  size: number;
  mime: string;
}

const upload = (s: TestServer, user: TestUser, bytes: Buffer, filename = 'photo.jpg') =>
  call<{ file: Uploaded }>(s.url, 'POST', '/v2/filestorage/file', { token: user.token, body: form('file', bytes, filename) });

const fetchBytes = async (s: TestServer, url: string) => {
  const res = await fetch(s.url + url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
};

/** An ISO-BMFF head with the major brand `brand` (what AVIF, HEIC, M4A and MP4 files start with). */
const ftyp = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`), Buffer.alloc(40)]);

/** The EXIF GPS IFD pointer (tag 0x8825), as it appears in little-endian EXIF. */
const GPS_POINTER = Buffer.from([0x25, 0x88]);

/**
 * A landscape 1600×800 camera JPEG (noise, so it does not compress to nothing) whose EXIF says "rotate 90°
 * clockwise to show" (orientation 6) and where it was taken.
 */
async function cameraJpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 1600, height: 800, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 92 })
    .withExif({
      IFD0: { Make: 'Camera', Model: 'Phone 9' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 19/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '18/1 4/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A PNG head that says `width`×`height` (the IHDR with its CRC) followed by one tiny real image's data. */
function bombPng(width: number, height: number): Buffer {
  const tiny = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082',
    'hex',
  );
  const png = Buffer.from(tiny);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

const s = useTestServer();
const [anna, bo] = useUsers(s, 'Anna', 'Bo');
const storedFiles = () => readdirSync(path.join(s.dataDir, 'files')).sort();

describe('types by file-type', () => {
  it('does not take AVIF or HEIC pictures or M4A sound for MP4 video, and refuses them as spec §5 lists none of them', async () => {
    const avif = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#36c' } }).avif().toBuffer();
    expect(await sniffMime(avif)).toBeNull();
    for (const brand of ['heic', 'mif1', 'M4A ']) expect(await sniffMime(ftyp(brand))).toBeNull();
    expect(await sniffMime(ftyp('isom'))).toBe('video/mp4');
    expect(await sniffMime(ftyp('M4V '))).toBe('video/mp4');

    const before = storedFiles();
    for (const [bytes, name] of [
      [avif, 'photo.avif'],
      [ftyp('heic'), 'photo.heic'],
      [ftyp('M4A '), 'song.mp4'],
    ] as const) {
      const res = await upload(s, anna, bytes, name);
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ message: 'File type not supported. Please select an image or video file.' });
    }
    expect(storedFiles()).toEqual(before);
  });

  it('goes by the bytes when the name lies: a JPEG called .gif is a JPEG, an SVG called .png is refused', async () => {
    const jpeg = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#c84' } }).jpeg().toBuffer();
    const res = await upload(s, anna, jpeg, 'funny.gif');
    expect(res.data.file).toMatchObject({ mime: 'image/jpeg' });
    expect(res.data.file.url).toMatch(/\.jpg$/);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await upload(s, anna, svg, 'logo.png')).status).toBe(415);
  });
});

describe('pictures', () => {
  it('keep neither location nor camera in the original or the thumbnail, and are turned upright first', async () => {
    const camera = await cameraJpeg();
    const exif = (await sharp(camera).metadata()).exif;
    expect(exif?.includes(GPS_POINTER)).toBe(true);

    const res = await upload(s, anna, camera);
    const file = res.data.file;
    expect(file.url).toMatch(/^\/files\/[a-f0-9]{32}\.jpg$/);
    expect(file.thumbnail).toBe(file.url.replace(/\.jpg$/, '.thumb.webp'));

    const original = await fetchBytes(s, file.url);
    expect(original).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(original.bytes.length).toBe(file.size);
    const originalMeta = await sharp(original.bytes).metadata();
    // Still a JPEG, upright (portrait), with no EXIF at all (so no GPS, no camera) and no orientation left to apply.
    expect(originalMeta).toMatchObject({ format: 'jpeg', width: 800, height: 1600 });
    expect(originalMeta.exif).toBeUndefined();
    expect(originalMeta.xmp).toBeUndefined();
    expect(originalMeta.orientation).toBeUndefined();
    expect(original.bytes.includes(Buffer.from('Phone 9'))).toBe(false);

    const thumbnail = await fetchBytes(s, file.thumbnail);
    expect(thumbnail).toMatchObject({ status: 200, type: 'image/webp' });
    const thumbnailMeta = await sharp(thumbnail.bytes).metadata();
    expect(thumbnailMeta).toMatchObject({ format: 'webp', width: 320, height: 640 });
    expect(thumbnailMeta.exif).toBeUndefined();
    expect(thumbnail.bytes.length).toBeLessThan(original.bytes.length / 4);
  });

  it('put the thumbnail in the message, and it goes with the message', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const file = (await upload(s, anna, await cameraJpeg())).data.file;
    const sentMessage = await call<MessageAnswer>(s.url, 'POST', `/v2/conversations/${id}/messages`, {
      token: anna.token,
      json: { client_id: freshClientId(), message: 'look', attachment: { type: 'image', files: [{ id: file.id }] } },
    });
    expect(file.thumbnail).toMatch(/^\/files\/[a-f0-9]{32}\.thumb\.webp$/);
    expect(sentMessage.data.message.attachment).toMatchObject({ url: file.url, thumbnail: file.thumbnail });
    const thumbnailOnDisk = path.join(s.dataDir, 'files', file.thumbnail.split('/').pop() ?? '');
    expect(existsSync(thumbnailOnDisk)).toBe(true);

    const deleted = await call(s.url, 'POST', `/v2/conversations/${id}/delete/messages`, {
      token: anna.token,
      json: { message_ids: [sentMessage.data.message.id] },
    });
    expect(deleted.status).toBe(200);
    expect((await fetch(s.url + file.thumbnail)).status).toBe(404);
    await expect.poll(() => existsSync(thumbnailOnDisk)).toBe(false);
  });

  it('serve a thumbnail only to whoever can read the original: by its random name, and while its original is there', async () => {
    const file = (await upload(s, anna, await cameraJpeg())).data.file;
    expect(file.thumbnail).toMatch(/\.thumb\.webp$/);
    expect(await fetchBytes(s, file.thumbnail)).toMatchObject({ status: 200, type: 'image/webp' });
    // An outsider who does not hold the original's random name cannot make the thumbnail's up either.
    const guessed = `/files/${'0'.repeat(32)}.thumb.webp`;
    expect((await fetch(s.url + guessed)).status).toBe(404);
    expect((await fetch(`${s.url}/files/${file.id.replace(/\.jpg$/, '')}.thumb.png`)).status).toBe(404);
    // A video has no thumbnail of its own name.
    const video = (await upload(s, anna, ftyp('isom'), 'clip.mp4')).data.file;
    expect(video.thumbnail).toBe(video.url);
    expect((await fetch(`${s.url}${video.url.replace(/\.mp4$/, '.thumb.webp')}`)).status).toBe(404);
    // The original's row gone (its file deleted), the thumbnail is not served, even with its bytes still on disk.
    await s.server.ctx.db.run(sql`DELETE FROM files WHERE name = ${file.id}`);
    expect(existsSync(path.join(s.dataDir, 'files', file.thumbnail.split('/').pop() ?? ''))).toBe(true);
    expect((await fetch(s.url + file.thumbnail)).status).toBe(404);
    expect((await fetch(s.url + file.url)).status).toBe(404);
  });

  it('stored before thumbnails were made, show their original in the thumbnail’s place', async () => {
    const file = (await upload(s, anna, await cameraJpeg())).data.file;
    rmSync(path.join(s.dataDir, 'files', file.thumbnail.split('/').pop() ?? ''));
    const served = await fetchBytes(s, file.thumbnail);
    expect(served).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(served.bytes.length).toBe(file.size);
  });

  it('animated, keep their frames in the thumbnail; a GIF keeps its bytes', async () => {
    const frames = await Promise.all(
      ['#00f', '#0f0', '#f00'].map((background) =>
        sharp({ create: { width: 900, height: 300, channels: 4, background } }).png().toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } }).gif({ loop: 0, delay: [100, 100, 100] }).toBuffer();
    const file = (await upload(s, anna, gif, 'wave.gif')).data.file;
    expect(file.mime).toBe('image/gif');
    expect((await fetchBytes(s, file.url)).bytes.equals(gif)).toBe(true);
    const thumbnail = await sharp((await fetchBytes(s, file.thumbnail)).bytes, { animated: true }).metadata();
    expect(thumbnail).toMatchObject({ format: 'webp', pages: 3, width: 640 });
  });

  it('give avatars a thumbnail too, in the upload answer and in the profile', async () => {
    const camera = await cameraJpeg();
    const res = await call<{ image: { id: number; url: string; thumbnail: string } }>(s.url, 'POST', '/v1/images', {
      token: bo.token,
      body: form('image', camera, 'me.jpg'),
    });
    const { id, url, thumbnail } = res.data.image;
    expect(thumbnail).toBe(url.replace(/\.jpg$/, '.thumb.webp'));
    const small = await sharp((await fetchBytes(s, thumbnail)).bytes).metadata();
    expect(small).toMatchObject({ format: 'webp', width: 160, height: 320 });
    const me = await call<{ account: { image: { meta: { url: string; thumbnail: string } } } }>(s.url, 'PUT', '/v1/me', {
      token: bo.token,
      form: { image_id: id },
    });
    expect(me.data.account.image.meta).toMatchObject({ url, thumbnail });
  });
});

describe('community pictures and channel logos', () => {
  it('carry the thumbnail beside the original', async () => {
    const w = await makeWorld(s, 'pictures');
    const image = await call<{ image: { id: number; url: string; thumbnail: string } }>(s.url, 'POST', '/v1/images', {
      token: w.owner.token,
      body: form('image', await cameraJpeg(), 'logo.jpg'),
    });
    const { id, url, thumbnail } = image.data.image;
    const db = s.server.ctx.db;
    await db.run(sql`UPDATE communities SET avatar_file_id = ${id} WHERE id = ${w.community.id}`);
    await db.run(sql`UPDATE conversations SET image_file_id = ${id} WHERE id = ${w.general.id}`);
    const community = await call<CommunityAnswer>(s.url, 'GET', `/v1/communities/${w.community.id}`, { token: w.member.token });
    expect(community.data.community).toMatchObject({ avatar: { url }, avatar_thumbnail_url: thumbnail });
    const channel = await call<ChannelAnswer>(s.url, 'GET', `/v1/channels/${w.general.id}`, { token: w.member.token });
    expect(channel.data.channel.logo).toEqual({ url, thumbnail });
  });
});

describe('pictures that cannot be read', () => {
  it('are refused with a code, in the asked language, and leave nothing behind', async () => {
    const before = storedFiles();
    const rowsBefore = await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM files`);
    const camera = await cameraJpeg();
    const corrupt = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(600, 1)]);
    const truncated = camera.subarray(0, Math.floor(camera.length / 2));
    for (const [bytes, name] of [
      [corrupt, 'corrupt.jpg'],
      [truncated, 'cut.jpg'],
    ] as const) {
      const res = await upload(s, anna, bytes, name);
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ code: 'image_unreadable', message: 'The image could not be read: it is damaged or cut short.' });
    }
    const swedish = await call(s.url, 'POST', '/v2/filestorage/file', {
      token: anna.token,
      body: form('file', corrupt, 'trasig.jpg'),
      headers: { 'Accept-Language': 'sv' },
    });
    expect(swedish.body).toMatchObject({ code: 'image_unreadable', message: 'Bilden gick inte att läsa: den är skadad eller ofullständig.' });
    expect(storedFiles()).toEqual(before);
    expect(await s.server.ctx.db.get(sql`SELECT COUNT(*) AS n FROM files`)).toEqual(rowsBefore);
  });

  it('refuse a decompression bomb before decoding it', async () => {
    const before = storedFiles();
    const bomb = bombPng(30_000, 30_000);
    expect(bomb.length).toBeLessThan(100);
    const res = await upload(s, anna, bomb, 'bomb.png');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'image_too_large' });
    expect(storedFiles()).toEqual(before);
  });
});

describe('abandoned temporary uploads', () => {
  it('are swept when the server starts and then on its timer, by the injected clock, and live ones stay', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-test-'));
    const dir = path.join(dataDir, 'files');
    mkdirSync(dir, { recursive: true });
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    const touch = (name: string, at: number) => {
      writeFileSync(path.join(dir, name), 'half an upload');
      utimesSync(path.join(dir, name), at / 1000, at / 1000);
    };
    touch('.upload-stale', clock.now() - ABANDONED_UPLOAD_MS - 1000);
    touch('.upload-fresh', clock.now() - 60_000);
    touch('0123456789abcdef0123456789abcdef.png', clock.now() - 10 * ABANDONED_UPLOAD_MS);
    const server = await startTestServer({}, { clock, keepDataDir: dataDir });
    try {
      expect(readdirSync(dir).sort()).toEqual(['.upload-fresh', '0123456789abcdef0123456789abcdef.png']);
      expect(await server.server.sweepUploads()).toBe(0);
      clock.advance(ABANDONED_UPLOAD_MS);
      expect(await server.server.sweepUploads()).toBe(1);
      expect(readdirSync(dir)).toEqual(['0123456789abcdef0123456789abcdef.png']);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
