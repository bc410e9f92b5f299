/**
 * Whether a request target names `/metrics` in any spelling a proxy or a server might read as it:
 * percent-encoded (`/%6detrics`, twice over too), in another case, with a trailing slash, dot segments,
 * doubled slashes, backslashes, a `;` parameter or a query. The app's port has no metrics route at all
 * (docs/server.md, "Metrics"); this only keeps its SPA fallback from answering such a path with the app's page,
 * so every spelling gets the same 404.
 */
export function namesMetrics(target: string): boolean {
  let path = target.split(/[?#]/, 1)[0] ?? '';
  for (let i = 0; i < 3 && path.includes('%'); i++) {
    try {
      path = decodeURIComponent(path);
    } catch {
      break;
    }
  }
  const segments: string[] = [];
  // What was encoded may end the path once decoded (`%3F`, `%23`): cut there too.
  path = path.split(/[?#]/, 1)[0] ?? '';
  for (const raw of path.toLowerCase().replace(/\\/g, '/').split('/')) {
    const segment = raw.split(';', 1)[0]?.trim() ?? '';
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.length === 1 && segments[0] === 'metrics';
}
