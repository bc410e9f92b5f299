import { describe, expect, it } from 'vitest';
import type { Country } from '../../../src/protocol/entities';
import { communitiesAllowed } from '../../../src/ui/main/useCommunitiesAllowed';

const country = (cc: string, communities_enabled: boolean) => ({ cc, communities_enabled }) as Country;

describe('communities gating (spec §9)', () => {
  it('follows the countries list when it has the country', () => {
    const list = [country('62', false), country('46', true)];
    expect(communitiesAllowed('62', list)).toBe(false);
    expect(communitiesAllowed('46', list)).toBe(true);
  });

  it('falls back to the community countries when the list is not available: 62 yes, 46 no', () => {
    expect(communitiesAllowed('62', [])).toBe(true);
    expect(communitiesAllowed('46', [])).toBe(false);
    expect(communitiesAllowed('62', [country('46', false)])).toBe(true);
  });
});
