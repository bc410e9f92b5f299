import { type FormEvent, useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CountriesView, type FormDraft, isEngineError } from '../../engine/api';
import { errorText } from '../common/errorText';
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
  const firstField = useRef<HTMLInputElement>(null);

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
  const update = (id: string, patch: Partial<MemberRow>) =>
    setRows((list) => list.map((row) => (row.id === id ? { ...row, ...patch } : row)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const result = checkRows(rows, country);
    // A one-to-one chat needs both fields (spec §5), so an empty form is a missing name and phone.
    if (!isGroup && result.noMembers) {
      const only = rows[0];
      if (only) result.errors[only.id] = { name: 'inbox.form.nameRequired', phone: 'inbox.form.phoneRequired' };
      result.noMembers = false;
    }
    const nameError = isGroup ? groupNameError(groupName) : null;
    setChecked(result);
    setGroupError(nameError);
    if (nameError || result.noMembers || Object.keys(result.errors).length > 0) return;
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
  const errorId = (rowId: string, field: string) => `${formId}-${rowId}-${field}-error`;
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
        {isGroup ? (
          <div className="mx-field">
            <label htmlFor={`${formId}-group`}>{t('inbox.form.groupName')}</label>
            <input
              id={`${formId}-group`}
              ref={firstField}
              className="mx-input"
              value={groupName}
              maxLength={100}
              onChange={(e) => setGroupName(e.target.value)}
              aria-invalid={groupError ? true : undefined}
              aria-describedby={groupError ? `${formId}-group-error` : undefined}
            />
            {groupError ? (
              <p className="mx-field__error" id={`${formId}-group-error`}>
                {t(groupError)}
              </p>
            ) : null}
          </div>
        ) : null}
        {isGroup ? <h2 className="new-chat-form__members">{t('inbox.form.members')}</h2> : null}
        {rows.map((row, index) => {
          const errors = checked?.errors[row.id];
          const n = index + 1;
          return (
            <fieldset key={row.id} className={isGroup ? "member-row" : "member-row member-row--single"}>
              <legend className="visually-hidden">{t('inbox.form.member', { n })}</legend>
              <div className="mx-field">
                <label htmlFor={`${formId}-${row.id}-name`}>
                  {isGroup ? t('inbox.form.memberName', { n }) : t('inbox.form.name')}
                </label>
                <input
                  id={`${formId}-${row.id}-name`}
                  className="mx-input"
                  value={row.name}
                  autoComplete="off"
                  onChange={(e) => update(row.id, { name: e.target.value })}
                  aria-invalid={errors?.name ? true : undefined}
                  aria-describedby={errors?.name ? errorId(row.id, 'name') : undefined}
                />
                {errors?.name ? (
                  <p className="mx-field__error" id={errorId(row.id, 'name')}>
                    {t(errors.name)}
                  </p>
                ) : null}
              </div>
              <div className="mx-field">
                <label htmlFor={`${formId}-${row.id}-phone`}>
                  {isGroup ? t('inbox.form.memberPhone', { n }) : t('inbox.form.phone')}
                </label>
                <input
                  id={`${formId}-${row.id}-phone`}
                  className="mx-input"
                  type="tel"
                  inputMode="tel"
                  autoComplete="off"
                  value={row.phone}
                  onChange={(e) => update(row.id, { phone: e.target.value })}
                  aria-invalid={errors?.phone ? true : undefined}
                  aria-describedby={errors?.phone ? errorId(row.id, 'phone') : undefined}
                />
                {errors?.phone ? (
                  <p className="mx-field__error" id={errorId(row.id, 'phone')}>
                    {t(errors.phone)}
                  </p>
                ) : null}
              </div>
              {isGroup && rows.length > 1 ? (
                <button
                  type="button"
                  className="mx-button mx-button--link"
                  onClick={() => setRows((list) => list.filter((r) => r.id !== row.id))}
                >
                  {t('inbox.form.removeMember', { n })}
                </button>
              ) : null}
            </fieldset>
          );
        })}
        {isGroup ? (
          <button type="button" className="mx-button" onClick={() => setRows((list) => [...list, ...emptyRows(ROWS_STEP)])}>
            {t('inbox.form.addMembers')}
          </button>
        ) : null}
        {checked?.noMembers ? (
          <p className="mx-field__error" role="alert">
            {t('inbox.form.membersRequired')}
          </p>
        ) : null}
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
      </form>
      {confirming ? <DiscardDialog
          onDiscard={() => {
            draft.clear();
            onCancel();
          }}
          onKeep={() => setConfirming(false)} /> : null}
    </section>
  );
}
