import { useState } from 'react';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { useQuery } from '../../src/ui/hooks/useQuery';
import { act } from './support/act';
import { fakeTabEngine } from './support/fakeEngine';
import { mount, unmountAll } from './support/mount';

/**
 * useQuery as its call sites rely on it (issue 22: now over observable-hooks' useSubscription): `initial` until
 * the first value, a new query from `initial` again, never an old query's value under a new argument, and a
 * failed query leaving the screen as it was.
 */

const queries = new Map<number, Subject<string>>();
const query = (id: number) => {
  let subject = queries.get(id);
  if (!subject) queries.set(id, (subject = new Subject<string>()));
  return subject;
};
const made: number[] = [];

function Shown({ id }: { id: number }) {
  const value = useQuery(
    () => {
      made.push(id);
      return query(id);
    },
    [id],
    'nothing yet',
  );
  return <output data-testid="value">{`${id}: ${value}`}</output>;
}

const { asTab } = fakeTabEngine({});
const shown = () => page.getByTestId('value');

async function show(id: number) {
  await mount(<Shown id={id} />, { engine: asTab, style: '' });
}

afterEach(async () => {
  await unmountAll();
  queries.clear();
  made.length = 0;
  vi.restoreAllMocks();
});

describe('useQuery', () => {
  it('shows the initial value until the query answers, then each value', async () => {
    await show(1);
    await expect.element(shown()).toHaveTextContent('1: nothing yet');
    await act(() => query(1).next('first'));
    await expect.element(shown()).toHaveTextContent('1: first');
    await act(() => query(1).next('second'));
    await expect.element(shown()).toHaveTextContent('1: second');
  });

  it('makes the query once per argument, however often the component renders', async () => {
    await show(1);
    await act(() => query(1).next('a'));
    await act(() => query(1).next('b'));
    await expect.element(shown()).toHaveTextContent('1: b');
    expect(new Set(made)).toEqual(new Set([1]));
    expect(query(1).observed).toBe(true);
  });

  it('starts a new argument from the initial value, drops the old query and ignores what it still sends', async () => {
    let setId: (id: number) => void = () => undefined;
    function Switching() {
      const [id, set] = useState(1);
      setId = set;
      return <Shown id={id} />;
    }
    await mount(<Switching />, { engine: asTab, style: '' });
    await act(() => query(1).next('one'));
    await expect.element(shown()).toHaveTextContent('1: one');
    await act(() => setId(2));
    // Never chat 1's value under chat 2 while chat 2's first value is on its way.
    await expect.element(shown()).toHaveTextContent('2: nothing yet');
    expect(query(1).observed).toBe(false);
    expect(query(2).observed).toBe(true);
    await act(() => query(1).next('late'));
    await act(() => query(2).next('two'));
    await expect.element(shown()).toHaveTextContent('2: two');
  });

  it('keeps the last value and warns when a query fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await show(1);
    await act(() => query(1).next('kept'));
    await act(() => query(1).error(new Error('port closed')));
    await expect.element(shown()).toHaveTextContent('1: kept');
    expect(warn).toHaveBeenCalledWith('engine query failed', expect.objectContaining({ message: 'port closed' }));
  });

  it('unsubscribes when the component goes', async () => {
    await show(1);
    expect(query(1).observed).toBe(true);
    await unmountAll();
    expect(query(1).observed).toBe(false);
  });
});

