import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FileAnswer, ImageAnswer } from '../../src/protocol/api';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MIME_TYPES, AVATAR_MAX_BYTES } from '../../src/protocol/constants';
import type { ServerContext } from '../context';
import { list, sql } from '../db/store';
import { fileUrl, thumbnailUrl } from '../domain/serialize';
import { cleanFileName } from '../files/fileName';
import { asClientError, type UploadRules, storeUpload } from '../files/store';
import { originalCandidates } from '../files/thumbnail';
import { me } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { ok } from '../http/reply';

const ATTACHMENT_RULES: UploadRules = {
  purpose: 'attachment',
  maxBytes: ATTACHMENT_MAX_BYTES,
  accept: (mime) => (ATTACHMENT_MIME_TYPES as readonly string[]).includes(mime),
  tooLargeMessage: 'File size too large. Please select a file under 50MB',
  wrongTypeMessage: 'File type not supported. Please select an image or video file.',
};

const AVATAR_RULES: UploadRules = {
  purpose: 'avatar',
  maxBytes: AVATAR_MAX_BYTES,
  accept: (mime) => mime.startsWith('image/'),
  tooLargeMessage: 'Image too big. Please select an image under 3MB',
  wrongTypeMessage: 'Please select an image',
};

async function filePart(request: FastifyRequest, field: string, maxBytes: number) {
  if (!request.isMultipart()) throw badRequest('The request is not multipart.');
  // +1 so our own counter, not multipart's, sees the first byte past the limit and answers with our text.
  let part;
  try {
    part = await request.file({ limits: { fileSize: maxBytes + 1 } });
  } catch (error) {
    throw asClientError(error);
  }
  if (!part) throw badRequest('No file was uploaded.');
  if (part.fieldname !== field) {
    part.file.resume();
    throw badRequest(`The file must be sent in the "${field}" field.`);
  }
  return part;
}

export function registerFileRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db, files, clock } = ctx;

  app.post('/v2/filestorage/file', async (request) => {
    const part = await filePart(request, 'file', ATTACHMENT_RULES.maxBytes);
    const stored = await storeUpload(db, files, me(request).id, part, ATTACHMENT_RULES, clock.now());
    return ok<FileAnswer>({
      file: {
        id: stored.name,
        url: fileUrl(stored.name),
        thumbnail: thumbnailUrl(stored.name),
        name: stored.original_name,
        size: stored.size,
        mime: stored.mime,
        type: stored.kind,
      },
    });
  });

  app.post('/v1/images', async (request) => {
    const part = await filePart(request, 'image', AVATAR_RULES.maxBytes);
    const stored = await storeUpload(db, files, me(request).id, part, AVATAR_RULES, clock.now());
    return ok<ImageAnswer>({ image: { id: stored.id, url: fileUrl(stored.name), thumbnail: thumbnailUrl(stored.name) } });
  });

  // Names are 128-bit random, so a URL is the capability to read the file (an <img> sends no Auth-Token).
  // A thumbnail's name is its original's random part (server/files/thumbnail.ts): it is exactly as secret,
  // and it is served only while its original's row is there, so it goes when the original does.
  app.get<{ Params: { name: string } }>('/files/:name', async (request, reply) => {
    const { name } = request.params;
    const candidates = originalCandidates(name);
    if (!candidates && !/^[a-f0-9]{32}\.[a-z0-9]{2,4}$/.test(name)) throw notFound('File not found');
    const row = await db.get<{ name: string; mime: string; kind: string; size: number; original_name: string }>(
      candidates
        ? sql`SELECT name, mime, kind, size, original_name FROM files WHERE name IN ${list(candidates)} AND kind = 'image'`
        : sql`SELECT name, mime, kind, size, original_name FROM files WHERE name = ${name}`,
    );
    if (!row) throw notFound('File not found');
    // An image stored before thumbnails were made has none: its original stands in.
    let key = name;
    let mime = candidates ? 'image/webp' : row.mime;
    let size = await files.size(key);
    if (size === null && candidates) {
      key = row.name;
      mime = row.mime;
      size = await files.size(key);
    }
    // A row whose bytes are gone (a lost volume, a restore without the files) is missing too.
    if (size === null) throw notFound('File not found');
    const inline = row.kind === 'image' || row.kind === 'video';
    const disposition = inline ? 'inline' : 'attachment';
    // Cleaned again on the way out: names stored before the rule may still hold bidi or control characters.
    const filename = encodeURIComponent(cleanFileName(row.original_name));
    return reply
      .header('Content-Type', inline ? mime : 'application/octet-stream')
      .header('Content-Length', size)
      .header('Content-Disposition', `${disposition}; filename*=UTF-8''${filename}`)
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .send(files.open(key));
  });
}
