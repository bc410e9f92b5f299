import { type FormEvent, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CountriesView, FormDraft } from '../../engine/api';
import type { Conversation } from '../../protocol/entities';
import { useEngine } from '../hooks/EngineContext';
import { formDraftKeys, useFormDraft } from '../hooks/useFormDraft';
import { useQuery } from '../hooks/useQuery';
import { useSession } from '../hooks/useSession';
import { checkRows, type RowErrors } from '../inbox/memberRows';
import { errorText } from '../common/errorText';
import './chatSettings.css';

const NO_COUNTRIES: CountriesView = { countries: [], status: 'idle', error: null };

/**
 * Add member (spec §2, §6: any member): a name and a phone number, checked with the user's own country
 * patterns like the rows of a new group (spec §5), then POST /v2/conversations/{id}/users. The newcomer
 * shows in the members list through the conversation_add_user event. What is typed is kept as the
 * conversation's add-members draft (spec §2) until the member is added.
 */
export function AddMember(props: { conversation: Conversation; onAdded: () => void }) {
  // One form per conversation, so one chat's draft never shows under another's.
  return <AddMemberForm key={props.conversation.id} {...props} />;
}

/** The one row of the add-member form, as its draft's only member. */
const ROW_ID = '1';

function AddMemberForm({ conversation, onAdded }: { conversation: Conversation; onAdded: () => void }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const session = useSession();
  const countries = useQuery((e) => e.countries(), [], NO_COUNTRIES);
  const country = countries.countries.find((c) => session?.status === 'ready' && c.cc === session.countryCode);
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<RowErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const applyDraft = useCallback((draft: FormDraft | null) => {
    const row = draft?.members[0];
    setName(row?.name ?? '');
    setPhone(row?.phone ?? '');
  }, []);
  const draft = useFormDraft(
    formDraftKeys.addMembers(conversation.id),
    { name: '', members: [{ id: ROW_ID, name, phone }] },
    applyDraft,
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const result = checkRows([{ id: ROW_ID, name, phone }], country);
    // An empty form is a missing name and number, as in the one-to-one form (spec §5).
    const rowErrors: RowErrors = result.noMembers
      ? { name: 'inbox.form.nameRequired', phone: 'inbox.form.phoneRequired' }
      : (result.errors[ROW_ID] ?? {});
    setErrors(rowErrors);
    const member = result.members[0];
    if (rowErrors.name || rowErrors.phone || !member) return;
    setBusy(true);
    try {
      await engine.call('addMembers', conversation.id, [member]);
      draft.clear();
      onAdded();
    } catch (error) {
      setFailure(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  const field = (key: 'name' | 'phone', value: string, set: (v: string) => void, type: string, label: string) => {
    const error = errors[key];
    return (
      <div className="mx-field">
        <label htmlFor={`${id}-${key}`}>{label}</label>
        <input
          id={`${id}-${key}`}
          className="mx-input"
          type={type}
          value={value}
          autoComplete="off"
          {...(key === 'phone' ? { inputMode: 'tel' as const } : { autoFocus: true })}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-${key}-error` : undefined}
          onChange={(event) => set(event.target.value)}
        />
        {error ? (
          <p id={`${id}-${key}-error`} className="mx-field__error">
            {t(error)}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <form className="cs-add" onSubmit={(event) => void submit(event)} noValidate>
      <p className="cs-muted">{t('chatSettings.add.hint', { name: conversation.name || t('chatSettings.unnamed') })}</p>
      {field('name', name, setName, 'text', t('chatSettings.add.name'))}
      {field('phone', phone, setPhone, 'tel', t('chatSettings.add.phone'))}
      {failure ? (
        <p className="cs-error" role="alert">
          {failure}
        </p>
      ) : null}
      <button type="submit" className="mx-button mx-button--primary" disabled={busy}>
        {t('chatSettings.add.submit')}
      </button>
    </form>
  );
}
