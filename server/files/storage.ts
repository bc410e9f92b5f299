import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';

/**
 * Where uploaded files' bytes live (issue 21), by key (the server-made file name). The database holds
 * their rows; this holds only bytes. A node needs every file any node stored, so in a cluster this is shared.
 */
export interface FileStorage {
  /** A new object under `key`: write its bytes to `stream`; `stored` settles once it is stored or failed. */
  create(key: string): { stream: Writable; stored: Promise<void> };
  /** Gives a stored object another key (the upload's temporary key becomes the file's name). */
  rename(from: string, to: string): Promise<void>;
  /** The object's size in bytes, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** The object's bytes (after `size` found it). */
  open(key: string): Readable;
  /** Removes the object; removing one that is gone is no error. */
  remove(key: string): Promise<void>;
  /** The objects whose key starts with `prefix`, with when each was last written (epoch ms). */
  list(prefix: string): Promise<{ key: string; modifiedAt: number }[]>;
}

/**
 * The default: a directory (DATA_DIR/files). Nodes on one machine, or on several with one network
 * directory mounted at the same place (NFS, a cloud file share), share it as it is: names are random and
 * written once, under a temporary name first and renamed into place, so no node ever reads half a file.
 *
 * On paper, the adapter a multi-host deployment without a shared directory would add (S3 or any
 * S3-compatible store, @aws-sdk/client-s3 and @aws-sdk/lib-storage): `create` streams into an `Upload` of
 * the key and settles `stored` with it; `rename` is CopyObject then DeleteObject; `size` is HeadObject
 * (NotFound: null); `open` is GetObject's body; `remove` is DeleteObject; `list` is ListObjectsV2 with the
 * prefix (its LastModified). Nothing else changes: routes
 * and domain code only see this interface.
 */
export class DirectoryStorage implements FileStorage {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  create(key: string): { stream: Writable; stored: Promise<void> } {
    // `wx`: a key is never written twice.
    const stream = createWriteStream(this.path(key), { flags: 'wx' });
    const stored = finished(stream);
    // A write that fails is the pipeline's error to report; the caller awaits `stored` only after it succeeded.
    stored.catch(() => undefined);
    return { stream, stored };
  }

  async rename(from: string, to: string): Promise<void> {
    await rename(this.path(from), this.path(to));
  }

  async size(key: string): Promise<number | null> {
    const found = await stat(this.path(key)).catch(() => null);
    return found?.isFile() ? found.size : null;
  }

  open(key: string): Readable {
    return createReadStream(this.path(key));
  }

  async remove(key: string): Promise<void> {
    await unlink(this.path(key)).catch((error: unknown) => {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    });
  }

  async list(prefix: string): Promise<{ key: string; modifiedAt: number }[]> {
    const names = (await readdir(this.dir)).filter((name) => name.startsWith(prefix));
    const found = await Promise.all(
      names.map(async (key) => {
        const info = await stat(this.path(key)).catch(() => null);
        return info?.isFile() ? { key, modifiedAt: info.mtimeMs } : null;
      }),
    );
    return found.filter((entry) => entry !== null);
  }

  private path(key: string): string {
    // Keys are server-made; a separator would leave the directory.
    if (key.includes('/') || key.includes('\\') || key === '..' || key === '.') throw new Error('bad storage key');
    return path.join(this.dir, key);
  }
}
