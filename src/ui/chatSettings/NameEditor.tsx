import { useTranslation } from 'react-i18next';
import type { Conversation } from '../../protocol/entities';
import { InlineTextEditor } from '../common/InlineTextEditor';
import { useEngine } from '../hooks/EngineContext';
import { checkRename, RENAME_MAX } from './rules';

/**
 * The group name, with an inline editor for admins (spec §2, §5): trimmed, 1 to 50 characters; an
 * unchanged name just closes the editor; Escape cancels; a refusal shows inline. The new name comes back
 * through the conversation_edit event, so every tab and member sees it at once.
 */
export function NameEditor({ conversation, canEdit }: { conversation: Conversation; canEdit: boolean }) {
  const { t } = useTranslation();
  const engine = useEngine();
  const name = conversation.name || t('chatSettings.unnamed');
  return (
    <InlineTextEditor
      value={conversation.name}
      display={<h3 className="cs-name__text">{name}</h3>}
      canEdit={canEdit}
      editLabel={t('chatSettings.name.edit')}
      fieldLabel={t('chatSettings.name.label')}
      saveLabel={t('chatSettings.name.save')}
      check={(raw) => {
        const checked = checkRename(raw, conversation.name);
        if (checked.kind === 'empty') return { kind: 'invalid', message: t('chatSettings.name.empty') };
        if (checked.kind === 'tooLong') return { kind: 'invalid', message: t('chatSettings.name.tooLong', { max: RENAME_MAX }) };
        if (checked.kind === 'unchanged') return checked;
        return { kind: 'ok', value: checked.name };
      }}
      save={async (value) => {
        await engine.call('updateConversation', conversation.id, { name: value });
      }}
    />
  );
}
