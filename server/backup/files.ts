import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Copies the uploaded files of `from` that `to` does not have yet (names are written once and never change,
 * docs/server.md "Uploads"): run before and after the database is copied, so a file uploaded meanwhile is
 * there too. Answers how many files and bytes `to` holds.
 */
export function copyNewFiles(from: string, to: string): { copied: number; bytes: number } {
  mkdirSync(to, { recursive: true });
  let copied = 0;
  let bytes = 0;
  if (!existsSync(from)) return { copied, bytes };
  for (const name of readdirSync(from)) {
    // An upload still being written (server/files/store.ts): its row comes only after its rename.
    if (name.startsWith('.upload-')) continue;
    const source = path.join(from, name);
    const stat = statSync(source, { throwIfNoEntry: false });
    // A file deleted since the listing, or no file at all: nothing to copy.
    if (!stat?.isFile()) continue;
    const target = path.join(to, name);
    if (!existsSync(target)) {
      try {
        copyFileSync(source, target);
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') continue;
        throw error;
      }
    }
    copied += 1;
    bytes += statSync(target).size;
  }
  return { copied, bytes };
}

/** Whether a directory is missing or empty. */
export function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}
