import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (injected from node_modules, nothing from the web) and returns the serious
 * and critical violations, in a shape that reads well in a failed `toEqual([])`.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  // Evaluated, not added as a <script>: the app's Content-Security-Policy refuses inline scripts.
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    interface Result {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: unknown[] }[];
    }
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Result[] }> } })
      .axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
