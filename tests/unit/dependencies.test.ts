import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What package.json declares against what the code imports (issue 23): a production install
 * (`npm ci --omit=dev`, then `SKIP_CLIENT_BUILD=1 npm start` on a built dist/) has the dependencies only, so
 * everything the server imports at run time must be one; and a dependency nothing imports can drift into a
 * second copy beside the one a library pins.
 */
const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const builtins = new Set(builtinModules);

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for a relative one or a builtin. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
  return builtins.has(name) ? null : name;
}

/** A file's imports that stay at run time: `import type` and `export type` are erased. */
function runtimeImports(source: string): string[] {
  const found: string[] = [];
  const statement = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?\bfrom\s+['"]([^'"]+)['"]/g;
  for (const m of source.matchAll(statement)) if (!m[2]) found.push(m[3] as string);
  for (const m of source.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) found.push(m[1] as string);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1] as string);
  return found;
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  }
  return null;
}

/** The packages `entry` and every local file it reaches import at run time. */
function packagesReachedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImports(readFileSync(file, 'utf8'))) {
      const name = packageOf(specifier);
      if (name) packages.add(name);
      else if (specifier.startsWith('.')) {
        const local = resolveLocal(file, specifier);
        if (local) visit(local);
      }
    }
  };
  visit(entry);
  return packages;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(dir, f));
}

describe('package.json', () => {
  it('declares as dependencies every package the server imports at run time', () => {
    // npm start runs scripts/prestart.ts (esbuild's bundle of the server) before the server, on a production install too.
    for (const entry of ['server/start.ts', 'server/seed/cli.ts', 'scripts/prestart.ts']) {
      const missing = [...packagesReachedFrom(path.join(root, entry))].filter((name) => !(name in pkg.dependencies));
      expect(missing, entry).toEqual([]);
    }
  });

  it('declares no dependency that nothing imports (tsx runs npm start)', () => {
    const imported = new Set<string>();
    for (const file of [...filesUnder(path.join(root, 'src')), ...filesUnder(path.join(root, 'server'))]) {
      for (const specifier of runtimeImports(readFileSync(file, 'utf8'))) {
        const name = packageOf(specifier);
        if (name) imported.add(name);
      }
    }
    for (const name of packagesReachedFrom(path.join(root, 'scripts/prestart.ts'))) imported.add(name);
    // tsx runs `npm start`, and the `node` package is the Node.js every npm script runs on (README, "Quick start").
    const unused = Object.keys(pkg.dependencies).filter((name) => !['tsx', 'node'].includes(name) && !imported.has(name));
    expect(unused).toEqual([]);
  });

  it('keeps the build tools out of the dependencies, and the Sentry packages on one range', () => {
    expect(pkg.dependencies).not.toHaveProperty('vite');
    expect(pkg.devDependencies).toHaveProperty('vite');
    expect(pkg.dependencies['@sentry/react']).toBe(pkg.dependencies['@sentry/browser']);
  });
});
