/**
 * Whether an address to listen on is reachable from this machine only: `localhost`, `::1` or any 127.x.x.x.
 * The metrics listener may be open there; anywhere else it wants METRICS_TOKEN (docs/server.md, "Metrics").
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}
