import type { MultipartFile } from '@fastify/multipart';
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AttachmentMime } from '../../src/protocol/constants';
import { type Store, sql } from '../db/store';
import { ApiError, badRequest, tooLarge, unsupportedType } from '../http/errors';
import { cleanFileName } from './fileName';
import { processImage, THUMBNAIL_SIDE } from './images';
import { EXTENSIONS, SNIFF_BYTES, sniffMime } from './sniff';
import type { FileStorage } from './storage';
import { thumbnailName } from './thumbnail';

export interface StoredFile {
  id: number;
  name: string;
  mime: AttachmentMime;
  kind: 'image' | 'video';
  size: number;
  original_name: string;
}

export interface UploadRules {
  purpose: 'avatar' | 'attachment';
  maxBytes: number;
  accept: (mime: AttachmentMime) => boolean;
  tooLargeMessage: string;
  wrongTypeMessage: string;
}

/** A broken or cut-short multipart body is the client's fault: a 400, never a 500. */
export function asClientError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  // A file-system failure (ENOSPC, EACCES…) is the server's: it stays a logged 500.
  if ((error as NodeJS.ErrnoException).syscall !== undefined) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status >= 400 && status < 500) return error;
  return badRequest('The upload was cut short or is malformed.');
}

/**
 * Streams one uploaded part into the file storage under a random name, counting bytes as they pass and sniffing the
 * first ones. An image is then read with sharp: stored without its metadata, with a thumbnail beside it
 * (`storeImage`), or refused when it cannot be read. An oversize upload is cut off mid-stream (multipart's limit raises), and a refused file
 * leaves nothing behind on disk or in the database.
 */
export async function storeUpload(
  db: Store,
  storage: FileStorage,
  ownerId: number,
  part: MultipartFile,
  rules: UploadRules,
  now: number,
): Promise<StoredFile> {
  const token = randomBytes(16).toString('hex');
  const tmpKey = `.upload-${token}`;
  let head = Buffer.alloc(0);
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > rules.maxBytes) return done(tooLarge(rules.tooLargeMessage));
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk]).subarray(0, SNIFF_BYTES);
      done(null, chunk);
    },
  });
  // The parser destroys the stream of a file the body ended inside (cut short, or the client went away). When
  // the whole body had arrived before the file was read (the token's lookup in the database took a while),
  // that happened already, and a pipeline from a destroyed stream would never settle.
  if (part.file.destroyed) throw badRequest('The upload was cut short or is malformed.');
  try {
    const target = storage.create(tmpKey);
    await pipeline(part.file, counter, target.stream);
    await target.stored;
    if (part.file.truncated) throw tooLarge(rules.tooLargeMessage);
  } catch (error) {
    await storage.remove(tmpKey).catch(() => undefined);
    part.file.resume();
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(rules.tooLargeMessage);
    throw asClientError(error);
  }
  if (size === 0) {
    await storage.remove(tmpKey).catch(() => undefined);
    throw badRequest('The file is empty.');
  }
  const mime = await sniffMime(head);
  if (!mime || !rules.accept(mime)) {
    await storage.remove(tmpKey).catch(() => undefined);
    throw unsupportedType(rules.wrongTypeMessage);
  }
  const name = `${token}.${EXTENSIONS[mime]}`;
  const thumbnail = thumbnailName(name);
  try {
    if (thumbnail) size = await storeImage(storage, token, tmpKey, mime, THUMBNAIL_SIDE[rules.purpose], thumbnail);
    await storage.rename(tmpKey, name);
  } catch (error) {
    await Promise.all([tmpKey, ...(thumbnail ? [thumbnail] : [])].map((key) => storage.remove(key).catch(() => undefined)));
    throw error;
  }
  const kind = mime.startsWith('image/') ? 'image' : 'video';
  // Only for display: the name on disk is always server-made.
  const original = cleanFileName(part.filename);
  try {
    const row = await db.get<{ id: number }>(
      sql`INSERT INTO files (name, owner_id, purpose, mime, kind, size, original_name, created_at)
          VALUES (${name}, ${ownerId}, ${rules.purpose}, ${mime}, ${kind}, ${size}, ${original}, ${now})
          RETURNING id`,
    );
    return { id: row!.id, name, mime, kind, size, original_name: original };
  } catch (error) {
    await Promise.all([name, ...(thumbnail ? [thumbnail] : [])].map((key) => storage.remove(key).catch(() => undefined)));
    throw error;
  }
}

/** Writes `bytes` as the object `key`. */
async function writeObject(storage: FileStorage, key: string, bytes: Buffer): Promise<void> {
  const target = storage.create(key);
  target.stream.end(bytes);
  await target.stored;
}

/** Reads a whole object (an upload already counted, so at most its limit). */
async function readObject(storage: FileStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The image at `tmpKey` made safe to keep (server/files/images.ts): its cleaned original replaces it under
 * the same temporary key, and its thumbnail is stored as `thumbnail`. Answers the original's new size.
 * Temporary objects are `.upload-` ones, so a crash halfway leaves only what the sweep removes.
 */
async function storeImage(
  storage: FileStorage,
  token: string,
  tmpKey: string,
  mime: AttachmentMime,
  side: number,
  thumbnail: string,
): Promise<number> {
  const bytes = await readObject(storage, tmpKey);
  const processed = await processImage(bytes, mime, side);
  const thumbKey = `.upload-${token}-thumb`;
  try {
    await writeObject(storage, thumbKey, processed.thumbnail);
    await storage.rename(thumbKey, thumbnail);
  } finally {
    await storage.remove(thumbKey).catch(() => undefined);
  }
  if (!processed.original) return bytes.length;
  await storage.remove(tmpKey);
  await writeObject(storage, tmpKey, processed.original);
  return processed.original.length;
}
