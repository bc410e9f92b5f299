import type { Page } from 'playwright';
import { sleep, until } from './app';

/**
 * Types `query` into the chats-list search box (emptied first), a key every 80 ms, and waits until the Messages
 * section has its answer: the longest main-thread task meanwhile (Long Tasks API; 0 when none was over 50 ms).
 */
export async function longestTaskWhileTyping(page: Page, query: string): Promise<number> {
  const box = page.getByRole('searchbox', { name: 'Search chats' });
  await box.waitFor();
  await box.click();
  await box.fill('');
  await sleep(500);
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __longObserver?: PerformanceObserver };
    w.__longTasks = [];
    w.__longObserver?.disconnect();
    w.__longObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    });
    w.__longObserver.observe({ type: 'longtask' });
  });
  await page.keyboard.type(query, { delay: 80 });
  // Past the UI's pause after the last key, until the Messages section has its answer.
  await sleep(300);
  const searching = page.getByTestId('message-results').getByText('Searching…');
  await until('the results to show', async () => ((await searching.count()) === 0 ? true : undefined), 30_000, 25);
  await sleep(500);
  return await page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));
}
