import { useTranslation } from 'react-i18next';
import { FileIcon } from './icons';
import { attachmentKind } from '../../../engine/api';
import { formatFileSize } from '../message/fileSize';

/** The chosen file before it is sent: its name and size, and a button that takes it off. */
export function AttachmentChip({ file, onRemove }: { file: File; onRemove: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="composer-chip" data-testid="composer-attachment">
      <FileIcon video={attachmentKind(file) === 'video'} />
      <span className="composer-chip-name">{file.name}</span>
      <span className="composer-chip-size">{formatFileSize(file.size, i18n.language)}</span>
      <button
        type="button"
        className="composer-icon-button"
        aria-label={t('chatActions.composer.removeFile', { name: file.name })}
        onClick={onRemove}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </div>
  );
}
