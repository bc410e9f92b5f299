import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { engineError } from '../../../src/engine/errors';
import { STORE_CLEARED } from '../../../src/engine/storage/reopeningStorage';
import { errorText } from '../../../src/ui/common/errorText';
import { createI18n } from '../../../src/ui/i18n';

describe("a call caught on a database the browser deleted (docs/ui.md, 'Site data cleared')", () => {
  let en: TFunction;
  let sv: TFunction;
  beforeAll(async () => {
    en = (await createI18n('en')).t;
    sv = (await createI18n('sv')).t;
  });

  it("shows the engine's words in the reader's language, never IndexedDB's", () => {
    const failure = engineError('storage', 0, null, STORE_CLEARED);
    expect(errorText(failure, en)).toBe("This browser's data was cleared");
    expect(errorText(failure, sv)).toBe('Webbläsarens data har rensats');
  });
});
