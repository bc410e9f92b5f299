import type { MultipartFile } from '@fastify/multipart';
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AttachmentMime } from '../../src/protocol/constants';
import { type Store, sql } from '../db/store';
import { ApiError, badRequest, tooLarge, unsupportedType } from '../http/errors';
import { cleanFileName } from './fileName';
import { EXTENSIONS, SNIFF_BYTES, sniffMime } from './sniff';
import type { FileStorage } from './storage';

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
 * first ones. An oversize upload is cut off mid-stream (multipart's limit raises), and a refused file
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
  const mime = sniffMime(head);
  if (!mime || !rules.accept(mime)) {
    await storage.remove(tmpKey).catch(() => undefined);
    throw unsupportedType(rules.wrongTypeMessage);
  }
  const name = `${token}.${EXTENSIONS[mime]}`;
  await storage.rename(tmpKey, name);
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
    await storage.remove(name).catch(() => undefined);
    throw error;
  }
}
