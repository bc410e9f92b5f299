import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon } from './icons';
import { attachmentKind } from '../../../engine/api';
import { formatFileSize } from '../message/fileSize';
import { useObjectUrl } from './useObjectUrl';

/**
 * The chosen file before it is sent: a thumbnail of a picture (else the file's icon), its name and size,
 * and a button that takes it off.
 */
export function AttachmentChip({ file, onRemove }: { file: File; onRemove: () => void }) {
  const { t, i18n } = useTranslation();
  const kind = attachmentKind(file);
  const thumbnail = useObjectUrl(kind === 'image' ? file : null);
  // A file that is no picture the browser can draw (a HEIC, say) keeps the icon.
  const [broken, setBroken] = useState<string | null>(null);
  return (
    <div className="composer-chip" data-testid="composer-attachment">
      {thumbnail && thumbnail !== broken ? (
        // The name beside it says what it is: the picture itself is decoration for a screen reader.
        <img className="composer-chip-thumb" src={thumbnail} alt="" onError={() => setBroken(thumbnail)} />
      ) : (
        <FileIcon video={kind === 'video'} />
      )}
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
