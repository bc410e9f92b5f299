import type { ApiSuccess } from '../../src/protocol/envelope';

/** The success envelope of spec §7. */
export function ok<T>(data: T): ApiSuccess<T> {
  return { success: true, data };
}
