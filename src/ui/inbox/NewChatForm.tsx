import { type FormEvent, useCallback, useId, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { type CountriesView, type FormDraft, isEngineError } from '../../engine/api';
import { errorText } from '../common/errorText';
import { RemoveIcon } from '../common/icons';
import { useEngine } from '../hooks/EngineContext';
import { formDraftKeys, useFormDraft } from '../hooks/useFormDraft';
import { useQuery } from '../hooks/useQuery';
import { useSession } from '../hooks/useSession';
import { DiscardDialog } from './DiscardDialog';
import { type CheckedRows, checkRows, emptyRows, groupNameError, type MemberRow, newRowId } from './memberRows';
import type { NewChatKind } from './NewChatPicker';

const NO_COUNTRIES: CountriesView = { countries: [], status: 'idle', error: null };
/** Spec §9: three member rows at first, three more at a time. */
const ROWS_STEP = 3;

/** The form as a draft: a group's name and rows, or the one-to-one contact's name and phone. */
function toDraft(isGroup: boolean, groupName: string, rows: readonly MemberRow[]): FormDraft {
  if (isGroup) return { name: groupName, members: rows.map(({ id, name, phone }) => ({ id, name, phone })) };
  return { name: rows[0]?.name ?? '', phone: rows[0]?.phone ?? '', members: [] };
}

/**
 * Spec §2 chat creation: the one-to-one form (one name, one phone) and the group / broadcast form
 * (name, member rows, more rows, cancel with confirmation when something was typed). Created chats open.
 * What is typed is kept as the form's draft (spec §2) until the chat is created or the user discards it.
 */
export function NewChatForm({
  kind,
  onCancel,
  onCreated,
}: {
  kind: NewChatKind;
  onCancel: () => void;
  onCreated: (conversationId: number) => void;
}) {
  const { t } = useTranslation();
  const engine = useEngine();
  const session = useSession();
  const countries = useQuery((e) => e.countries(), [], NO_COUNTRIES);
  const country = countries.countries.find((c) => session?.status === 'ready' && c.cc === session.countryCode);
  const isGroup = kind !== 'private';
  const [groupName, setGroupName] = useState('');
  const [rows, setRows] = useState<MemberRow[]>(() => emptyRows(isGroup ? ROWS_STEP : 1));
  const [checked, setChecked] = useState<CheckedRows | null>(null);
  const [groupError, setGroupError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formId = useId();

  const applyDraft = useCallback(
    (draft: FormDraft | null) => {
      if (isGroup) {
        setGroupName(draft?.name ?? '');
        setRows(draft && draft.members.length > 0 ? draft.members.map((m) => ({ ...m })) : emptyRows(ROWS_STEP));
      } else {
        setRows((list) => [{ id: list[0]?.id ?? newRowId(), name: draft?.name ?? '', phone: draft?.phone ?? '' }]);
      }
    },
    [isGroup],
  );
  const draft = useFormDraft(formDraftKeys.newChat(kind), toDraft(isGroup, groupName, rows), applyDraft);

  const dirty = groupName.trim() !== '' || rows.some((r) => r.name.trim() || r.phone.trim());
  const [confirming, setConfirming] = useState(false);
  const cancel = () => {
    if (isGroup && dirty) setConfirming(true);
    else onCancel();
  };
  /** The first row: the one-to-one form's only one. */
  const only = rows[0];
  const fieldId = (rowId: string, field?: 'name' | 'phone') => `${formId}-${rowId}${field ? `-${field}` : ''}`;
  /** The first field in error, in the order of the form; the first name when no row was filled in. */
  const firstInvalidField = (nameError: string | null, result: CheckedRows): string | null => {
    if (nameError) return fieldId('group');
    for (const row of rows) {
      const errors = result.errors[row.id];
      if (errors?.name) return fieldId(row.id, 'name');
      if (errors?.phone) return fieldId(row.id, 'phone');
    }
    return result.noMembers && only ? fieldId(only.id, 'name') : null;
  };
  /** Focus, and the whole field (label, input, error) scrolled into the form's view. */
  const focusField = (id: string) => {
    const input = document.getElementById(id);
    if (!input) return;
    input.focus({ preventScroll: true });
    input.closest('.mx-field')?.scrollIntoView({ block: 'nearest' });
  };
  const update = (id: string, patch: Partial<MemberRow>) =>
    setRows((list) => list.map((row) => (row.id === id ? { ...row, ...patch } : row)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const result = checkRows(rows, country);
    // A one-to-one chat needs both fields (spec §5), so an empty form is a missing name and phone.
    if (!isGroup && result.noMembers) {
      if (only) result.errors[only.id] = { name: 'inbox.form.nameRequired', phone: 'inbox.form.phoneRequired' };
      result.noMembers = false;
    }
    const nameError = isGroup ? groupNameError(groupName) : null;
    // The errors are drawn before focus moves, so the field is read with its error.
    flushSync(() => {
      setChecked(result);
      setGroupError(nameError);
    });
    const invalid = firstInvalidField(nameError, result);
    if (invalid) {
      focusField(invalid);
      return;
    }
    setBusy(true);
    try {
      const answer = await engine.call('createConversation', {
        ...(isGroup ? { name: groupName.trim(), forceGroup: true } : {}),
        ...(kind === 'broadcast'
          ? {
              broadcast: true,
              settings: { replyTo: true, showNumbersToAll: true, userNotificationsToAll: true, allInvite: true },
            }
          : {}),
        members: result.members,
      });
      draft.clear();
      await engine.refreshConversations().catch(() => undefined);
      onCreated(answer.conversation.id);
    } catch (error) {
      // Spec §8: an alert with the server's error or 'Failed to create conversation', in the user's language;
      // what was typed stays, to correct or to try again.
      setFailure(isEngineError(error) ? errorText(error, t) : t('inbox.form.createFailed'));
    } finally {
      setBusy(false);
    }
  };

  const title = t(kind === 'private' ? 'inbox.kind.private' : kind === 'group' ? 'inbox.kind.group' : 'inbox.kind.broadcast');
  const membersErrorId = `${formId}-members-error`;
  /** A row's name and phone fields; in a group's compact rows their labels are for screen readers. */
  const rowFields = (
    row: MemberRow,
    labels: { name: string; phone: string; compact?: boolean; describedBy?: string },
  ) => {
    const errors = checked?.errors[row.id];
    return (
      <>
        <Field
          id={fieldId(row.id, 'name')}
          label={labels.name}
          hiddenLabel={labels.compact}
          placeholder={labels.compact ? t('inbox.form.columnName') : undefined}
          value={row.name}
          onChange={(name) => update(row.id, { name })}
          error={errors?.name ? t(errors.name) : null}
          describedBy={labels.describedBy}
        />
        <Field
          id={fieldId(row.id, 'phone')}
          label={labels.phone}
          hiddenLabel={labels.compact}
          placeholder={labels.compact ? t('inbox.form.columnPhone') : undefined}
          tel
          value={row.phone}
          onChange={(phone) => update(row.id, { phone })}
          error={errors?.phone ? t(errors.phone) : null}
        />
      </>
    );
  };
  return (
    <section className="chats-panel" aria-labelledby={`${formId}-title`}>
      <header className="mx-panel-header">
        <button type="button" className="mx-icon-button" onClick={cancel} aria-label={t('common.back')}>
          <span aria-hidden="true">←</span>
        </button>
        <h1 className="mx-panel-header__title" id={`${formId}-title`}>
          {title}
        </h1>
      </header>
      <form className="new-chat-form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="new-chat-form__body">
          {isGroup ? (
            <>
              <Field
                id={fieldId('group')}
                label={t('inbox.form.groupName')}
                value={groupName}
                maxLength={100}
                onChange={setGroupName}
                error={groupError ? t(groupError) : null}
              />
              <h2 className="new-chat-form__members" id={`${formId}-members`}>
                {t('inbox.form.members')}
              </h2>
              {checked?.noMembers ? (
                <p className="mx-field__error new-chat-form__members-error" id={membersErrorId}>
                  {t('inbox.form.membersRequired')}
                </p>
              ) : null}
              {/* Column heads for sighted users; each field has its own label ("Name of member 2"). */}
              <div className="member-rows__head" aria-hidden="true">
                <span>{t('inbox.form.columnName')}</span>
                <span>{t('inbox.form.columnPhone')}</span>
              </div>
              <ul className="member-rows" aria-labelledby={`${formId}-members`}>
                {rows.map((row, index) => {
                  const n = index + 1;
                  return (
                    <li key={row.id} className="member-row">
                      {rowFields(row, {
                        name: t('inbox.form.memberName', { n }),
                        phone: t('inbox.form.memberPhone', { n }),
                        compact: true,
                        describedBy: index === 0 && checked?.noMembers ? membersErrorId : undefined,
                      })}
                      {rows.length > 1 ? (
                        <button
                          type="button"
                          className="mx-icon-button member-row__remove"
                          aria-label={t('inbox.form.removeMember', { n })}
                          title={t('inbox.form.removeMember', { n })}
                          onClick={() => setRows((list) => list.filter((r) => r.id !== row.id))}
                        >
                          <RemoveIcon />
                        </button>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
              <button type="button" className="mx-button" onClick={() => setRows((list) => [...list, ...emptyRows(ROWS_STEP)])}>
                {t('inbox.form.addMembers')}
              </button>
            </>
          ) : (
            <>
              <p className="new-chat-form__lead">{t('inbox.form.privateLead')}</p>
              {only ? rowFields(only, { name: t('inbox.form.name'), phone: t('inbox.form.phone') }) : null}
            </>
          )}
        </div>
        {/* Create and Cancel stay in view however long the form grows. */}
        <div className="new-chat-form__footer">
          {failure ? (
            <p className="mx-field__error" role="alert">
              {failure}
            </p>
          ) : null}
          <div className="new-chat-form__actions">
            <button type="button" className="mx-button" onClick={cancel}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="mx-button mx-button--primary" disabled={busy}>
              {t('inbox.form.create')}
            </button>
          </div>
        </div>
      </form>
      {confirming ? (
        <DiscardDialog
          onDiscard={() => {
            draft.clear();
            onCancel();
          }}
          onKeep={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}

/** A labelled input with its error, which it is described by; a member row's label is for screen readers. */
function Field({
  id,
  label,
  hiddenLabel,
  placeholder,
  tel,
  value,
  maxLength,
  onChange,
  error,
  describedBy,
}: {
  id: string;
  label: string;
  hiddenLabel?: boolean;
  placeholder?: string;
  tel?: boolean;
  value: string;
  maxLength?: number;
  onChange: (value: string) => void;
  error: string | null;
  /** Another error that concerns this field (the members error, on the first row). */
  describedBy?: string;
}) {
  const errorId = `${id}-error`;
  const described = [error ? errorId : null, describedBy].filter(Boolean).join(' ');
  return (
    <div className="mx-field">
      <label htmlFor={id} className={hiddenLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <input
        id={id}
        className="mx-input"
        value={value}
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="off"
        {...(tel ? { type: 'tel', inputMode: 'tel' as const } : {})}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
      />
      {error ? (
        <p className="mx-field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
