import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../../src');

/** Every TypeScript file of src/, with its path from src/ (forward slashes) and its text. */
function sources(): { file: string; text: string }[] {
  return readdirSync(SRC, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file: path.relative(SRC, file).split(path.sep).join('/'), text: readFileSync(file, 'utf8') };
    });
}

/** What the code says, without its comments (a comment may name what the code must not do). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('the libraries the design names, not copies of them (issue 22)', () => {
  it('reads no private field of a library (react-i18next keeps the instance in `__original`)', () => {
    const readers = sources().filter(({ text }) => /__original\b/.test(code(text)));
    expect(readers.map(({ file }) => file)).toEqual([]);
  });

  it('binds engine queries to React with observable-hooks, not a subscription of its own', () => {
    const hook = code(readFileSync(path.join(SRC, 'ui/hooks/useQuery.ts'), 'utf8'));
    expect(hook).toMatch(/from 'observable-hooks'/);
    expect(hook).not.toMatch(/\.subscribe\(/);
    expect(hook).not.toMatch(/\buseEffect\b/);
  });

  it('puts texts into i18next through its backend and namespaces, not by hand', () => {
    const adders = sources().filter(({ file, text }) => file.startsWith('ui/') && /\baddResourceBundle\(|\baddResources?\(/.test(code(text)));
    expect(adders.map(({ file }) => file)).toEqual([]);
  });

  it('formats a file size in one place', () => {
    const definitions = sources().filter(({ text }) => /\bfunction formatFileSize\b|\bformatFileSize\s*=/.test(code(text)));
    expect(definitions.map(({ file }) => file)).toEqual(['ui/chat/message/fileSize.ts']);
  });
});
