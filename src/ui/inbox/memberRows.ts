import type { Country } from '../../protocol/entities';
import { memberPhone, nameProblem } from './phone';

/** A member row (spec §3 "Member draft entry"): kept as it is in the form's draft. */
export interface MemberRow {
  id: string;
  name: string;
  phone: string;
}

let rowCounter = 0;
/** A row id unlikely to meet one made in another tab, since a draft brings its rows' ids along. */
export const newRowId = (): string =>
  `${Date.now().toString(36)}-${(rowCounter++).toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

export const emptyRows = (n: number): MemberRow[] => Array.from({ length: n }, () => ({ id: newRowId(), name: '', phone: '' }));

export interface RowErrors {
  name?: string;
  phone?: string;
}

export interface CheckedRows {
  /** Error keys per row id (inbox.*). */
  errors: Record<string, RowErrors>;
  /** The complete, valid rows, ready for createConversation. */
  members: { name: string; value: string }[];
  /** True when no row is complete (spec §5 "members error"). */
  noMembers: boolean;
}

const NAME_KEYS = { empty: 'inbox.form.nameRequired', short: 'inbox.form.nameTooShort', long: 'inbox.form.nameTooLong' } as const;

/** Spec §5 member rows: fully empty rows are ignored; half rows, short or long names and bad numbers are errors. */
export function checkRows(rows: readonly (Omit<MemberRow, 'id'> & { id: string | number })[], country: Country | undefined): CheckedRows {
  const errors: Record<string, RowErrors> = {};
  const members: { name: string; value: string }[] = [];
  for (const row of rows) {
    const name = row.name.trim();
    const phone = row.phone.trim();
    if (!name && !phone) continue;
    const rowErrors: RowErrors = {};
    const problem = nameProblem(name);
    if (problem) rowErrors.name = NAME_KEYS[problem];
    const value = phone ? memberPhone(phone, country) : null;
    if (!phone) rowErrors.phone = 'inbox.form.phoneRequired';
    else if (!value) rowErrors.phone = 'inbox.form.phoneInvalid';
    if (rowErrors.name || rowErrors.phone) errors[row.id] = rowErrors;
    else if (value) members.push({ name, value });
  }
  return { errors, members, noMembers: members.length === 0 && Object.keys(errors).length === 0 };
}

/** Group or broadcast name (design.md §4: 2 to 50 characters). */
export function groupNameError(raw: string): string | null {
  const problem = nameProblem(raw);
  if (problem === 'empty') return 'inbox.form.groupNameRequired';
  if (problem === 'short') return 'inbox.form.nameTooShort';
  if (problem === 'long') return 'inbox.form.nameTooLong';
  return null;
}
