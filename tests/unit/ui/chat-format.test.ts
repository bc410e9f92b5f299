import { describe, expect, it } from 'vitest';
import { formatFileSize } from '../../../src/ui/chat/message/fileSize';
import { fitBox, stickerSide } from '../../../src/ui/chat/message/mediaSize';

describe('file sizes (spec §9: B to GB)', () => {
  it('steps by 1,024 with one decimal below 100', () => {
    expect(formatFileSize(0, 'en')).toBe('0 B');
    expect(formatFileSize(1023, 'en')).toBe('1,023 B');
    expect(formatFileSize(512, 'en')).toBe('512 B');
    expect(formatFileSize(1536, 'en')).toBe('1.5 KB');
    // One decimal up to 100 of a unit, and no trailing zero: the composer's chip and the message agree (issue 22).
    expect(formatFileSize(15.5 * 1024, 'en')).toBe('15.5 KB');
    expect(formatFileSize(99.94 * 1024, 'en')).toBe('99.9 KB');
    expect(formatFileSize(50 * 1024 * 1024, 'en')).toBe('50 MB');
    expect(formatFileSize(1_572_864, 'en')).toBe('1.5 MB');
    expect(formatFileSize(150 * 1024 * 1024, 'en')).toBe('150 MB');
    expect(formatFileSize(3 * 1024 ** 3, 'en')).toBe('3 GB');
    expect(formatFileSize(5 * 1024 ** 4, 'en')).toBe('5,120 GB');
  });

  it('writes numbers the Swedish way in Swedish', () => {
    expect(formatFileSize(1536, 'sv')).toBe('1,5 KB');
  });

  it('builds a number format once per language and precision, not once per row (issue 11)', () => {
    formatFileSize(2048, 'en');
    formatFileSize(100, 'en');
    const Original = Intl.NumberFormat;
    let built = 0;
    Intl.NumberFormat = new Proxy(Original, {
      construct(target, args: ConstructorParameters<typeof Intl.NumberFormat>) {
        built += 1;
        return new target(...args);
      },
    });
    try {
      for (let i = 0; i < 50; i++) expect(formatFileSize(2048 + i * 1024, 'en')).toMatch(/ KB$/);
      expect(formatFileSize(100, 'en')).toBe('100 B');
    } finally {
      Intl.NumberFormat = Original;
    }
    expect(built).toBe(0);
  });
});

describe('media sizes (spec §9)', () => {
  it('fits pictures into 300 px on the longer side, never enlarging', () => {
    expect(fitBox({ width: 900, height: 600 }, 300)).toEqual({ width: 300, height: 200 });
    expect(fitBox({ width: 600, height: 1200 }, 300)).toEqual({ width: 150, height: 300 });
    expect(fitBox({ width: 120, height: 80 }, 300)).toEqual({ width: 120, height: 80 });
    expect(fitBox(undefined, 300)).toBeNull();
    expect(fitBox({ width: 0, height: 10 }, 300)).toBeNull();
  });

  it('shows stickers at 120 px, or their own size up to 150 px', () => {
    expect(stickerSide(undefined)).toBe(120);
    expect(stickerSide({ width: 512, height: 512 })).toBe(150);
    expect(stickerSide({ width: 96, height: 100 })).toBe(100);
  });
});
